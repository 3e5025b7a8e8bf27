"""Group pages: isolation (outsiders get 404), roles (members may not write: 403), create, invite, join, players."""
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from ledger.services import nights as services
from ledger.services import groups
from ledger.models import AuditEntry, GroupMember, Player

from tests.factories import page_client as client_for
from tests.group_helpers import SELF_DRAW, add, evening_tables, new_night

Role = GroupMember.Role

pytestmark = pytest.mark.usefixtures("own_cache")  # sign-up attempts counted in a cache of this test's own


def group_pages(group):
    return [f"/groups/{group.pk}/", f"/groups/{group.pk}/players/", f"/groups/{group.pk}/members/",
            f"/groups/{group.pk}/defaults/"]


def test_an_outsider_gets_404_for_every_page_of_a_group_and_its_nights(night, outsider, owner):
    group = night.group
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    groups.group_link_renew(group=group, by=owner)
    client = client_for(outsider)
    urls = group_pages(group) + [f"/groups/{group.pk}/invite.svg", f"/nights/{night.pk}/",
                                 f"/nights/{night.pk}/hands/", f"/nights/{night.pk}/audit/",
                                 f"/nights/{night.pk}/settle/", f"/nights/{night.pk}/members/"]
    for url in urls:
        assert client.get(url).status_code == 404, url
    posts = {f"/groups/{group.pk}/players/": {"action": "add", "name": "路人"},
             f"/groups/{group.pk}/members/": {"action": "invite-renew"},
             f"/groups/{group.pk}/defaults/": {"preset": "club"}}
    for url, data in posts.items():
        assert client.post(url, data).status_code == 404, url
    assert not Player.objects.filter(name="路人").exists()
    page = client.get("/groups/").content.decode()
    assert group.name not in page
    assert "张三" not in client.get("/").content.decode()


def test_a_member_sees_the_group_home_with_its_nights_players_and_members(night, owner, viewer):
    add(night.group, viewer, Role.MEMBER)
    page = client_for(viewer).get(f"/groups/{night.group.pk}/").content.decode()
    assert night.title in page and f'href="/players/{night.seating.get(seat=0).player_id}/"' in page
    assert "owner" in page and "viewer" in page and "圈主" in page
    assert "默认规则" in page and f"/groups/{night.group.pk}/defaults/" in page
    assert "invite-card" not in page  # plain members do not invite
    assert client_for(viewer).get(f"/groups/{night.group.pk}/invite.svg").status_code == 403


def test_the_group_home_pages_its_nights_newest_first(group, owner, players, django_assert_max_num_queries):
    nights = [new_night(owner, ["张三", "李四", "王五", "赵六"], group, title=f"第{i}晚") for i in range(25)]
    client = client_for(owner)
    # The page of nights, members, players, the invite, then the evenings and balance section (4) and this
    # year's leaderboard (its cache stamp, then one aggregate): the same whatever the number of nights.
    with django_assert_max_num_queries(17):
        first = client.get(f"/groups/{group.pk}/").content.decode()
    assert "第24晚" in first and "第4晚" not in first
    cursor = re.search(r'href="\?cursor=([^"]+)"', first).group(1)
    second = client.get(f"/groups/{group.pk}/?cursor={cursor}").content.decode()
    assert "第4晚" in second and "第24晚" not in second and len(nights) == 25


def test_a_plain_member_cannot_add_rename_merge_or_invite(night, players, viewer):
    group = night.group
    add(group, viewer, Role.MEMBER)
    client = client_for(viewer)
    assert client.post(f"/groups/{group.pk}/players/", {"action": "add", "name": "钱七"}).status_code == 403
    assert client.post(f"/groups/{group.pk}/players/",
                       {"action": "rename", "player": players[0].pk, "name": "x"}).status_code == 403
    assert client.post(f"/groups/{group.pk}/players/",
                       {"action": "merge", "player": players[0].pk, "into": players[1].pk}).status_code == 403
    assert client.post(f"/groups/{group.pk}/members/", {"action": "invite-renew"}).status_code == 403
    assert client.post(f"/groups/{group.pk}/defaults/", {"preset": "club"}).status_code == 403
    assert groups.group_link_active(group) is None and Player.objects.filter(group=group).count() == 4
    page = client.get(f"/groups/{group.pk}/players/").content.decode()
    assert "add-player" not in page and "这是我" in page


