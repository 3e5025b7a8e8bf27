"""The player history and leaderboard pages (issue 11): what members see, outsiders' 404, the date range."""
import datetime as dt
import re
from decimal import Decimal

import pytest
from django.template import Context, Template
from django.test import Client
from django.utils import timezone

from ledger.services import nights as services
from ledger.models import FeeShare, GroupMember
from ledger.presenters.nights import money
from ledger.selectors.nights import night_nets

from tests.factories import page_client as signed_in, fee_shares
from tests.hand_helpers import w, win

ONE_GUN_THREE = {"events": [win(1, w(0, "qing_yi_se"), w(2), w(3))]}


@pytest.fixture
def member(viewer, group):
    """A plain member of the group (the `viewer` fixture is also a member of the night itself)."""
    GroupMember.objects.create(group=group, user=viewer, role=GroupMember.Role.MEMBER)
    return viewer


@pytest.fixture
def tonight(owner, players):
    """A night dated today (so it falls in the default range, this year) with one hand: 张三 wins 清一色."""
    night = services.night_create(owner=owner, title="今晚", date=timezone.localdate(), base=Decimal("2"),
                                  players=players, first_dealer=0)
    services.hand_record(night=night, by=owner, entry=ONE_GUN_THREE)
    return night


def test_a_member_sees_a_players_totals_chart_biggest_hands_and_nights(member, tonight, players):
    html = signed_in(member).get(f"/players/{players[0].pk}/").content.decode()
    assert "张三" in html and "<svg" in html and "清一色" in html
    assert f'href="/nights/{tonight.pk}/"' in html  # the night is linked: the member can see it
    assert "进行中" in html and "结束时才分摊台费" in html  # open night: its fee is not shared out yet
    assert re.search(r"胡牌率</dt><dd>100%</dd>", html)


def test_the_page_speaks_english_on_request(member, tonight, players):
    client = signed_in(member)
    client.cookies["django_language"] = "en"
    html = client.get(f"/players/{players[0].pk}/").content.decode()
    assert "Win rate" in html and "Full flush" in html and "Net over time" in html


@pytest.mark.parametrize("path", ["/players/{player}/", "/groups/{group}/leaderboard/"])
def test_an_outsider_of_the_group_gets_404(outsider, tonight, players, group, path):
    url = path.format(player=players[0].pk, group=group.pk)
    assert signed_in(outsider).get(url).status_code == 404


@pytest.mark.parametrize("path", ["/players/{player}/", "/groups/{group}/leaderboard/"])
def test_a_member_of_one_night_only_is_still_an_outsider_of_the_group(viewer, night, players, group, path):
    url = path.format(player=players[0].pk, group=group.pk)
    assert signed_in(viewer).get(url).status_code == 404  # night-level grants do not open the group's stats


@pytest.mark.parametrize("path", ["/players/{player}/", "/groups/{group}/leaderboard/"])
def test_a_visitor_who_is_not_signed_in_is_sent_to_sign_in(players, group, path):
    response = Client().get(path.format(player=players[0].pk, group=group.pk))
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_a_merged_players_page_leads_to_the_player_they_became(owner, group, players):
    old = services.player_get_or_create(name="张老三", group=group)
    old.merged_into = players[0]
    old.save()
    response = signed_in(owner).get(f"/players/{old.pk}/")
    assert response.status_code == 302 and response["Location"] == f"/players/{players[0].pk}/"


def test_the_nights_are_listed_newest_first_a_page_at_a_time(owner, players):
    for day in range(1, 23):
        night = services.night_create(owner=owner, title=f"十月{day}日", date=dt.date(2026, 10, day),
                                      base=Decimal("2"), players=players, first_dealer=0)
        services.hand_record(night=night, by=owner, entry={"events": [win(None, w(0))], "exhausted": True})
    client = signed_in(owner)
    first = client.get(f"/players/{players[0].pk}/").content.decode()
    titles = re.findall(r">(十月\d+日)</a>", first)
    assert titles == [f"十月{d}日" for d in range(22, 2, -1)]
    cursor = re.search(r'rel="next" href="\?cursor=([^"]+)"', first).group(1)
    second = client.get(f"/players/{players[0].pk}/?cursor={cursor}").content.decode()
    assert re.findall(r">(十月\d+日)</a>", second) == ["十月2日", "十月1日"]


def test_a_fee_share_shows_on_the_night_and_comes_off_its_net(owner, tonight, players):
    hands_net = night_nets(tonight)[players[1].pk]  # 李四 dealt in to all three
    fee_shares(tonight, {players[1]: Decimal(5)})
    html = signed_in(owner).get(f"/players/{players[1].pk}/").content.decode()
    assert "台费 5" in html
    row = re.search(r'<strong class="amount neg">([^<]+)</strong>', html).group(1)
    assert row == money(hands_net - 5) and hands_net < 0


def test_the_leaderboard_defaults_to_this_year_with_quick_links(member, tonight, group):
    year = timezone.localdate().year
    html = signed_in(member).get(f"/groups/{group.pk}/leaderboard/").content.decode()
    assert f"{year}-01-01 – {year}-12-31" in html
    assert 'class="chip selected" href="?from=%d-01-01&amp;to=%d-12-31"' % (year, year) in html
    assert "本月" in html and "全部" in html
    rows = re.findall(r'<td class="name"><a href="/players/\d+/">(\w+)</a>', html)
    assert rows[0] == "张三" and len(rows) == 4


