"""Groups (圈子) services: default house rules, members and roles, invite links, players created, renamed, merged."""
import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError

from ledger import rights
from ledger.services import nights as services
from ledger.services import groups
from ledger.models import (AuditEntry, FeeShare, GroupMember, HandRevision, Night, Player, SeatResult,
                           Seating)
from ledger.selectors.nights import night_nets, night_summary, night_totals

from tests.factories import stored_payments
from tests.group_helpers import DISCARD, SELF_DRAW, add, evening_tables, new_night

Role = GroupMember.Role


def make_user(name):
    return get_user_model().objects.create_user(name, password="x")


def audits(group, action):
    return list(AuditEntry.objects.filter(group=group, night=None, action=action).order_by("id"))


# ---- the group and its default house rules ---------------------------------------------------------------

def test_creating_a_group_makes_its_creator_the_owner_and_is_audited(owner):
    group = groups.group_create(by=owner, name="  周五牌友 ")
    assert group.name == "周五牌友" and group.role_of(owner) == Role.OWNER
    assert [a.after for a in audits(group, AuditEntry.Action.GROUP_CREATED)] == [{"name": "周五牌友"}]


def test_a_group_needs_a_name(owner):
    with pytest.raises(ValidationError) as error:
        groups.group_create(by=owner, name="   ")
    assert "name" in error.value.message_dict


def test_only_an_owner_renames_the_group_and_the_rename_is_audited(group, owner, keeper):
    add(group, keeper, Role.SCOREKEEPER)
    with pytest.raises(PermissionDenied):
        groups.group_rename(group=group, by=keeper, name="别的名字")
    groups.group_rename(group=group, by=owner, name="老友记")
    group.refresh_from_db()
    assert group.name == "老友记"
    entry = audits(group, AuditEntry.Action.GROUP_CHANGED)[-1]
    assert entry.before == {"name": "owner的圈子"} and entry.after == {"name": "老友记"} and entry.actor == owner


def test_default_house_rules_are_checked_and_a_new_night_starts_from_them(group, owner, players):
    groups.group_set_defaults(group=group, by=owner, preset="club", rules={"max_fan": 3, "cha_jiao": "max"},
                              base="5", stake="money", currency="CNY")
    group.refresh_from_db()
    # Only what differs from the preset is kept (the club preset already checks 查大).
    assert group.defaults == {"preset": "club", "rules": {"max_fan": 3}, "base": "5", "stake": "money",
                              "currency": "CNY", "fee": {"mode": "none"}}
    start = groups.group_night_defaults(group)
    assert start == {"preset": "club", "rule_overrides": {"max_fan": 3}, "base": Decimal("5"), "stake": "money",
                     "currency": "CNY", "fee": None}
    night = services.night_create(owner=owner, title="按圈子规则", date=dt.date(2026, 12, 1), players=players,
                                  first_dealer=0, **start)
    assert night.base == Decimal("5") and night.preset == "club" and night.rules["max_fan"] == 3
    assert night.rules == services.night_rules(preset="club", overrides={"max_fan": 3})
    entry = audits(group, AuditEntry.Action.GROUP_CHANGED)[-1]
    assert entry.before == {"defaults": {}} and entry.after["defaults"]["preset"] == "club"
    # The night froze its own copy: new defaults do not change it.
    groups.group_set_defaults(group=group, by=owner, preset="chengdu")
    night.refresh_from_db()
    assert night.rules["max_fan"] == 3


def test_a_group_without_defaults_starts_nights_like_the_night_form(group):
    assert groups.group_night_defaults(group) == {"preset": "chengdu", "rule_overrides": {}, "base": Decimal("1"),
                                                  "stake": "money", "currency": "CNY", "fee": None}


@pytest.mark.parametrize("change, field", [
    ({"preset": "nowhere"}, "preset"),
    ({"rules": {"max_fan": "lots"}}, "rules.max_fan"),
    ({"rules": {"no_such_rule": 1}}, "rules.no_such_rule"),
    ({"base": "0"}, "base"),
    ({"base": "abc"}, "base"),
    ({"base": "1000001"}, "base"),
    ({"base": "0.001"}, "base"),
    ({"stake": "beans"}, "stake"),
    ({"currency": "TOO LONG NAME"}, "currency"),
])
def test_bad_default_rules_are_refused_naming_the_field_and_nothing_is_written(group, owner, change, field):
    before = AuditEntry.objects.count()
    with pytest.raises(ValidationError) as error:
        groups.group_set_defaults(group=group, by=owner, **change)
    assert field in error.value.message_dict
    group.refresh_from_db()
    assert group.defaults == {} and AuditEntry.objects.count() == before


