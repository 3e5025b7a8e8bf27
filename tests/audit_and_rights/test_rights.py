"""Who may do what (ledger.rights): each rule as a table of roles, and each control a page offers is offered exactly
when posting it is accepted (offered ⇒ the write happens; not offered ⇒ 403, or 404 for a page the caller cannot
see), 已付 for a name claimed after the settlement included."""
import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.http import Http404

from ledger import rights
from ledger.services import adjustments
from ledger.services import nights as services
from ledger.services import evenings as paying
from ledger.selectors.evenings import writable_groups
from ledger.services import groups
from ledger.models import GroupMember, Night, NightLink, Player, Settlement

from tests.conftest import api_client
from tests.evening_helpers import on_discard, self_draw

ROLES = ("group owner", "group scorekeeper", "group member", "night owner", "night scorekeeper", "night member",
         "outsider", "anonymous")
SIGNED_IN = ROLES[:-1]


@pytest.fixture
def world(db):
    """A group with an owner, a scorekeeper and a member; a night of it owned by someone outside the group, shared
    with a scorekeeper and a member of its own (night-level grants); and an outsider."""
    make = get_user_model().objects.create_user
    users = {role: make(role.replace(" ", "_"), password="pw") for role in SIGNED_IN}
    group = groups.group_create(by=users["group owner"], name="周五圈")
    GroupMember.objects.create(group=group, user=users["group scorekeeper"], role=GroupMember.Role.SCOREKEEPER)
    GroupMember.objects.create(group=group, user=users["group member"], role=GroupMember.Role.MEMBER)
    players = [services.player_get_or_create(name=n, group=group) for n in ("张三", "李四", "王五", "赵六")]
    night = services.night_create(owner=users["night owner"], title="周五夜", date=dt.date(2026, 11, 27),
                                  base=Decimal("2"), players=players, first_dealer=0,
                                  members=[users["night member"]], scorekeepers=[users["night scorekeeper"]])
    return {"users": {**users, "anonymous": AnonymousUser()}, "group": group, "players": players, "night": night}


def _yes(*roles):
    return {role: role in roles for role in ROLES}


SEES = _yes(*ROLES[:6])
WRITES_NIGHT = _yes("group owner", "group scorekeeper", "night owner", "night scorekeeper")
MANAGES_NIGHT = _yes("night owner")
WRITES_GROUP = _yes("group owner", "group scorekeeper")
MANAGES_GROUP = _yes("group owner")

NIGHT_RULES = {
    "may_view_night": SEES, "may_listen": SEES, "may_write_night": WRITES_NIGHT, "may_manage_night": MANAGES_NIGHT,
}
GROUP_RULES = {"may_view_group": _yes("group owner", "group scorekeeper", "group member"),
               "may_write_group": WRITES_GROUP, "may_settle": WRITES_GROUP, "may_manage_group": MANAGES_GROUP}


@pytest.mark.parametrize("rule", NIGHT_RULES)
@pytest.mark.parametrize("role", ROLES)
def test_each_night_rule_allows_exactly_its_roles(world, rule, role):
    assert getattr(rights, rule)(world["users"][role], world["night"]) is NIGHT_RULES[rule][role]


@pytest.mark.parametrize("rule", GROUP_RULES)
@pytest.mark.parametrize("role", ROLES)
def test_each_group_rule_allows_exactly_its_roles(world, rule, role):
    assert getattr(rights, rule)(world["users"][role], world["group"]) is GROUP_RULES[rule][role]


@pytest.mark.parametrize("role", ROLES)
def test_reports_are_downloadable_by_exactly_those_who_see_the_night(world, role):
    found = rights.downloadable_nights(world["users"][role]).filter(pk=world["night"].pk).exists()
    assert found is SEES[role]


@pytest.mark.parametrize("role", SIGNED_IN)
def test_the_rights_read_in_the_pages_query_agree_with_the_rules(world, role):
    user, night = world["users"][role], world["night"]
    annotated = rights.with_rights(Night.objects.filter(pk=night.pk), user).get()
    assert (annotated.user_can_write, annotated.user_group_writer) == (WRITES_NIGHT[role], WRITES_GROUP[role])


