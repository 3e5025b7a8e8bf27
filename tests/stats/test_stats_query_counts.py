"""History and leaderboard cost the same number of queries whatever the number of nights and hands (issue 11)."""
import datetime as dt
import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ledger.services import nights as services
from ledger.models import FeeShare

from tests.conftest import api_client
from tests.factories import page_client, fee_shares
from tests.hand_helpers import w, win

#: The queries of each read: (session, user,) the player or group (with its generation: stats.cache), then its
#: aggregates: for a player the nights played (their standings, with fees and adjustments), biggest hands,
#: favourite patterns (the page of nights is a slice of the nights played; which of them the viewer sees costs no
#: query: they are of the player's group, which the viewer is a member of: rights.visible_night_ids); for a group
#: its active players and
#: their standings. The statistics are kept in a memory cache, so it costs no query itself.
PLAYER_PAGE, LEADERBOARD_PAGE, PLAYER_API, LEADERBOARD_API = 6, 5, 5, 3

pytestmark = pytest.mark.usefixtures("own_cache")


def play_nights(owner, players, count):
    """`count` nights of one or two hands each, every other one closed with fee shares."""
    for i in range(count):
        night = services.night_create(owner=owner, title=f"第{i + 1}场", date=dt.date(2026, 1, 1) + dt.timedelta(days=i),
                                      base=Decimal("2"), players=players, first_dealer=0)
        for h in range(1 + i % 2):
            services.hand_record(night=night, by=owner, entry={"events": [win(None, w((i + h) % 4))], "exhausted": True})
        if i % 2:
            services.night_close(night=night, by=owner)
            fee_shares(night, {p: Decimal(5) for p in players})


def count_queries(fetch):
    with CaptureQueriesContext(connection) as queries:
        response = fetch()
    assert response.status_code == 200
    return len(queries)


@pytest.fixture
def client(owner):
    return page_client(owner)


@pytest.mark.parametrize("nights", [2, 30])
def test_the_player_page_takes_a_fixed_number_of_queries(client, owner, players, nights,
                                                        django_assert_max_num_queries):
    play_nights(owner, players, nights)
    with django_assert_max_num_queries(PLAYER_PAGE):
        response = client.get(f"/players/{players[0].pk}/")
    assert response.status_code == 200
    assert response.content.decode().count('class="amount') >= min(nights, 20)


@pytest.mark.parametrize("nights", [2, 30])
def test_the_leaderboard_page_takes_a_fixed_number_of_queries(client, owner, group, players, nights,
                                                             django_assert_max_num_queries):
    play_nights(owner, players, nights)
    with django_assert_max_num_queries(LEADERBOARD_PAGE):
        response = client.get(f"/groups/{group.pk}/leaderboard/?from=")
    assert response.status_code == 200


@pytest.mark.parametrize("nights", [2, 30])
def test_the_stats_api_takes_a_fixed_number_of_queries(owner, group, players, nights,
                                                       django_assert_max_num_queries):
    play_nights(owner, players, nights)
    client = api_client(owner)
    with django_assert_max_num_queries(PLAYER_API):
        assert client.get(f"/api/players/{players[0].pk}/stats/").status_code == 200
    with django_assert_max_num_queries(LEADERBOARD_API):
        assert client.get(f"/api/groups/{group.pk}/leaderboard/", {"from": ""}).status_code == 200


def test_the_query_count_is_the_same_at_2_and_30_nights(client, owner, group, players):
    api = api_client(owner)
    reads = [lambda: client.get(f"/players/{players[0].pk}/"),
             lambda: client.get(f"/groups/{group.pk}/leaderboard/?from="),
             lambda: api.get(f"/api/players/{players[0].pk}/stats/"),
             lambda: api.get(f"/api/groups/{group.pk}/leaderboard/", {"from": ""})]
    play_nights(owner, players, 2)
    few = [count_queries(read) for read in reads]
    play_nights(owner, players, 28)
    many = [count_queries(read) for read in reads]
    assert few == many


def test_statistics_are_computed_once_per_change_of_the_group(client, owner, group, players):
    """A second read of the same page finds the history in the cache (fewer queries, same page); recording a hand
    writes an audit entry of the group, so the next read computes again and shows it."""
    play_nights(owner, players, 3)
    url = f"/players/{players[0].pk}/"
    def page():  # the page without its CSRF tokens (fresh on every request)
        return re.sub(r'value="[^"]{40,}"', "", client.get(url).content.decode())
    first, first_count = page(), count_queries(lambda: client.get(url))
    with CaptureQueriesContext(connection) as queries:
        again = page()
    assert again == first and len(queries) < PLAYER_PAGE and len(queries) == first_count
    board = f"/groups/{group.pk}/leaderboard/?from="
    before = client.get(board).content.decode()
    night = services.night_create(owner=owner, title="新的一场", date=dt.date(2026, 6, 1), base=Decimal("2"),
                                  players=players, first_dealer=0)
    services.hand_record(night=night, by=owner, entry={"events": [win(None, w(0, "qing_yi_se"))], "exhausted": True})
    after_page = client.get(url).content.decode()
    assert "新的一场" in after_page and "新的一场" not in first
    assert client.get(board).content.decode() != before


def test_the_group_page_after_a_hand_keeps_its_body_and_draws_the_leaderboard_anew(client, owner, group, players):
    """A recorded hand moves only the group's generation, not its page generation (ledger.services.audit.HAND_ONLY):
    the first view after it reads the session, the user, the group and the leaderboard's two queries (its players
    and their standings), and shows the hand's money; a change of the page's body (a night renamed by a seat
    change, here a new night) is drawn at once."""
    this_year = timezone.localdate()  # the leaderboard's "this year" is the server's (Asia/Shanghai)
    night = services.night_create(owner=owner, title="今年这场", date=this_year, base=Decimal("2"), players=players,
                                  first_dealer=0)
    url = f"/groups/{group.pk}/"
    first = client.get(url).content.decode()
    assert "今年这场" in first and "group-leaderboard" in first
    services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1, "qing_yi_se"))], "exhausted": True})
    with CaptureQueriesContext(connection) as queries:
        after = client.get(url).content.decode()
    assert len(queries) == 5, "\n".join(q["sql"][:100] for q in queries.captured_queries)
    board = after[after.index('id="group-leaderboard"'):]
    assert "李四" in board and "+" in board  # the self-drawer leads with the hand's money
    assert board != first[first.index('id="group-leaderboard"'):]
    services.night_create(owner=owner, title="又一场", date=this_year, base=Decimal("2"), players=players,
                          first_dealer=0)
    assert "又一场" in client.get(url).content.decode()
