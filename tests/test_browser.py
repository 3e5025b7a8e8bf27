"""In headless Chromium on a phone-sized screen: sign in, open the demo night, record a hand, see totals change."""
import os
import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import call_command

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
SHOTS = Path(os.environ.get("SCREENSHOT_DIR", "/tmp/ledger-screens"))

pytestmark = pytest.mark.browser


@pytest.fixture
def browser_page():
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop in this thread
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 360, "height": 780}, device_scale_factor=2, is_mobile=True,
                                has_touch=True, locale="zh-CN")
        yield page
        browser.close()
        # Playwright's sync API switches greenlets, and with them Django's connection context:
        # close what this context opened, or PostgreSQL keeps the test database busy.
        from django.db import connections
        connections.close_all()


def seat_total(page, seat):
    text = page.locator(f".seat-{seat} .total").inner_text()
    return Decimal(text.replace("+", ""))


def open_demo_night(page, url):
    """Load the demo night, sign in as its owner and open its table page."""
    call_command("demo")
    page.goto(f"{url}/login/")
    page.fill("input[name=username]", "demo")
    page.fill("input[name=password]", "demo")
    page.click("button.primary")
    page.click("text=周五夜 · 演示")
    page.wait_for_selector("#add-win")


def test_record_a_hand_by_tapping_on_a_phone(live_server, transactional_db, browser_page):
    page = browser_page
    SHOTS.mkdir(parents=True, exist_ok=True)
    open_demo_night(page, live_server.url)
    before = [seat_total(page, s) for s in range(4)]
    hand_no = page.locator(".table-head").inner_text()
    page.screenshot(path=str(SHOTS / "01-table.png"))

    taps = 0
    page.tap("#add-win"); taps += 1
    page.tap(".seat-1"); taps += 1          # 李四 wins
    page.tap(".seat-2"); taps += 1          # on 王五's discard
    page.tap("[data-pattern=qing_yi_se]"); taps += 1
    preview = page.locator("#preview.good")
    preview.wait_for()
    page.wait_for_function("document.querySelector('#preview').innerText.includes('+8')")
    assert "王五 → 李四 8" in page.locator("#preview").inner_text()
    page.screenshot(path=str(SHOTS / "02-preview.png"))
    page.tap("#toggle-exhausted"); taps += 1  # one winner: the hand ends with the wall exhausted (RULES.md §7)
    page.tap("#save"); taps += 1
    assert taps <= 6
    page.wait_for_selector("#toast:not([hidden])")
    after = [seat_total(page, s) for s in range(4)]
    assert after[1] - before[1] == 8 and after[2] - before[2] == -8 and after[0] == before[0]
    assert page.locator(".table-head").inner_text() != hand_no
    # 李四 won first, so 李四 deals the next hand.
    assert "庄" in page.locator(".seat-1").inner_text()
    page.screenshot(path=str(SHOTS / "03-saved.png"))
    # Undo within a few seconds voids the hand: the totals go back.
    with page.expect_navigation():
        page.tap("#undo")
    assert [seat_total(page, s) for s in range(4)] == before


def test_a_bad_entry_shows_the_error_next_to_the_field(live_server, transactional_db, browser_page):
    page = browser_page
    open_demo_night(page, live_server.url)
    page.tap("#add-win")
    page.tap(".seat-0")
    page.tap("#pick-self-draw")
    page.tap("text=输入牌")
    page.fill("[data-field=tiles]", "123m456p789s11m456m")
    page.wait_for_function("document.querySelector('.field-error').innerText.includes('缺一门')")
    assert re.search("缺一门", page.locator(".winner .field-error").inner_text())
    page.screenshot(path=str(SHOTS / "04-error.png"))


def test_a_cha_jiao_ending_with_a_ready_hand_typed_as_tiles(live_server, transactional_db, browser_page):
    page = browser_page
    open_demo_night(page, live_server.url)
    page.tap("#add-kong")
    page.tap(".seat-3")
    page.tap("[data-kind=concealed]")
    page.tap("#toggle-exhausted")
    page.tap("[data-ready='0']")
    page.tap("#exhaustion >> text=输入牌")
    page.fill("#exhaustion [data-field=tiles]", "1112345678999m")
    page.wait_for_function("document.querySelector('#exhaustion .analysis').innerText.includes('1m')")
    page.wait_for_function("document.querySelector('#preview').innerText.includes('查叫')")
    preview = page.locator("#preview").inner_text()
    # 赵六 konged but is not ready: the kong money goes back; 李四, 王五 and 赵六 pay 张三's 清一色 (2 fan, x4).
    assert "李四 → 张三 8 (查叫)" in preview and "赵六 → 张三 8 (查叫)" in preview
    assert "赵六 → 李四 4 (退杠钱)" in preview
    page.screenshot(path=str(SHOTS / "05-cha-jiao.png"))
