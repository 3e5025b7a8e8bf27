"""The table fee (台费) at the table: frozen with the night, nets plus fee sum to zero, shown in every report."""
import json
from decimal import Decimal

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.utils import translation
from scoring import ScoringError

from ledger.services import nights as services
from ledger.models import FeeShare, Night
from ledger.reports import night_report, render
from ledger.reports.backup import export_night, import_night
from ledger.reports.pdf import html
from ledger.selectors.nights import TABLE_FEE, night_settlement_plan, night_summary, night_totals

from tests.conftest import api_client
from tests.evening_helpers import NAMES, on_discard, self_draw, table, two_tables

pytestmark = pytest.mark.django_db

HANDS = [self_draw(1, "qing_yi_se"), on_discard(0, 2), self_draw(1), on_discard(3, 1)]
MODES = {
    "per_player": ({"mode": "per_player", "amount": "5"}, Decimal(20)),
    "winners": ({"mode": "winners", "amount": "10"}, Decimal(10)),
    "per_win": ({"mode": "per_win", "amount": "1"}, Decimal(4)),
    "per_self_draw": ({"mode": "per_win", "amount": "1.5", "wins": "self_draw"}, Decimal(3)),
}


@pytest.fixture(params=list(MODES))
def fee_night(request, owner, group):
    doc, expected = MODES[request.param]
    night = table(owner, group, None, NAMES[:4], fee=doc, hands=HANDS, title="台费夜")
    return night, expected


def test_each_fee_mode_balances_nets_plus_fee_to_zero(fee_night):
    night, expected = fee_night
    summary = night_summary(night)
    assert summary.fee == expected == sum(summary.fee_shares.values())
    assert sum(summary.nets.values()) + summary.fee == 0
    totals = night_totals(night)
    assert sum(t.amount for t in totals) + summary.fee == 0
    assert all(t.fee == summary.fee_shares.get(t.player.pk, 0) for t in totals)
    plan = night_settlement_plan(night)
    assert sum(t.amount for t in plan.transfers if t.payee is TABLE_FEE) == expected
    assert night_summary(night) == summary  # read back from the cache the same


def test_the_winners_split_goes_to_those_who_are_up_in_proportion(owner, group):
    night = table(owner, group, None, NAMES[:4], fee={"mode": "winners", "amount": "10"}, hands=HANDS)
    summary = night_summary(night)
    gross = {pk: summary.nets[pk] + summary.fee_shares.get(pk, 0) for pk in summary.nets}
    up = {pk for pk, a in gross.items() if a > 0}
    assert set(summary.fee_shares) == up


def test_the_fee_is_frozen_checked_and_audited_at_creation(owner, group, players):
    with pytest.raises(ScoringError) as caught:
        services.night_create(owner=owner, title="x", date=night_date(), base=Decimal(1), players=players,
                              first_dealer=0, fee={"mode": "per_player"})
    assert [p.path for p in caught.value.problems] == ["fee.amount"]
    assert not Night.objects.exists()
    night = services.night_create(owner=owner, title="x", date=night_date(), base=Decimal(1), players=players,
                                  first_dealer=0, fee={"mode": "per_player", "amount": "5.00"})
    assert night.fee == {"mode": "per_player", "amount": "5"}
    assert night.audit.get().after["fee"] == {"mode": "per_player", "amount": "5"}


def night_date():
    import datetime as dt
    return dt.date(2026, 11, 27)


def test_closing_a_night_writes_each_players_fee_share(owner, group):
    night = table(owner, group, None, NAMES[:4], fee={"mode": "per_win", "amount": "2"}, hands=HANDS)
    services.night_close(night=night, by=owner)
    shares = {s.player.name: s.amount for s in FeeShare.objects.filter(night=night)}
    assert shares == {"李四": Decimal(4), "张三": Decimal(2), "赵六": Decimal(2)}
    assert night.audit.last().after["fee_shares"] == {"李四": "4", "张三": "2", "赵六": "2"}
    services.night_close(night=night, by=owner)  # closing again changes nothing
    assert FeeShare.objects.filter(night=night).count() == 3


