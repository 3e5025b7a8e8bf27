"""On a 360 px phone: an evening at two tables with a table fee, settled on one screen, one transfer marked paid."""
import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token

from ledger.services import nights as services
from ledger.services import evenings
from ledger.models import SettlementTransfer
from ledger.models import Night

from tests.browser_helpers import ARGS, CHROMIUM, PHONE, asgi_server, chromium, live, sign_in  # noqa: F401 (fixture)
from tests.evening_helpers import DATE, NAMES, on_discard, self_draw, table

SHOTS = Path(os.environ.get("EVENING_SCREENSHOT_DIR", "/tmp/evening-shots"))

pytestmark = pytest.mark.browser


@pytest.fixture
def phone():
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop in this thread
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True,
                                has_touch=True, locale="zh-CN")
        page.on("dialog", lambda dialog: dialog.accept())  # "结束后不能再记录……确定吗？"
        yield page
        browser.close()
        from django.db import connections
        connections.close_all()


def test_an_evening_at_two_tables_is_settled_and_paid_on_a_phone(live_server, transactional_db, phone):
    SHOTS.mkdir(parents=True, exist_ok=True)
    owner = get_user_model().objects.create_user("demo", password="demo")
    group = services.personal_group(owner)
    evening = evenings.evening_create(by=owner, group=group, title="周五麻将局", date=DATE, venue="老茶馆")
    fee = {"mode": "per_player", "amount": "5"}
    table(owner, group, evening, NAMES[:4], fee=fee, hands=[self_draw(1, "qing_yi_se"), on_discard(0, 2)])

    page = phone
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", "demo")
    page.fill("input[name=password]", "demo")
    page.click("button.primary")
    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    # The second table through the night form: "加一桌" comes prefilled with the evening.
    page.tap("#add-table")
    page.wait_for_selector("#night-form")
    assert page.locator("select[name=evening]").input_value() == str(evening.pk)
    for seat, name in enumerate(("周八", "吴九", "郑十", "张三")):
        page.fill(f"input[name=player_{seat}]", name)
    page.select_option("select[name=fee_mode]", "per_player")
    page.fill("input[name=fee_amount]", "5")
    page.screenshot(path=str(SHOTS / "01-night-form.png"), full_page=True)
    with page.expect_navigation():
        page.click("#night-form button.primary")
    second = Night.objects.get(evening=evening, table_no=2)
    assert second.fee == fee
    for entry in (self_draw(3, "dui_dui_hu"), on_discard(1, 0)):
        services.hand_record(night=second, by=owner, entry=entry)

    page.goto(f"{live_server.url}/evenings/{evening.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # nothing wider than the phone
    page.screenshot(path=str(SHOTS / "02-evening-open.png"), full_page=True)
    with page.expect_navigation():
        page.tap("#close-tables")
    assert not Night.objects.filter(evening=evening, is_closed=False).exists()
    matrix = page.locator(".matrix").inner_text()
    assert "1号桌" in matrix and "2号桌" in matrix and "台费" in matrix and "+40" in matrix
    page.screenshot(path=str(SHOTS / "03-evening-closed.png"), full_page=True)

    page.check("input[name=include_carry]") if page.locator("input[name=include_carry]").count() else None
    with page.expect_navigation():
        page.tap("#settle")
    assert page.locator("#fixed-settlement").is_visible()
    page.screenshot(path=str(SHOTS / "04-settled.png"), full_page=True)
    with page.expect_navigation():
        page.locator("button.mark-paid").first.tap()
    first = page.locator("#fixed-settlement li").first
    assert "已付" in first.inner_text()
    assert SettlementTransfer.objects.filter(settlement__evening=evening, paid_at__isnull=False).count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(SHOTS / "05-one-paid.png"), full_page=True)


