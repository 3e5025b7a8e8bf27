"""Evenings across tables: one settlement for everyone over all tables, fewest transfers, per-table nets beside it."""
import datetime as dt
from decimal import Decimal

import pytest
from django.conf import settings as django_settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.services import nights as services
from ledger.selectors import evenings as selectors
from ledger.services import evenings
from ledger.models import GroupMember, Settlement
from ledger.models import AuditEntry, Night
from scoring import settle_night_plan

from tests.conftest import api_client
from tests.evening_helpers import DATE, NAMES, apply, brute_minimum, on_discard, people, self_draw, table, two_tables
from tests.factories import page_client as client_for

pytestmark = pytest.mark.django_db
FEE = {"mode": "per_player", "amount": "5"}


def test_an_evening_settles_everyone_over_all_tables_in_the_fewest_transfers(owner, group):
    evening, first, second = two_tables(owner, group, fee=FEE)
    view = selectors.evening_view(evening)
    # 张三 played at both tables: his evening is the sum of his two nights; 孙七 only took his seat at table 1.
    by_name = {p.name: view.nets[p.pk] for p in view.players}
    tables = [t.summary.nets for t in view.tables]
    zhang = people(group)["张三"].pk
    assert by_name["张三"] == tables[0][zhang] + tables[1][zhang]
    assert set(by_name) == set(NAMES)
    assert view.fee == Decimal(5) * 5 + Decimal(5) * 4  # five played at table 1, four at table 2
    assert sum(view.nets.values()) + view.fee == 0
    parties = {**{p: view.nets[p.pk] for p in view.players}, "台费": view.fee}
    paid = apply([(t.payer if t.payer.pk else "台费", t.payee if t.payee.pk else "台费", t.amount)
                  for t in view.plan.transfers], parties)
    assert set(paid.values()) == {0}
    assert view.plan.method == "exact"
    assert len(view.plan.transfers) == brute_minimum(list(parties.values()))


tables_of_players = st.lists(
    st.tuples(st.permutations(range(6)).map(lambda p: p[:4]),
              st.lists(st.integers(-40, 40), min_size=3, max_size=3),
              st.sampled_from([0, 0, 4, 10])),
    min_size=1, max_size=3)


@settings(max_examples=60, deadline=None)
@given(tables_of_players)
def test_players_moving_between_tables_still_settle_to_zero_in_the_fewest_transfers(tables):
    """The combination the evening selector makes (sum each player's table nets, the fees as one 台费), settled by
    the engine: every net reaches zero, and no settlement has fewer transfers (brute force over partitions)."""
    nets: dict[object, Decimal] = {}
    for seats, amounts, fee in tables:
        table_nets = [Decimal(a) for a in amounts] + [Decimal(-sum(amounts) - fee)]
        for player, amount in zip(seats, table_nets):
            nets[player] = nets.get(player, Decimal(0)) + amount
        if fee:
            nets["台费"] = nets.get("台费", Decimal(0)) + fee
    plan = settle_night_plan(nets)
    left = apply([(t.payer, t.payee, t.amount) for t in plan.transfers], nets)
    assert set(left.values()) <= {0}
    assert len(plan.transfers) == brute_minimum(list(nets.values())) == plan.lower_bound


def test_the_evening_page_shows_tables_nets_fee_and_settlement_on_one_screen(owner, group):
    evening, first, second = two_tables(owner, group, fee=FEE)
    page = client_for(owner).get(f"/evenings/{evening.pk}/").content.decode()
    assert "1号桌" in page and "2号桌" in page and "台费" in page and "+45" in page
    assert 'id="settle"' in page and "圈子里没有之前没付的转账" in page and "最少转账" in page  # nothing to carry: no box
    assert f'href="/nights/{first.pk}/"' in page
    client = client_for(owner)
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client.get(f"/evenings/{evening.pk}/").content.decode()
    assert "Table 1" in english and "Table fee" in english and "The group has no unpaid transfers from before" in english


def test_an_open_table_must_be_closed_before_settling_and_the_page_offers_it(owner, group):
    evening, first, second = two_tables(owner, group, close=False)
    page = client_for(owner).get(f"/evenings/{evening.pk}/").content.decode()
    assert 'id="close-tables"' in page and 'id="settle"' not in page
    with pytest.raises(ValidationError):
        evenings.settle_evening(by=owner, evening=evening)
    response = client_for(owner).post(f"/evenings/{evening.pk}/close/")
    assert response.status_code == 302
    assert not Night.objects.filter(evening=evening, is_closed=False).exists()
    assert 'id="settle"' in client_for(owner).get(f"/evenings/{evening.pk}/").content.decode()


