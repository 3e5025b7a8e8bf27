"""血流成河 in the ledger: a hand holds many wins, several by one player, and every layer counts each win — the
seat results and win rows, the statistics (wins, biggest single win, favourite patterns; the win rate counts a hand won once), a
per-win table fee, the hand card, the CSV, the backup, and the migration of an older database."""
import gzip
import json
import shutil
import sqlite3
import datetime as dt
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.test import Client

from ledger.services import nights as services
from ledger.models import SeatResult, WinResult
from ledger.reports import render
from ledger.reports.backup import import_night
from ledger.reports.context import night_report
from ledger.selectors.nights import night_totals
from ledger.selectors.stats import compute_player_history, _group_leaderboard
from scoring import score_hand

from tests.hand_helpers import w, win
from tests.factories import COPY, manage, run_manage

#: At a three-seat 血流 table, base 1, P0 wins three times: self-draws 平胡 (1 from each: +2), self-draws 清一色
#: (2 fan, 4 from each: +8), wins 平胡 on P1's discard (+1); P2 self-draws 平胡 (1 from each of P0 and P1). At 查叫
#: the past winners P0 and P2 are ready (0 fan) and P1, not ready, pays each of them 1.
#: P0: 2 + 8 + 1 − 1 + 1 = 11; P1: −1 − 4 − 1 − 1 − 2 = −9; P2: −1 − 4 + 2 + 1 = −2.
THREE_WINS = {"events": [win(None, w(0)), win(None, w(0, "qing_yi_se")), win(1, w(0)), win(None, w(2))],
              "exhausted": True, "ready": {"0": {"fan": 0}, "2": {"fan": 0}}}
THREE_WINS_NET = ["11", "-9", "-2"]
RULES = {"mode": "xue_liu", "players": 3}


def river_night(owner, group, **kwargs):
    players = [services.player_get_or_create(name=n, group=group) for n in ("张三", "李四", "王五")]
    return services.night_create(owner=owner, title="血流", date=dt.date(2026, 11, 28), base=Decimal(1),
                                 players=players, first_dealer=0, preset="xue_liu", rule_overrides={"players": 3},
                                 **kwargs)


def test_the_hand_worked_out_by_hand_is_the_engines():
    assert score_hand({"base": "1", "dealer": 0, "rules": RULES, **THREE_WINS}).as_dict()["net"] == THREE_WINS_NET


def test_each_win_is_a_row_and_the_seat_counts_its_wins(owner, group):
    night = river_night(owner, group)
    hand = services.hand_record(night=night, by=owner, entry=THREE_WINS)
    revision = hand.current
    assert revision.result["net"] == THREE_WINS_NET
    seat = SeatResult.objects.get(revision=revision, seat=0)
    assert (seat.won, seat.wins, seat.self_draws, seat.pattern, seat.fan) == (True, 3, 2, "qing_yi_se", 2)
    assert seat.won_amount == Decimal(11)  # 2 + 8 + 1: what the three wins themselves brought
    assert SeatResult.objects.get(revision=revision, seat=1).dealt_in == 1
    rows = list(WinResult.objects.filter(revision=revision).values_list("event", "seat", "pattern", "fan", "amount",
                                                                        "self_drawn"))
    assert rows == [(0, 0, "ping_hu", 0, Decimal(2), True), (1, 0, "qing_yi_se", 2, Decimal(8), True),
                    (2, 0, "ping_hu", 0, Decimal(1), False), (3, 2, "ping_hu", 0, Decimal(2), True)]
    # A correction writes the new revision's wins; the old ones stay with the old revision, out of the stats.
    services.hand_correct(hand=hand, by=owner, entry={**THREE_WINS, "events": THREE_WINS["events"][:2] + [
        win(None, w(2))]}, reason="少记了")
    assert WinResult.objects.filter(revision=hand.current).count() == 3


