"""Adjustments (罚分/调整) and sign-offs (签字确认) in the reports (PDF, text, CSVs, chart), the backup (round trip;
a night without them exports as before) and the statistics (nets only)."""
import csv
import datetime as dt
import io
import json
import subprocess
from decimal import Decimal

import pytest
from django.core.management import call_command

from ledger.services import nights as services
from ledger.services.adjustments import adjustment_record, adjustment_void
from ledger.services.confirmations import night_confirm
from ledger.management.commands.demo import DEMO_HANDS
from ledger.models import AdjustmentSeat, Confirmation, Night
from ledger.reports import night_report, render
from ledger.reports.pdf import CHART_HEIGHTS, _chart_height
from ledger.reports.backup import export_night, import_night
from ledger.selectors.nights import night_totals
from ledger.selectors.stats import compute_player_history, group_leaderboard

LATE = {"kind": "transfer", "from": 0, "to": 3, "amount": "5.5", "reason": "迟到"}


def text_of(pdf: bytes) -> str:
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()


@pytest.fixture
def adjusted(night, owner, viewer, players):
    """Three hands; a 诈胡 after hand 1, a transfer after hand 2 and a voided 诈胡; closed; 王五 (the viewer's
    name) confirmed."""
    services.hand_record(night=night, by=owner, entry=DEMO_HANDS[0])
    adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": 1, "fan": 2})  # 李四 pays 8 each
    services.hand_record(night=night, by=owner, entry=DEMO_HANDS[1])
    adjustment_record(night=night, by=owner, data=LATE)
    voided = adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": 2, "fan": 0})
    adjustment_void(adjustment=voided, by=owner, reason="搞错了")
    services.hand_record(night=night, by=owner, entry=DEMO_HANDS[2])
    services.night_close(night=night, by=owner)
    players[2].user = viewer
    players[2].save()
    night_confirm(night=night, user=viewer)
    return Night.objects.get(pk=night.pk)


def hands_only(night):
    """Each player's net over the hands alone (every hand counts here: none is voided)."""
    nets = dict.fromkeys(("张三", "李四", "王五", "赵六"), Decimal(0))
    for hand in night.hands.all():
        revision = hand.current
        for seat, name in enumerate(revision.names):
            nets[name] += Decimal(revision.result["net"][seat])
    return nets


def test_the_totals_are_the_hands_plus_the_adjustments_that_count(adjusted):
    hands = hands_only(adjusted)
    extra = {"张三": Decimal("8") - Decimal("5.5"), "李四": Decimal("-24"), "王五": Decimal("8"),
             "赵六": Decimal("8") + Decimal("5.5")}
    assert {t.player.name: t.amount for t in night_totals(adjusted)} == {n: hands[n] + extra[n] for n in hands}


def test_page_one_holds_the_chart_the_adjustments_and_the_sign_offs_and_the_rules_start_page_two(adjusted, owner):
    """Page one is the night at a glance (and the picture shared to the group chat): totals, transfers, chart,
    adjustments and sign-offs, with two adjustments more than the fixture's; nothing of it spills onto a page of its
    own before the rules (sign-offs alone on page two, found by a walk at a table of two)."""
    closed_at = adjusted.closed_at
    Night.objects.filter(pk=adjusted.pk).update(is_closed=False, closed_at=None)
    for fan in (1, 2):
        adjustment_record(night=Night.objects.get(pk=adjusted.pk), by=owner,
                          data={"kind": "zha_hu", "player": 3, "fan": fan})
    Night.objects.filter(pk=adjusted.pk).update(is_closed=True, closed_at=closed_at)
    report = night_report(Night.objects.get(pk=adjusted.pk))
    pages = text_of(render("pdf", report, "zh")[2]).split("\f")
    first = pages[0]
    assert _chart_height(report, "zh") < CHART_HEIGHTS[0]  # a lower chart makes the room
    assert all(words in first for words in ("每人输赢", "最少转账", "累计输赢走势", "罚分/调整", "签字确认")), first
    assert "王五 · viewer 已确认" in first and "赵六 · 未确认" in first
    assert pages[1].lstrip().startswith("规则"), pages[1][:200]


def test_the_chart_keeps_its_height_where_page_one_has_room(night, owner, group):
    services.hand_record(night=night, by=owner, entry=DEMO_HANDS[0])
    assert _chart_height(night_report(night), "zh") == CHART_HEIGHTS[0]  # nothing follows the chart
    # Two players, one transfer: an adjustment and the sign-offs fit under the tallest chart.
    two = services.night_create(owner=owner, title="两人", date=dt.date(2026, 11, 28), base=Decimal(1),
                                players=[services.player_get_or_create(name=n, group=group) for n in ("甲", "乙")],
                                first_dealer=0, preset="liang_ren_liang_fang")
    services.hand_record(night=two, by=owner, entry={"events": [{"type": "win", "from": None, "winners": [
        {"player": 1, "pattern": "ping_hu", "roots": 0, "flags": []}]}]})
    adjustment_record(night=two, by=owner, data={"kind": "transfer", "from": 0, "to": 1, "amount": "5", "reason": "迟到"})
    services.night_close(night=two, by=owner)
    report = night_report(Night.objects.get(pk=two.pk))
    assert report.adjustments and report.signoffs
    assert _chart_height(report, "zh") == CHART_HEIGHTS[0]