@pytest.mark.parametrize("role, in_night_names, may", [
    ("group owner", False, True), ("group member", False, True),
    ("night member", True, True), ("night member", False, False),
    ("outsider", False, False), ("anonymous", False, False),
])
def test_a_name_is_claimed_by_the_groups_members_or_by_a_nights_guest_for_that_nights_names(world, role,
                                                                                            in_night_names, may):
    player = world["players"][0]
    names = {p.pk for p in world["players"]} if in_night_names else set()
    assert rights.may_claim_player(world["users"][role], player, names) is may


@pytest.mark.parametrize("who, owner_named, may", [
    ("staff", "someone", True), ("the owner named", "night_owner", True), ("someone else", "night_owner", False),
    ("anonymous", "night_owner", False), ("the owner, with a name that is not text", 7, False),
])
def test_a_backup_is_restored_by_its_nights_owner_or_staff(world, who, owner_named, may):
    user = {"staff": get_user_model().objects.create_user("staff", is_staff=True),
            "someone else": world["users"]["outsider"],
            "anonymous": world["users"]["anonymous"]}.get(who, world["users"]["night owner"])
    assert rights.may_import_backup(user, owner_named) is may


@pytest.mark.parametrize("staff, may", [(True, True), (False, False)])
def test_a_backup_this_server_did_not_sign_is_restored_by_staff_only(world, staff, may):
    user = get_user_model().objects.create_user("importer", is_staff=staff)
    assert rights.may_import_unsigned_backup(user) is may


@pytest.mark.parametrize("role", SIGNED_IN)
def test_a_user_records_by_default_in_exactly_the_groups_they_write_to(world, role):
    assert (world["group"] in writable_groups(world["users"][role])) is WRITES_GROUP[role]


# Offered exactly when accepted ----------------------------------------------------------------------------------

def _client(user):
    client = Client()
    client.force_login(user)
    return client


def _settled(world):
    """Seat 0 (张三) pays seat 1 (李四); the night is closed and settled by the group's owner."""
    night, owner = world["night"], world["users"]["group owner"]
    services.hand_record(night=night, by=world["users"]["night owner"], entry=on_discard(1, 0))
    services.night_close(night=night, by=world["users"]["night owner"])
    return paying.settle_night(by=owner, night=night).transfers.get()


def _refusal(who):
    """A settlement is the group's: someone the night alone was shared with sees it on the night's page, but its
    transfers' addresses are unseen for them (404); a member of the group is refused (403)."""
    return 404 if who.startswith("night") else 403


MARKERS = [
    ("group owner", True), ("group scorekeeper", True), ("group member", False), ("night owner", False),
    ("night scorekeeper", False), ("night member", False),
    ("the payer, claimed before the settlement", True), ("the payee, claimed before the settlement", True),
    ("the payer, claimed after the settlement", False), ("the payee, claimed after the settlement", False),
]


@pytest.mark.parametrize("who, may", MARKERS)
def test_the_settle_page_offers_paid_exactly_to_whom_the_service_lets_mark_it(world, who, may):
    users, players = world["users"], world["players"]
    claimant = users["group member"]
    seat = 0 if "payer" in who else 1
    if "claimed before" in who:
        groups.player_claim(player=players[seat], user=claimant)
    transfer = _settled(world)
    if "claimed after" in who:
        groups.player_claim(player=players[seat], user=claimant)
        assert Player.objects.get(pk=players[seat].pk).user_id == claimant.pk
    user = claimant if "claimed" in who else users[who]
    assert rights.may_mark_transfer(user, transfer, settlement=transfer.settlement) is may

    client = _client(user)
    page = client.get(f"/nights/{world['night'].pk}/settle/")
    assert page.status_code == 200 and "李四" in page.content.decode()
    mark = f"/settlements/{transfer.settlement_id}/transfers/{transfer.position}/paid/"
    offered = f'action="{mark}"' in page.content.decode()
    response = client.post(mark)
    transfer.refresh_from_db()
    assert offered is may
    assert (transfer.paid_at is not None) is may
    assert response.status_code == (302 if may else _refusal(who))


