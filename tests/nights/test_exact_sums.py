"""Totals are exact on every database: SQLite adds a decimal column as binary floats, so a night of tenths once
summed to 2.8e-17, not 0, and its pages and exports refused to open (found by a probe; ledger.models.money)."""
import datetime as dt
from decimal import Decimal
from io import StringIO

from django.core.management import call_command
from django.db.models import Q
from django.urls import reverse

from ledger.models import MoneySum, SeatResult
from ledger.selectors import nights as selectors
from ledger.selectors import stats
from ledger.services import nights as services

from tests.conftest import api_client
from tests.factories import page_client, post_json as post
from tests.hand_helpers import w, win

# 王五 (seat 2) wins 平胡 and 对对胡 on 张三's discards, then pays 李四's 对对胡 and 平胡: +0.1 +0.2 -0.2 -0.1 at 0.1.
TENTHS = [{"events": [win(0, w(2, pattern))], "exhausted": True} for pattern in ("ping_hu", "dui_dui_hu")] + \
         [{"events": [win(2, w(1, pattern))], "exhausted": True} for pattern in ("dui_dui_hu", "ping_hu")]


def test_a_night_of_tenths_sums_to_exactly_zero_and_every_page_and_export_opens(owner, players):
    night = services.night_create(owner=owner, title="一毛", date=dt.date(2026, 12, 5), base=Decimal("0.1"),
                                  players=players, first_dealer=0)
    for entry in TENTHS:
        services.hand_record(night=night, by=owner, entry=entry)
    nets = selectors.night_nets(night)
    assert {p.name: nets[p.pk] for p in players} == {"张三": Decimal("-0.3"), "李四": Decimal("0.3"),
                                                     "王五": Decimal(0), "赵六": Decimal(0)}
    assert sum(nets.values()) == 0 and all(n.as_tuple().exponent == -4 for n in nets.values())
    client = api_client(owner)
    totals = client.get(reverse("api-totals", args=[night.pk]))
    assert totals.status_code == 200, totals.content
    assert {t["player"]: t["amount"] for t in totals.json()["totals"]}["王五"] == "0"
    settlement = client.get(reverse("api-settlement", args=[night.pk]))
    assert settlement.status_code == 200 and [(t["from"], t["to"], t["amount"]) for t in
                                              settlement.json()["transfers"]] == [("张三", "李四", "0.3")]
    for name in ("api-night", "api-hands-csv", "api-payments-csv", "api-report-txt", "api-backup"):
        assert client.get(reverse(name, args=[night.pk])).status_code == 200, name
    assert page_client(owner).get(f"/nights/{night.pk}/").status_code == 200
    out = StringIO()
    call_command("check_ledger", stdout=out)
    assert "ledger OK" in out.getvalue()


def test_adjustments_of_tenths_cancel_exactly(night, owner):
    client = api_client(owner)
    for payer, payee, amount in ((0, 1, "0.1"), (0, 1, "0.2"), (1, 0, "0.3")):
        made = post(client, reverse("api-adjustments", args=[night.pk]),
                    {"kind": "transfer", "from": payer, "to": payee, "amount": amount, "reason": "找零"})
        assert made.status_code == 201, made.content
    assert set(selectors.night_adjustment_nets(night).values()) == {Decimal(0)}
    totals = client.get(reverse("api-totals", args=[night.pk])).json()["totals"]
    assert {t["amount"] for t in totals} == {"0"}
    assert client.get(reverse("api-settlement", args=[night.pk])).json()["transfers"] == []
    assert all(line.hands_net == 0 and line.adjustments == 0 for line in stats.group_leaderboard(night.group, None, None))


def test_money_sum_adds_exactly_what_sum_adds_in_floats_on_sqlite(recorded):
    """The aggregate itself: 0.1 + 0.2 - 0.3 + 0 is 0 (SQLite's SUM gives 5.55e-17); no rows is None, as Sum."""
    rows = SeatResult.objects.filter(revision__hand__night=recorded).order_by("seat")
    for row, net in zip(rows, ("0.1", "0.2", "-0.3", "0")):
        SeatResult.objects.filter(pk=row.pk).update(net=Decimal(net))
    assert rows.aggregate(total=MoneySum("net"))["total"] == 0
    assert SeatResult.objects.filter(pk=-1).aggregate(total=MoneySum("net"))["total"] is None
    assert SeatResult.objects.filter(pk=-1).aggregate(total=MoneySum("net", default=0))["total"] == 0
    positive = rows.aggregate(total=MoneySum("net", filter=Q(net__gt=0)))["total"]
    assert positive == Decimal("0.3")
