"""On the table page the group's writers invite to the group (its members see every night of it); the group page
asks a member who has not claimed a name yet to do so."""
from django.test import Client

from ledger.services import groups
from ledger.models import GroupMember


def page(user, url):
    client = Client()
    client.force_login(user)
    return client.get(url).content.decode()


def test_the_table_page_shows_the_groups_invite_to_its_writers(night, owner):
    link = groups.group_link_renew(group=night.group, by=owner)
    html = page(owner, f"/nights/{night.pk}/")
    assert f"/groups/join/{link.token}/" in html and f"/groups/{night.group_id}/invite.svg" in html


def test_without_a_group_link_the_nights_own_invite_is_offered(night, owner):
    groups.group_link_turn_off(group=night.group, by=owner)
    html = page(owner, f"/nights/{night.pk}/")
    assert "/groups/join/" not in html and 'id="invite-on"' in html


def test_a_night_scorekeeper_outside_the_group_never_sees_the_groups_invite(night, owner, keeper):
    link = groups.group_link_renew(group=night.group, by=owner)
    assert not GroupMember.objects.filter(group=night.group, user=keeper).exists()
    assert link.token not in page(keeper, f"/nights/{night.pk}/")


def test_the_group_page_asks_a_member_without_a_name_to_claim_one(night, owner, players):
    assert "去认领" in page(owner, f"/groups/{night.group_id}/")
    groups.player_claim(player=players[0], user=owner)
    assert "去认领" not in page(owner, f"/groups/{night.group_id}/")


def test_a_name_typed_twice_on_the_night_form_is_named_in_the_error(owner, group):
    client = Client()
    client.force_login(owner)
    response = client.post("/nights/new/", {"group": group.pk, "title": "x", "date": "2026-11-30", "base": "1",
                                            "stake": "money", "currency": "CNY", "preset": "chengdu",
                                            "first_dealer": 0, "player_0": "张三", "player_1": "李四",
                                            "player_2": "张三", "player_3": "赵六"})
    assert "张三 坐了不止一个座位" in response.content.decode()