def test_creating_a_group_on_the_page_makes_me_its_owner(owner):
    client = client_for(owner)
    assert client.post("/groups/new/", {"name": ""}).status_code == 400
    response = client.post("/groups/new/", {"name": "周五牌友"})
    group = GroupMember.objects.get(user=owner, group__name="周五牌友").group
    assert response.status_code == 302 and response["Location"] == f"/groups/{group.pk}/"
    assert group.role_of(owner) == Role.OWNER
    assert "周五牌友" in client.get("/groups/").content.decode()


def test_the_owner_turns_the_invite_on_and_sees_the_qr_code(group, owner):
    client = client_for(owner)
    client.post(f"/groups/{group.pk}/members/", {"action": "invite-renew", "back": "home"})
    page = client.get(f"/groups/{group.pk}/").content.decode()
    link = groups.group_link_active(group)
    assert f"/groups/join/{link.token}/" in page and f"/groups/{group.pk}/invite.svg" in page
    qr = client.get(f"/groups/{group.pk}/invite.svg")
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml" and b"<svg" in qr.content


def test_the_invite_comes_first_until_a_friend_has_joined_then_below_the_nights(group, owner, viewer):
    """A walk: with friends in the group, tonight's night was below the fold under the invite's QR code."""
    client = client_for(owner)
    link = groups.group_link_renew(group=group, by=owner)
    page = client.get(f"/groups/{group.pk}/").content.decode()
    assert page.index('id="invite-card"') < page.index('id="group-nights"')  # a group of one is to be joined
    client_for(viewer).post(f"/groups/join/{link.token}/")
    page = client.get(f"/groups/{group.pk}/").content.decode()
    assert page.count('id="invite-card"') == 1 and page.index('id="group-nights"') < page.index('id="invite-card"')


def test_a_friend_signs_up_through_the_invite_link_and_lands_in_the_group(group, owner):
    link = groups.group_link_renew(group=group, by=owner)
    friend = Client()
    page = friend.get(f"/groups/join/{link.token}/").content.decode()
    assert group.name in page and "注册并加入" in page
    response = friend.post(f"/groups/join/{link.token}/", {"username": "小明", "password1": "mahjong-2026",
                                                          "password2": "mahjong-2026"})
    assert response.status_code == 302 and response["Location"] == f"/groups/{group.pk}/"
    user = get_user_model().objects.get(username="小明")
    assert group.role_of(user) == Role.MEMBER
    assert friend.get(f"/groups/{group.pk}/").status_code == 200


def test_a_signed_in_friend_joins_with_one_tap(group, owner, viewer):
    link = groups.group_link_renew(group=group, by=owner)
    client = client_for(viewer)
    assert "以 viewer 的身份加入" in client.get(f"/groups/join/{link.token}/").content.decode()
    assert client.post(f"/groups/join/{link.token}/").status_code == 302
    assert group.role_of(viewer) == Role.MEMBER
    assert client.get(f"/groups/join/{link.token}/")["Location"] == f"/groups/{group.pk}/"


def test_a_revoked_invite_link_is_refused(group, owner, viewer):
    link = groups.group_link_renew(group=group, by=owner)
    client_for(owner).post(f"/groups/{group.pk}/members/", {"action": "invite-off"})
    assert Client().get(f"/groups/join/{link.token}/").status_code == 404
    assert client_for(viewer).post(f"/groups/join/{link.token}/").status_code == 404
    assert group.role_of(viewer) is None


def test_a_bad_sign_up_on_the_invite_page_says_why_and_joins_nobody(group, owner):
    link = groups.group_link_renew(group=group, by=owner)
    response = Client().post(f"/groups/join/{link.token}/", {"username": "小明", "password1": "a",
                                                            "password2": "b"})
    assert response.status_code == 400 and group.memberships.count() == 1


def test_players_are_added_renamed_and_merged_on_the_page(night, owner, players):
    group = night.group
    client = client_for(owner)
    client.post(f"/groups/{group.pk}/players/", {"action": "add", "name": "张小三"})
    alias = Player.objects.get(group=group, name="张小三")
    response = client.post(f"/groups/{group.pk}/players/", {"action": "add", "name": "张三"}, follow=True)
    assert "已经有叫 张三 的玩家" in response.content.decode()
    client.post(f"/groups/{group.pk}/players/", {"action": "rename", "player": alias.pk, "name": "三儿"})
    alias.refresh_from_db()
    assert alias.name == "三儿"
    response = client.post(f"/groups/{group.pk}/players/",
                           {"action": "merge", "player": alias.pk, "into": players[0].pk}, follow=True)
    alias.refresh_from_db()
    assert alias.merged_into == players[0]
    assert "三儿 → 张三" in response.content.decode()
    refused = client.post(f"/groups/{group.pk}/players/",
                          {"action": "merge", "player": players[1].pk, "into": players[0].pk}, follow=True)
    assert "不能合并" in refused.content.decode()