@pytest.mark.parametrize("who, may", MARKERS)
def test_the_api_marks_paid_exactly_where_the_settle_page_offers_it(world, who, may):
    users, players = world["users"], world["players"]
    claimant = users["group member"]
    seat = 0 if "payer" in who else 1
    if "claimed before" in who:
        groups.player_claim(player=players[seat], user=claimant)
    transfer = _settled(world)
    if "claimed after" in who:
        groups.player_claim(player=players[seat], user=claimant)
    user = claimant if "claimed" in who else users[who]
    page = _client(user).get(f"/nights/{world['night'].pk}/settle/").content.decode()
    mark = f"/settlements/{transfer.settlement_id}/transfers/{transfer.position}/paid/"
    response = api_client(user).post(f"/api{mark}")
    transfer.refresh_from_db()
    assert (f'action="{mark}"' in page) is (response.status_code == 200) is (transfer.paid_at is not None) is may
    if not may:
        assert response.status_code == _refusal(who)


@pytest.mark.parametrize("role", SIGNED_IN)
def test_the_settle_page_offers_to_settle_exactly_to_whom_the_service_lets_settle(world, role):
    night = world["night"]
    services.hand_record(night=night, by=world["users"]["night owner"], entry=on_discard(1, 0))
    services.night_close(night=night, by=world["users"]["night owner"])
    client = _client(world["users"][role])
    page = client.get(f"/nights/{night.pk}/settle/")
    if not SEES[role]:
        assert page.status_code == 404 and client.post(f"/nights/{night.pk}/settle-up/").status_code == 404
        return
    offered = f'action="/nights/{night.pk}/settle-up/"' in page.content.decode()
    response = client.post(f"/nights/{night.pk}/settle-up/")
    assert offered is WRITES_GROUP[role]
    assert Settlement.objects.filter(night=night).exists() is WRITES_GROUP[role]
    assert response.status_code == (302 if WRITES_GROUP[role] else 403)


@pytest.mark.parametrize("role", SIGNED_IN)
def test_the_settle_page_offers_to_close_the_night_exactly_to_its_writers(world, role):
    night = world["night"]
    client = _client(world["users"][role])
    page = client.get(f"/nights/{night.pk}/settle/")
    if not SEES[role]:
        assert page.status_code == 404 and client.post(f"/nights/{night.pk}/settle/").status_code == 404
        return
    offered = "结束牌局" in page.content.decode()
    response = client.post(f"/nights/{night.pk}/settle/")
    night.refresh_from_db()
    assert offered is night.is_closed is WRITES_NIGHT[role]
    assert response.status_code == (302 if WRITES_NIGHT[role] else 403)


@pytest.mark.parametrize("role", SIGNED_IN)
def test_the_members_page_offers_the_invite_link_exactly_to_whom_the_service_lets_turn_it_on(world, role):
    night = world["night"]
    client = _client(world["users"][role])
    page = client.get(f"/nights/{night.pk}/members/")
    if not SEES[role]:
        assert page.status_code == 404
        assert client.post(f"/nights/{night.pk}/members/", {"action": "invite-renew"}).status_code == 404
        return
    offered = 'value="invite-renew"' in page.content.decode()
    response = client.post(f"/nights/{night.pk}/members/", {"action": "invite-renew"})
    assert offered is MANAGES_NIGHT[role]
    assert NightLink.objects.filter(night=night, kind=NightLink.Kind.INVITE).exists() is MANAGES_NIGHT[role]
    assert response.status_code == (302 if MANAGES_NIGHT[role] else 403)


@pytest.mark.parametrize("role", SIGNED_IN)
def test_the_players_page_offers_to_add_a_player_exactly_to_the_groups_writers(world, role):
    group = world["group"]
    client = _client(world["users"][role])
    url = f"/groups/{group.pk}/players/"
    page = client.get(url)
    in_group = role.startswith("group")
    if not in_group:  # a night-level grant does not open the group's pages
        assert page.status_code == 404 and client.post(url, {"action": "add", "name": "钱七"}).status_code == 404
        assert not Player.objects.filter(group=group, name="钱七").exists()
        return
    offered = 'value="add"' in page.content.decode()
    response = client.post(url, {"action": "add", "name": "钱七"})
    assert offered is WRITES_GROUP[role]
    assert Player.objects.filter(group=group, name="钱七").exists() is WRITES_GROUP[role]
    assert response.status_code == (302 if WRITES_GROUP[role] else 403)