def test_the_evening_page_follows_its_tables_live(asgi_server, transactional_db):
    """A member watches the evening page while the tables play: a hand recorded at a table, a table added and the
    evening settled each show up without a reload (the page's socket, /ws/evenings/<pk>/), the changed cells
    marked; the close form put in by the live page still asks before it is sent."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    users = get_user_model().objects
    owner = users.create_user("demo", password="demo")
    group = services.personal_group(owner)
    evening = evenings.evening_create(by=owner, group=group, title="周五麻将局", date=DATE, venue="老茶馆")
    first = table(owner, group, evening, NAMES[:4], hands=[self_draw(1)])
    token = Token.objects.create(user=owner).key
    with chromium() as browser:
        page = browser.new_context(**PHONE).new_page()
        asked = []
        page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
        sign_in(page, asgi_server, "demo", "demo")
        page.goto(f"{asgi_server}/evenings/{evening.pk}/")
        live(page)
        assert "1号桌" in page.locator(".matrix").inner_text() and "2号桌" not in page.locator(".matrix").inner_text()
        api = browser.new_context(extra_http_headers={"Authorization": f"Token {token}"}).request

        # 李四 self-draws again at table 1: 1 from each of three a hand (base 1, 0 fan) → +3, +6 in all.
        assert api.post(f"{asgi_server}/api/nights/{first.pk}/hands/", data=self_draw(1)).status == 201
        page.wait_for_selector(".matrix td.total.fresh:text-is('+6')", timeout=5000)
        assert "+6" in page.locator("#evening-summary").input_value()
        assert page.locator(".transfers li").count() == 3

        # A second table is opened at the evening, and 周八 self-draws there (+3). Its four players' rows go in above
        # the transfers, which the member is reading: they stay where they were on the screen (the browser's scroll
        # anchoring, kept by putting in only the pieces that changed).
        top = "document.querySelector('[data-evening-piece=money]').getBoundingClientRect().top"
        page.evaluate("document.querySelector('[data-evening-piece=money]').scrollIntoView()")
        reading = page.evaluate(top)
        assert page.evaluate("window.scrollY") > 0
        made = api.post(f"{asgi_server}/api/nights/", data={
            "title": "桌", "date": DATE.isoformat(), "base": "1", "players": ["周八", "吴九", "郑十", "孙七"],
            "group": group.pk, "evening": evening.pk})
        assert made.status == 201, made.text()
        page.wait_for_selector(".matrix th:has-text('2号桌')", timeout=5000)
        second = made.json()["id"]
        assert api.post(f"{asgi_server}/api/nights/{second}/hands/", data=self_draw(0)).status == 201
        page.wait_for_selector(".matrix tr:has(th:text-is('周八')) td.total:text-is('+3')", timeout=5000)
        assert page.evaluate("window.__sameDocument") is True
        assert abs(page.evaluate(top) - reading) < 2, (page.evaluate(top), reading)
        page.screenshot(path=str(SHOTS / "05-evening-live.png"), full_page=True)

        # The close button came with a live update: it still asks, then ends both tables.
        with page.expect_navigation():
            page.tap("#close-tables")
        assert asked == ["这些牌桌结束后不能再记录或更正（结算前可以重新打开），确定吗？"]
        assert not Night.objects.filter(evening=evening, is_closed=False).exists()
        live(page)
        # Settled from another phone: the transfers become the fixed settlement with 标记已付.
        assert api.post(f"{asgi_server}/api/evenings/{evening.pk}/settle/", data={}).status in (200, 201)
        page.wait_for_selector("#fixed-settlement .mark-paid", timeout=5000)
        assert "已结算" in page.locator("[data-evening-piece=state]").inner_text()
        assert page.evaluate("window.__sameDocument") is True


def test_a_ticked_carry_box_survives_a_live_refresh(asgi_server, transactional_db):
    """A review: every live refresh put in the settle form anew (its CSRF token differs each time), unticking
    把之前没付的一起结 just before 结算; a settlement cannot be made again."""
    import threading

    from ledger.services import events as live_events
    owner = get_user_model().objects.create_user("demo", password="demo")
    group = services.personal_group(owner)
    earlier = table(owner, group, None, NAMES[:4], hands=[self_draw(1)])
    evenings.settle_night(by=owner, night=services.night_close(night=earlier, by=owner))  # unpaid: carry offered
    evening = evenings.evening_create(by=owner, group=group, title="周五麻将局", date=DATE, venue="老茶馆")
    first = services.night_close(night=table(owner, group, evening, NAMES[:4], hands=[self_draw(2)]), by=owner)
    with chromium() as browser:
        page = browser.new_context(**PHONE).new_page()
        sign_in(page, asgi_server, "demo", "demo")
        page.goto(f"{asgi_server}/evenings/{evening.pk}/")
        live(page)
        page.check("input[name=include_carry]")
        page.tap("h1")                      # the finger leaves the box (Safari never focuses it)
        page.evaluate("document.activeElement && document.activeElement.blur()")
        # A player signs 确认 on their phone: the page fetches itself again.
        told = threading.Thread(target=lambda: live_events.confirmations_changed(first))
        told.start()
        told.join()
        page.wait_for_timeout(1500)
        assert page.is_checked("input[name=include_carry]")
        assert page.evaluate("window.__sameDocument") is True
