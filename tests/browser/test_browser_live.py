"""Phones at one table follow a night live (headless Chromium, 360 px): a scorekeeper records, a signed-out
view link and a newcomer who joined by the invite link see the hand and totals without reloading."""
import json
import re
import time

import pytest

from tests.browser_helpers import PHONE, SHOTS, asgi_server, chromium, live, sign_in, table, tap_a_win, totals  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def keeper_at_table(browser, server, night):
    """The scorekeeper's phone at the night's table, following it live."""
    keeper = browser.new_context(**PHONE).new_page()
    sign_in(keeper, server, "keeper", "pw-keeper")
    keeper.goto(f"{server}/nights/{night.pk}/")
    live(keeper)
    return keeper


def owner_posts(browser, server, path, body):
    """The night's owner, on a phone of their own, posts to the API as the page would (session, CSRF token)."""
    owner = browser.new_context(**PHONE)
    sign_in(owner.new_page(), server, "owner", "pw-owner")
    csrf = next(c["value"] for c in owner.cookies() if c["name"] == "csrftoken")
    return owner.request.post(f"{server}{path}", data=json.dumps(body),
                              headers={"Content-Type": "application/json", "X-CSRFToken": csrf, "Referer": f"{server}/"})


def test_a_view_link_shows_a_recorded_hand_within_two_seconds_without_reload(asgi_server, table):
    SHOTS.mkdir(parents=True, exist_ok=True)
    night = table["night"]
    with chromium() as browser:
        keeper = browser.new_context(**PHONE).new_page()
        sign_in(keeper, asgi_server, "keeper", "pw-keeper")
        keeper.goto(f"{asgi_server}/nights/{night.pk}/")
        viewer = browser.new_context(**PHONE).new_page()   # signed out
        viewer.goto(f"{asgi_server}/v/{table['view']}/")
        live(viewer)
        assert totals(viewer) == [["0"], ["0"], ["0"], ["0"]] and viewer.locator(".hand").count() == 0

        # 李四 self-draws, then the wall runs out with nobody ready.
        keeper.tap("#add-win")
        keeper.tap(".seat-1")
        keeper.tap("#pick-self-draw")
        keeper.tap("#toggle-exhausted")
        keeper.wait_for_selector("#preview.good")
        keeper.tap("#save")
        saved = time.monotonic()
        viewer.wait_for_selector("#hand-1.fresh", timeout=2000)
        viewer.wait_for_selector(".seat-1 .total:text-is('+6')", timeout=2000)
        assert time.monotonic() - saved < 2
        assert totals(viewer) == [["-2"], ["+6"], ["-2"], ["-2"]]
        assert "李四 自摸 平胡 0番，张三、王五、赵六 各付2" in viewer.locator("#hand-1").inner_text()
        assert "第 2 局" in viewer.locator(".table-head").inner_text()
        assert viewer.evaluate("window.__sameDocument") is True
        assert viewer.locator("form").count() == 1  # the language switch only: no write control
        viewer.screenshot(path=str(SHOTS / "live-01-view-link.png"))


def test_a_newcomer_joins_by_the_invite_link_signs_up_and_follows_the_night(asgi_server, table):
    night = table["night"]
    with chromium() as browser:
        newcomer = browser.new_context(**PHONE).new_page()
        newcomer.goto(f"{asgi_server}/join/{table['invite']}/")
        assert "周五夜" in newcomer.inner_text("main")
        newcomer.screenshot(path=str(SHOTS / "live-02-join.png"))
        newcomer.fill("#join-sign-up input[name=username]", "小红")
        newcomer.fill("#join-sign-up input[name=password1]", "mahjong-2026")
        newcomer.fill("#join-sign-up input[name=password2]", "mahjong-2026")
        newcomer.tap("#join-sign-up button.primary")
        newcomer.wait_for_url(f"{asgi_server}/nights/{night.pk}/")
        assert "周五夜" in newcomer.inner_text(".table-head")
        assert newcomer.locator("#readonly-hint").is_visible() and newcomer.locator("#entry").count() == 0
        live(newcomer)

        # A scorekeeper's phone records a hand (through the API, as its page does); the newcomer's table moves.
        keeper = browser.new_context(**PHONE)
        keeper_page = keeper.new_page()
        sign_in(keeper_page, asgi_server, "keeper", "pw-keeper")
        csrf = next(c["value"] for c in keeper.cookies() if c["name"] == "csrftoken")
        hand = {"events": [{"type": "win", "from": 2, "winners": [{"player": 0, "pattern": "qing_yi_se",
                                                                   "roots": 0, "flags": []}]}], "exhausted": True}
        response = keeper.request.post(f"{asgi_server}/api/nights/{night.pk}/hands/", data=json.dumps(hand),
                                       headers={"Content-Type": "application/json", "X-CSRFToken": csrf,
                                                "Referer": f"{asgi_server}/"})
        assert response.status == 201
        newcomer.wait_for_selector("#hand-1.fresh", timeout=2000)
        assert totals(newcomer)[0] == ["+8"] and totals(newcomer)[2] == ["-8"]
        assert newcomer.evaluate("window.__sameDocument") is True
        newcomer.screenshot(path=str(SHOTS / "live-03-newcomer-table.png"))