def test_the_leaderboard_takes_a_date_range_from_the_query(owner, tonight, players, group):
    last_year = services.night_create(owner=owner, title="去年", date=dt.date(2020, 5, 1), base=Decimal("2"),
                                      players=players, first_dealer=0)
    services.hand_record(night=last_year, by=owner, entry={"events": [win(None, w(3, "qing_yi_se"))],
                                                           "exhausted": True})
    client = signed_in(owner)
    html = client.get(f"/groups/{group.pk}/leaderboard/?from=2020-01-01&to=2020-12-31").content.decode()
    rows = re.findall(r'<td class="name"><a href="/players/\d+/">(\w+)</a>', html)
    assert rows[0] == "赵六" and "2020-01-01 – 2020-12-31" in html
    everything = client.get(f"/groups/{group.pk}/leaderboard/?from=").content.decode()
    assert "全部日期" in everything and 'class="chip selected" href="?from=&amp;to="' in everything


@pytest.mark.parametrize("query,message", [
    ("from=2026-02-30", "开始日期（from）应为日期"),
    ("to=yesterday", "结束日期（to）应为日期"),
    ("from=2026-12-01&to=2026-11-01", "结束日期（to）不能早于开始日期（from）"),
    ("from=2026-01-01&from=2026-02-01", "开始日期（from）只能给一次"),
    ("from=20260101", "开始日期（from）应为日期"),
])
def test_a_bad_date_is_a_clear_error_on_the_page(owner, group, query, message):
    response = signed_in(owner).get(f"/groups/{group.pk}/leaderboard/?{query}")
    assert response.status_code == 400
    html = response.content.decode()
    assert message in html and 'id="board"' not in html


def test_a_bad_date_is_explained_in_english_too(owner, group):
    client = signed_in(owner)
    client.cookies["django_language"] = "en"
    html = client.get(f"/groups/{group.pk}/leaderboard/?from=soon").content.decode()
    assert "the start date (from) must be a date as YYYY-MM-DD" in html


def test_players_who_did_not_play_in_the_range_are_named_apart(owner, tonight, group):
    services.player_get_or_create(name="新人", group=group)
    html = signed_in(owner).get(f"/groups/{group.pk}/leaderboard/").content.decode()
    assert re.search(r'id="idle">这段时间没上桌：<a href="/players/\d+/">新人</a>', html)


GROUP_SECTION = Template('{% include "stats/_group_section.html" %}')


def test_the_group_home_fragment_shows_this_years_top_players_to_members(member, tonight, group, players):
    html = GROUP_SECTION.render(Context({"group": group, "user": member}))
    assert "今年排行" in html and f'href="/groups/{group.pk}/leaderboard/"' in html
    assert html.index("张三") < html.index("李四")  # 张三 won, 李四 paid everyone
    assert f'href="/players/{players[0].pk}/"' in html


def test_the_group_home_fragment_shows_nothing_to_an_outsider(outsider, tonight, group):
    assert GROUP_SECTION.render(Context({"group": group, "user": outsider})).strip() == ""


def test_the_group_home_fragment_says_when_nobody_has_played_this_year(owner, group, players):
    html = GROUP_SECTION.render(Context({"group": group, "user": owner}))
    assert "今年还没有计入的牌局" in html


@pytest.mark.usefixtures("own_cache")
def test_a_hand_committed_while_the_history_is_read_leaves_the_page_whole(night, owner, players, monkeypatch):
    """The page of nights is read after the nights played: a night whose first hand commits in between waits for
    the next view (its audit entry moved the group's generation) instead of failing the page."""
    import ledger.views.stats as views
    entry = {"events": [win(None, w(1))], "exhausted": True}
    services.hand_record(night=night, by=owner, entry=entry)
    other = services.night_create(owner=owner, title="新一场", date=dt.date(2026, 11, 28), base=Decimal("2"),
                                  players=players, first_dealer=0)
    real, done = views.nights_played, []

    def then_a_hand_commits(player):
        rows = real(player)
        if not done:
            done.append(services.hand_record(night=other, by=owner, entry=entry))
        return rows
    monkeypatch.setattr(views, "nights_played", then_a_hand_commits)
    client = signed_in(owner)
    first = client.get(f"/players/{players[0].pk}/")
    assert first.status_code == 200 and "新一场" not in first.content.decode()
    assert "新一场" in client.get(f"/players/{players[0].pk}/").content.decode()  # the next view has it


def test_players_who_did_not_play_are_listed_with_the_languages_comma(owner, tonight, group):
    for name in ("Tao", "Wen"):
        services.player_get_or_create(name=name, group=group)
    client = signed_in(owner)
    client.cookies["django_language"] = "en"
    html = client.get(f"/groups/{group.pk}/leaderboard/").content.decode()
    assert re.search(r'>Tao</a>, <a href="/players/\d+/">Wen</a>', html), html  # an English list said "Tao、Wen"