def test_the_fee_shows_on_the_table_and_settle_pages_and_in_the_api(owner, group):
    night = table(owner, group, None, NAMES[:4], fee={"mode": "per_player", "amount": "5"}, hands=HANDS)
    client = Client()
    client.force_login(owner)
    page = client.get(f"/nights/{night.pk}/settle/").content.decode()
    assert "台费" in page and "每人 ¥5" in page and "+20" in page and "含台费 ¥5" in page
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client.get(f"/nights/{night.pk}/settle/").content.decode()
    assert "Table fee" in english and "¥5 per player" in english
    totals = api_client(owner).get(f"/api/nights/{night.pk}/totals/").json()
    assert totals["table_fee"] == {"rule": {"mode": "per_player", "amount": "5"}, "amount": "20"}
    assert sum(Decimal(t["amount"]) for t in totals["totals"]) + 20 == 0
    settlement = api_client(owner).get(f"/api/nights/{night.pk}/settlement/").json()
    assert settlement["table_fee"] == "20" and settlement["method"] == "exact"
    assert settlement["lower_bound"] == len(settlement["transfers"])
    assert sum(Decimal(t["amount"]) for t in settlement["transfers"] if t["fee"]) == 20
    assert all(t["to"] == "台费" for t in settlement["transfers"] if t["fee"])


def test_the_fee_is_in_every_report_and_export(owner, group):
    night = table(owner, group, None, NAMES[:4], fee={"mode": "per_player", "amount": "5"}, hands=HANDS, title="台费夜")
    report = night_report(night)
    assert report.fee == 20
    text = render("txt", report, "zh")[2].decode()
    assert "台费 +20（每人 ¥5）" in text and "→ 台费 ¥" in text
    english = render("txt", report, "en")[2].decode()
    assert "Table fee +20 (¥5 per player)" in english and "（" not in english
    payments = render("payments.csv", report, "zh")[2].decode("utf-8-sig").splitlines()
    fee_rows = [row for row in payments if ",台费," in row]
    assert len(fee_rows) == 4 and all(row.endswith(",台费,5") for row in fee_rows)
    with translation.override("zh-hans"):
        page = html(report, "zh")
    assert "台费" in page and "每人 ¥5" in page and "+20" in page
    backup = json.loads(render("json", report, "zh")[2])
    assert backup["night"]["fee"] == {"mode": "per_player", "amount": "5"}
    assert backup["night"]["evening"] is None and backup["night"]["table_no"] is None


@pytest.mark.django_db(transaction=True)
def test_a_backup_brings_back_the_fee_evening_and_table_byte_for_byte(owner, group):
    evening, first, second = two_tables(owner, group, fee={"mode": "per_win", "amount": "1", "wins": "self_draw"})
    exported = render("json", night_report(second), "zh")[2]
    summary = night_summary(second)
    call_command("flush", interactive=False, verbosity=0)
    restored = import_night(json.loads(exported))
    assert restored.created
    assert render("json", night_report(restored.night), "zh")[2] == exported
    night = restored.night
    assert night.evening.title == "周五麻将局" and night.table_no == 2
    again = night_summary(night)
    assert (again.fee, sorted(again.nets.values())) == (summary.fee, sorted(summary.nets.values()))
    assert FeeShare.objects.filter(night=night).count() == len(summary.fee_shares)  # closed: shares written
    assert import_night(json.loads(exported)).created is False


def test_an_older_backup_without_fee_still_restores_and_matches(owner, group, players):
    night = table(owner, group, None, NAMES[:4], hands=HANDS[:2])
    doc = export_night(night)
    from ledger.reports.backup import _digest
    body = {k: v for k, v in doc.items() if k != "digest"}
    body["night"] = {k: v for k, v in body["night"].items() if k not in ("fee", "evening", "table_no")}
    legacy = {**body, "digest": _digest(body)}
    assert import_night(legacy).created is False  # the same night, already here
