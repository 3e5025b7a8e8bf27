"""In headless Chromium with the Content-Security-Policy enforced: every page works and nothing is blocked."""
import pytest
from django.core.management import call_command

from tests.browser_helpers import ARGS, CHROMIUM, wait_for_table

pytestmark = pytest.mark.browser


@pytest.fixture
def strict_page():
    import os
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 360, "height": 740}, locale="zh-CN")
        page.violations = []
        page.on("console", lambda m: page.violations.append(m.text) if "Content Security Policy" in m.text else None)
        yield page
        browser.close()
        from django.db import connections
        connections.close_all()


def test_pages_run_their_scripts_under_the_csp_without_violations(live_server, transactional_db, strict_page):
    page = strict_page
    call_command("demo")
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", "demo")
    page.fill("input[name=password]", "demo")
    page.click("button.primary")
    page.click("text=周五夜 · 演示")
    wait_for_table(page)  # the table page's script drew its buttons

    page.goto(f"{live_server.url}/nights/new/")
    page.select_option("select[name=preset]", "club")  # night_form.js fills the rule fields from the preset
    assert page.input_value("input[name=rule_max_fan]") == "4"
    # The seats start with the demo group's last table, 张三 李四 王五 赵六; one is changed.
    assert page.input_value("input[name=player_0]") == "张三" and page.input_value("input[name=player_3]") == "赵六"
    page.fill("input[name=player_1]", "老李")
    page.click("#dice")
    said = page.inner_text("#dice-result")  # each seat's roll, then who deals: the seat whose radio is now checked
    assert said.count("·") == 3 and "南 老李 " in said
    dealer = page.locator("input[name=first_dealer]:checked").evaluate("r => r.closest('label').textContent.trim()")
    named = {"东": "张三", "南": "老李", "西": "王五", "北": "赵六"}
    assert said.endswith(f"→ {dealer} {named[dealer]} 坐庄"), said

    night_url = page.url
    page.goto(f"{live_server.url}/")
    page.click("text=周五夜 · 演示")
    page.goto(page.url.rstrip("/") + "/settle/")
    dialogs = []
    page.once("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.click("form[data-confirm] button")  # confirm.js asks; dismissed, nothing is sent
    assert dialogs and "结束" in dialogs[0]
    assert "已结束" not in page.inner_text("main")
    assert page.violations == [], page.violations
    assert night_url
