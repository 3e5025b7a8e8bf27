"""RULES.md §10 through the CLI, `/api/score/`, the night API and form, and a group's default rules."""
import json

from django.test import Client

from ledger.models import Night
from scoring import score_hand

from tests.conftest import api_client
from tests.factories import run_cli
from tests.hand_helpers import kong, w, win

# 点杠花 under 点杠花算点炮 at 对对胡两番: P3 feeds P1's direct 7s kong (2), P1 blooms on the replacement:
# 对对胡 2 (the table's) + 1 root + 杠上花 1 = 4 fan, x16, paid by P3 alone as a discard. Then P0 discards
# to P2's 0-fan 平胡, refused under min_fan_on_discard 1... so P2 wins by self-draw instead (x1 from P0, P3).
DIAN_GANG_HUA = {
    "rules": {"dian_gang_hua": "dian_pao", "pattern_fan": {"dui_dui_hu": 2, "qing_dui": 4, "jiang_dui": 4},
              "min_fan_on_discard": 1},
    "events": [kong(1, "direct", 3, "7s"),
               win(None, {"player": 1, "tiles": "11122233355m", "melds": ["7777s"], "flags": ["gang_shang_hua"]}),
               win(None, w(2))],
    "exhausted": True,
}
DIAN_GANG_HUA_PAYMENTS = [
    {"event": 0, "from": 3, "to": 1, "amount": "2", "reason": "kong"},
    {"event": 1, "from": 3, "to": 1, "amount": "16", "reason": "discard"},
    {"event": 2, "from": 0, "to": 2, "amount": "1", "reason": "self_draw"},
    {"event": 2, "from": 3, "to": 2, "amount": "1", "reason": "self_draw"},
]
BAD = {"rules": {"pattern_fan": {"bogus": 2}, "min_fan_on_discard": 1},
       "events": [win(2, {"player": 0, "tiles": "23445677m345789p", "flags": ["zhong_zhang"]})], "exhausted": True}


def test_the_cli_scores_house_rules():
    done = run_cli("-", stdin=json.dumps(DIAN_GANG_HUA))
    assert done.returncode == 0
    out = json.loads(done.stdout)
    assert out["payments"] == DIAN_GANG_HUA_PAYMENTS and out["net"] == ["-1", "18", "2", "-19"]
    assert out["wins"][0]["fan"] == 4


def test_the_cli_refuses_bad_house_rules_with_paths():
    done = run_cli("-", "--lang", "en", stdin=json.dumps(BAD))
    assert done.returncode == 2
    assert json.loads(done.stdout) == {"errors": [
        {"path": "rules.pattern_fan.bogus", "message": "unknown pattern 'bogus'"},
        {"path": "events[0].winners[0].flags[0]",
         "message": "zhong_zhang needs no 1 and no 9 anywhere in the hand, melds included"}]}


def test_the_calculator_scores_house_rules_as_score_hand_does(db):
    response = api_client().post("/api/score/", json.dumps(DIAN_GANG_HUA), content_type="application/json")
    assert response.status_code == 200
    assert response.json() == score_hand(DIAN_GANG_HUA).as_dict()
    assert response.json()["payments"] == DIAN_GANG_HUA_PAYMENTS


def test_the_calculator_refuses_a_failing_flag_in_both_languages(db):
    doc = {**BAD, "rules": {"zhong_zhang_fan": 1}}
    en = api_client().post("/api/score/", json.dumps(doc), content_type="application/json",
                           HTTP_ACCEPT_LANGUAGE="en")
    zh = api_client().post("/api/score/", json.dumps(doc), content_type="application/json",
                           HTTP_ACCEPT_LANGUAGE="zh-CN")
    assert en.status_code == zh.status_code == 400
    assert en.json()["errors"] == [{"path": "events[0].winners[0].flags[0]",
                                    "message": "zhong_zhang needs no 1 and no 9 anywhere in the hand, melds included"}]
    assert zh.json()["errors"] == [{"path": "events[0].winners[0].flags[0]",
                                    "message": "中张：整手牌（包括副露）不能有 1 或 9"}]


