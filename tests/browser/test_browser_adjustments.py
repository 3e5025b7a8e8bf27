"""Penalties and adjustments (罚分/调整) in the browser at 360 px: the table page's form works without the page's
script, returns to the table with a message, and another phone sees the card and the totals live."""
import time

from tests.browser_helpers import PHONE, SHOTS, asgi_server, chromium, live, sign_in, table, totals  # noqa: F401

import pytest

pytestmark = pytest.mark.browser


def test_a_transfer_from_the_table_page_is_saved_and_seen_live_on_the_view_link(asgi_server, table):  # noqa: F811
    SHOTS.mkdir(parents=True, exist_ok=True)
    night = table["night"]
    with chromium() as browser:
        keeper = browser.new_context(**PHONE).new_page()
        sign_in(keeper, asgi_server, "keeper", "pw-keeper")
        keeper.goto(f"{asgi_server}/nights/{night.pk}/")
        viewer = browser.new_context(**PHONE).new_page()
        viewer.goto(f"{asgi_server}/v/{table['view']}/")
        live(viewer)

        keeper.tap("#adjust summary")
        form = keeper.locator("#adjust-transfer")
        assert form.is_visible()
        box = form.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360  # fits the phone
        form.locator("select[name=from]").select_option("0")
        form.locator("select[name=to]").select_option("3")
        form.locator("input[name=amount]").fill("1.234")
        form.locator("input[name=reason]").fill("迟到")
        form.locator("button.primary").tap()
        keeper.wait_for_selector("#adjust-transfer .error")
        assert "金额最多两位小数" in keeper.inner_text("#adjust-transfer")
        keeper.screenshot(path=str(SHOTS / "adjust-01-error.png"))

        keeper.locator("#adjust-transfer input[name=amount]").fill("5")
        keeper.locator("#adjust-transfer button.primary").tap()
        keeper.wait_for_url(f"{asgi_server}/nights/{night.pk}/")
        saved = time.monotonic()
        assert "已记下罚分/调整 1" in keeper.inner_text("body")
        assert "调整：张三 付 赵六 5（迟到）" in keeper.inner_text("#adjustment-1")
        keeper.screenshot(path=str(SHOTS / "adjust-02-saved.png"))

        viewer.wait_for_selector("#adjustment-1.fresh", timeout=2000)
        viewer.wait_for_selector(".seat-3 .total:text-is('+5')", timeout=2000)
        assert time.monotonic() - saved < 2
        assert totals(viewer) == [["-5"], ["0"], ["0"], ["+5"]]
        assert viewer.evaluate("window.__sameDocument") is True
        viewer.screenshot(path=str(SHOTS / "adjust-03-view-link.png"))


def test_the_false_win_form_says_what_the_fan_typed_costs_and_a_void_is_struck_through(asgi_server, table):  # noqa: F811
    night = table["night"]  # base 2, four players, no cap: a blank fan is 4
    with chromium() as browser:
        keeper = browser.new_context(**PHONE).new_page()
        sign_in(keeper, asgi_server, "keeper", "pw-keeper")
        keeper.goto(f"{asgi_server}/nights/{night.pk}/")
        keeper.tap("#adjust summary")
        form = keeper.locator("#adjust-zha_hu")
        cost = form.locator(".zha-hu-cost")
        assert cost.inner_text() == "赔每家 ¥32，共 ¥96（4番）"
        form.locator("input[name=fan]").fill("3")
        assert cost.inner_text() == "赔每家 ¥16，共 ¥48（3番）"
        form.locator("input[name=fan]").fill("")
        assert cost.inner_text() == "赔每家 ¥32，共 ¥96（4番）"
        form.locator("input[name=fan]").fill("1")
        form.locator("select[name=player]").select_option("2")
        form.locator("button.primary").tap()
        keeper.wait_for_url(f"{asgi_server}/nights/{night.pk}/")
        card = keeper.locator("#adjustment-1")
        assert "诈胡：王五 赔每家 4（1番）" in card.inner_text()
        assert card.locator("p").first.evaluate("p => getComputedStyle(p).textDecorationLine") == "none"
        card.locator("summary").tap()
        card.locator("input[name=reason]").fill("记错了")
        card.locator("button.danger").tap()
        keeper.wait_for_selector("#adjustment-1.voided")
        struck = keeper.locator("#adjustment-1.voided p")
        assert struck.count() == 2  # its words and its nets, as the PDF strikes them
        assert all(struck.nth(i).evaluate("p => getComputedStyle(p).textDecorationLine") == "line-through"
                   for i in range(2))
        keeper.screenshot(path=str(SHOTS / "adjust-04-voided.png"), full_page=True)