def test_the_statistics_count_every_win(owner, group):
    night = river_night(owner, group)
    services.hand_record(night=night, by=owner, entry=THREE_WINS)
    zhang = services.player_get_or_create(name="张三", group=group)
    history = compute_player_history(zhang)
    assert (history.totals.hands, history.totals.wins, history.totals.self_draws) == (1, 3, 2)
    # Three wins in one hand: the win rate counts the hand once (hands won among hands played, 0 to 1).
    assert history.totals.win_rate == Decimal("1.0000") and history.totals.won_hands == 1
    biggest = history.biggest[0]
    assert (biggest.pattern, biggest.fan, biggest.won_amount, biggest.self_drawn) == ("qing_yi_se", 2, Decimal(8), True)
    assert len(history.biggest) == 3
    assert [(f.pattern, f.wins) for f in history.favourites] == [("ping_hu", 2), ("qing_yi_se", 1)]
    board = {s.name: s.wins for s in _group_leaderboard(group, None, None)}
    assert board == {"张三": 3, "李四": 0, "王五": 1}
    api = Client()
    api.force_login(owner)
    stats = api.get(f"/api/players/{zhang.pk}/stats/").json()
    assert stats["totals"]["wins"] == 3 and stats["biggest_hands"][0]["won_amount"] == "8"
    assert stats["totals"]["win_rate"] == "1.0000"
    services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1))], "exhausted": True,
                                                       "ready": {"1": {"fan": 0}}})  # a past winner is ready
    rates = {s.name: (s.wins, s.win_rate) for s in _group_leaderboard(group, None, None)}
    assert rates["张三"] == (3, Decimal("0.5000")) and rates["李四"] == (1, Decimal("0.5000"))
    board = api.get(f"/groups/{group.pk}/leaderboard/?range=all").content.decode()  # and the page says how it counts
    assert "胡 = 胡牌次数（血流成河一局可胡几次），胡牌率 = 胡了牌的局 ÷ 局数" in board


def test_a_per_win_fee_takes_each_win(owner, group):
    night = river_night(owner, group, fee={"mode": "per_win", "amount": "1"})
    services.hand_record(night=night, by=owner, entry=THREE_WINS)
    services.night_close(night=night, by=owner)
    totals = {t.player.name: (t.amount, t.fee) for t in night_totals(night)}
    assert totals == {"张三": (Decimal(8), Decimal(3)), "李四": (Decimal(-9), Decimal(0)),
                      "王五": (Decimal(-3), Decimal(1))}


def test_the_hand_card_the_csv_and_the_pdf_show_all_wins(owner, group):
    night = river_night(owner, group)
    services.hand_record(night=night, by=owner, entry=THREE_WINS)
    report = night_report(night)
    [lines] = report.lines()
    assert sum(line.startswith("张三 自摸") or line.startswith("李四 点炮 张三") for line in lines) == 3, lines
    stats = {s.name: s for s in report.stats}
    assert (stats["张三"].wins, stats["张三"].self_draws, stats["张三"].biggest["pattern"]) == (3, 2, "qing_yi_se")
    hands_csv = render("hands.csv", report, "zh")[2].decode("utf-8-sig")
    assert all(line in hands_csv for line in lines)
    client = Client()
    client.force_login(owner)
    page = client.get(f"/nights/{night.pk}/hands/").content.decode()
    assert all(line in page for line in lines)
    assert render("pdf", report, "zh")[2].startswith(b"%PDF")


@pytest.mark.django_db(transaction=True)
def test_a_three_player_blood_river_backup_round_trips(owner, group):
    night = river_night(owner, group)
    services.hand_record(night=night, by=owner, entry=THREE_WINS)
    first = render("json", night_report(night), "zh")[2]
    call_command("flush", interactive=False, verbosity=0)
    restored = import_night(json.loads(first))
    assert restored.night.rules["mode"] == "xue_liu" and restored.night.seat_count == 3
    assert render("json", night_report(restored.night), "zh")[2] == first
    assert WinResult.objects.filter(player__name="张三").count() == 3
    assert SeatResult.objects.get(player__name="张三").wins == 3


def test_the_migration_on_a_copy_of_the_demo_database_counts_the_wins_of_each_hand(tmp_path):
    database = tmp_path / "demo.sqlite3"
    with gzip.open(COPY) as source, open(database, "wb") as target:
        shutil.copyfileobj(source, target)
    manage(database, "migrate", "-v0")
    # One stored hand of the last release's demo puts 杠上炮 on one of two winners, which RULES.md §7 now refuses;
    # it keeps its money and check_ledger names it (tests/migrations/test_migration_demo_copy.py). Nothing else differs.
    checked = run_manage(database, "check_ledger")
    assert "1 differences; 2 nights, 25 hands" in checked.stderr, checked.stderr[-3000:]
    with sqlite3.connect(database) as db:
        results = [json.loads(r) for (r,) in db.execute("SELECT result FROM ledger_handrevision")]
        wins = sum(len(r["wins"]) for r in results)
        assert db.execute("SELECT COUNT(*) FROM ledger_winresult").fetchone()[0] == wins > 0
        assert db.execute("SELECT SUM(wins) FROM ledger_seatresult").fetchone()[0] == wins
        # 血战 before: a seat won at most once a hand, so the counts are the old flags.
        assert db.execute("SELECT COUNT(*) FROM ledger_seatresult WHERE wins != won").fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM ledger_handrevision WHERE player_3_id IS NULL").fetchone()[0] == 0
        assert db.execute("SELECT SUM(amount) FROM ledger_winresult").fetchone()[0] == pytest.approx(
            db.execute("SELECT SUM(won_amount) FROM ledger_seatresult").fetchone()[0])