def test_default_rules_errors_speak_english_on_request(group, owner):
    from django.utils import translation
    with translation.override("en"), pytest.raises(ValidationError) as error:
        groups.group_set_defaults(group=group, by=owner, rules={"max_fan": "lots"})
    assert error.value.message_dict == {"rules.max_fan": ["expected an integer from 1 to 20"]}


def test_a_plain_member_cannot_change_the_default_rules(group, viewer):
    add(group, viewer, Role.MEMBER)
    with pytest.raises(PermissionDenied):
        groups.group_set_defaults(group=group, by=viewer, preset="club")


def test_a_scorekeeper_may_change_the_default_rules(group, keeper):
    add(group, keeper, Role.SCOREKEEPER)
    groups.group_set_defaults(group=group, by=keeper, preset="club")
    group.refresh_from_db()
    assert group.defaults["preset"] == "club"


# ---- members, roles, invite links ------------------------------------------------------------------------

def test_an_invite_link_makes_a_friend_a_member_once(group, owner, viewer):
    link = groups.group_link_renew(group=group, by=owner)
    assert groups.group_join(token=link.token, user=viewer) == group
    groups.group_join(token=link.token, user=viewer)  # again: nothing changes
    assert group.role_of(viewer) == Role.MEMBER
    joined = [a for a in audits(group, AuditEntry.Action.MEMBER_CHANGED) if (a.after or {}).get("joined")]
    assert len(joined) == 1 and joined[0].actor == viewer


def test_a_renewed_or_revoked_invite_link_no_longer_works(group, owner, viewer, outsider):
    old = groups.group_link_renew(group=group, by=owner)
    new = groups.group_link_renew(group=group, by=owner)
    with pytest.raises(ValidationError) as error:
        groups.group_join(token=old.token, user=viewer)
    assert "token" in error.value.message_dict
    groups.group_link_turn_off(group=group, by=owner)
    with pytest.raises(ValidationError):
        groups.group_join(token=new.token, user=outsider)
    assert group.role_of(viewer) is None and group.role_of(outsider) is None
    changes = [a.after for a in audits(group, AuditEntry.Action.MEMBER_CHANGED)]
    assert changes == [{"invite_link": "on"}, {"invite_link": "renewed"}, {"invite_link": "off"}]
    assert all(old.token not in str(a.after) for a in AuditEntry.objects.all())  # no secret in the trail


def test_a_plain_member_cannot_invite(group, viewer):
    add(group, viewer, Role.MEMBER)
    with pytest.raises(PermissionDenied):
        groups.group_link_renew(group=group, by=viewer)


def test_only_an_owner_changes_roles_and_it_is_audited(group, owner, keeper, viewer):
    add(group, keeper, Role.SCOREKEEPER)
    add(group, viewer, Role.MEMBER)
    with pytest.raises(PermissionDenied):
        groups.membership_set_role(group=group, by=keeper, user=viewer, role=Role.SCOREKEEPER)
    groups.membership_set_role(group=group, by=owner, user=viewer, role=Role.SCOREKEEPER)
    assert group.role_of(viewer) == Role.SCOREKEEPER
    entry = audits(group, AuditEntry.Action.MEMBER_CHANGED)[-1]
    assert entry.before == {"user": "viewer", "role": "member"} and entry.after == {"user": "viewer",
                                                                                 "role": "scorekeeper"}
    with pytest.raises(ValidationError):
        groups.membership_set_role(group=group, by=owner, user=viewer, role="king")


def test_the_last_owner_can_neither_step_down_nor_leave(group, owner, keeper):
    add(group, keeper, Role.SCOREKEEPER)
    with pytest.raises(ValidationError):
        groups.membership_set_role(group=group, by=owner, user=owner, role=Role.MEMBER)
    with pytest.raises(ValidationError):
        groups.group_leave(group=group, user=owner)
    assert group.role_of(owner) == Role.OWNER
    groups.membership_set_role(group=group, by=owner, user=keeper, role=Role.OWNER)
    groups.group_leave(group=group, user=owner)  # now another owner holds the group
    assert group.role_of(owner) is None and group.role_of(keeper) == Role.OWNER


def test_an_owner_removes_a_member_and_members_may_leave(group, owner, keeper, viewer):
    add(group, keeper, Role.SCOREKEEPER)
    add(group, viewer, Role.MEMBER)
    with pytest.raises(PermissionDenied):
        groups.membership_remove(group=group, by=keeper, user=viewer)
    groups.membership_remove(group=group, by=owner, user=viewer)
    groups.group_leave(group=group, user=keeper)
    assert list(group.memberships.values_list("user__username", flat=True)) == ["owner"]
    removed = [a.after for a in audits(group, AuditEntry.Action.MEMBER_CHANGED)]
    assert removed == [{"user": "viewer", "removed": True}, {"user": "keeper", "removed": True}]