def test_a_scorekeepers_draft_survives_a_hand_saved_by_another_and_the_form_is_told(asgi_server, table):
    night = table["night"]
    with chromium() as browser:
        keeper = keeper_at_table(browser, asgi_server, night)
        keeper.evaluate("window.__told = []; document.addEventListener('ledger:night', e => window.__told.push(e.detail))")
        keeper.tap("#add-win")
        keeper.tap(".seat-3")
        keeper.tap("#pick-self-draw")      # a draft: 赵六 self-draws, not saved yet
        draft = keeper.inner_text("#events")
        assert "赵六" in draft

        hand = {"events": [{"type": "win", "from": None, "winners": [{"player": 1, "pattern": "ping_hu", "roots": 0,
                                                                      "flags": []}]}], "exhausted": True}
        response = owner_posts(browser, asgi_server, f"/api/nights/{night.pk}/hands/", hand)
        assert response.status == 201
        keeper.wait_for_selector(".last-hand #hand-1.fresh", timeout=2000)
        for _ in range(20):
            told = keeper.evaluate("window.__told")
            if told:
                break
            time.sleep(0.1)
        assert told[0]["kind"] == "hand_recorded" and told[0]["number"] == 1
        assert told[0]["next_dealer"] == 1 and told[0]["hand_count"] == 1
        assert keeper.inner_text("#events") == draft           # the draft is untouched
        assert totals(keeper)[1] == ["+6"] and "庄" in keeper.inner_text(".seat-1")
        assert keeper.evaluate("window.__sameDocument") is True
        keeper.screenshot(path=str(SHOTS / "live-04-keeper-draft-kept.png"))


def test_a_page_whose_socket_dropped_reconnects_and_catches_up(asgi_server, table):
    night = table["night"]
    with chromium() as browser:
        viewer = browser.new_context(**PHONE).new_page()
        sockets = []

        def route(ws):
            sockets.append(ws)
            if len(sockets) > 1:
                ws.connect_to_server()  # later attempts reach the server; the first one goes nowhere
        viewer.route_web_socket(re.compile(r".*/ws/view/.*"), route)
        viewer.goto(f"{asgi_server}/v/{table['view']}/")
        live(viewer)

        # While the page's socket leads nowhere, a hand is recorded: the page hears nothing of it.
        hand = {"events": [{"type": "win", "from": None, "winners": [{"player": 2, "pattern": "ping_hu", "roots": 0,
                                                                      "flags": []}]}], "exhausted": True}
        response = owner_posts(browser, asgi_server, f"/api/nights/{night.pk}/hands/", hand)
        assert response.status == 201
        time.sleep(0.5)
        assert viewer.locator("#hand-1").count() == 0

        # The connection drops; the page reconnects (after about a second) and asks for hands after the last it has.
        sockets[0].close(code=1001, reason="network change")
        viewer.wait_for_selector("#hand-1.fresh", timeout=5000)
        assert len(sockets) == 2 and totals(viewer)[2] == ["+6"]
        assert viewer.evaluate("window.__sameDocument") is True


