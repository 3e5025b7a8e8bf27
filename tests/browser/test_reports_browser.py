"""The report buttons on a phone (headless Chromium, 360 px): share the picture, or download it; copy the text."""
import pytest

from tests.browser_helpers import SHOTS, browser_page, open_demo_night  # noqa: F401  (fixture)

pytestmark = pytest.mark.browser

FAKE_SHARE = """
window.__shared = [];
navigator.canShare = (data) => Boolean(data && data.files && data.files.length);
navigator.share = async (data) => { window.__shared.push(data.files.map((f) => [f.name, f.type, f.size])); };
"""


def test_share_offers_the_png_where_the_phone_can_and_downloads_it_otherwise(live_server, transactional_db,
                                                                              browser_page):  # noqa: F811
    page = browser_page
    open_demo_night(page, live_server.url)
    page.click("nav.links >> text=结账")
    page.wait_for_selector(".report-buttons .share")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for button in page.locator(".report-buttons .button").all():
        assert button.bounding_box()["height"] >= 44
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "reports-settle.png"), full_page=True)

    with page.expect_download() as download:  # no Web Share API in headless Chromium: a download
        page.click(".report-buttons .share")
    assert download.value.suggested_filename.endswith("-周五夜-演示.png")

    page.add_init_script(FAKE_SHARE)
    page.reload()
    page.click(".report-buttons .share")
    page.wait_for_function("window.__shared.length > 0")
    [[(name, kind, size)]] = page.evaluate("window.__shared")
    assert name.endswith("-周五夜-演示.png") and kind == "image/png" and size > 10_000


def test_the_copy_button_copies_the_text_summary(live_server, transactional_db, browser_page):  # noqa: F811
    page = browser_page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    open_demo_night(page, live_server.url)
    page.click("nav.links >> text=结账")
    page.click("[data-copy]")
    page.wait_for_function("document.querySelector('[data-copy]').textContent === '已复制'")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == page.input_value("#report-summary") and "最少转账" in copied