def test_a_group_scorekeeper_records_at_a_group_night_without_a_night_grant(group, owner, outsider):
    night = new_night(owner, ["甲", "乙", "丙", "丁"], group)
    assert not rights.may_write_night(outsider, night)
    add(group, outsider, Role.SCOREKEEPER)
    assert rights.may_write_night(outsider, night)
    services.hand_record(night=night, by=outsider, entry=SELF_DRAW)
    assert night.hands.count() == 1


def test_a_plain_member_sees_the_groups_nights_but_cannot_record(group, owner, outsider):
    night = new_night(owner, ["甲", "乙", "丙", "丁"], group)
    assert not Night.objects.visible_to(outsider).filter(pk=night.pk).exists()
    add(group, outsider, Role.MEMBER)
    assert Night.objects.visible_to(outsider).filter(pk=night.pk).exists() and not rights.may_write_night(outsider, night)


# ---- players ---------------------------------------------------------------------------------------------

def test_two_groups_may_each_have_a_zhang_san_and_both_play(owner, outsider):
    ours, theirs = groups.group_create(by=owner, name="我们"), groups.group_create(by=outsider, name="他们")
    a = new_night(owner, ["张三", "李四", "王五", "赵六"], ours)
    b = new_night(outsider, ["张三", "钱七", "孙八", "周九"], theirs)
    zhang_a, zhang_b = a.seating.get(seat=0).player, b.seating.get(seat=0).player
    assert zhang_a.pk != zhang_b.pk and zhang_a.name == zhang_b.name == "张三"
    services.hand_record(night=a, by=owner, entry=DISCARD)
    services.hand_record(night=b, by=outsider, entry=DISCARD)
    assert set(night_nets(a)) == {p.pk for p in Player.objects.filter(group=ours)}
    assert zhang_b.pk in night_nets(b) and zhang_a.pk not in night_nets(b)
    assert list(Player.objects.visible_to(owner).filter(name="张三")) == [zhang_a]


def test_a_night_cannot_mix_players_of_two_groups(owner, outsider):
    ours, theirs = groups.group_create(by=owner, name="我们"), groups.group_create(by=outsider, name="他们")
    mixed = [groups.player_get_or_create(name=n, group=ours) for n in ("甲", "乙", "丙")]
    mixed.append(groups.player_get_or_create(name="张三", group=theirs))
    with pytest.raises(ValidationError):
        services.night_create(owner=owner, title="x", date=dt.date(2026, 12, 1), base=Decimal(1), players=mixed,
                              first_dealer=0)


def test_adding_a_player_needs_a_new_name_in_the_group(group, owner, players):
    with pytest.raises(ValidationError) as error:
        groups.player_create(group=group, by=owner, name=" 张三 ")
    assert "name" in error.value.message_dict
    player = groups.player_create(group=group, by=owner, name="钱七")
    assert player.group == group
    assert audits(group, AuditEntry.Action.GROUP_CHANGED)[-1].after == {"player_added": "钱七", "player": player.pk}


def test_renaming_is_audited_and_past_hands_keep_their_recorded_names(night, owner, players):
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    groups.player_rename(player=players[1], by=owner, name="李老四")
    players[1].refresh_from_db()
    assert players[1].name == "李老四"
    assert HandRevision.objects.get(hand__night=night).names == ["张三", "李四", "王五", "赵六"]
    entry = audits(night.group, AuditEntry.Action.PLAYER_RENAMED)[-1]
    assert entry.before == {"player": players[1].pk, "name": "李四"} and entry.after["name"] == "李老四"
    with pytest.raises(ValidationError) as error:
        groups.player_rename(player=players[1], by=owner, name="王五")
    assert "name" in error.value.message_dict


def test_a_plain_member_cannot_rename_or_merge_players(night, players, outsider):
    add(night.group, outsider, Role.MEMBER)
    with pytest.raises(PermissionDenied):
        groups.player_rename(player=players[0], by=outsider, name="新名")
    spare = groups.player_get_or_create(name="张三三", group=night.group)
    with pytest.raises(PermissionDenied):
        groups.player_merge(source=spare, into=players[0], by=outsider)
    with pytest.raises(PermissionDenied):
        groups.player_create(group=night.group, by=outsider, name="钱七")