def test_the_owner_changes_roles_and_the_last_owner_is_told_why_not(group, owner, viewer):
    add(group, viewer, Role.MEMBER)
    client = client_for(owner)
    client.post(f"/groups/{group.pk}/members/", {"action": "role", "user": viewer.pk, "role": "scorekeeper"})
    assert group.role_of(viewer) == Role.SCOREKEEPER
    response = client.post(f"/groups/{group.pk}/members/", {"action": "leave"}, follow=True)
    assert "至少要有一位圈主" in response.content.decode() and group.role_of(owner) == Role.OWNER
    keeper_client = client_for(viewer)
    assert keeper_client.post(f"/groups/{group.pk}/members/",
                              {"action": "role", "user": owner.pk, "role": "member"}).status_code == 403
    response = keeper_client.post(f"/groups/{group.pk}/members/", {"action": "leave"})
    assert response["Location"] == "/groups/" and group.role_of(viewer) is None


def test_default_rules_are_saved_from_the_page_and_checked(group, owner):
    client = client_for(owner)
    form = client.get(f"/groups/{group.pk}/defaults/").context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None and value is not False}
    data.update({"base": "3", "rule_max_fan": "99"})
    refused = client.post(f"/groups/{group.pk}/defaults/", data)
    assert refused.status_code == 400 and "rule_max_fan" in refused.context["form"].errors
    data["rule_max_fan"] = "6"
    assert client.post(f"/groups/{group.pk}/defaults/", data).status_code == 302
    group.refresh_from_db()
    assert group.defaults == {"preset": "chengdu", "rules": {"max_fan": 6}, "base": "3", "stake": "money",
                              "currency": "CNY", "fee": {"mode": "none"}}
    assert AuditEntry.objects.filter(group=group, action=AuditEntry.Action.GROUP_CHANGED).count() == 1


def test_choosing_another_preset_on_the_page_takes_its_rules(group, owner):
    client = client_for(owner)
    form = client.get(f"/groups/{group.pk}/defaults/").context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None and value is not False}
    data["preset"] = "club"  # the rule fields still show the Chengdu values (no script ran)
    client.post(f"/groups/{group.pk}/defaults/", data)
    group.refresh_from_db()
    assert group.defaults["preset"] == "club" and group.defaults["rules"] == {}


def test_the_group_pages_speak_english_on_request(group, owner):
    page = client_for(owner, lang="en").get(f"/groups/{group.pk}/").content.decode()
    assert "Default rules" in page and "Members" in page and "Players" in page
    # The group's history: each line starts as a sentence does (a walk: "turned the invite link on" beside
    # "Created the group").
    groups.group_link_renew(group=group, by=owner)
    groups.group_link_turn_off(group=group, by=owner)
    trail = client_for(owner, lang="en").get(f"/groups/{group.pk}/audit/").content.decode()
    lines = re.findall(r'<li class="card" id="audit-\d+"><strong>([^<]+)</strong>', trail)
    assert "Turned the invite link off" in lines and all(line[0].isupper() for line in lines), lines


def test_the_night_list_shows_each_nights_group(night, owner):
    page = client_for(owner).get("/").content.decode()
    assert night.group.name in page and 'href="/groups/"' in page


def test_groups_members_and_links_are_read_only_in_the_admin(group, owner):
    from django.contrib import admin

    from ledger.models import Group, GroupLink
    groups.group_link_renew(group=group, by=owner)
    root = client_for(get_user_model().objects.create_superuser("root", password="x"))
    for model in (Group, GroupMember, GroupLink):
        assert root.get(f"/admin/ledger/{model._meta.model_name}/").status_code == 200
        model_admin = admin.site._registry[model]
        request = type("Request", (), {"user": None})()
        assert not model_admin.has_change_permission(request) and not model_admin.has_delete_permission(request)
    page = root.get(f"/admin/ledger/grouplink/{GroupLink.objects.get().pk}/change/").content.decode()
    assert GroupLink.objects.get().token not in page