def test_the_pdf_lists_the_adjustments_among_the_hands_and_who_confirmed(adjusted):
    text = text_of(render("pdf", night_report(adjusted), "zh")[2])
    assert "罚分/调整" in text and "诈胡：李四 赔每家 8（2番）" in text and "调整：张三 付 赵六 5.5（迟到）" in text
    assert "签字确认" in text and "viewer 已确认" in text and "未确认" in text
    assert "调整 1" in text and "调整 3" in text  # the rows among the hands, the voided one too
    english = text_of(render("pdf", night_report(adjusted), "en")[2])
    assert "False win (诈胡): 李四 pays each other player 8 (2 fan)" in english and "Sign-off" in english


def pictured(monkeypatch, night) -> str:
    """Page one as laid out for the picture for the group chat (render_png), last layout."""
    from ledger.reports import pdf
    pages: list[str] = []
    real = pdf.html
    monkeypatch.setattr(pdf, "html", lambda *args, **kwargs: pages.append(real(*args, **kwargs)) or pages[-1])
    render("png", night_report(night), "zh")
    return pages[-1]


def test_the_picture_for_the_chat_leaves_out_the_sign_off_where_no_name_is_claimed(night, owner, monkeypatch):
    """A walk: the picture listed 未确认（名字没人认领） for every player of a table that claims no names. As the text
    for the chat: none then; the PDF, a record, still lists each name."""
    services.hand_record(night=night, by=owner, entry=DEMO_HANDS[0])
    services.night_close(night=night, by=owner)
    night = Night.objects.get(pk=night.pk)
    assert "签字确认" not in pictured(monkeypatch, night) and "未确认" not in pictured(monkeypatch, night)
    assert "未确认（名字没人认领）" in text_of(render("pdf", night_report(night), "zh")[2])


def test_the_picture_for_the_chat_keeps_the_sign_off_once_a_name_is_claimed(adjusted, monkeypatch):
    page = pictured(monkeypatch, adjusted)
    assert "签字确认" in page and "viewer 已确认" in page


def test_the_text_summary_has_the_adjustments_that_count_and_the_sign_off(adjusted):
    text = render("txt", night_report(adjusted), "zh")[2].decode()
    assert "罚分/调整\n诈胡：李四 赔每家 8（2番）\n调整：张三 付 赵六 5.5（迟到）\n" in text
    assert "诈胡：王五" not in text  # the voided one
    assert "已确认：王五" in text and "名字没人认领，不能确认：张三、李四、赵六" in text and "\n未确认" not in text


def test_the_payments_csv_has_a_row_per_adjustment_payment_with_its_reason_and_still_balances(adjusted):
    report = night_report(adjusted)
    rows = list(csv.DictReader(io.StringIO(render("payments.csv", report, "zh")[2].decode("utf-8-sig"))))
    mine = [r for r in rows if r["局数"].startswith("调整")]
    assert [(r["局数"], r["原因"], r["付款人"], r["收款人"], r["金额"]) for r in mine] == [
        ("调整 1", "诈胡", "李四", "张三", "8"), ("调整 1", "诈胡", "李四", "王五", "8"),
        ("调整 1", "诈胡", "李四", "赵六", "8"), ("调整 2", "调整：迟到", "张三", "赵六", "5.5"),
        ("调整 3", "诈胡", "王五", "张三", ""), ("调整 3", "诈胡", "王五", "李四", ""),
        ("调整 3", "诈胡", "王五", "赵六", "")]  # voided: who it named, no amount (a column's sum is what was paid)
    assert [r["状态"] for r in mine][-1] == "已作废"
    # In the night's order: the first adjustment right after hand 1's rows.
    numbers = [r["局数"] for r in rows]
    assert numbers.index("调整 1") > max(i for i, n in enumerate(numbers) if n == "1")
    assert numbers.index("调整 1") < numbers.index("2")
    net: dict[str, Decimal] = {}
    for row in rows:
        if row["状态"] == "已记录":
            net[row["收款人"]] = net.get(row["收款人"], Decimal(0)) + Decimal(row["金额"])
            net[row["付款人"]] = net.get(row["付款人"], Decimal(0)) - Decimal(row["金额"])
    assert {k: v for k, v in net.items() if v} == {t.player.name: t.amount for t in report.totals if t.amount}


def test_the_hands_csv_marks_adjustment_rows_in_order(adjusted):
    rows = list(csv.reader(io.StringIO(render("hands.csv", night_report(adjusted), "en")[2].decode("utf-8-sig"))))
    assert [r[0] for r in rows[1:]] == ["1", "Adjustment 1", "2", "Adjustment 2", "Adjustment 3", "3"]
    assert rows[2][9:13] == ["+8", "-24", "+8", "+8"] and rows[5][1] == "Voided"


