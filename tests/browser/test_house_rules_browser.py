"""In headless Chromium at 360 px: house rules at the table: a 点杠花 paid as a discard (点杠花算点炮), a 花猪."""
import pytest

from ledger.models import Hand

from tests.browser_helpers import SHOTS, browser_page, open_demo_night, seat_total  # noqa: F401  (the page fixture)

pytestmark = pytest.mark.browser


def test_a_dian_gang_hua_under_dian_pao_is_paid_by_the_kong_s_discarder_alone(live_server, transactional_db,
                                                                                  browser_page):
    page = browser_page
    open_demo_night(page, live_server.url, rules={"dian_gang_hua": "dian_pao"})
    before = [seat_total(page, s) for s in range(4)]

    page.tap("#add-kong")
    page.tap(".seat-1:not([disabled])")     # seat 1 konges directly ...
    page.tap("[data-kind=direct]")
    page.tap(".seat-3:not([disabled])")     # ... on seat 3's discard (seat 3 pays the kong)
    page.tap("#add-win")
    page.tap(".seat-1:not([disabled])")     # seat 1 self-draws the replacement tile
    page.tap("#pick-self-draw")
    page.tap(".winner [data-flag=gang_shang_hua]")
    page.tap("#toggle-exhausted")
    page.locator("#preview.good").wait_for()
    # The demo's base is 2. 平胡 + the kong's root + 杠上花 = 2 fan, x4 = 8, paid by seat 3 (赵六) alone as a discard,
    # beside the direct kong's 2 x 2 = 4; under zi_mo each of the three would pay 8.
    page.wait_for_function("document.querySelector('#preview').innerText.includes('（点炮）')")
    preview = page.locator("#preview").inner_text()
    assert "赵六 → 李四 4（杠）" in preview and "赵六 → 李四 8（点炮）" in preview
    assert preview.count("（点炮）") == 1 and "（自摸）" not in preview
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "house-dian-gang-hua.png"))
    page.tap("#save")
    page.wait_for_selector("#toast:not([hidden])")
    after = [seat_total(page, s) for s in range(4)]
    assert [a - b for a, b in zip(after, before)] == [0, 12, 0, -12]


def test_a_hua_zhu_is_marked_by_a_tap_at_an_exhausted_wall(live_server, transactional_db, browser_page):
    """查花猪 at the table: tapping 花猪 on a seat that is not ready marks it (the tap once threw in the page's
    script, so a 花猪 could not be recorded there at all)."""
    page = browser_page
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    open_demo_night(page, live_server.url, rules={"hua_zhu": True})
    page.tap("#toggle-exhausted")
    page.tap("[data-ready='0']")            # 张三 is ready
    page.tap("[data-hua-zhu='1']")          # 李四 still holds three suits
    page.locator("[data-hua-zhu='1'].selected").wait_for()
    page.tap("#preview")
    page.wait_for_function("document.querySelector('#preview').innerText.includes('查花猪')")
    assert "李四 → 张三" in page.locator("#preview").inner_text() and errors == []
    page.tap("#save")
    page.wait_for_selector("#toast:not([hidden])")
    hand = Hand.objects.filter(night__title="周五夜 · 演示").order_by("-number").first()
    assert hand.current.record["hua_zhu"] == [1]


def test_a_discard_win_below_the_tables_least_fan_is_said_at_the_winner_as_soon_as_it_is_entered(
        live_server, transactional_db, browser_page):
    """点炮至少 1 番 (RULES.md §10): a 平胡 on a discard is refused at the winner the moment 完成 is tapped, not only
    after 流局/查叫 (完成 redrew the cards and emptied their error slots until another tap)."""
    page = browser_page
    open_demo_night(page, live_server.url, rules={"min_fan_on_discard": 1})
    page.tap("#add-win")
    page.tap(".seat-1:not([disabled])")
    page.tap(".seat-2:not([disabled])")
    page.tap("#pick-done")
    slot = page.locator('[data-error-for="events[0].winners[0]"]')
    page.wait_for_function("document.querySelector('[data-error-for=\"events[0].winners[0]\"]')"
                           ".textContent.includes('至少要 1 番')")
    assert "只能自摸" in slot.inner_text() and page.is_disabled("#save")
    # The hand is not over either (one winner), but the refused win comes first: the bar said 这一局还没结束 (a walk).
    assert page.inner_text("#save-hint") == "先改正上面的问题才能保存"
    assert "pending" not in page.get_attribute("#save-hint", "class")


