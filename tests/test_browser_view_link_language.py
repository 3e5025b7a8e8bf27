"""A view-link visitor (no account) switches the page to English and back (headless Chromium, 360 px).

The view page keeps its token from other sites (Referrer-Policy) without making the browser send
`Origin: null` on the language form, which the CSRF check refuses."""
import pytest

from tests.test_browser_live import PHONE, asgi_server, chromium, table  # noqa: F401 (fixtures)

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
