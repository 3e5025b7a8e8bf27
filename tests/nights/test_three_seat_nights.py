"""Nights of three and two seats through every layer of the ledger (RULES.md §9 `players`): seating, totals,
corrections, voids, substitutes, table fees, history, reports, backups, and an evening mixing a table of three
with a table of four in one settlement."""
import csv
import datetime as dt
import io
import json
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.test import Client

from ledger.services import nights as services
from ledger.services import evenings
from ledger.models import HandRevision, Night, SeatResult
from ledger.reports import render
from ledger.reports.backup import export_night, import_night
from ledger.reports.context import night_report
from ledger.selectors.nights import night_nets, night_totals
from ledger.selectors.stats import compute_player_history
from scoring import ScoringError

from tests.conftest import api_client
from tests.hand_helpers import kong, w, win

DATE = dt.date(2026, 11, 28)
#: 三人两房 hands at base 1 (worked out by hand; each also re-scored by the engine when recorded):
#: P0 self-draws 清一色 (2 fan: 4 from each of two), then P2 deals into P1's 平胡 (1): two of three have won.
SELF_AND_DISCARD = {"events": [win(None, w(0, "qing_yi_se")), win(2, w(1))]}
SELF_AND_DISCARD_NET = ["8", "-3", "-5"]
#: P1's concealed kong (2 from each of P0 and P2), P0 deals into P2's 对对胡 (1 fan: 2); the wall runs out with
#: P1 ready at 1 fan: P0, not ready, pays P1 2 for 查叫, and P1 keeps the kong money.
KONG_AND_CHA_JIAO = {"events": [kong(1, "concealed"), win(0, w(2, "dui_dui_hu"))], "exhausted": True,
                     "ready": {"1": {"fan": 1}}}
KONG_AND_CHA_JIAO_NET = ["-6", "6", "0"]


def three_seat_night(owner, group, names=("张三", "李四", "王五"), **kwargs):
    players = [services.player_get_or_create(name=n, group=group) for n in names]
    kwargs.setdefault("preset", "san_ren_liang_fang")
    return services.night_create(owner=owner, title="三人", date=DATE, base=Decimal(1), players=players,
                                 first_dealer=0, **kwargs)


def test_a_three_seat_night_seats_three_and_records_totals(owner, group):
    night = three_seat_night(owner, group)
    assert night.seat_count == 3 and night.seat_names == ["张三", "李四", "王五"]
    assert night.rules["players"] == 3 and night.rules["suits"] == "ps"
    first = services.hand_record(night=night, by=owner, entry=SELF_AND_DISCARD)
    services.hand_record(night=night, by=owner, entry=KONG_AND_CHA_JIAO)
    revision = first.current
    assert revision.result["net"] == SELF_AND_DISCARD_NET
    assert revision.player_3 is None and revision.seat_results.count() == 3 and revision.names == ["张三", "李四", "王五"]
    assert SeatResult.objects.filter(revision=revision).count() == 3
    totals = {t.player.name: t.amount for t in night_totals(night)}
    assert totals == {"张三": Decimal(2), "李四": Decimal(3), "王五": Decimal(-5)}
    # The next dealer: P0 won first in hand 1, P2 (the first winner) in hand 2; the third hand's dealer is P2.
    assert services.night_next_dealer(Night.objects.get(pk=night.pk)) == 2


def test_corrections_voids_and_a_substitute_at_three_seats(owner, group):
    night = three_seat_night(owner, group)
    hand = services.hand_record(night=night, by=owner, entry=SELF_AND_DISCARD)
    services.hand_correct(hand=hand, by=owner, entry=KONG_AND_CHA_JIAO, reason="记错了")
    assert hand.current.result["net"] == KONG_AND_CHA_JIAO_NET and hand.revisions.count() == 2
    newcomer = services.player_get_or_create(name="新人", group=group)
    services.seat_change(night=night, by=owner, seat=2, player=newcomer)
    with pytest.raises(ValidationError) as caught:
        services.seat_change(night=night, by=owner, seat=3, player=newcomer)
    assert list(caught.value.message_dict) == ["seat"]
    second = services.hand_record(night=night, by=owner, entry=SELF_AND_DISCARD)
    assert second.current.names == ["张三", "李四", "新人"]
    totals = {t.player.name: t.amount for t in night_totals(night)}
    assert totals == {"张三": Decimal(2), "李四": Decimal(3), "新人": Decimal(-5), "王五": Decimal(0)}
    services.hand_void(hand=second, by=owner, reason="重来")
    assert night_nets(night) == {p.pk: Decimal(n) for p, n in zip(hand.current.players, KONG_AND_CHA_JIAO_NET)}