NIGHT_WRITES = {
    "hand_correct": lambda night, by: services.hand_correct(hand=night.hands.get(), by=by, entry=self_draw(2),
                                                            reason="记错了"),
    "hand_void": lambda night, by: services.hand_void(hand=night.hands.get(), by=by, reason="记错了"),
    "seat_change": lambda night, by: services.seat_change(
        night=night, by=by, seat=3, player=services.player_get_or_create(name="钱七", group=night.group)),
    "night_close": lambda night, by: services.night_close(night=night, by=by),
    "adjustment_record": lambda night, by: adjustments.adjustment_record(night=night, by=by,
                                                                         data={"kind": "zha_hu", "player": 1}),
    "adjustment_void": lambda night, by: adjustments.adjustment_void(adjustment=night.adjustments.get(), by=by,
                                                                     reason="记错了"),
}


@pytest.mark.parametrize("write", NIGHT_WRITES)
@pytest.mark.parametrize("role", SIGNED_IN)
def test_the_night_services_refuse_exactly_those_who_may_not_write_the_night(world, write, role):
    night = world["night"]
    services.hand_record(night=night, by=world["users"]["night owner"], entry=on_discard(1, 0))
    if write == "adjustment_void":
        adjustments.adjustment_record(night=night, by=world["users"]["night owner"],
                                      data={"kind": "zha_hu", "player": 0})
    before = night.audit.count()
    if WRITES_NIGHT[role]:
        NIGHT_WRITES[write](night, world["users"][role])
        assert night.audit.count() == before + 1
    else:
        with pytest.raises(PermissionDenied):
            NIGHT_WRITES[write](night, world["users"][role])
        assert night.audit.count() == before


@pytest.mark.parametrize("role", SIGNED_IN)
def test_the_api_records_a_hand_exactly_for_the_nights_writers(world, role):
    night = world["night"]
    response = api_client(world["users"][role]).post(f"/api/nights/{night.pk}/hands/", on_discard(1, 0),
                                                       format="json")
    assert response.status_code == (201 if WRITES_NIGHT[role] else 403 if SEES[role] else 404)
    assert night.hands.exists() is WRITES_NIGHT[role]


@pytest.mark.parametrize("role", SIGNED_IN)
def test_the_hand_service_records_exactly_for_the_nights_writers(world, role):
    """hand_record reads its night among rights.writable_nights: the same rule as may_write_night, in the query."""
    night = world["night"]
    if WRITES_NIGHT[role]:
        assert services.hand_record(night=night.pk, by=world["users"][role], entry=on_discard(1, 0)).number == 1
    else:
        with pytest.raises(PermissionDenied if SEES[role] else Http404):
            services.hand_record(night=night, by=world["users"][role], entry=on_discard(1, 0))
    assert night.hands.exists() is WRITES_NIGHT[role]
    assert rights.writable_nights(world["users"][role]).filter(pk=night.pk).exists() is WRITES_NIGHT[role]


@pytest.mark.parametrize("role", SIGNED_IN)
def test_a_refused_caller_hears_403_or_404_before_any_word_on_the_body(world, role):
    night = world["night"]
    response = api_client(world["users"][role]).post(f"/api/nights/{night.pk}/hands/", {"events": "x"},
                                                       format="json")
    assert response.status_code == (400 if WRITES_NIGHT[role] else 403 if SEES[role] else 404)


@pytest.mark.parametrize("role", ["group owner", "group scorekeeper", "group member"])
def test_a_members_visible_nights_of_a_page_agree_with_the_rule_and_ask_only_for_other_groups(world, role,
                                                                                         django_assert_num_queries):
    """rights.visible_night_ids, for a page of a group the user is a member of (a player's history): the group's
    nights without a query, a night of another group by the rule (here one the user does not see)."""
    user, night = world["users"][role], world["night"]
    elsewhere = groups.group_create(by=world["users"]["outsider"], name="别的圈")
    other = services.night_create(owner=world["users"]["outsider"], title="别处", date=dt.date(2026, 11, 28),
                                  base=Decimal("2"), first_dealer=0, players=[
                                      services.player_get_or_create(name=n, group=elsewhere) for n in "甲乙丙丁"])
    with django_assert_num_queries(0):
        assert rights.visible_night_ids(user, [(night.pk, night.group_id)], member_of=world["group"].pk) == {night.pk}
    with django_assert_num_queries(1):
        seen = rights.visible_night_ids(user, [(n.pk, n.group_id) for n in (night, other)],
                                         member_of=world["group"].pk)
    assert seen == set(rights.visible_nights(user).filter(pk__in=[night.pk, other.pk]).values_list("pk", flat=True))
    assert seen == {night.pk}
