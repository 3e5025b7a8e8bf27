"""What the table page and the settle page say about money and the table: the base and each transfer in the
night's stake (¥, 分 or the currency, as the reports and the text to share say it), the table's shape and house
rules under its title, and what a 诈胡 costs at each fan before it is recorded."""
import datetime as dt
import json
import re
from decimal import Decimal

from django.test import Client
from django.urls import reverse
from django.utils import translation

from ledger.presenters.nights import zha_hu_amounts
from ledger.services import nights as services
from ledger.selectors.nights import night_seating
from ledger.services.adjustments import adjustment_record
from ledger.services.sharing import link_renew

from tests.factories import page_client as signed_in
from tests.hand_helpers import w, win


def a_night(owner, group, names=("张三", "李四", "王五", "赵六"), **kwargs):
    players = [services.player_get_or_create(name=n, group=group) for n in names]
    return services.night_create(owner=owner, title="周六", date=dt.date(2026, 12, 5), base=kwargs.pop("base", Decimal(1)),
                                 players=players, first_dealer=0, **kwargs)


def head_of(page):
    return re.search(r'<div class="table-head" data-live="head">(.*?)</div>', page, re.S).group(1)


def test_the_head_gives_the_base_in_the_nights_stake(owner, group):
    cases = [({}, "底金 ¥1"), ({"stake": "points"}, "底分 1 分"), ({"currency": "EUR"}, "底金 1 EUR")]
    for kwargs, words in cases:
        night = a_night(owner, group, **kwargs)
        head = head_of(signed_in(owner).get(reverse("night-table", args=[night.pk])).content.decode())
        assert words in head, (kwargs, head)


def test_the_head_names_a_smaller_tables_shape_and_house_rules_and_the_usual_table_says_nothing(owner, group):
    usual = a_night(owner, group)
    head = head_of(signed_in(owner).get(reverse("night-table", args=[usual.pk])).content.decode())
    assert "本桌玩法" not in head
    river = a_night(owner, group, names=("张三", "李四", "王五"), preset="san_ren_liang_fang",
                    rule_overrides={"mode": "xue_liu", "pattern_fan": {"dui_dui_hu": 2}})
    head = head_of(signed_in(owner).get(reverse("night-table", args=[river.pk])).content.decode())
    assert re.search(r"本桌玩法：血流成河 · 3 人 · 两房（筒条） · 对对胡 2番", head), head
    client = signed_in(owner)
    client.cookies["django_language"] = "en"
    head = head_of(client.get(reverse("night-table", args=[river.pk])).content.decode())
    assert "This table plays: " in head and "3 players" in head


def test_a_false_win_costs_the_base_times_two_to_the_fan_from_each_other_player(owner, group):
    four = a_night(owner, group, base=Decimal(2))  # no cap: a blank fan is 4
    with translation.override("zh-hans"):
        amounts = zha_hu_amounts(four)
    assert amounts["0"] == "赔每家 ¥2，共 ¥6（0番）"
    assert amounts["3"] == "赔每家 ¥16，共 ¥48（3番）"
    assert amounts["default"] == amounts["4"] == "赔每家 ¥32，共 ¥96（4番）"
    assert sorted(int(k) for k in amounts if k != "default") == list(range(21))
    three = a_night(owner, group, names=("张三", "李四", "王五"), base=Decimal("0.5"), stake="points",
                    preset="san_ren_liang_fang", rule_overrides={"max_fan": 3})
    with translation.override("zh-hans"):
        amounts = zha_hu_amounts(three)
    assert amounts["default"] == amounts["3"] == "赔每家 4 分，共 8 分（3番）"  # the cap, from each of the two others
    with translation.override("en"):
        assert zha_hu_amounts(three)["2"] == "Pays each other player 2 points, 4 points in all (2 fan)"
        assert zha_hu_amounts(three)["1"] == "Pays each other player 1 point, 2 points in all (1 fan)"
        assert zha_hu_amounts(three)["0"] == "Pays each other player 0.5 points, 1 point in all (0 fan)"


