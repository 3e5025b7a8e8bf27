"""What any viewer does on a night's pages (headless Chromium, 360 px): switch language, turn the picture.

The view page keeps its token from other sites (Referrer-Policy) without making the browser send
`Origin: null` on the language form, which the CSRF check refuses."""
import pytest

from tests.browser_helpers import PHONE, asgi_server, chromium, sign_in, table  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def test_a_view_link_visitor_switches_to_english_and_back(asgi_server, table):  # noqa: F811
    with chromium() as browser:
        page = browser.new_context(**PHONE).new_page()
        page.goto(f"{asgi_server}/v/{table['view']}/")
        assert page.locator("html").get_attribute("lang") == "zh-hans"
        page.click("button[name=language][value=en]")
        page.wait_for_selector("html[lang=en]")
        assert page.url.endswith(f"/v/{table['view']}/")
        assert "CSRF" not in page.content()
        page.click("button[name=language][value=zh-hans]")
        page.wait_for_selector("html[lang=zh-hans]")


def _bottom_seat(page):
    boxes = {s: page.locator(f".seat-{s}").bounding_box() for s in range(4)}
    return max(boxes, key=lambda s: boxes[s]["y"])


def test_a_view_link_visitor_and_a_member_turn_the_picture_too(asgi_server, table):  # noqa: F811
    """Turning the picture is the viewer's own choice, not a recorder's right."""
    from django.contrib.auth import get_user_model
    from ledger.services import groups as group_services

    with chromium() as browser:
        page = browser.new_context(**PHONE).new_page()
        page.goto(f"{asgi_server}/v/{table['view']}/")
        assert _bottom_seat(page) == 0
        page.tap("#turn")
        assert _bottom_seat(page) == 1
        page.reload()
        assert _bottom_seat(page) == 1

        night = table["night"]
        member = get_user_model().objects.create_user("member", password="pw-member-2026")
        group_services.group_join(token=group_services.group_link_renew(group=night.group, by=night.owner).token, user=member)
        phone = browser.new_context(**PHONE).new_page()
        sign_in(phone, asgi_server, "member", "pw-member-2026")
        phone.goto(f"{asgi_server}/nights/{night.pk}/")
        assert phone.locator("#add-win").count() == 0  # may only look
        phone.tap("#turn")
        phone.tap("#turn")
        assert _bottom_seat(phone) == 2


def test_the_view_page_says_when_it_is_not_following_live(live_server, table):  # noqa: F811
    """Served without sockets (pytest-django's live server, like `runserver`) the view page says it is not live
    and retrying, rather than "实时更新"; served by the ASGI server it says it is live."""
    with chromium() as browser:
        page = browser.new_context(**PHONE).new_page()
        page.goto(f"{live_server.url}/v/{table['view']}/")
        page.wait_for_selector("html[data-live=off]", state="attached")
        assert page.locator(".live-note .live-off").is_visible() and not page.locator(".live-note .live-on").is_visible()
        assert "正在重试" in page.locator(".live-note").inner_text()


def test_the_view_page_says_it_is_live_while_its_socket_is_open(asgi_server, table):  # noqa: F811
    with chromium() as browser:
        page = browser.new_context(**PHONE).new_page()
        page.goto(f"{asgi_server}/v/{table['view']}/")
        page.wait_for_selector("html[data-live=on]", state="attached")
        assert page.locator(".live-note").inner_text().strip() == "只读 · 实时更新"


def test_the_table_page_says_when_its_live_updates_are_lost(live_server, asgi_server, table):  # noqa: F811
    """The table page said nothing while its socket was down (another phone's hands then show only later)."""
    with chromium() as browser:
        page = browser.new_context(**PHONE).new_page()
        sign_in(page, live_server.url, "owner", "pw-owner")
        page.goto(f"{live_server.url}/nights/{table['night'].pk}/")  # no sockets here: never live
        page.wait_for_selector("html[data-live=off]", state="attached")
        assert page.locator(".live-lost .live-off").is_visible()
        assert "正在重试" in page.locator(".live-lost").inner_text()
        page = browser.new_context(**PHONE).new_page()
        sign_in(page, asgi_server, "owner", "pw-owner")
        page.goto(f"{asgi_server}/nights/{table['night'].pk}/")
        page.wait_for_selector("html[data-live=on]", state="attached")
        assert not page.locator(".live-lost .live-off").is_visible()
