"""The migration that adds the night standings fills them from the rows they sum: undone and done again on a
ledger written by the services, it gives back exactly the lines the services kept."""
import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ledger.services import nights as services
from ledger.services import standings
from ledger.services.adjustments import adjustment_record, adjustment_void
from ledger.services.groups import group_create

from tests.factories import migrate
from tests.hand_helpers import w, win

BEFORE = [("ledger", "0016_audit_generations")]
AFTER = [("ledger", "0017_night_standings")]


@pytest.mark.django_db(transaction=True)
def test_undone_and_done_again_the_migration_gives_back_the_kept_lines():
    owner = User.objects.create_user("owner")
    group = group_create(by=owner, name="圈子")
    players = [services.player_get_or_create(name=n, group=group) for n in ("张三", "李四", "王五", "赵六", "替补")]
    closed = services.night_create(owner=owner, title="周五夜", date=dt.date(2026, 11, 27), base=Decimal("2"),
                                   players=players[:4], first_dealer=0, fee={"mode": "per_player", "amount": "5"})
    services.hand_record(night=closed, by=owner, entry={"events": [win(1, w(0, "qing_yi_se"), w(2), w(3))]})
    voided = services.hand_record(night=closed, by=owner, entry={"events": [win(None, w(3))], "exhausted": True})
    services.hand_void(hand=voided, by=owner, reason="重复")
    services.seat_change(night=closed, by=owner, seat=2, player=players[4])
    services.hand_record(night=closed, by=owner, entry={"events": [win(0, w(2, "qi_dui"), w(1), w(3))]})
    adjustment_record(night=closed, by=owner, data={"kind": "zha_hu", "player": 1})
    gone = adjustment_record(night=closed, by=owner, data={"kind": "transfer", "from": 0, "to": 3, "amount": "7",
                                                           "reason": "迟到"})
    adjustment_void(adjustment=gone, by=owner, reason="不算")
    services.night_close(night=closed, by=owner)
    three = services.night_create(owner=owner, title="三人", date=dt.date(2026, 11, 28), base=Decimal("1"),
                                  players=players[:3], first_dealer=0, rule_overrides={"players": 3})
    services.hand_record(night=three, by=owner, entry={"events": [win(None, w(1))], "exhausted": True})
    river = services.night_create(owner=owner, title="血流", date=dt.date(2026, 11, 29), base=Decimal("1"),
                                  players=players[:4], first_dealer=0, rule_overrides={"mode": "xue_liu"})
    services.hand_record(night=river, by=owner, entry={  # 张三 wins twice in one hand: 2 wins, 1 hand won in
        "events": [win(None, w(0)), win(None, w(0)), win(None, w(1))], "exhausted": True,
        "ready": {"0": {"fan": 0}, "1": {"fan": 0}}})
    ids = [closed.pk, three.pk, river.pk]
    kept = standings.kept(ids)
    assert len(kept) == 5 + 3 + 4 and standings.differences(ids) == []
    generation = type(group).objects.get(pk=group.pk).generation
    assert kept[(river.pk, players[0].pk)][:3] == (1, 2, 1)  # hands, wins, won_hands

    migrate(BEFORE)
    assert "ledger_nightstanding" not in connection.introspection.table_names()
    migrate(AFTER)
    with connection.cursor() as cursor:  # the columns of 0017 (0022 adds won_hands)
        cursor.execute("SELECT night_id, player_id, hands, wins, self_draws, deal_in_hands FROM ledger_nightstanding")
        assert {(r[0], r[1]): r[2:] for r in cursor.fetchall()} == {
            key: (line[0], line[1], line[3], line[4]) for key, line in kept.items()}
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    assert standings.kept(ids) == kept  # 0022 fills the hands won in from the seat results: as the services keep it
    assert type(group).objects.get(pk=group.pk).generation > generation  # no kept statistic shows the old rate