def test_the_table_page_carries_each_fans_cost_beside_the_false_win_form(owner, group):
    night = a_night(owner, group, base=Decimal(2))
    page = signed_in(owner).get(reverse("night-table", args=[night.pk])).content.decode()
    assert '<span class="muted zha-hu-cost" aria-live="polite">赔每家 ¥32，共 ¥96（4番）</span>' in page
    carried = json.loads(re.search(r'<script id="zha-hu-amounts" type="application/json">(.*?)</script>', page).group(1))
    assert carried["2"] == "赔每家 ¥8，共 ¥24（2番）"
    assert "ledger/adjust.js" in page
    form = signed_in(owner).get(reverse("adjustment-create", args=[night.pk])).content.decode()
    assert "zha-hu-cost" in form and "ledger/adjust.js" in form
    # Sent back with an error, the line reads the field as the script does: a fan it takes, else nothing.
    from ledger.templatetags.presenters import zha_hu_cost
    with translation.override("zh-hans"):
        amounts = zha_hu_amounts(night)
        assert zha_hu_cost(amounts, "03") == zha_hu_cost(amounts, 3) == "赔每家 ¥16，共 ¥48（3番）"
        assert zha_hu_cost(amounts, "25") == zha_hu_cost(amounts, "abc") == zha_hu_cost(amounts, "-1") == ""
        assert zha_hu_cost(amounts, "") == zha_hu_cost(amounts, None) == "赔每家 ¥32，共 ¥96（4番）"
    # Correcting one, the line says what its fan costs before any script runs.
    adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": 1, "fan": 3})
    form = signed_in(owner).get(reverse("adjustment-correct", args=[night.pk, 1])).content.decode()
    assert '<span class="muted zha-hu-cost" aria-live="polite">赔每家 ¥16，共 ¥48（3番）</span>' in form


def test_the_settle_pages_transfers_are_in_the_nights_stake(owner, group):
    for kwargs, amount in (({}, "¥1"), ({"stake": "points"}, "1 分")):
        night = a_night(owner, group, **kwargs)
        services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1))], "exhausted": True})
        page = signed_in(owner).get(reverse("night-settle", args=[night.pk])).content.decode()
        transfers = re.search(r'<ul class="transfers">(.*?)</ul>', page, re.S).group(1)
        assert f"<strong>{amount}</strong>" in transfers, transfers


def test_the_seat_change_offers_only_the_tables_seats_named_with_who_sits_there(owner, group):
    night = a_night(owner, group, names=("张三", "李四"), preset="liang_ren_liang_fang")
    client = signed_in(owner)
    page = client.get(reverse("hand-list", args=[night.pk])).content.decode()
    form = re.search(r'<select name="seat".*?</select>', page, re.S).group(0)
    assert re.findall(r'<option value="(\d)"[^>]*>([^<]*)</option>', form) == [("0", "东 · 张三"), ("1", "南 · 李四")]
    refused = client.post(reverse("seat-change", args=[night.pk]), {"seat": "2", "player": "王五"}, follow=True)
    assert "请选择座位并填写玩家" in refused.content.decode()
    assert [p.name for p in night_seating(night)] == ["张三", "李四"]
    client.post(reverse("seat-change", args=[night.pk]), {"seat": "1", "player": "王五"})
    assert [p.name for p in night_seating(night)] == ["张三", "王五"]


def test_the_transfer_form_opens_on_two_different_seats(owner, group):
    night = a_night(owner, group)
    page = signed_in(owner).get(reverse("night-table", args=[night.pk])).content.decode()
    form = re.search(r'<form[^>]*id="adjust-transfer".*?</form>', page, re.S).group(0)
    chosen = {name: re.findall(r'<option value="(\d)" selected>', select)
              for name, select in re.findall(r'<select name="(from|to)".*?>(.*?)</select>', form, re.S)}
    assert chosen == {"from": [], "to": ["1"]}  # a select with none marked shows its first: 东 pays 南


def test_the_header_says_groups_in_english_and_the_link_switch_says_what_it_turns_off(owner, group):
    client = signed_in(owner)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("group-list")).content.decode()
    assert re.search(r'id="nav-groups">Groups</a>', page)
    night = a_night(owner, group)
    link_renew(night=night, by=owner, kind="invite")
    members = signed_in(owner).get(reverse("night-members", args=[night.pk])).content.decode()
    assert '<button name="action" value="invite-off" class="danger">关闭链接</button>' in members


