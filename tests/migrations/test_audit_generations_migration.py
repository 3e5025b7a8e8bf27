"""The migration that adds the generations of nights and groups: existing rows start at 0 with their data intact, and
it can be undone (the old stamp's index comes back). The night's generation goes again in 0018 (its test below); the
writer's bumps of the group's are tested with the writer (tests/audit_and_rights/test_audit_writer.py)."""
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
    after = migrate(AFTER)
    AfterNight, AfterGroup = after.get_model("ledger", "Night"), after.get_model("ledger", "Group")
    now = AfterNight.objects.get(pk=night.pk)
    assert (now.title, now.generation, AfterGroup.objects.get(pk=group.pk).generation) == ("周五夜", 0, 0)
    assert "audit_group_id" not in audit_indexes()
    migrate(BEFORE)  # reversible
    assert "audit_group_id" in audit_indexes()
    assert Night.objects.get(pk=night.pk).title == "周五夜"
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_dropping_the_nights_generation_keeps_the_night_and_can_be_undone():
    apps = migrate([("ledger", "0017_night_standings")])
    User, Group, Night = (apps.get_model(*m.split(".")) for m in ("auth.User", "ledger.Group", "ledger.Night"))
    owner = User.objects.create(username="owner")
    group = Group.objects.create(name="圈子", created_by=owner, generation=7)
    night = Night.objects.create(group=group, title="周五夜", date=dt.date(2026, 11, 27), base=Decimal(2),
                                 rules={"players": 4}, owner=owner, generation=5)
    after = migrate([("ledger", "0018_drop_night_generation")])
    now = after.get_model("ledger", "Night").objects.get(pk=night.pk)
    assert (now.title, now.base, after.get_model("ledger", "Group").objects.get(pk=group.pk).generation) == (
        "周五夜", Decimal(2), 7)
    assert not hasattr(now, "generation")
    before = migrate([("ledger", "0017_night_standings")])  # reversible: the column is back, at 0
    assert before.get_model("ledger", "Night").objects.get(pk=night.pk).generation == 0
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_groups_page_generation_starts_at_0_beside_its_generation_and_can_be_undone():
    apps = migrate([("ledger", "0018_drop_night_generation")])
    User, Group = (apps.get_model(*m.split(".")) for m in ("auth.User", "ledger.Group"))
    group = Group.objects.create(name="圈子", created_by=User.objects.create(username="owner"), generation=7)
    after = migrate([("ledger", "0019_group_page_generation")])
    now = after.get_model("ledger", "Group").objects.get(pk=group.pk)
    assert (now.name, now.generation, now.page_generation) == ("圈子", 7, 0)
    before = migrate([("ledger", "0018_drop_night_generation")])
    assert not hasattr(before.get_model("ledger", "Group").objects.get(pk=group.pk), "page_generation")
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
