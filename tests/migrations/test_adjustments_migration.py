"""The migration that adds adjustments (罚分/调整) and sign-offs (签字确认): nothing is missing from it, it applies
to a database with a night (whose totals then count adjustments), and it can be undone."""
import datetime as dt
import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.factories import migrate

BEFORE = [("ledger", "0012_rate_counter")]
AFTER = [("ledger", "0013_adjustments_confirmations")]


def test_no_migration_is_missing(db):
    out = io.StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)  # exits non-zero if one is missing
    assert "No changes detected" in out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_it_applies_to_a_night_with_hands_and_back():
    apps = migrate(BEFORE)
    User, Group, Player, Night = (apps.get_model(*m.split(".")) for m in (
        "auth.User", "ledger.Group", "ledger.Player", "ledger.Night"))
    owner = User.objects.create(username="owner")
    group = Group.objects.create(name="圈子", created_by=owner)
    night = Night.objects.create(group=group, title="周五夜", date=dt.date(2026, 11, 27), base=Decimal(2),
                                 rules={}, owner=owner)
    player = Player.objects.create(group=group, name="张三")
    other = Player.objects.create(group=group, name="李四")
    migrate(AFTER)
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())  # the current models below need what followed
    from ledger.models import Adjustment, AdjustmentSeat, Confirmation
    from ledger.models import Night as Current
    from ledger.selectors.nights import night_totals
    assert Current.objects.get(pk=night.pk).title == "周五夜"
    made = Adjustment.objects.create(night_id=night.pk, number=1, kind="transfer", payer_seat=0, payee_seat=1,
                                     amount=Decimal(5), note="迟到", recorded_by_id=owner.pk)
    AdjustmentSeat.objects.create(adjustment=made, seat=0, player_id=player.pk, net=Decimal(-5))
    AdjustmentSeat.objects.create(adjustment=made, seat=1, player_id=other.pk, net=Decimal(5))
    assert Confirmation.objects.count() == 0
    assert [t.amount for t in night_totals(Current.objects.get(pk=night.pk)) if t.player.pk == player.pk] == [-5]
    AdjustmentSeat.objects.all().delete()
    Adjustment.objects.all().delete()
    migrate(BEFORE)  # reversible
    assert "ledger_adjustment" not in connection.introspection.table_names()
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
