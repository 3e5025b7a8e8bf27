"""Penalties and adjustments (罚分/调整) at tables of three and two (RULES.md §9): a 诈胡 pays the seats the table
has, a seat outside the table is refused by name, and the night's totals, exports, backup and check stay whole
(a 诈胡 at three players once paid a fourth seat: the nets no longer summed to zero and every page failed)."""
import csv
import io
import json
from io import StringIO

import pytest
from django.core.management import call_command

from ledger.models import Night
from ledger.reports import night_report, render
from ledger.reports.backup import import_night

from tests.conftest import api_client
from tests.factories import page_client, post_json
from tests.hand_helpers import w, win

NIGHT = {"title": "三缺一", "date": "2026-12-05", "base": "1"}


def small_night(client, players):
    names = ["甲", "乙", "丙", "丁"][:players]
    made = post_json(client, "/api/nights/", {**NIGHT, "players": names, "rules": {"players": players}})
    assert made.status_code == 201, made.json()
    return made.json()["id"]


@pytest.mark.parametrize("players, zha_hu_net", [(3, ["-4", "2", "2"]), (2, ["-2", "2"])])
def test_a_zha_hu_pays_the_seats_the_table_has(owner, players, zha_hu_net):
    client = api_client(owner)
    pk = small_night(client, players)
    made = post_json(client, f"/api/nights/{pk}/adjustments/", {"kind": "zha_hu", "player": 0, "fan": 1})
    assert made.status_code == 201 and made.json()["net"] == zha_hu_net
    totals = client.get(f"/api/nights/{pk}/totals/")
    assert totals.status_code == 200 and [t["amount"] for t in totals.json()["totals"]] == zha_hu_net
    assert page_client(owner).get(f"/nights/{pk}/").status_code == 200


def test_a_seat_outside_a_three_player_table_is_refused_by_name(owner):
    client = api_client(owner)
    pk = small_night(client, 3)
    for body, field in (({"kind": "zha_hu", "player": 3}, "player"),
                        ({"kind": "transfer", "from": 0, "to": 3, "amount": "1", "reason": "找零"}, "to")):
        refused = post_json(client, f"/api/nights/{pk}/adjustments/", body, HTTP_ACCEPT_LANGUAGE="en")
        assert refused.status_code == 400 and refused.json()["errors"][0]["path"] == field
        assert "3" in refused.json()["errors"][0]["message"]  # says the table's size
    zh = post_json(client, f"/api/nights/{pk}/adjustments/", {"kind": "zha_hu", "player": 3})
    assert zh.json()["errors"][0]["message"] == "本桌 3 人：座位应为 0–2"
    assert Night.objects.get(pk=pk).adjustments.count() == 0


@pytest.mark.django_db(transaction=True)
def test_a_three_player_night_with_adjustments_exports_restores_and_checks(owner):
    client = api_client(owner)
    pk = small_night(client, 3)
    assert post_json(client, f"/api/nights/{pk}/hands/", {"events": [win(None, w(1)), win(0, w(2))]}
                     ).status_code == 201  # two of three have won: the hand is over
    transfer = post_json(client, f"/api/nights/{pk}/adjustments/",
                         {"kind": "transfer", "from": 0, "to": 1, "amount": "5", "reason": "迟到"})
    zha_hu = post_json(client, f"/api/nights/{pk}/adjustments/", {"kind": "zha_hu", "player": 2, "fan": 1})
    assert transfer.status_code == zha_hu.status_code == 201
    voided = post_json(client, f"/api/nights/{pk}/adjustments/2/void/", {"reason": "记错了"})
    assert voided.status_code == 200, voided.json()
    night = Night.objects.get(pk=pk)
    report = night_report(night)
    rows = list(csv.reader(io.StringIO(render("hands.csv", report, "en")[2].decode("utf-8-sig"))))
    assert all(len(row) == len(rows[0]) for row in rows), rows  # three net columns on every row
    assert client.get(f"/api/nights/{pk}/payments.csv").status_code == 200
    out = StringIO()
    call_command("check_ledger", stdout=out)
    assert "ledger OK" in out.getvalue()
    first = render("json", report, "zh")[2]
    call_command("flush", interactive=False, verbosity=0)
    restored = import_night(json.loads(first))
    assert render("json", night_report(restored.night), "zh")[2] == first


def test_an_older_adjustment_to_a_seat_the_table_lacks_can_still_be_shown(db):
    """Such a row (the old check let seat 3 through at three; migration 0021 voids it) has one net per seat of its
    table, so its card, the reports and check_ledger do not fail on it."""
    from decimal import Decimal

    from ledger.models import Adjustment
    from ledger.services.adjustments import adjustment_nets_of
    row = Adjustment(kind="transfer", payer_seat=0, payee_seat=3, amount=Decimal(5), player_names=["甲", "乙", "丙"])
    assert adjustment_nets_of(row) == [-5, 0, 0]
