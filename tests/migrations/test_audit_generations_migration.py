"""The migration that adds the generations of nights and groups: existing rows start at 0 with their data intact,
the writer then bumps them, and it can be undone (the old stamp's index comes back)."""
import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("ledger", "0015_writes_drop_caches")]
AFTER = [("ledger", "0016_audit_generations")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def audit_indexes():
    with connection.cursor() as cursor:
        return set(connection.introspection.get_constraints(cursor, "ledger_auditentry"))


@pytest.mark.django_db(transaction=True)
def test_existing_nights_and_groups_start_at_generation_0_and_it_can_be_undone():
    apps = migrate(BEFORE)
    User, Group, Night, AuditEntry = (apps.get_model(*m.split(".")) for m in (
        "auth.User", "ledger.Group", "ledger.Night", "ledger.AuditEntry"))
    owner = User.objects.create(username="owner")
    group = Group.objects.create(name="圈子", created_by=owner)
    night = Night.objects.create(group=group, title="周五夜", date=dt.date(2026, 11, 27), base=Decimal(2),
                                 rules={"players": 4}, owner=owner)
    AuditEntry.objects.create(night=night, group=group, actor=owner, action="night_created")
    assert "audit_group_id" in audit_indexes()
    migrate(AFTER)
    from ledger.services import audit as audit_log
    from ledger.models import Group as CurrentGroup
    from ledger.models import Night as CurrentNight
    now = CurrentNight.objects.get(pk=night.pk)
    assert (now.title, now.generation, CurrentGroup.objects.get(pk=group.pk).generation) == ("周五夜", 0, 0)
    assert "audit_group_id" not in audit_indexes()
    audit_log.log("night_closed", night=now, actor=now.owner)
    now.refresh_from_db()
    assert (now.generation, CurrentGroup.objects.get(pk=group.pk).generation) == (1, 1)
    migrate(BEFORE)  # reversible
    assert "audit_group_id" in audit_indexes()
    assert Night.objects.get(pk=night.pk).title == "周五夜"
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
