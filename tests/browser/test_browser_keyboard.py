"""Recording by keyboard (headless Chromium, 360 px): after each step the focus is on the next step's first
control, so a common hand takes a handful of keys (the issue asks at most 15), with a visible focus ring and the
chosen pattern exposed as pressed."""
import pytest

from tests.browser_helpers import SHOTS, browser_page, open_demo_night, seat_total  # noqa: F401 (fixture)
from tests.browser_helpers import wait_for_table

pytestmark = pytest.mark.browser


def test_a_self_drawn_hand_is_recorded_in_at_most_15_keys(live_server, transactional_db, browser_page):  # noqa: F811
    page = browser_page
    open_demo_night(page, live_server.url)
    before = seat_total(page, 1)
    keys = 0

    def press(key, then=None):
        nonlocal keys
        page.keyboard.press(key)
        keys += 1
        if then:
            page.wait_for_selector(then)

    from playwright.sync_api import expect
    expect(page.locator("#add-win")).to_be_focused()  # where a hand starts, once the page's script has run
    press("Enter", "#seats .seat.pickable:focus")      # + 胡牌: the first seat that may win
    press("Tab", ".seat-1:focus")                      # 李四
    press("Enter", "#pick-self-draw:focus")            # who dealt in, or 自摸
    press("Enter", "[data-pattern=ping_hu][aria-pressed=true]:focus")
    while not page.evaluate("document.activeElement.dataset.pattern === 'qing_yi_se'") and keys < 12:
        press("Tab")                                   # along the pattern chips to 清一色
    press("Enter", "#toggle-exhausted:focus")
    assert page.locator("[data-pattern=qing_yi_se]").get_attribute("aria-pressed") == "true"
    press("Enter", "#save:focus")                      # 流局/查叫, nobody ready
    ring = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    page.screenshot(path=str(SHOTS / "keyboard-save.png"))
    press("Enter", "#toast:not([hidden])")
    assert keys <= 15 and ring == "solid"
    wait_for_table(page)
    assert seat_total(page, 1) == before + 24  # 清一色 2 fan, ×4 from each of three at base 2