def test_the_settle_form_offers_the_carry_over_only_when_something_is_unpaid(owner, group):
    first = a_night(owner, group)
    services.hand_record(night=first, by=owner, entry={"events": [win(None, w(1))], "exhausted": True})
    services.night_close(night=first, by=owner)
    page = signed_in(owner).get(reverse("night-settle", args=[first.pk])).content.decode()
    assert 'id="settle"' in page and 'name="include_carry"' not in page and "圈子里没有之前没付的转账" in page
    signed_in(owner).post(reverse("night-settle-up", args=[first.pk]), {})  # settled: its transfers are unpaid
    second = a_night(owner, group)
    services.hand_record(night=second, by=owner, entry={"events": [win(None, w(2))], "exhausted": True})
    services.night_close(night=second, by=owner)
    page = signed_in(owner).get(reverse("night-settle", args=[second.pk])).content.decode()
    assert '<input type="checkbox" name="include_carry">' in page and "圈子里还有 3 笔没付" in page



def test_the_payments_reasons_read_alike_in_english(owner, group):
    """In the preview each payment says its reason in brackets: in English all in lower case, like "(self-draw)"
    and "(discard)" (it read "(Ready check)" and "(Kong refund)" beside them), and as the CSV's reason column."""
    from ledger.presenters.nights import PAYMENT_REASONS, payment_reason

    night = a_night(owner, group)
    client = signed_in(owner)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("night-table", args=[night.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    config = json.loads(re.search(r'<script id="table-config" type="application/json">(.*?)</script>', page, re.S)[1])
    reasons = config["strings"]["reasons"]
    assert set(reasons) == set(PAYMENT_REASONS)
    assert reasons["cha_jiao"] == "ready check" and reasons["kong_refund"] == "kong refund"
    assert all(words[0].islower() for words in reasons.values()), reasons
    with translation.override("zh-hans"):
        assert [payment_reason(r) for r in PAYMENT_REASONS] == ["点炮", "自摸", "杠", "呼叫转移", "查叫", "查花猪", "退杠钱"]


def test_each_page_of_a_night_names_itself_in_the_browsers_tab(owner, group):
    """A walk: the hands, settle, audit and new-night pages all read 成都麻将记账 in the browser's tab. Each now names
    its night and page, or the page and the app; English pages use the same blocks (the titles' words are in the
    catalogues)."""
    night = a_night(owner, group)
    client = signed_in(owner)
    hand = services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1))], "exhausted": True})
    entry = night.audit.filter(hand=hand).get()
    pages = {"night-table": "周六 · 第 2 局", "hand-list": "周六 · 每局明细", "night-settle": "周六 · 结账",
             "night-audit": "周六 · 修改记录", "night-create": "新建牌局 · 成都麻将记账", "rules": "规则 · 成都麻将记账",
             "night-list": "我的牌局 · 成都麻将记账"}
    titles = {}
    for name, title in pages.items():
        args = [] if name in ("night-create", "rules", "night-list") else [night.pk]
        page = client.get(reverse(name, args=args)).content.decode()
        titles[name] = re.search(r"<title>(.*?)</title>", page, re.S).group(1).strip()
        assert titles[name] == title, (name, titles[name])
    page = client.get(reverse("night-audit-entry", args=[night.pk, entry.pk])).content.decode()
    assert "<title>周六 · 修改记录</title>" in page
    assert len(set(titles.values())) == len(titles)
    page = Client().get(reverse("login")).content.decode()
    assert "<title>登录 · 成都麻将记账</title>" in page
    # A page of no night or group names the app too (a tab reading 我的圈子 alone said nothing of what it was).
    for name in ("group-list", "group-create", "evening-create"):
        page = client.get(reverse(name)).content.decode()
        assert re.search(r"<title>(.*?)</title>", page, re.S).group(1).strip().endswith(" · 成都麻将记账"), name
    # A closed night's page says so in its tab, not the next hand's number (a walk: "Hand 12" of a closed night).
    services.night_close(night=night, by=owner)
    page = client.get(reverse("night-table", args=[night.pk])).content.decode()
    assert re.search(r"<title>(.*?)</title>", page, re.S).group(1).strip() == "周六 · 已结束"