def totals_by_name(night):
    return {t.player.name: t.amount for t in night_totals(night)}


def test_a_merge_keeps_every_hand_under_the_targets_name_and_is_audited(group, owner, players):
    """张小三 is 张三 written another way: one night entirely under the other name, one where they swapped in."""
    zhang, li, wang, zhao = players
    other = new_night(owner, ["张小三", "李四", "王五", "赵六"], group, title="另一晚")
    for entry in (SELF_DRAW, DISCARD, SELF_DRAW):
        services.hand_record(night=other, by=owner, entry=entry)
    shared = new_night(owner, ["钱七", "李四", "王五", "赵六"], group, title="换人那晚")
    services.hand_record(night=shared, by=owner, entry=DISCARD)
    services.seat_change(night=shared, by=owner, seat=0, player=zhang)
    services.hand_record(night=shared, by=owner, entry=SELF_DRAW)
    services.seat_change(night=shared, by=owner, seat=0, player=Player.objects.get(group=group, name="张小三"))
    services.hand_record(night=shared, by=owner, entry=DISCARD)
    alias = Player.objects.get(group=group, name="张小三")
    other_before, shared_before = totals_by_name(other), totals_by_name(shared)  # also fills the totals cache
    revisions, results = HandRevision.objects.count(), SeatResult.objects.count()

    groups.player_merge(source=alias, into=zhang, by=owner)

    alias.refresh_from_db()
    assert alias.merged_into == zhang
    after = totals_by_name(other)
    assert after == {"张三" if k == "张小三" else k: v for k, v in other_before.items()}
    merged = totals_by_name(shared)
    assert merged["张三"] == shared_before["张三"] + shared_before["张小三"] and "张小三" not in merged
    assert sum(merged.values()) == 0 and merged["钱七"] == shared_before["钱七"]
    assert HandRevision.objects.count() == revisions and SeatResult.objects.count() == results == 4 * revisions
    for model, fields in ((Seating, ["player"]), (SeatResult, ["player"])):
        for field in fields:
            assert not model.objects.filter(**{field: alias}).exists()
    assert not HandRevision.objects.filter(player_0=alias).exists()
    assert shared.seating.get(seat=0).player == zhang
    assert list(HandRevision.objects.filter(hand__night=other).values_list("player_names", flat=True))[0][0] == "张小三"
    entry = audits(group, AuditEntry.Action.PLAYER_MERGED)[-1]
    assert entry.before == {"player": alias.pk, "name": "张小三"}
    assert entry.after["into"] == zhang.pk and entry.after["nights"] == sorted([other.pk, shared.pk])
    assert entry.after["counts"] == {"seats": 2, "revisions": 4, "payments": entry.after["counts"]["payments"],
                                     "seat_results": 4, "adjustment_seats": 0, "fee_shares": 0, "transfers": 0}
    moved = HandRevision.objects.filter(hand__night=other) | HandRevision.objects.filter(hand__night=shared,
                                                                                          hand__number=3)
    assert entry.after["counts"]["payments"] == sum(zhang in (payer, payee) for payer, payee, _ in stored_payments(moved))
    assert entry.after["counts"]["payments"] > 0
    # The alias's name is free again, and the merged player can no longer be seated or merged.
    assert groups.player_create(group=group, by=owner, name="张小三").pk != alias.pk
    with pytest.raises(ValidationError):
        groups.player_merge(source=alias, into=li, by=owner)


def test_a_merge_moves_the_totals_to_the_target(night, owner, players, group):
    alias = groups.player_get_or_create(name="老赵", group=group)
    other = new_night(owner, ["老赵", "李四", "王五", "张三"], group, title="别的")
    services.hand_record(night=other, by=owner, entry=SELF_DRAW)
    before = night_summary(other)
    groups.player_merge(source=alias, into=players[3], by=owner)
    assert night_summary(other).nets == {players[3].pk if k == alias.pk else k: v for k, v in before.nets.items()}


def test_a_merge_moves_the_claimed_account_to_the_target(group, owner, players, viewer):
    alias = groups.player_get_or_create(name="三哥", group=group)
    alias.user = viewer
    alias.save()
    groups.player_merge(source=alias, into=players[0], by=owner)
    players[0].refresh_from_db()
    alias.refresh_from_db()
    assert players[0].user == viewer and alias.user is None
    assert audits(group, AuditEntry.Action.PLAYER_MERGED)[-1].after["user_moved"] is True


