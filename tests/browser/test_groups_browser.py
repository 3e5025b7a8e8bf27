"""In headless Chromium at 360 px: a newcomer signs up, creates a group and shows the invite QR code; a friend
opens the invite link, signs up and lands in the group."""
import os
from pathlib import Path

import pytest

from tests.browser_helpers import ARGS, CHROMIUM

SHOTS = Path(os.environ.get("GROUPS_SCREENSHOT_DIR", "/tmp/groups-shots"))

pytestmark = pytest.mark.browser


@pytest.fixture
def browser():
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop in this thread
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()
        from django.db import connections
        connections.close_all()


def phone(browser):
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, locale="zh-CN",
                                  bypass_csp=True)  # wait_for_function evaluates strings; CSP: test_browser_csp
    return context.new_page()


def sign_up(page, username):
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", "mahjong-2026")
    page.fill("input[name=password2]", "mahjong-2026")


def test_a_newcomer_creates_a_group_and_a_friend_joins_by_its_qr_link(live_server, transactional_db, browser):
    from ledger.models import Group, GroupMember
    SHOTS.mkdir(parents=True, exist_ok=True)
    owner = phone(browser)
    owner.goto(f"{live_server.url}/signup/")
    sign_up(owner, "阿明")
    owner.click("button.primary")
    owner.wait_for_selector("#nav-groups")
    owner.click("#nav-groups")
    owner.wait_for_selector("#new-group")
    owner.screenshot(path=str(SHOTS / "01-my-groups-empty.png"), full_page=True)
    owner.click("#new-group")
    owner.fill("input[name=name]", "周五牌友")
    owner.screenshot(path=str(SHOTS / "02-new-group.png"), full_page=True)
    owner.click("button.primary")
    owner.wait_for_selector("#invite-qr")
    # The QR code is drawn (an SVG that loaded), not a broken image.
    owner.wait_for_function("document.querySelector('#invite-qr').complete "
                            "&& document.querySelector('#invite-qr').naturalWidth > 0")
    assert owner.locator("#group-name").inner_text().startswith("周五牌友")
    assert owner.evaluate("document.documentElement.scrollWidth") <= 360  # nothing wider than the phone
    owner.screenshot(path=str(SHOTS / "03-group-home-with-qr.png"), full_page=True)
    first = owner.locator("#invite-link").get_attribute("href")
    group = Group.objects.get(name="周五牌友")
    # The invite card's buttons sit in the kept body, their form (with this viewer's CSRF token) beside it.
    owner.click("#invite-off")
    owner.wait_for_selector("#invite-renew.primary")
    assert owner.locator("#invite-link").count() == 0 and not group.links.filter(revoked_at__isnull=True).exists()
    owner.click("#invite-renew")
    owner.wait_for_selector("#invite-link")
    invite = owner.locator("#invite-link").get_attribute("href")
    assert invite != first
    assert invite.endswith(f"/groups/join/{group.links.get(revoked_at__isnull=True).token}/")

    friend = phone(browser)
    friend.goto(invite.replace(invite.split("/groups/")[0], live_server.url))
    friend.wait_for_selector("#join-sign-up")
    assert friend.locator("#join-group-name").inner_text() == "周五牌友"
    friend.screenshot(path=str(SHOTS / "04-friend-opens-invite.png"), full_page=True)
    sign_up(friend, "小红")
    friend.click("#join-sign-up button.primary")
    friend.wait_for_selector("#group-name")
    assert friend.url.endswith(f"/groups/{group.pk}/")
    assert "小红" in friend.locator("#group-members").inner_text()
    assert friend.locator("#invite-card").count() == 0  # a plain member does not invite
    friend.screenshot(path=str(SHOTS / "05-friend-in-the-group.png"), full_page=True)
    assert group.memberships.get(user__username="小红").role == GroupMember.Role.MEMBER

    owner.goto(f"{live_server.url}/groups/{group.pk}/members/")
    owner.select_option(f"#member-{group.memberships.get(user__username='小红').user_id} select", "scorekeeper")
    owner.click(f"#member-{group.memberships.get(user__username='小红').user_id} button[value=role]")
    owner.wait_for_selector(".msg, #member-list")
    owner.screenshot(path=str(SHOTS / "06-members-roles.png"), full_page=True)
    assert group.memberships.get(user__username="小红").role == GroupMember.Role.SCOREKEEPER
    assert "小红 现在是记分员" in owner.locator(".messages").inner_text()

    owner.goto(f"{live_server.url}/groups/{group.pk}/players/")
    for name in ("张三", "张小三"):
        owner.fill("#add-player input[name=name]", name)
        owner.click("#add-player button")
        owner.wait_for_selector(f"#player-list strong:text-is(\"{name}\")")
    owner.locator(".player-edit summary").first.click()
    owner.screenshot(path=str(SHOTS / "07-players.png"), full_page=True)
    owner.goto(f"{live_server.url}/groups/{group.pk}/defaults/")
    owner.screenshot(path=str(SHOTS / "08-defaults.png"), full_page=True)
    assert owner.evaluate("document.documentElement.scrollWidth") <= 360
