"""The migration that recomputes adjustments' seat nets at tables of 3 or 2 (0021): a 诈胡 there had been split
over four seats, so the night's nets no longer summed to zero; four-seat nights are left as they are."""
import datetime as dt
from decimal import Decimal

import pytest

from tests.factories import migrate

BEFORE = [("ledger", "0020_drop_payment_rows")]
AFTER = [("ledger", "0021_adjustment_nets_at_smaller_tables")]


@pytest.mark.django_db(transaction=True)
def test_a_zha_hu_at_three_players_is_split_over_the_three_seats_and_the_standings_follow():
    apps = migrate(BEFORE)
    User, Group, Night, Player, Adjustment, AdjustmentSeat, NightStanding = (apps.get_model(*m.split(".")) for m in (
        "auth.User", "ledger.Group", "ledger.Night", "ledger.Player", "ledger.Adjustment", "ledger.AdjustmentSeat",
        "ledger.NightStanding"))
    owner = User.objects.create(username="owner")
    group = Group.objects.create(name="圈子", created_by=owner)
    players = [Player.objects.create(group=group, name=n) for n in ("张三", "李四", "王五", "赵六")]
    made = {}
    for seats in (3, 4):
        night = Night.objects.create(group=group, title=f"{seats} 人", date=dt.date(2026, 12, 5), base=Decimal(1),
                                     rules={"players": seats}, owner=owner)
        zha_hu = Adjustment.objects.create(night=night, number=1, kind="zha_hu", payer_seat=0, fan=1,
                                           amount=Decimal(2), player_names=[p.name for p in players[:seats]],
                                           recorded_by=owner)
        old = [Decimal(-6), Decimal(2), Decimal(2), Decimal(2)]  # what the service wrote: four seats, whatever the table
        AdjustmentSeat.objects.bulk_create(AdjustmentSeat(adjustment=zha_hu, seat=s, player=p, net=old[s])
                                           for s, p in enumerate(players[:seats]))
        for s, p in enumerate(players[:seats]):
            NightStanding.objects.create(night=night, player=p, adjusted=old[s])
        made[seats] = night
    # The old check let seat 3 through at a table of three: a transfer to a seat that does not exist.
    nowhere = Adjustment.objects.create(night=made[3], number=2, kind="transfer", payer_seat=0, payee_seat=3,
                                        amount=Decimal(5), note="x", player_names=[p.name for p in players[:3]],
                                        recorded_by=owner)
    AdjustmentSeat.objects.bulk_create(AdjustmentSeat(adjustment=nowhere, seat=s, player=p, net=net)
                                       for s, (p, net) in enumerate(zip(players[:3], (Decimal(-5), Decimal(0), Decimal(0)))))
    NightStanding.objects.filter(night=made[3], player=players[0]).update(adjusted=Decimal(-11))
    generation = Group.objects.get(pk=group.pk).generation

    after = migrate(AFTER)
    seat_nets = lambda night: [Decimal(n) for n in after.get_model("ledger", "AdjustmentSeat").objects.filter(
        adjustment__night_id=night.pk).order_by("adjustment__number", "seat").values_list("net", flat=True)]
    adjusted = lambda night: [Decimal(n) for n in after.get_model("ledger", "NightStanding").objects.filter(
        night_id=night.pk).order_by("player_id").values_list("adjusted", flat=True)]
    assert seat_nets(made[3]) == [-4, 2, 2, -5, 0, 0] and adjusted(made[3]) == [-4, 2, 2]
    voided = after.get_model("ledger", "Adjustment").objects.get(night_id=made[3].pk, number=2)
    assert voided.status == "voided" and "0021" in voided.void_reason  # listed, out of the totals, and said why
    entry = after.get_model("ledger", "AuditEntry").objects.get(adjustment_id=voided.pk)
    assert entry.action == "adjustment_voided" and entry.actor_id == owner.pk and entry.reason == voided.void_reason
    assert seat_nets(made[4]) == adjusted(made[4]) == [-6, 2, 2, 2]
    assert after.get_model("ledger", "Group").objects.get(pk=group.pk).generation == generation + 1
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
