"""The migration that drops the payment rows (0020): each revision's result keeps its payments, which everything
reads; undone, the rows come back from the results as the service wrote them."""
import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection

from scoring import score_hand
from tests.factories import migrate
from tests.hand_helpers import kong, w, win

BEFORE = [("ledger", "0019_group_page_generation")]
AFTER = [("ledger", "0020_drop_payment_rows")]


def tables():
    return set(connection.introspection.table_names())


def rows(Payment):
    return sorted((p.revision_id, p.position, p.event, p.payer_id, p.payee_id, p.payer_seat, p.payee_seat,
                   Decimal(p.amount), p.reason) for p in Payment.objects.all())


@pytest.mark.django_db(transaction=True)
def test_dropping_the_payment_rows_keeps_every_result_and_undone_rebuilds_the_rows_from_them():
    apps = migrate(BEFORE)
    User, Group, Night, Player, Hand, HandRevision, Payment = (apps.get_model(*m.split(".")) for m in (
        "auth.User", "ledger.Group", "ledger.Night", "ledger.Player", "ledger.Hand", "ledger.HandRevision",
        "ledger.Payment"))
    owner = User.objects.create(username="owner")
    group = Group.objects.create(name="圈子", created_by=owner)
    players = [Player.objects.create(group=group, name=n) for n in ("张三", "李四", "王五", "赵六")]
    night = Night.objects.create(group=group, title="周五夜", date=dt.date(2026, 11, 27), base=Decimal(2),
                                 rules={"players": 4}, owner=owner)
    entries = [{"events": [win(None, w(1, "qing_yi_se", 1))], "exhausted": True},
               {"events": [kong(2, "concealed"), win(0, w(3, "dui_dui_hu"))], "exhausted": True}]
    for number, entry in enumerate(entries, start=1):
        doc = {"base": "2", "rules": {}, "dealer": 0, **entry}
        result = score_hand(doc)
        hand = Hand.objects.create(night=night, number=number, recorded_by=owner)
        revision = HandRevision.objects.create(
            hand=hand, version=1, dealer=0, created_by=owner, record=doc, result=result.as_dict(),
            player_names=[p.name for p in players], **{f"player_{s}": p for s, p in enumerate(players)})
        Payment.objects.bulk_create(
            Payment(revision=revision, position=i, event=p.event, payer=players[p.payer], payee=players[p.payee],
                    payer_seat=p.payer, payee_seat=p.payee, amount=p.amount, reason=p.reason)
            for i, p in enumerate(result.payments))
    before, results = rows(Payment), dict(HandRevision.objects.values_list("pk", "result"))
    assert len(before) > 6 and "ledger_payment" in tables()

    after = migrate(AFTER)
    assert "ledger_payment" not in tables()
    assert dict(after.get_model("ledger", "HandRevision").objects.values_list("pk", "result")) == results

    undone = migrate(BEFORE)  # reversible: the table is back, filled from the results
    assert rows(undone.get_model("ledger", "Payment")) == before
    from django.db.migrations.executor import MigrationExecutor
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