def test_a_night_closed_while_watched_says_so_in_the_tab(asgi_server, table):
    """The head of an open table turns to 已结束 live when the night is closed elsewhere; its tab kept 第 1 局 (a
    walk). The scorekeeper's table and a view link both say it now, as they would after a reload."""
    night = table["night"]
    with chromium() as browser:
        keeper = keeper_at_table(browser, asgi_server, night)
        viewer = browser.new_context(**PHONE).new_page()
        viewer.goto(f"{asgi_server}/v/{table['view']}/")
        live(viewer)
        assert keeper.title() == f"{night.title} · 第 1 局" and viewer.title() == night.title
        response = owner_posts(browser, asgi_server, f"/api/nights/{night.pk}/close/", {})
        assert response.status == 200, response.text()
        for page in (keeper, viewer):
            page.wait_for_selector(".table-head .tag", timeout=3000)
            page.wait_for_function(f"document.title === {json.dumps(night.title + ' · 已结束')}", timeout=3000)
        # The hand entry goes and the page says why (a walk: the form stayed, and its save was refused).
        keeper.locator("#closed-live").wait_for(state="visible", timeout=3000)
        assert keeper.inner_text("#closed-live") == "这一场已经结束，不能再记新的一局 · 结账"
        assert keeper.locator("#entry").is_hidden() and keeper.locator("#add-win").is_hidden()
        # 重新打开牌局 elsewhere: the entry comes back where it went; a page drawn closed offers a reload for it.
        response = owner_posts(browser, asgi_server, f"/api/nights/{night.pk}/reopen/", {})
        assert response.status == 200, response.text()
        keeper.locator("#entry").wait_for(state="visible", timeout=3000)
        assert keeper.locator("#closed-live").is_hidden()
        response = owner_posts(browser, asgi_server, f"/api/nights/{night.pk}/close/", {})
        assert response.status == 200, response.text()
        keeper.locator("#closed-live").wait_for(state="visible", timeout=3000)
        keeper.reload()
        assert keeper.title() == f"{night.title} · 已结束"
        live(keeper)
        response = owner_posts(browser, asgi_server, f"/api/nights/{night.pk}/reopen/", {})
        assert response.status == 200, response.text()
        keeper.locator("#live-reload").wait_for(timeout=3000)
        assert keeper.inner_text("#live-reload") == "牌局重新打开了 · 刷新页面"
        keeper.click("#live-reload a")
        keeper.locator("#add-win").wait_for()


def test_a_hand_saved_after_the_night_closed_unseen_is_kept_and_the_entry_goes(asgi_server, table):
    """The close has not reached this phone (its live fetch fails): the save is refused because the night is closed.
    The page says so and takes the entry away (it said 先改正上面的问题才能保存 under a hand with nothing wrong); the
    hand stays on the phone with the server's words, to be dropped by hand (no 改正: there is no form for it)."""
    night = table["night"]
    with chromium() as browser:
        keeper = keeper_at_table(browser, asgi_server, night)
        keeper.route("**/fragments/**", lambda route: route.abort())
        tap_a_win(keeper, 1)
        keeper.tap("#toggle-exhausted")
        keeper.wait_for_selector("#preview.good")
        response = owner_posts(browser, asgi_server, f"/api/nights/{night.pk}/close/", {})
        assert response.status == 200, response.text()
        keeper.tap("#save")
        keeper.locator("#closed-live").wait_for(state="visible", timeout=5000)
        assert keeper.locator("#entry").is_hidden()
        refused = keeper.locator("#queue .queue-item.refused")
        refused.wait_for()
        assert "这一场已经结束，不能再修改" in refused.inner_text()
        assert refused.locator("[data-queue=edit]").count() == 0 and refused.locator("[data-queue=discard]").count() == 1
        assert "先改正" not in keeper.inner_text("main")
        # Opened again (重新打开牌局): the entry is back, and the hand may be put right and saved (a review: it could
        # only be thrown away, in the very case reopening is for).
        keeper.unroute("**/fragments/**")
        response = owner_posts(browser, asgi_server, f"/api/nights/{night.pk}/reopen/", {})
        assert response.status == 200, response.text()
        keeper.locator("#entry").wait_for(state="visible", timeout=5000)
        refused.locator("[data-queue=edit]").wait_for(timeout=5000)
        refused.locator("[data-queue=edit]").tap()
        keeper.wait_for_selector("#preview.good")
        keeper.tap("#save")
        keeper.wait_for_url("**/?saved=1", timeout=5000)
        keeper.goto("about:blank")
        assert night.hands.count() == 1