def test_settling_fixes_the_transfers_and_then_no_table_may_join(owner, group):
    evening, first, second = two_tables(owner, group, fee=FEE)
    computed = [(t.payer.name, t.payee.name, t.amount) for t in selectors.evening_view(evening).plan.transfers]
    response = client_for(owner).post(f"/evenings/{evening.pk}/settle/", {})
    assert response.status_code == 302
    settlement = Settlement.objects.get(evening=evening)
    fixed = [(selectors.party_name(t.payer), selectors.party_name(t.payee), t.amount)
             for t in settlement.transfers.order_by("position")]
    assert fixed == computed and settlement.method == "exact"
    assert AuditEntry.objects.filter(group=group, action=AuditEntry.Action.SETTLED).count() == 1
    with pytest.raises(ValidationError):
        table(owner, group, evening, NAMES[4:])
    with pytest.raises(ValidationError):
        evenings.settle_evening(by=owner, evening=evening)


def test_table_numbers_are_unique_in_an_evening_and_follow_on(owner, group):
    evening = evenings.evening_create(by=owner, group=group, title="周六", date=DATE)
    assert table(owner, group, evening, NAMES[:4]).table_no == 1
    assert table(owner, group, evening, NAMES[4:], table_no=5).table_no == 5
    assert table(owner, group, evening, NAMES[:4]).table_no == 6
    with pytest.raises(ValidationError) as caught:
        table(owner, group, evening, NAMES[4:], table_no=5)
    assert "table_no" in caught.value.message_dict
    with pytest.raises(ValidationError):  # another date than the evening's
        services.night_create(owner=owner, title="x", date=DATE + dt.timedelta(days=1), base=Decimal(1),
                              players=list(people(group).values())[:4], first_dealer=0, evening=evening)


def test_the_night_form_joins_an_evening_with_a_table_fee(owner, group):
    evening = evenings.evening_create(by=owner, group=group, title="周六", date=DATE, venue="茶馆")
    form = client_for(owner).get(f"/nights/new/?evening={evening.pk}").content.decode()
    assert f'<option value="{evening.pk}" selected>' in form and 'value="2026-11-27"' in form
    data = {"group": str(group.pk), "evening": str(evening.pk), "table_no": "", "title": "一号桌", "date": "2026-11-27",
            "venue": "茶馆", "player_0": "张三", "player_1": "李四", "player_2": "王五", "player_3": "新人",
            "first_dealer": "0", "base": "1", "stake": "money", "currency": "CNY", "preset": "chengdu",
            "fee_mode": "per_win", "fee_amount": "1", "fee_wins": "self_draw", "scorekeepers": "", "members": "",
            "rule_kong_direct": "2", "rule_kong_added": "1", "rule_kong_concealed": "2",
            "rule_gang_shang_hua_fan": "1", "rule_qiang_gang_hu_fan": "0", "rule_robbable_kongs": "added",
            "rule_self_draw_bonus": "none", "rule_max_fan": "", "rule_cha_jiao": "min", "rule_hua_zhu_fan": "",
            "rule_hai_di_fan": "0", "rule_jin_gou_diao_fan": "0", "rule_dealer_when_no_winner": "stay"}
    response = client_for(owner).post("/nights/new/", data)
    night = Night.objects.get(title="一号桌")
    assert response.status_code == 302
    assert night.evening == evening and night.table_no == 1 and night.group == group
    assert night.fee == {"mode": "per_win", "amount": "1", "wins": "self_draw"}
    assert night.seating.get(seat=3).player.group == group
    bad = client_for(owner).post("/nights/new/", {**data, "title": "二号桌", "fee_amount": "0.001"})
    assert bad.status_code == 200 and "errorlist" in bad.content.decode()
    missing = client_for(owner).post("/nights/new/", {**data, "title": "二号桌", "fee_amount": ""})
    assert "请填写台费金额" in missing.content.decode()
    fresh = client_for(owner).post("/nights/new/", {**data, "title": "新的一晚", "evening": "new", "fee_mode": "none"})
    made = Night.objects.get(title="新的一晚")
    assert fresh.status_code == 302 and made.evening.title == "新的一晚" and made.evening.venue == "茶馆"


