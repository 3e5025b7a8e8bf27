"""In headless Chromium at 360 px: the night form's fan-table editor (issue 19) — edit a fan, pick the 对对胡两番
preset and see the pattern fields refill, create the night with its table; the same on a group's default rules."""
import pytest
from django.core.management import call_command

from ledger.models import Group, Night

from tests.browser_helpers import SHOTS, browser_page, no_sideways_scroll, serious  # noqa: F401  (the phone-sized page fixture)
from tests.browser_helpers import wait_for_table

pytestmark = pytest.mark.browser


def fan(code):
    return f"input[name=rule_pattern_fan__{code}]"


def demo_signed_in(page, url):
    """The demo loaded and its owner signed in."""
    call_command("demo")
    page.goto(f"{url}/login/")
    page.fill("input[name=username]", "demo")
    page.fill("input[name=password]", "demo")
    page.click("button.primary")
    page.wait_for_url(lambda address: "/login/" not in address)


def night_form_with_its_rules_open(page, url):
    """The new-night form of the demo's owner, its rule fields shown."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    demo_signed_in(page, url)
    page.goto(f"{url}/nights/new/")
    page.click("#rule-details > summary")


def test_the_fan_table_editor_follows_a_preset_and_the_night_keeps_its_fans(live_server, transactional_db,
                                                                             browser_page):
    page = browser_page
    night_form_with_its_rules_open(page, live_server.url)
    assert page.locator("#rules-fan_table legend").inner_text() == "番数表"
    assert page.locator("label[for=id_rule_pattern_fan__qing_yi_se]").inner_text() == "清一色"
    assert page.input_value(fan("qing_yi_se")) == "2" and page.input_value(fan("dui_dui_hu")) == "1"
    page.fill(fan("qing_yi_se"), "3")
    page.locator("#rules-fan_table").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "fan-table-01-edited.png"), full_page=True)
    page.locator("#rules-fan_table").screenshot(path=str(SHOTS / "fan-table-01-grid.png"))
    assert no_sideways_scroll(page)
    assert serious(page) == []  # axe-core: no serious or critical violation with every rule field shown
    # Two patterns a row: the grid's cells sit side by side within the screen.
    first, second = (page.locator(".fan-cell").nth(i).bounding_box() for i in (0, 1))
    assert first["y"] == second["y"] and second["x"] + second["width"] <= 360

    page.select_option("select[name=preset]", "dui_dui_hu_liang_fan")
    assert [page.input_value(fan(c)) for c in ("dui_dui_hu", "qing_dui", "jiang_dui")] == ["2", "4", "4"]
    assert page.input_value(fan("qing_yi_se")) == "2"  # the edit gives way to the preset's (the usual) fan
    page.select_option("select[name=preset]", "chengdu")
    assert page.input_value(fan("dui_dui_hu")) == "1" and page.input_value(fan("qing_dui")) == "3"
    page.select_option("select[name=preset]", "dui_dui_hu_liang_fan")
    page.fill(fan("long_qi_dui"), "5")
    page.fill("input[name=title]", "番表之夜")
    for seat, name in enumerate(("张三", "李四", "王五", "赵六")):
        page.fill(f"input[name=player_{seat}]", name)
    page.screenshot(path=str(SHOTS / "fan-table-02-preset.png"), full_page=True)
    page.click("button.primary.big")
    wait_for_table(page)
    night = Night.objects.get(title="番表之夜")
    assert night.rules["pattern_fan"] == {"dui_dui_hu": 2, "qing_dui": 4, "jiang_dui": 4, "long_qi_dui": 5}
    assert night.rules["men_qing_fan"] == 0 and night.rules["kong_direct"] == 2  # the rest as the preset says


def test_the_group_s_default_rules_page_refills_the_fan_fields_from_a_preset(live_server, transactional_db,
                                                                             browser_page):
    page = browser_page
    demo_signed_in(page, live_server.url)
    group = Group.objects.get(name="老茶馆牌友")
    page.goto(f"{live_server.url}/groups/{group.pk}/defaults/")
    page.click("#rule-details > summary")
    page.select_option("select[name=preset]", "dui_dui_hu_liang_fan")
    assert page.input_value(fan("dui_dui_hu")) == "2" and page.input_value(fan("jiang_dui")) == "4"
    page.select_option("select[name=preset]", "men_qing_zhong_zhang")
    assert page.input_value(fan("dui_dui_hu")) == "1" and page.input_value("input[name=rule_men_qing_fan]") == "1"
    page.fill(fan("qing_qi_dui"), "6")
    assert no_sideways_scroll(page) and serious(page) == []
    page.screenshot(path=str(SHOTS / "fan-table-03-group-defaults.png"), full_page=True)
    page.click("button.primary.big")
    page.wait_for_url(lambda url: "/defaults/" not in url)
    group.refresh_from_db()
    assert group.defaults["preset"] == "men_qing_zhong_zhang"
    assert group.defaults["rules"]["pattern_fan"] == {"qing_qi_dui": 6}


def test_a_two_suit_table_offers_no_hua_zhu_and_a_form_sent_back_lists_its_errors_at_the_top(
        live_server, transactional_db, browser_page):
    """两房 (筒 and 条 only) has no 花猪 (RULES.md §9): choosing it unticks 查花猪 and locks it. A form the server sends
    back (here a 将七对 fan without 幺九将对) shows its errors at the top of the page, where it opens, each a link to
    its field."""
    page = browser_page
    night_form_with_its_rules_open(page, live_server.url)
    page.check("input[name=rule_hua_zhu]")
    page.select_option("select[name=rule_suits]", "ps")
    assert page.is_disabled("input[name=rule_hua_zhu]") and not page.is_checked("input[name=rule_hua_zhu]")
    page.select_option("select[name=rule_suits]", "mps")
    assert page.is_enabled("input[name=rule_hua_zhu]")
    page.fill("input[name=rule_jiang_qi_dui_fan]", "4")
    page.select_option("select[name=rule_yao_jiu_jiang_dui]", "False")
    # Without 幺九将对 there is no 将七对: its fan goes to 0 and cannot be typed (a walk typed 4, then was refused).
    assert page.input_value("input[name=rule_jiang_qi_dui_fan]") == "0"
    assert not page.locator("input[name=rule_jiang_qi_dui_fan]").is_editable()
    page.select_option("select[name=rule_yao_jiu_jiang_dui]", "True")   # back: the 4 typed before comes back
    assert page.input_value("input[name=rule_jiang_qi_dui_fan]") == "4"
    assert page.locator("input[name=rule_jiang_qi_dui_fan]").is_editable()
    page.select_option("select[name=rule_yao_jiu_jiang_dui]", "False")
    assert page.input_value("input[name=rule_jiang_qi_dui_fan]") == "0"
    # A page whose script did not run (an old copy) still posts it: the server refuses it, as before.
    page.evaluate("document.querySelector('input[name=rule_jiang_qi_dui_fan]').readOnly = false")
    page.fill("input[name=rule_jiang_qi_dui_fan]", "4")
    page.fill("input[name=title]", "将七对")
    for seat, name in enumerate(("张三", "李四", "王五", "赵六")):
        page.fill(f"input[name=player_{seat}]", name)
    page.click("button.primary.big")
    page.wait_for_selector("#form-errors")
    assert page.locator("#form-errors").is_visible()  # in the first screen, where the page opens
    assert page.locator("#form-errors").bounding_box()["y"] < 780
    page.screenshot(path=str(SHOTS / "night-form-errors.png"))
    page.click("#form-errors a[href='#id_rule_jiang_qi_dui_fan']")
    box = page.locator("#id_rule_jiang_qi_dui_fan").bounding_box()
    assert -5 <= box["y"] < 780  # the link brings the field into view (scrolled to its top)
    assert not Night.objects.filter(title="将七对").exists()


def test_a_fan_changed_by_hand_offers_the_patterns_made_of_it_the_same_step(live_server, transactional_db,
                                                                           browser_page):
    """对对胡 set to 2番 by hand left 清对 and 将对 at 3 without a word (a walk). The note under the table names them
    and raises them by the same step in one tap, as the preset 对对胡两番 has them; nothing changes unasked."""
    page = browser_page
    night_form_with_its_rules_open(page, live_server.url)
    note = page.locator("#fan-parts-note")
    assert note.is_hidden()
    page.fill(fan("dui_dui_hu"), "2")
    assert note.is_visible()   # said while typing, before the box is left (a walk tapped 开始 straight away)
    page.locator(fan("dui_dui_hu")).dispatch_event("change")
    assert note.inner_text().startswith("对对胡 改成了 2番，含对对胡的 清对 3番、将对 3番 没有跟着变。")
    assert [page.input_value(fan(c)) for c in ("qing_dui", "jiang_dui")] == ["3", "3"]   # not changed unasked
    assert no_sideways_scroll(page) and serious(page) == []
    note.screenshot(path=str(SHOTS / "fan-table-04-parts-note.png"))
    note.locator("button").click()
    assert note.is_hidden()
    assert [page.input_value(fan(c)) for c in ("dui_dui_hu", "qing_dui", "jiang_dui")] == ["2", "4", "4"]
    # A pattern made of none changes alone, and a step down is offered as such (清一色 in four patterns).
    page.fill(fan("qing_dui"), "5")
    page.locator(fan("qing_dui")).dispatch_event("change")
    assert note.is_hidden()
    page.fill(fan("qing_yi_se"), "1")
    page.locator(fan("qing_yi_se")).dispatch_event("change")
    assert note.locator("button").inner_text() == "这些也减 1番"
    note.locator("button").click()
    assert [page.input_value(fan(c)) for c in ("qing_dui", "qing_qi_dui", "qing_yao_jiu", "qing_long_qi_dui")] \
        == ["4", "3", "3", "4"]
    page.fill("input[name=title]", "对对胡两番")
    for seat, name in enumerate(("张三", "李四", "王五", "赵六")):
        page.fill(f"input[name=player_{seat}]", name)
    page.click("button.primary.big")
    wait_for_table(page)
    assert Night.objects.get(title="对对胡两番").rules["pattern_fan"] == {
        "dui_dui_hu": 2, "qing_yi_se": 1, "qing_dui": 4, "jiang_dui": 4, "qing_qi_dui": 3, "qing_yao_jiu": 3,
        "qing_long_qi_dui": 4}