def test_a_discard_win_below_the_table_s_minimum_is_refused_by_the_calculator(db):
    doc = {"rules": {"min_fan_on_discard": 1}, "events": [win(2, w(0))], "exhausted": True}
    response = api_client().post("/api/score/", json.dumps(doc), content_type="application/json",
                                 HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and response.json()["errors"][0]["path"] == "events[0].winners[0]"


def test_a_night_takes_the_house_rules_by_name_and_its_hands_are_scored_by_them(owner):
    body = {"title": "周六", "date": "2026-11-28", "base": "1", "players": ["甲", "乙", "丙", "丁"],
            "preset": "dui_dui_hu_liang_fan", "rules": {"dian_gang_hua": "dian_pao", "men_qing_fan": 1}}
    client = api_client(owner)
    response = client.post("/api/nights/", json.dumps(body), content_type="application/json")
    assert response.status_code == 201, response.json()
    rules = response.json()["rules"]
    assert rules["pattern_fan"] == {"dui_dui_hu": 2, "qing_dui": 4, "jiang_dui": 4}
    assert rules["dian_gang_hua"] == "dian_pao" and rules["men_qing_fan"] == 1 and rules["yao_jiu_jiang_dui"] is True
    # A 对对胡 on a discard at this night: 2 fan, x4.
    hand = client.post(f"/api/nights/{response.json()['id']}/hands/",
                       json.dumps({"events": [win(0, w(1, "dui_dui_hu")), win(0, w(2)), win(0, w(3, "qi_dui"))]}),
                       content_type="application/json")
    assert hand.status_code == 201, hand.json()
    assert [p["amount"] for p in hand.json()["result"]["payments"]] == ["4", "1", "4"]
    bad = client.post("/api/nights/", json.dumps({**body, "rules": {"pattern_fan": {"qing_dui": 11}}}),
                      content_type="application/json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["path"] == "rules.pattern_fan.qing_dui"


def test_the_night_form_takes_a_fan_table_and_the_yes_no_house_rules(owner, players):
    client = Client()
    client.force_login(owner)
    assert client.get("/nights/new/").status_code == 200
    data = {"title": "番表夜", "date": "2026-11-28", "venue": "", "player_0": "张三", "player_1": "李四",
            "player_2": "王五", "player_3": "新人", "first_dealer": "0", "base": "1", "stake": "money", "currency": "",
            "preset": "chengdu", "scorekeepers": "", "members": "",
            "rule_kong_direct": "2", "rule_kong_added": "1", "rule_kong_concealed": "2", "rule_gang_shang_hua_fan": "1",
            "rule_qiang_gang_hu_fan": "0", "rule_robbable_kongs": "added", "rule_self_draw_bonus": "none",
            "rule_max_fan": "", "rule_cha_jiao": "min", "rule_kong_refund": "on", "rule_hua_zhu_fan": "",
            "rule_hai_di_fan": "0", "rule_jin_gou_diao_fan": "0", "rule_dealer_when_no_winner": "stay",
            "rule_pattern_fan__dui_dui_hu": "2", "rule_yao_jiu_jiang_dui": "False", "rule_dian_gang_hua": "dian_pao"}
    response = client.post("/nights/new/", data)
    night = Night.objects.get(title="番表夜")
    assert response.status_code == 302
    assert night.rules["pattern_fan"] == {"dui_dui_hu": 2} and night.rules["yao_jiu_jiang_dui"] is False
    assert night.rules["dian_gang_hua"] == "dian_pao" and night.rules["tian_hu_fan"] == 5  # not posted: the default
    data.update(title="坏番表", rule_pattern_fan__qing_dui="11")
    refused = client.post("/nights/new/", data)
    assert refused.status_code == 200 and not Night.objects.filter(title="坏番表").exists()


def test_a_group_s_default_rules_take_the_house_rules(group, owner):
    url = f"/api/groups/{group.pk}/"
    client = api_client(owner)
    response = client.patch(url, json.dumps({"defaults": {"preset": "men_qing_zhong_zhang",
                                                          "rules": {"pattern_fan": {"long_qi_dui": 3}}}}),
                            content_type="application/json")
    assert response.status_code == 200, response.json()
    assert response.json()["defaults"]["rules"] == {"pattern_fan": {"long_qi_dui": 3}}
    bad = client.patch(url, json.dumps({"defaults": {"rules": {"pattern_fan": {"long_qi_dui": 30}}}}),
                       content_type="application/json")
    assert bad.status_code == 400


def test_the_house_rules_are_said_in_words_in_both_languages(db):
    from django.utils import translation

    from ledger.presenters.nights import house_rules_words

    rules = {"pattern_fan": {"dui_dui_hu": 2}, "dian_gang_hua": "dian_pao", "men_qing_fan": 1, "zhong_zhang_fan": 1}
    with translation.override("zh-hans"):
        assert house_rules_words(rules) == "对对胡 2番 · 点杠花算点炮 · 门清中张各加 1番"
        assert house_rules_words({}) == "" and house_rules_words({"pattern_fan": {"dui_dui_hu": 1}}) == ""
        assert house_rules_words({"yao_jiu_jiang_dui": False, "jiang_qi_dui_fan": 0, "hai_di_pao_fan": 2}) == (
            "不算幺九将对 · 海底炮加 2番")
    with translation.override("en"):
        assert house_rules_words(rules) == ("all pongs 2 fan · a bloom after a fed kong is paid as a discard · "
                                            "concealed hand and no terminals +1 fan each")
    # The table's shape (RULES.md §9) first: a 3-player 两房 血流 night said nothing of it.
    shaped = {"mode": "xue_liu", "players": 3, "suits": "ps", "pattern_fan": {"dui_dui_hu": 2}}
    with translation.override("zh-hans"):
        assert house_rules_words(shaped) == "血流成河 · 3 人 · 两房（筒条） · 对对胡 2番"
        assert house_rules_words({"mode": "xue_zhan", "players": 4, "suits": "mps"}) == ""
    with translation.override("en"):
        assert house_rules_words(shaped) == "blood river (xue liu) · 3 players · two suits (p, s) · all pongs 2 fan"
        # One case through the list (a walk: "Call transfer: yes · … · a bloom … · A three-suit hand …").
        said = house_rules_words({"players": 3, "call_transfer": True, "hua_zhu": True, "hua_zhu_pays_winners": True})
        assert said.startswith("3 players · call transfer · three-suit penalty"), said
    # The standard alternatives of §8 a table chose are said too (its cap was nowhere on the table page).
    from scoring import PRESETS
    with translation.override("zh-hans"):
        assert house_rules_words(PRESETS["club"]) == "封顶 4番 · 自摸加底 · 查叫按：查大"
        assert house_rules_words({"dealer_when_no_winner": "next", "hua_zhu": True, "hua_zhu_fan": 3}) == (
            "查花猪 · 花猪赔 3番 · 流局下家坐庄")  # turned on, an option says its name (a walk: 查花猪：是)
        assert house_rules_words(PRESETS["biao_zhun"]) == "标准（胡一家就结束） · 杠不收钱"
        assert house_rules_words({"kong_refund": False, "max_fan": 3}) == "封顶 3番 · 不退杠钱（退税）"
    with translation.override("en"):
        assert house_rules_words({"kong_refund": False, "max_fan": 3}) == "capped at 3 fan · no kong refund (退税)"
        assert house_rules_words(PRESETS["club"]).startswith("capped at 4 fan · self-draw +1 base · ")


def test_the_text_summary_says_what_the_table_plays(owner):
    import datetime

    from ledger.reports.context import ToPay
    from ledger.reports.text import summary

    night = Night(title="周六", date=datetime.date(2026, 11, 28), rules={"dian_gang_hua": "dian_pao"})
    assert "本桌玩法：点杠花算点炮" in summary(night, [], ToPay([]), 0)
    assert "本桌玩法" not in summary(Night(title="周日", date=datetime.date(2026, 11, 29), rules={}), [], ToPay([]), 0)


def test_analyse_reads_tiles_at_a_table_s_fans_when_given_its_rules(db):
    def analyse(body):
        return api_client().post("/api/analyse/", json.dumps(body), content_type="application/json",
                                 HTTP_ACCEPT_LANGUAGE="en")

    assert analyse({"tiles": "222555888m55588p"}).json()["pattern"] == "jiang_dui"
    off = analyse({"tiles": "222555888m55588p", "rules": {"yao_jiu_jiang_dui": False}}).json()
    assert (off["pattern"], off["fan"]) == ("dui_dui_hu", 1)
    ready = analyse({"tiles": "111444777m2228p", "ready": True, "rules": {"pattern_fan": {"dui_dui_hu": 2}}}).json()
    assert ready["waits"] == [{"tile": "8p", "pattern": "dui_dui_hu", "roots": 0, "fan": 2}]
    bad = analyse({"tiles": "222555888m55588p", "rules": {"pattern_fan": {"x": 1}}})
    assert bad.status_code == 400 and bad.json()["errors"][0]["path"] == "rules.pattern_fan.x"


def test_hands_in_words_name_the_new_patterns_and_flags(db):
    from django.utils import translation

    from ledger.presenters.nights import describe, hand_words

    doc = {"rules": {"jiang_qi_dui_fan": 4, "men_qing_fan": 1, "hai_di_pao_fan": 1},
           "events": [win(0, {"player": 2, "tiles": "22225588m225588p", "flags": ["hai_di_pao"]})], "exhausted": True}
    result = score_hand(doc).as_dict()
    names = ["甲", "乙", "丙", "丁"]
    assert describe(names, doc, result, hand_words("zh-hans"))[0] == "甲 点炮 丙 将七对 带1根 海底炮 门清 7番，甲付128"
    with translation.override("en"):  # hand_words caches by language: translate under the one it is asked for
        english = describe(names, doc, result, hand_words("en"))[0]
    assert "2-5-8 seven pairs" in english and "last discard of the wall" in english and "concealed hand" in english