def test_the_api_creates_evenings_and_tables_with_fees(owner, group):
    client = api_client(owner)
    created = client.post(f"/api/groups/{group.pk}/evenings/", {"title": "周五", "date": "2026-11-27"}, format="json")
    assert created.status_code == 201
    evening = created.json()["id"]
    night = client.post("/api/nights/", {"title": "1", "date": "2026-11-27", "base": "1", "players": list(NAMES[:4]),
                                         "evening": evening, "table_no": 2, "fee": FEE}, format="json")
    assert night.status_code == 201, night.json()
    body = night.json()
    assert body["evening"] == evening and body["table_no"] == 2 and body["fee"] == {"mode": "per_player", "amount": "5"}
    bad = client.post("/api/nights/", {"title": "1", "date": "2026-11-27", "base": "1", "players": list(NAMES[4:]),
                                       "evening": evening, "fee": {"mode": "per_player", "amount": 5.5}},
                      format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert bad.status_code == 400 and bad.json()["errors"][0]["path"] == "fee.amount"
    assert "fee amount" in bad.json()["errors"][0]["message"]
    listed = client.get(f"/api/groups/{group.pk}/evenings/").json()
    assert [e["id"] for e in listed["results"]] == [evening]
    detail = client.get(f"/api/evenings/{evening}/").json()
    assert [t["table_no"] for t in detail["tables"]] == [2] and detail["settlement"] is None
    assert detail["plan"]["method"] == "exact" and detail["table_fee"] == "0"


def test_the_evening_api_gives_tables_combined_nets_and_settles(owner, group):
    evening, first, second = two_tables(owner, group, fee=FEE)
    client = api_client(owner)
    detail = client.get(f"/api/evenings/{evening.pk}/").json()
    assert detail["table_fee"] == "45" and len(detail["tables"]) == 2
    assert sum(Decimal(n["amount"]) for n in detail["nets"]) + Decimal(detail["table_fee"]) == 0
    assert any(t["fee"] and t["to"] == "台费" for t in detail["plan"]["transfers"])
    settled = client.post(f"/api/evenings/{evening.pk}/settle/", {"include_carry": False}, format="json")
    assert settled.status_code == 201
    assert [t["position"] for t in settled.json()["transfers"]] == list(range(1, len(detail["plan"]["transfers"]) + 1))
    again = client.get(f"/api/evenings/{evening.pk}/").json()
    assert again["settlement"]["id"] == settled.json()["id"]
    assert client.post(f"/api/evenings/{evening.pk}/settle/", {}, format="json").status_code == 400
    assert client.post(f"/api/evenings/{evening.pk}/settle/", {"include_carry": "yes"}, format="json").status_code == 400


def test_outsiders_get_404_for_evenings_settlements_and_balances(owner, group, outsider):
    evening, first, second = two_tables(owner, group, fee=FEE)
    settlement = evenings.settle_evening(by=owner, evening=evening)
    pages = client_for(outsider)
    for url in (f"/evenings/{evening.pk}/",):
        assert pages.get(url).status_code == 404
    for url in (f"/evenings/{evening.pk}/settle/", f"/evenings/{evening.pk}/close/",
                f"/settlements/{settlement.pk}/transfers/1/paid/", f"/settlements/{settlement.pk}/transfers/1/unpaid/",
                f"/nights/{first.pk}/settle-up/"):
        assert pages.post(url).status_code == 404, url
    api = api_client(outsider)
    for url in (f"/api/evenings/{evening.pk}/", f"/api/groups/{group.pk}/evenings/", f"/api/groups/{group.pk}/balance/"):
        assert api.get(url).status_code == 404, url
    for url in (f"/api/evenings/{evening.pk}/settle/", f"/api/groups/{group.pk}/evenings/",
                f"/api/settlements/{settlement.pk}/transfers/1/paid/",
                f"/api/settlements/{settlement.pk}/transfers/1/unpaid/", f"/api/nights/{first.pk}/settle/"):
        assert api.post(url, {}, format="json").status_code == 404, url


def test_members_see_an_evening_but_only_writers_create_close_or_settle(owner, group, viewer):
    GroupMember.objects.create(group=group, user=viewer, role=GroupMember.Role.MEMBER)
    evening, first, second = two_tables(owner, group, close=False)
    assert client_for(viewer).get(f"/evenings/{evening.pk}/").status_code == 200
    assert client_for(viewer).post(f"/evenings/{evening.pk}/close/").status_code == 403
    assert api_client(viewer).post(f"/api/groups/{group.pk}/evenings/", {"title": "x", "date": "2026-11-28"},
                                   format="json").status_code == 403
    assert api_client(viewer).post(f"/api/evenings/{evening.pk}/settle/", {}, format="json").status_code == 403
    with pytest.raises(PermissionDenied):
        evenings.evening_create(by=viewer, group=group, title="x", date=DATE)


def hands_and_queries(owner, evening, night, more):
    for i in range(more):
        services.hand_record(night=night, by=owner, entry=self_draw(i % 4))
    with CaptureQueriesContext(connection) as captured:
        assert client_for(owner).get(f"/evenings/{evening.pk}/").status_code == 200
    return len(captured.captured_queries)


def test_the_evening_page_costs_the_same_queries_however_many_hands(owner, group):
    evening, first, second = two_tables(owner, group, fee={"mode": "per_win", "amount": "1"}, close=False)
    client_for(owner).get(f"/evenings/{evening.pk}/")  # both tables' totals computed once
    few = hands_and_queries(owner, evening, first, 1)
    many = hands_and_queries(owner, evening, first, 12)
    assert many == few
    client_for(owner).get(f"/evenings/{evening.pk}/")
    with CaptureQueriesContext(connection) as warm:
        client_for(owner).get(f"/evenings/{evening.pk}/")
    assert len(warm.captured_queries) <= few


def test_a_settled_standalone_night_is_settled_on_its_own_page(owner, group):
    night = table(owner, group, None, NAMES[:4], fee={"mode": "winners", "amount": "10"},
                  hands=[self_draw(1), on_discard(2, 3)])
    page = client_for(owner).get(f"/nights/{night.pk}/settle/").content.decode()
    assert 'id="settle"' not in page  # not closed yet
    services.night_close(night=night, by=owner)
    assert 'id="settle"' in client_for(owner).get(f"/nights/{night.pk}/settle/").content.decode()
    assert client_for(owner).post(f"/nights/{night.pk}/settle-up/", {}).status_code == 302
    page = client_for(owner).get(f"/nights/{night.pk}/settle/").content.decode()
    assert "标记已付" in page and "台费" in page
    response = api_client(owner).post(f"/api/nights/{night.pk}/settle/", {}, format="json")
    assert response.status_code == 400  # settled once only


def test_the_night_form_starts_from_the_groups_defaults(owner, group):
    group.defaults = {"base": "2", "fee": {"mode": "per_win", "amount": "1", "wins": "self_draw"},
                      "rules": {"max_fan": 4}}
    group.save()
    form = client_for(owner).get("/nights/new/").content.decode()
    assert '<option value="per_win" selected>' in form and 'name="fee_amount" value="1"' in form
    assert '<option value="self_draw" selected>' in form and 'name="rule_max_fan" value="4"' in form


def test_a_second_table_of_an_evening_starts_from_the_first_ones_stake_rules_and_fee(owner, group):
    """加一桌 started at the group's defaults (不收台费) while the evening's first table paid ¥5 a head (a walk)."""
    import re

    evening = evenings.evening_create(by=owner, group=group, title="周六", date=DATE, venue="茶馆")
    table(owner, group, evening, NAMES[:4], base="2", fee={"mode": "per_player", "amount": "5"})
    Night.objects.filter(evening=evening).update(rules={**Night.objects.get(evening=evening).rules, "max_fan": 4})
    form = client_for(owner).get(f"/nights/new/?evening={evening.pk}").content.decode()
    assert re.search(r'<option value="per_player" selected>', form), "the fee's mode"
    assert re.search(r'name="fee_amount"[^>]*value="5"', form) and re.search(r'name="base"[^>]*value="2', form)
    assert re.search(r'name="rule_max_fan" value="4"', form)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_tables_member_from_outside_the_group_follows_its_evening_link_to_the_tables_they_may_see(
        owner, group, outsider, lang):
    """The table's head links to its evening ("活动 · 2 号桌"). A member of that table only (not of the group) gets
    the tables they may see and why the rest is not shown, not a 404; nothing of the other table (its players, the
    nets, the transfers). Someone who may see no table of it still gets 404."""
    evening, first, second = two_tables(owner, group, fee=FEE)
    assert client_for(outsider).get(f"/evenings/{evening.pk}/").status_code == 404
    second.members.add(outsider)
    pages = client_for(outsider)
    pages.cookies[django_settings.LANGUAGE_COOKIE_NAME] = lang
    table = pages.get(f"/nights/{second.pk}/").content.decode()
    assert f'href="/evenings/{evening.pk}/"' in table
    response = pages.get(f"/evenings/{evening.pk}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert f'href="/nights/{second.pk}/"' in page and f'/nights/{first.pk}/' not in page
    assert "周五麻将局" in page and "孙七" not in page and "→" not in page and group.name not in page
    assert ("只有圈子的成员能看" if lang == "zh" else "shown to the group's members only") in page
    assert ("2号桌" if lang == "zh" else "Table 2") in page


def test_a_tables_settle_page_links_to_the_evening_for_the_groups_members_only(owner, group, outsider,
                                                                                django_user_model):
    def django_user_model_create(name):
        return django_user_model.objects.create_user(name, password=f"pw-{name}-2026")

    evening, first, second = two_tables(owner, group)
    second.members.add(outsider)
    outsiders = client_for(outsider).get(f"/nights/{second.pk}/settle/").content.decode()
    members = client_for(owner).get(f"/nights/{second.pk}/settle/").content.decode()
    assert "所有牌桌一起结算" in members and f'href="/evenings/{evening.pk}/"' in members
    assert "圈子的成员在活动页面把所有牌桌一起结算。" in outsiders and "所有牌桌一起结算 →" not in outsiders
    assert "活动的结算 →" not in outsiders and "活动的结算 →" in members  # the settlement's note too
    # A member who cannot settle is offered the evening's page, not a button-like 所有牌桌一起结算.
    member = django_user_model_create("plain")
    GroupMember.objects.create(group=group, user=member, role=GroupMember.Role.MEMBER)
    plain = client_for(member).get(f"/nights/{second.pk}/settle/").content.decode()
    assert "活动页面：所有牌桌一起算的转账 →" in plain and "所有牌桌一起结算 →" not in plain
    table = client_for(outsider).get(f"/nights/{second.pk}/").content.decode()
    assert f'href="/evenings/{evening.pk}/"' in table  # the head's link: to the tables they may see


def test_a_view_link_shows_the_tables_evening_without_a_link_that_would_ask_to_sign_in(owner, group):
    from django.contrib.auth import get_user_model
    from django.test import Client
    from ledger.services import sharing
    evening, first, second = two_tables(owner, group, close=False)
    link = sharing.link_renew(night=second, by=owner, kind="view")
    page = Client().get(f"/v/{link.token}/").content.decode()
    assert "活动 · 2 号桌" in page and f'href="/evenings/{evening.pk}/"' not in page
    # Signed in, but neither in the group nor a member of any of its tables: the evening would be a 404 to them.
    stranger = get_user_model().objects.create_user("stranger", password="pw-stranger-2026")
    page = client_for(stranger).get(f"/v/{link.token}/").content.decode()
    assert "活动 · 2 号桌" in page and f'href="/evenings/{evening.pk}/"' not in page
    assert client_for(stranger).get(f"/evenings/{evening.pk}/").status_code == 404
    assert f'href="/evenings/{evening.pk}/"' in client_for(owner).get(f"/nights/{second.pk}/").content.decode()


@pytest.mark.parametrize("lang, sunday", [("zh", "周日麻将局"), ("en", "Sunday mahjong")])
def test_a_new_evenings_title_follows_the_day_of_the_week_as_a_new_nights_does(owner, group, lang, sunday):
    from unittest import mock
    pages = client_for(owner)
    pages.cookies[django_settings.LANGUAGE_COOKIE_NAME] = lang
    sunday_evening = dt.datetime(2026, 12, 6, 19, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    with mock.patch("django.utils.timezone.now", return_value=sunday_evening):
        form = pages.get(f"/evenings/new/?group={group.pk}").content.decode()
    assert f'value="{sunday}"' in form and "周五麻将局" not in form and "Friday" not in form


def test_a_tables_seats_say_when_their_totals_include_the_table_fee(owner, group):
    """A walk: after the first hand of a ¥10-a-head table, the winner of +4 read -6 with nothing beside it."""
    night = table(owner, group, None, NAMES[:4], fee={"mode": "per_player", "amount": "10"}, hands=[self_draw(1)])
    page = client_for(owner).get(f"/nights/{night.pk}/").content.decode()
    seats = page.split('data-live="seats"')[1].split("</section>")[0]
    assert seats.count("含台费 ¥10") == 4 and ">-7<" in seats  # 李四: +3 from the hand, ¥10 of fee
    bare = table(owner, group, None, NAMES[4:8], hands=[self_draw(1)], title="不收台费")
    assert "含台费" not in client_for(owner).get(f"/nights/{bare.pk}/").content.decode()


def test_a_groups_balance_with_nothing_unpaid_says_that_unsettled_nights_are_not_in_it(owner, group):
    """A walk: 'Still owed: All paid up.' beside an open night at −94."""
    table(owner, group, None, NAMES[:4], hands=[self_draw(1)])
    page = client_for(owner).get(f"/groups/{group.pk}/").content.decode()
    assert "结算过的转账都付清了（还没结算的牌局不算在内）。" in page
    english = client_for(owner, "en").get(f"/groups/{group.pk}/").content.decode()
    assert "nights not yet settled are not counted here" in english
