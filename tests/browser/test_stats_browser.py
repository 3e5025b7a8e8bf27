"""A player's history and the group leaderboard on a 360 px phone, with the demo data: legible, no sideways scroll."""
import pytest
from django.core.management import call_command

from ledger.models import Group, Player

from tests.browser_helpers import SHOTS, browser_page, no_sideways_scroll  # noqa: F401  (the phone-sized Chromium page fixture)

pytestmark = pytest.mark.browser


def sign_in_as_demo(page, url):
    call_command("demo")
    page.goto(f"{url}/login/")
    page.fill("input[name=username]", "demo")
    page.fill("input[name=password]", "demo")
    page.click("button.primary")
    page.wait_for_selector(".nights")


def test_a_players_history_and_the_leaderboard_fit_a_phone(live_server, transactional_db, browser_page):
    page = browser_page
    SHOTS.mkdir(parents=True, exist_ok=True)
    sign_in_as_demo(page, live_server.url)
    zhang = Player.objects.get(name="张三", group__created_by__username="demo")

    page.goto(f"{live_server.url}/players/{zhang.pk}/")
    page.wait_for_selector("#chart svg")
    assert no_sideways_scroll(page)
    chart = page.locator("#chart svg").bounding_box()
    assert chart["width"] <= 360 and chart["height"] > 120
    # The chart's numbers are drawn at a size a phone can read (at least 10 CSS px tall).
    heights = page.evaluate("[...document.querySelectorAll('#chart svg .axis text')].filter(t => t.textContent)"
                            ".map(t => t.getBBox().height * t.getScreenCTM().a)")
    assert heights and min(heights) >= 10
    assert "20 局" in page.locator("#nights").inner_text()
    page.screenshot(path=str(SHOTS / "stats-01-player.png"), full_page=True)

    page.click("text=圈子排行榜")
    page.wait_for_selector("#board")
    assert no_sideways_scroll(page)
    names = page.locator("#board td.name").all_inner_texts()
    # Tonight's four, and last week's table 2 when last week is in this year (the default range).
    assert {"张三", "李四", "王五", "赵六"} <= set(names) <= {"张三", "李四", "王五", "赵六", "孙七", "周八", "钱九", "吴十"}
    page.screenshot(path=str(SHOTS / "stats-02-leaderboard.png"), full_page=True)

    group = Group.objects.get(created_by__username="demo")
    page.goto(f"{live_server.url}/groups/{group.pk}/leaderboard/?from=2026-02-30")
    assert "开始日期（from）应为日期" in page.locator("#period-errors").inner_text()
    assert no_sideways_scroll(page)