def test_a_merge_sums_the_fee_shares_of_a_night_where_both_paid(night, owner, players, group):
    alias = groups.player_get_or_create(name="张三丰", group=group)
    FeeShare.objects.create(night=night, player=players[0], amount=Decimal("10"))
    FeeShare.objects.create(night=night, player=alias, amount=Decimal("5"))
    groups.player_merge(source=alias, into=players[0], by=owner)
    assert list(FeeShare.objects.filter(night=night).values_list("player", "amount")) == [(players[0].pk,
                                                                                          Decimal("15"))]


def test_a_merge_is_refused_when_both_played_one_hand(night, owner, players):
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    services.seat_change(night=night, by=owner, seat=1,
                         player=groups.player_get_or_create(name="钱七", group=night.group))
    with pytest.raises(ValidationError) as error:
        groups.player_merge(source=players[1], into=players[0], by=owner)
    assert "into" in error.value.message_dict and "同一局" in error.value.message_dict["into"][0]
    assert players[1].pk in night_nets(night)


def test_a_merge_is_refused_when_both_sit_at_one_table(night, owner, players):
    with pytest.raises(ValidationError) as error:
        groups.player_merge(source=players[1], into=players[0], by=owner)
    assert "牌桌" in error.value.message_dict["into"][0]
    assert Player.objects.get(pk=players[1].pk).merged_into is None


def test_two_names_at_two_tables_of_an_evening_merge_only_once_said_to_be_one_person(group, owner):
    """A walk merged two friends who had played side by side at an evening's two tables: one name then sat at both
    and paid both tables' fee. Whether two names at two tables were two friends at once or one who changed tables,
    the ledger cannot tell (a hand's time is when the server got it): the merge asks, and goes once told."""
    first, second = evening_tables(owner, group)
    for _ in range(2):
        services.hand_record(night=first, by=owner, entry=SELF_DRAW)
        services.hand_record(night=second, by=owner, entry=SELF_DRAW)
    wang, li = (Player.objects.get(group=group, name=n) for n in ("老王", "小李"))
    with pytest.raises(ValidationError) as error:
        groups.player_merge(source=wang, into=li, by=owner)
    assert error.value.message_dict == {"same_person": [
        "老王（1 号桌）和 小李（2 号桌）在同一个活动的两桌都打过：同时在打的是两个人。确定是同一个人（换过桌），再勾选“是同一个人”合并"]}
    assert Player.objects.get(pk=wang.pk).merged_into is None
    groups.player_merge(source=wang, into=li, by=owner, same_person=True)
    assert Player.objects.get(pk=wang.pk).merged_into == li


def test_names_at_two_evenings_or_one_table_merge_without_being_asked(group, owner):
    """Only hands at two tables of one evening ask: 小李's at the evening's 2 号桌 and 老王's at a night of no evening
    (老王 sat at 1 号桌 but played no hand there) merge as before, as two names at one table (换人) do."""
    _first, second = evening_tables(owner, group)
    services.hand_record(night=second, by=owner, entry=SELF_DRAW)
    later = new_night(owner, ["老王", "庚", "辛", "壬"], group, title="下周")  # no evening
    services.hand_record(night=later, by=owner, entry=SELF_DRAW)
    wang, li = (Player.objects.get(group=group, name=n) for n in ("老王", "小李"))
    groups.player_merge(source=li, into=wang, by=owner)
    assert Player.objects.get(pk=li.pk).merged_into == wang


def test_a_merge_stays_within_one_group(group, owner, players, outsider):
    theirs = groups.group_create(by=outsider, name="他们")
    add(theirs, owner, Role.OWNER)
    stranger = groups.player_get_or_create(name="张三", group=theirs)
    with pytest.raises(ValidationError) as error:
        groups.player_merge(source=stranger, into=players[0], by=owner)
    assert "into" in error.value.message_dict
    with pytest.raises(ValidationError):
        groups.player_merge(source=players[0], into=players[0], by=owner)


def test_a_member_claims_one_name_per_group(group, owner, players, viewer):
    add(group, viewer, Role.MEMBER)
    groups.player_claim(player=players[2], user=viewer)
    with pytest.raises(ValidationError):
        groups.player_claim(player=players[3], user=viewer)
    theirs = groups.group_create(by=viewer, name="我的另一个圈子")
    elsewhere = groups.player_get_or_create(name="王五", group=theirs)
    groups.player_claim(player=elsewhere, user=viewer)  # a user may be a player in several groups
    assert set(Player.objects.filter(user=viewer).values_list("group", flat=True)) == {group.pk, theirs.pk}
    groups.player_unclaim(group=group, user=viewer)
    assert Player.objects.filter(user=viewer).count() == 1
    with pytest.raises(PermissionDenied):
        groups.player_claim(player=players[0], user=make_user("stranger"))