def test_men_qing_and_zhong_zhang_of_a_hand_given_by_tiles_show_as_the_tiles_decide(live_server, transactional_db,
                                                                                    browser_page):
    """门清 and 中张 each +1 (RULES.md §10): a winner given by tiles has them from the tiles, not from a tap, so their
    chips show what the engine found, pressed and locked (they looked unpressed while 2 fan were paid)."""
    from tests.browser_helpers import tap_a_win
    page = browser_page
    open_demo_night(page, live_server.url, rules={"men_qing_fan": 1, "zhong_zhang_fan": 1})
    tap_a_win(page, 2, 3)                                 # 王五 wins on 赵六's discard
    page.tap(".winner [data-flag=men_qing]")              # ticked by hand first: given by tiles, the tiles decide
    page.tap(".winner [data-action=tiles]")
    page.tap(".winner .typing summary")
    page.fill("[data-field=tiles]", "23445677p345678s")
    page.tap("#toggle-exhausted")
    page.wait_for_selector("#preview.good")
    for flag in ("men_qing", "zhong_zhang"):
        chip = page.locator(f".winner [data-flag={flag}]")
        assert chip.get_attribute("aria-pressed") == "true" and chip.is_disabled(), flag
    assert "赵六 → 王五 8（点炮）" in page.locator("#preview").inner_text()  # base 2 x 2^2: 平胡 + 门清 + 中张
    page.fill("[data-field=tiles]", "234456678p12399s")  # a 1 and 9s: no 中张
    page.wait_for_function("document.querySelector('#preview .net').textContent.includes('王五 +4')")
    # 中张 is no longer offered at all (the engine's choices leave it out for a hand with a 1 or a 9), or unpressed.
    assert page.locator(".winner [data-flag=zhong_zhang][aria-pressed=true]").count() == 0
    assert page.locator(".winner [data-flag=men_qing]").get_attribute("aria-pressed") == "true"


def test_a_winner_typed_as_tiles_is_told_the_house_fans_found_in_them(live_server, transactional_db, browser_page):
    """门清中张 (RULES.md §10): a winner given by tiles has no chip for 门清 and 中张; the engine finds them. The
    keypad's line said "对对胡 · 1番" beside a win paid at 3 (a walk); it now says what was found and the fan paid."""
    page = browser_page
    open_demo_night(page, live_server.url, rules={"men_qing_fan": 1, "zhong_zhang_fan": 1})
    page.tap("#add-win")
    page.tap(".seat-1:not([disabled])")     # 李四 wins ...
    page.tap(".seat-2:not([disabled])")     # ... on 王五's discard
    page.tap("#pick-done")
    page.tap(".winner [data-action=tiles]")
    page.tap(".winner .typing summary")
    page.fill(".winner [data-field=tiles]", "222333444m66677p")  # all pongs, concealed, no 1 or 9
    page.wait_for_selector(".winner .analysis.ok:has-text('门清')")
    line = page.locator(".winner .analysis").inner_text()
    # 对对胡 1 fan, + 门清 1 + 中张 1 = 3 fan: base 2 x 8 = 16 from 王五.
    assert line.startswith("对对胡") and "门清" in line and "中张" in line and line.endswith("这一胡算 3番"), line
    page.wait_for_function("document.querySelector('#preview').innerText.includes('王五 -16')")