def test_the_chart_counts_an_adjustment_at_the_hand_it_followed(adjusted):
    report = night_report(adjusted)
    by_name = {s.name: s.points for s in report.running}
    assert len(by_name["李四"]) == 4  # before any hand, then after each of the three
    assert [t.amount for t in report.totals] == [by_name[t.player.name][-1] for t in report.totals]


@pytest.mark.django_db(transaction=True)
def test_the_backup_round_trips_adjustments_and_confirmations(adjusted):
    first = render("json", night_report(adjusted), "zh")[2]
    doc = json.loads(first)
    assert [a["number"] for a in doc["adjustments"]] == [1, 2, 3]
    assert doc["adjustments"][1] == {**doc["adjustments"][1], "kind": "transfer", "payer": 0, "payee": 3,
                                     "amount": "5.5", "note": "迟到", "status": "recorded"}
    assert doc["confirmations"][0]["player"] == "王五" and doc["confirmations"][0]["user"] == "viewer"
    assert any(e.get("adjustment") == 3 and e["action"] == "adjustment_voided" for e in doc["audit"])
    totals = [(t.player.name, t.amount) for t in night_totals(adjusted)]
    call_command("flush", interactive=False, verbosity=0)
    restored = import_night(json.loads(first))
    assert render("json", night_report(restored.night), "zh")[2] == first
    assert [(t.player.name, t.amount) for t in night_totals(restored.night)] == totals
    assert AdjustmentSeat.objects.count() == 12 and Confirmation.objects.count() == 1


def test_a_night_without_adjustments_exports_as_before(night, owner):
    services.hand_record(night=night, by=owner, entry=DEMO_HANDS[0])
    doc = export_night(night)
    assert "adjustments" not in doc and "confirmations" not in doc
    assert all("adjustment" not in e for e in doc["audit"])


def test_statistics_count_adjustments_in_nets_only(adjusted, players, group):
    hands = hands_only(adjusted)
    history = compute_player_history(players[1])  # 李四 paid the 诈胡
    assert history.totals.adjustments == Decimal("-24") and history.totals.net == hands["李四"] - 24
    assert history.series[-1].net == history.totals.net and history.series[-1].cumulative == history.totals.net
    assert history.totals.wins == sum(1 for h in adjusted.hands.all() for w in h.current.result["wins"]
                                      if w["player"] == 1)
    board = {s.name: s for s in group_leaderboard(group, None, None)}
    assert board["赵六"].net == hands["赵六"] + Decimal("13.5") and board["赵六"].adjustments == Decimal("13.5")
    assert board["王五"].net == hands["王五"] + 8  # the voided 诈胡 of 王五 does not count
    later = group_leaderboard(group, adjusted.date + dt.timedelta(days=1), None)
    assert all(s.adjustments == 0 for s in later)


def test_page_one_holds_the_sign_offs_at_four_players_with_a_table_fee(owner, group):
    """A table of an evening at four players with a table fee: five lines of totals, four transfers (one to the fee)
    and four sign-offs. The chart at its lowest, with few y labels, and the sign-offs side by side in two columns
    make them fit (the last sign-off was on page two, and the chart with it)."""
    from ledger.services.evenings import evening_create
    from tests.evening_helpers import DATE, NAMES, self_draw, table

    evening = evening_create(by=owner, group=group, title="周五麻将局", date=DATE, venue="老茶馆")
    night = table(owner, group, evening, NAMES[:4], fee={"mode": "per_player", "amount": "5"}, base="2",
                  hands=[self_draw(seat, "qing_yi_se") for seat in (1, 2, 3, 1, 2, 3)])
    services.night_close(night=night, by=owner)
    report = night_report(Night.objects.get(pk=night.pk))
    assert len(report.signoffs) == 4 and not report.adjustments and len(report.transfers) == 4
    first = text_of(render("pdf", report, "zh")[2]).split("\f")[0]
    assert all(words in first for words in ("台费", "累计输赢走势", "签字确认")), first
    assert all(f"{name} · 未确认" in first for name in NAMES[:4]), first
    assert _chart_height(report, "zh") == CHART_HEIGHTS[-1]


def test_page_one_of_an_evenings_table_holds_its_chart_with_the_evenings_transfers(owner, group):
    """At a table of an evening, page one gives the evening's transfers (eight at two tables of nine players): in
    two columns, so the chart and the sign-offs stay on page one (they went to a page of their own)."""
    from tests.evening_helpers import two_tables

    evening, _first, second = two_tables(owner, group, fee={"mode": "per_player", "amount": "5"})
    report = night_report(Night.objects.get(pk=second.pk))  # four players, no seat change
    assert len(report.transfers) > 4
    first_page = text_of(render("pdf", report, "zh")[2]).split("\f")[0]
    assert all(words in first_page for words in ("最少转账", "累计输赢走势", "签字确认")), first_page
