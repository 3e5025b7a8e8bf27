"""The migration that drops the copies of the seat results (Night.totals_cache, HandRevision.net_0..3): every
night's totals are the same after it and after undoing it, since SeatResult is the truth they were copied from."""
import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("ledger", "0014_table_shapes_and_wins")]
AFTER = [("ledger", "0016_audit_generations")]  # and the generations after it: the checks read with the current models

#: Two hands of a four-seat night (seat nets), the second corrected once; and one hand of a three-seat night.
FOUR = [[Decimal("-16"), Decimal("48"), Decimal("-16"), Decimal("-16")], [Decimal("12.5"), Decimal("-12.5"), 0, 0]]
CORRECTED = [Decimal("-4"), Decimal("-4"), Decimal("12"), Decimal("-4")]
THREE = [Decimal("6"), Decimal("-3"), Decimal("-3")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def revision_nets(apps):
    HandRevision = apps.get_model("ledger", "HandRevision")
    return {r.pk: [r.net_0, r.net_1, r.net_2, r.net_3] for r in HandRevision.objects.order_by("pk")}


@pytest.mark.django_db(transaction=True)
def test_every_nights_totals_survive_the_migration_forward_and_back():
    apps = migrate(BEFORE)
    User, Group, Player, Night, Hand, HandRevision, SeatResult = (apps.get_model(*m.split(".")) for m in (
        "auth.User", "ledger.Group", "ledger.Player", "ledger.Night", "ledger.Hand", "ledger.HandRevision",
        "ledger.SeatResult"))
    owner = User.objects.create(username="owner")
    group = Group.objects.create(name="圈子", created_by=owner)
    players = [Player.objects.create(group=group, name=n) for n in ("张三", "李四", "王五", "赵六")]

    def revision(night, number, nets, version=1, current=True):
        hand, _ = Hand.objects.get_or_create(night=night, number=number, defaults={"recorded_by": owner})
        seated = [*players[:len(nets)], *[None] * (4 - len(nets))]
        padded = [*nets, *[Decimal(0)] * (4 - len(nets))]
        made = HandRevision.objects.create(
            hand=hand, version=version, is_current=current, dealer=0, record={}, result={"net": [str(n) for n in nets]},
            created_by=owner, player_0=seated[0], player_1=seated[1], player_2=seated[2], player_3=seated[3],
            net_0=padded[0], net_1=padded[1], net_2=padded[2], net_3=padded[3])
        for seat, net in enumerate(nets):
            SeatResult.objects.create(revision=made, seat=seat, player=players[seat], net=net)
        return made

    four = Night.objects.create(group=group, title="四人", date=dt.date(2026, 11, 27), base=Decimal(2), rules={},
                                owner=owner, totals_cache={"audit": 1, "nets": {}})
    three = Night.objects.create(group=group, title="三人", date=dt.date(2026, 11, 28), base=Decimal(2),
                                 rules={"players": 3}, owner=owner)
    revision(four, 1, FOUR[0])
    old = revision(four, 2, FOUR[1])
    HandRevision.objects.filter(pk=old.pk).update(is_current=False)
    revision(four, 2, CORRECTED, version=2)
    revision(three, 1, THREE)
    before = revision_nets(apps)

    migrate(AFTER)
    from ledger.models import Night as Current
    from ledger.selectors.nights import night_nets
    assert not hasattr(Current, "totals_cache")
    ids = [p.pk for p in players]
    assert night_nets(Current.objects.get(pk=four.pk)) == dict(zip(ids, [a + b for a, b in zip(FOUR[0], CORRECTED)]))
    assert night_nets(Current.objects.get(pk=three.pk)) == dict(zip(ids, THREE))

    apps = migrate(BEFORE)  # back: the revisions' seat nets refilled from their seat results, the cache empty
    assert revision_nets(apps) == before
    assert list(apps.get_model("ledger", "Night").objects.values_list("totals_cache", flat=True)) == [None, None]
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