def test_a_seat_the_table_lacks_or_a_changed_shape_is_refused_and_writes_nothing(owner, group):
    night = three_seat_night(owner, group)
    services.hand_record(night=night, by=owner, entry=SELF_AND_DISCARD)
    with pytest.raises(ScoringError) as caught:
        services.hand_record(night=night, by=owner, entry={"events": [win(None, w(3))]})
    assert caught.value.problems[0].path == "events[0].winners[0].player"
    # The shape is frozen with the rules: an entry cannot bring its own (players, suits, mode), nor a dealer
    # outside the table.
    with pytest.raises(ScoringError) as caught:
        services.hand_record(night=night, by=owner, entry={**SELF_AND_DISCARD, "rules": {"players": 4}})
    assert [p.path for p in caught.value.problems] == ["rules"]
    with pytest.raises(ScoringError) as caught:
        services.hand_record(night=night, by=owner, entry=SELF_AND_DISCARD, dealer=3)
    assert caught.value.problems[0].path == "dealer"
    assert night.hands.count() == 1
    response = api_client(owner).post(f"/api/nights/{night.pk}/hands/", {**SELF_AND_DISCARD, "rules": {"players": 4}},
                                      format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and response.json()["errors"] == [{"path": "rules", "message": (
        "'rules' is frozen with the night (its rules: players, suits, mode and the rest, set when it starts): "
        "a hand cannot change it")}]
    zh = api_client(owner).post(f"/api/nights/{night.pk}/hands/", {**SELF_AND_DISCARD, "players": 4}, format="json")
    assert zh.json()["errors"] == [{"path": "players",
                                    "message": "“players”随牌局固定（规则：人数、几房、玩法等，开局时定下）：一局不能改"}]
    assert night.hands.count() == 1


def test_a_two_seat_night_faces_two_players(owner, group):
    night = three_seat_night(owner, group, names=("张三", "李四"), preset="liang_ren_liang_fang")
    hand = services.hand_record(night=night, by=owner, entry={"events": [win(1, w(0, "qing_yi_se"))]})
    assert hand.current.result["net"] == ["4", "-4"] and hand.current.player_2 is None
    assert {t.player.name: t.amount for t in night_totals(night)} == {"张三": Decimal(4), "李四": Decimal(-4)}
    with pytest.raises(ValidationError) as caught:
        three_seat_night(owner, group, names=("张三", "李四", "王五"), preset="liang_ren_liang_fang")
    assert list(caught.value.message_dict) == ["players"]


def test_a_per_player_fee_and_the_history_at_three_seats(owner, group):
    night = three_seat_night(owner, group, fee={"mode": "per_player", "amount": "1"})
    services.hand_record(night=night, by=owner, entry=SELF_AND_DISCARD)
    services.night_close(night=night, by=owner)
    totals = {t.player.name: t.amount for t in night_totals(night)}
    assert totals == {"张三": Decimal(7), "李四": Decimal(-4), "王五": Decimal(-6)}
    zhang = services.player_get_or_create(name="张三", group=group)
    history = compute_player_history(zhang)
    assert (history.totals.hands, history.totals.wins, history.totals.net) == (1, 1, Decimal(7))


def test_an_evening_of_a_three_and_a_four_seat_table_settles_over_everyone(owner, group):
    evening = evenings.evening_create(by=owner, group=group, title="周六", date=DATE)
    three = three_seat_night(owner, group, evening=evening)
    services.hand_record(night=three, by=owner, entry=SELF_AND_DISCARD)
    four_players = [services.player_get_or_create(name=n, group=group) for n in ("赵六", "孙七", "周八", "吴九")]
    four = services.night_create(owner=owner, title="四人", date=DATE, base=Decimal(1), players=four_players,
                                 first_dealer=0, evening=evening)
    services.hand_record(night=four, by=owner, entry={"events": [win(None, w(0))], "exhausted": True})
    for night in (three, four):
        services.night_close(night=night, by=owner)
    settlement = evenings.settle_evening(by=owner, evening=evening)
    moved: dict[str, Decimal] = {}
    for t in settlement.transfers.select_related("payer", "payee"):
        moved[t.payer.name] = moved.get(t.payer.name, Decimal(0)) - t.amount
        moved[t.payee.name] = moved.get(t.payee.name, Decimal(0)) + t.amount
    assert {k: v for k, v in moved.items() if v} == {"张三": Decimal(8), "李四": Decimal(-3), "王五": Decimal(-5),
                                                      "赵六": Decimal(3), "孙七": Decimal(-1), "周八": Decimal(-1),
                                                      "吴九": Decimal(-1)}


def test_the_reports_have_a_column_per_seat_of_the_table(owner, group):
    night = three_seat_night(owner, group)
    services.hand_record(night=night, by=owner, entry=SELF_AND_DISCARD)
    report = night_report(night)
    rows = list(csv.reader(io.StringIO(render("hands.csv", report, "zh")[2].decode("utf-8-sig"))))
    assert rows[0][5:11] == ["玩家1", "玩家2", "玩家3", "输赢1", "输赢2", "输赢3"] and len(rows[0]) == 13
    assert rows[1][8:11] == ["+8", "-3", "-5"]
    assert rows[1][5:8] == ["张三", "李四", "王五"]
    assert len(rows[1]) == 13
    pdf = render("pdf", report, "zh")[2]
    assert pdf.startswith(b"%PDF")
    client = Client()
    client.force_login(owner)
    for url in (f"/nights/{night.pk}/", f"/nights/{night.pk}/hands/", f"/nights/{night.pk}/settle/"):
        assert client.get(url).status_code == 200, url
    page = client.get(f"/nights/{night.pk}/").content.decode()
    assert 'class="seats seats-3"' in page and 'data-seat="3"' not in page and page.count('data-seat="2"') == 1


@pytest.mark.django_db(transaction=True)
def test_a_three_seat_backup_round_trips(owner, group):
    night = three_seat_night(owner, group)
    services.hand_record(night=night, by=owner, entry=SELF_AND_DISCARD)
    services.hand_record(night=night, by=owner, entry=KONG_AND_CHA_JIAO)
    first = render("json", night_report(night), "zh")[2]
    doc = json.loads(first)
    assert doc["seating"] == ["张三", "李四", "王五"]
    call_command("flush", interactive=False, verbosity=0)
    restored = import_night(doc)
    assert restored.created and restored.night.seat_count == 3
    assert render("json", night_report(restored.night), "zh")[2] == first
    assert HandRevision.objects.filter(player_3__isnull=True).count() == 2
    assert export_night(restored.night) == doc


@pytest.mark.django_db(transaction=True)
def test_a_three_seat_backup_with_a_fourth_seat_or_dealer_is_refused_where_and_nothing_is_written(owner, group):
    from ledger.reports.backup import BackupError

    from tests.report_helpers import unsigned
    night = three_seat_night(owner, group)
    services.hand_record(night=night, by=owner, entry=SELF_AND_DISCARD)
    doc = export_night(night)
    call_command("flush", interactive=False, verbosity=0)
    doc["night"]["first_dealer"] = 3
    doc["hands"][0]["revisions"][0]["players"] = ["张三", "李四", "王五", "张三"]
    with pytest.raises(BackupError) as refused:
        import_night(unsigned(doc))  # an edited file (the operator's import: checked all the same)
    paths = [e["path"] for e in refused.value.errors]
    assert "night.first_dealer" in paths and "hands[0].revisions[0].players" in paths, refused.value.errors
    message = next(e["message"] for e in refused.value.errors if e["path"] == "hands[0].revisions[0].players")
    assert "3 个座位" in message
    assert Night.objects.count() == 0


def test_the_form_and_the_rules_page_offer_every_preset_and_a_preset_is_editable(owner):
    from ledger.forms.nights import PRESET_LABELS, PRESET_TEXT
    from scoring import PRESETS
    client = Client()
    client.force_login(owner)
    form = client.get("/nights/new/").content.decode()
    assert all(f'value="{name}"' in form for name in PRESETS)
    rules = client.get("/rules/").content.decode()
    assert all(str(PRESET_LABELS[name]) in rules and str(PRESET_TEXT[name]) in rules for name in PRESETS)
    # Editable before the night starts: 三人两房 with direct kongs at 1 and 查大.
    made = api_client(owner).post("/api/nights/", {"title": "三人", "date": "2026-11-28", "base": "1",
                                                   "players": ["甲", "乙", "丙"], "preset": "san_ren_liang_fang",
                                                   "rules": {"kong_direct": 1, "cha_jiao": "max"}}, format="json")
    assert made.status_code == 201
    rules_of = made.json()["rules"]
    assert (rules_of["players"], rules_of["suits"], rules_of["kong_direct"], rules_of["cha_jiao"]) == (3, "ps", 1, "max")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_tile_typing_hint_of_a_two_suit_table_is_a_hand_it_can_hold(owner, group, lang):
    """The keypad's example at a 两房 table (筒 and 条 only) uses 条, not the 万 the table refuses."""
    from tests.factories import page_client as client_for
    night = three_seat_night(owner, group)
    page = client_for(owner, lang).get(f"/nights/{night.pk}/").content.decode()
    config = json.loads(page.split('<script id="table-config" type="application/json">')[1].split("</script>")[0])
    assert config["strings"]["tilesHint"].endswith("11223345678999s")
    usual = three_seat_night(owner, group, preset="chengdu", names=("甲", "乙", "丙", "丁"))
    page = client_for(owner, lang).get(f"/nights/{usual.pk}/").content.decode()
    assert "11223345678999m" in page and "11223345678999s" not in page
