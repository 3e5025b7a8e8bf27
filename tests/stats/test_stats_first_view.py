"""The statistics pages on the first view after a recorded hand (issue 17, item 6): the same few statements at 2
hands as at 14 (or more), and the same numbers as the hands themselves give."""
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from ledger.services import nights as services
from ledger.models import SeatResult
from ledger.selectors.stats import compute_player_history, group_leaderboard, nights_played

from tests.conftest import api_client
from tests.hand_helpers import w, win

pytestmark = pytest.mark.usefixtures("own_cache")


def record(night, owner, count):
    for i in range(count):
        services.hand_record(night=night, by=owner, entry={"events": [win(None, w(i % 4))], "exhausted": True})


def first_views(owner, night, group, player):
    """The statements of each statistics read right after a hand is recorded (nothing summed from the hands is kept
    then; the group page keeps its body: ledger.services.audit.HAND_ONLY)."""
    client = Client()
    client.force_login(owner)
    api = api_client(owner)
    reads = [lambda: client.get(f"/groups/{group.pk}/"),
             lambda: client.get(f"/players/{player.pk}/"),
             lambda: client.get(f"/groups/{group.pk}/leaderboard/?from="),
             lambda: api.get(f"/api/groups/{group.pk}/leaderboard/", {"from": ""}),
             lambda: api.get(f"/api/players/{player.pk}/stats/")]
    for read in reads:  # each page seen once before (what a page keeps across a hand is kept)
        assert read().status_code == 200
    counts = []
    for read in reads:
        record(night, owner, 1)
        with CaptureQueriesContext(connection) as queries:
            assert read().status_code == 200
        counts.append(len(queries))
    return counts


def test_the_first_view_after_a_hand_takes_as_many_statements_at_2_as_at_14_hands(night, owner, group, players):
    record(night, owner, 2)
    few = first_views(owner, night, group, players[0])
    record(night, owner, 7)  # 14 by now: the first round of reads recorded five
    assert night.hands.count() == 14
    many = first_views(owner, night, group, players[0])
    assert few == many
    # The history itself: the nights played (their standings, fees and adjustments with them), then the biggest
    # hands and favourite patterns.
    with CaptureQueriesContext(connection) as queries:
        compute_player_history(players[0])
    assert len(queries) == 3


def test_history_and_leaderboard_add_up_the_counted_seat_results(night, owner, group, players):
    record(night, owner, 6)
    voided = night.hands.order_by("number").first()
    services.hand_void(hand=voided, by=owner, reason="记错了")
    counted = SeatResult.objects.filter(revision__is_current=True, revision__hand__status="recorded")
    board = {s.player_id: s for s in group_leaderboard(group, None, None)}
    for player in players:
        mine = counted.filter(player=player)
        expected = sum((r.net for r in mine), Decimal(0))
        history = compute_player_history(player)
        assert history.totals.hands == mine.count() == board[player.pk].hands == 5
        assert history.totals.net == expected == board[player.pk].net
        assert history.totals.wins == sum(r.wins for r in mine) == board[player.pk].wins
        assert [(n.night_id, n.hands, n.net) for n in nights_played(player)] == [(night.pk, 5, expected)]
        assert history.series[-1].cumulative == expected