def test_the_groups_audit_page_says_what_changed_in_words(night, owner, players, viewer, outsider):
    group = night.group
    link = groups.group_link_renew(group=group, by=owner)
    groups.group_join(token=link.token, user=viewer)
    groups.membership_set_role(group=group, by=owner, user=viewer, role=Role.SCOREKEEPER)
    alias = groups.player_create(group=group, by=owner, name="张小三")
    groups.player_rename(player=alias, by=owner, name="三儿")
    groups.player_merge(source=alias, into=players[0], by=owner)
    groups.group_set_defaults(group=group, by=owner, preset="club")
    page = client_for(viewer).get(f"/groups/{group.pk}/audit/").content.decode()
    for line in ("打开了邀请链接", "viewer 通过邀请链接加入", "viewer：成员 → 记分员", "添加玩家 张小三",
                 "张小三 改名为 三儿", "三儿 合并到 张三", "修改了默认规则"):
        assert line in page, line
    assert page.index("修改了默认规则") < page.index("打开了邀请链接")  # newest first
    assert link.token not in page
    english = client_for(viewer, lang="en").get(f"/groups/{group.pk}/audit/").content.decode()
    assert "viewer joined by the invite link" in english and "三儿 was merged into 张三" in english
    assert client_for(outsider).get(f"/groups/{group.pk}/audit/").status_code == 404


def test_a_refused_player_name_is_said_at_its_row_with_the_name_as_typed(group, owner, players):
    """The error came back at the top of the page, the typed name gone and no row named; and "alice" was added
    beside "Alice" (a walk through the pages)."""
    client = client_for(owner, "en")
    url = f"/groups/{group.pk}/players/"
    assert client.post(url, {"action": "add", "name": "Alice"}).status_code == 302
    added = client.post(url, {"action": "add", "name": "alice"})
    page = added.content.decode()
    assert added.status_code == 200 and Player.objects.filter(group=group, name="alice").count() == 0
    assert 'value="alice" aria-invalid="true"' in page and "already has a player called Alice" in page
    renamed = client.post(url, {"action": "rename", "player": players[0].pk, "name": "ALICE"})
    page = renamed.content.decode()
    assert renamed.status_code == 200 and Player.objects.get(pk=players[0].pk).name == players[0].name
    row = page.split(f'id="player-{players[0].pk}"')[1].split("</li>")[0]
    assert "already has a player called Alice" in row and 'value="ALICE" aria-invalid="true"' in row and " open>" in row
    # Its own letter case may change.
    alice = Player.objects.get(group=group, name="Alice")
    assert client.post(url, {"action": "rename", "player": alice.pk, "name": "ALICE"}).status_code == 302



def test_a_merge_of_names_at_two_tables_of_an_evening_asks_on_the_page_and_over_the_api(group, owner):
    """The walk's two friends at an evening's two tables: the page says why at the row, offers 是同一个人（换过桌）
    with the chosen name kept, and merges once it is ticked; the API answers 400 at `same_person`, then merges with
    it."""
    from tests.conftest import api_client
    first, second = evening_tables(owner, group)
    services.hand_record(night=first, by=owner, entry=SELF_DRAW)
    services.hand_record(night=second, by=owner, entry=SELF_DRAW)
    wang, li = (Player.objects.get(group=group, name=n) for n in ("老王", "小李"))
    client = client_for(owner)
    asked = client.post(f"/groups/{group.pk}/players/", {"action": "merge", "player": wang.pk, "into": li.pk})
    page = asked.content.decode()
    assert asked.status_code == 200 and "在同一个活动的两桌都打过" in page
    assert f'id="same-person-{wang.pk}"' in page and f'<option value="{li.pk}" selected>' in page
    assert Player.objects.get(pk=wang.pk).merged_into is None
    client.post(f"/groups/{group.pk}/players/", {"action": "merge", "player": wang.pk, "into": li.pk,
                                                 "same_person": "on"})
    assert Player.objects.get(pk=wang.pk).merged_into == li
    # Over the API, the other way round on a fresh pair.
    zhang = Player.objects.get(group=group, name="甲")
    ding = Player.objects.get(group=group, name="丁")
    api = api_client(owner)
    refused = api.post(f"/api/players/{zhang.pk}/merge/", {"into": ding.pk}, format="json")
    assert refused.status_code == 400 and refused.json()["errors"][0]["path"] == "same_person"
    merged = api.post(f"/api/players/{zhang.pk}/merge/", {"into": ding.pk, "same_person": True}, format="json")
    assert merged.status_code == 200 and Player.objects.get(pk=zhang.pk).merged_into == ding
