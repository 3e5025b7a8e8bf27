"""The groups API: isolation (outsiders 404), roles (members 403 on writes), players per group, merge, join."""
import json

from django.urls import reverse

from ledger.services import nights as services
from ledger.services import groups
from ledger.models import AuditEntry, GroupMember, Night, Player

from tests.conftest import api_client
from tests.factories import post_json as post
from tests.group_helpers import DISCARD, SELF_DRAW, add, new_night

Role = GroupMember.Role


def patch(client, url, body):
    return client.patch(url, json.dumps(body), content_type="application/json")


def errors(response):
    return {e["path"]: e["message"] for e in response.json()["errors"]}


def test_an_outsider_gets_404_for_the_group_its_players_and_its_nights(night, outsider, owner, players):
    group, client = night.group, api_client(outsider)
    reads = [f"/api/groups/{group.pk}/", f"/api/groups/{group.pk}/members/", f"/api/groups/{group.pk}/players/",
             f"/api/players/{players[0].pk}/", f"/api/nights/{night.pk}/", f"/api/nights/{night.pk}/hands/",
             f"/api/nights/{night.pk}/totals/"]
    for url in reads:
        response = client.get(url)
        assert response.status_code == 404 and "errors" in response.json(), url
    writes = [(f"/api/groups/{group.pk}/members/{owner.pk}/role/", {"role": "member"}),
              (f"/api/groups/{group.pk}/members/{owner.pk}/remove/", {}),
              (f"/api/groups/{group.pk}/players/", {"name": "路人"}),
              (f"/api/players/{players[0].pk}/merge/", {"into": players[1].pk}),
              (f"/api/nights/{night.pk}/hands/", SELF_DRAW)]
    for url, body in writes:
        assert post(client, url, body).status_code == 404, url
    assert patch(client, f"/api/groups/{group.pk}/", {"name": "我的了"}).status_code == 404
    assert patch(client, f"/api/players/{players[0].pk}/", {"name": "我的了"}).status_code == 404
    assert client.get("/api/groups/").json()["results"] == []
    assert client.get("/api/players/").json()["results"] == []
    assert group.role_of(owner) == Role.OWNER and not Player.objects.filter(name__in=["路人", "我的了"]).exists()


def test_the_player_list_shows_only_the_callers_groups_each_with_its_group(night, owner, outsider, viewer):
    theirs = groups.group_create(by=outsider, name="他们")
    new_night(outsider, ["张三", "钱七", "孙八", "周九"], theirs)
    add(theirs, viewer, Role.MEMBER)
    add(night.group, viewer, Role.MEMBER)
    mine = api_client(owner).get("/api/players/").json()["results"]
    assert {(p["name"], p["group"]["name"]) for p in mine} == {(n, "owner的圈子") for n in ("张三", "李四", "王五", "赵六")}
    both = api_client(viewer).get("/api/players/?size=100").json()["results"]
    zhangs = [p for p in both if p["name"] == "张三"]
    assert len(both) == 8 and len({p["id"] for p in zhangs}) == 2
    assert {p["group"]["name"] for p in zhangs} == {"owner的圈子", "他们"}


def test_two_groups_each_with_a_zhang_san_record_at_their_own_tables(owner, outsider):
    mine, theirs = groups.personal_group(owner), groups.personal_group(outsider)
    names = ["张三", "李四", "王五", "赵六"]
    a = post(api_client(owner), "/api/nights/", {"title": "甲", "date": "2026-12-01", "base": "1", "players": names,
                                                  "group": mine.pk})
    b = post(api_client(outsider), "/api/nights/", {"title": "乙", "date": "2026-12-01", "base": "1",
                                                     "players": names})
    assert a.status_code == b.status_code == 201
    assert a.json()["group"] == mine.pk and b.json()["group"] == theirs.pk
    for client, night in ((api_client(owner), a.json()), (api_client(outsider), b.json())):
        assert post(client, f"/api/nights/{night['id']}/hands/", DISCARD).status_code == 201
    zhang = Player.objects.filter(name="张三")
    assert zhang.count() == 2 and {p.group_id for p in zhang} == {mine.pk, theirs.pk}
    assert post(api_client(owner), "/api/nights/", {"title": "丙", "date": "2026-12-01", "base": "1",
                                                     "players": names, "group": theirs.pk}).status_code == 404


def test_groups_are_created_listed_and_read_with_my_role(owner, viewer):
    created = post(api_client(owner), "/api/groups/", {"name": "周五牌友"})
    assert created.status_code == 201
    body = created.json()
    assert body["name"] == "周五牌友" and body["role"] == "owner"
    assert body["defaults"] == {"preset": "chengdu", "rules": {}, "base": "1", "stake": "money", "currency": "CNY"}
    listed = api_client(owner).get("/api/groups/").json()
    assert [g["name"] for g in listed["results"]] == ["周五牌友"] and "next" in listed
    assert api_client(owner).get(f"/api/groups/{body['id']}/").json() == body
    assert post(api_client(owner), "/api/groups/", {"name": "x", "colour": "red"}).status_code == 400
    assert post(api_client(owner), "/api/groups/", {"name": ""}).status_code == 400


def test_creating_a_group_is_idempotent_with_a_key(owner):
    first = post(api_client(owner), "/api/groups/", {"name": "一次"}, HTTP_IDEMPOTENCY_KEY="g-1")
    again = post(api_client(owner), "/api/groups/", {"name": "一次"}, HTTP_IDEMPOTENCY_KEY="g-1")
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    assert again["Idempotent-Replayed"] == "true"
    assert GroupMember.objects.filter(user=owner, group__name="一次").count() == 1


def test_defaults_are_patched_and_checked(group, owner, keeper):
    add(group, keeper, Role.SCOREKEEPER)
    url = f"/api/groups/{group.pk}/"
    response = patch(api_client(keeper), url, {"defaults": {"preset": "club", "base": "2.5"}})
    assert response.status_code == 200
    assert response.json()["defaults"] == {"preset": "club", "rules": {}, "base": "2.5", "stake": "money",
                                           "currency": "CNY"}
    response = patch(api_client(keeper), url, {"defaults": {"rules": {"max_fan": 3}}})
    assert response.json()["defaults"]["rules"] == {"max_fan": 3} and response.json()["defaults"]["preset"] == "club"
    bad = patch(api_client(owner), url, {"defaults": {"rules": {"max_fan": 0, "bogus": 1}}})
    assert bad.status_code == 400
    assert set(errors(bad)) == {"defaults.rules.max_fan", "defaults.rules.bogus"}
    bad = patch(api_client(owner), url, {"defaults": {"base": 0.5}})
    assert bad.status_code == 400 and "defaults.base" in errors(bad)
    bad = patch(api_client(owner), url, {"defaults": {"stake": "beans"}})
    assert bad.status_code == 400 and "defaults.stake" in errors(bad)
    group.refresh_from_db()
    assert group.defaults["rules"] == {"max_fan": 3} and group.defaults["base"] == "2.5"


def test_only_owners_rename_and_plain_members_change_nothing(group, owner, keeper, viewer):
    add(group, keeper, Role.SCOREKEEPER)
    add(group, viewer, Role.MEMBER)
    url = f"/api/groups/{group.pk}/"
    assert patch(api_client(keeper), url, {"name": "记分员的"}).status_code == 403
    assert patch(api_client(viewer), url, {"defaults": {"preset": "club"}}).status_code == 403
    assert patch(api_client(owner), url, {"name": "老友记"}).json()["name"] == "老友记"
    assert api_client(viewer).get(url).json()["role"] == "member"


def test_members_and_roles_through_the_api(group, owner, keeper, viewer, players):
    add(group, keeper, Role.SCOREKEEPER)
    add(group, viewer, Role.MEMBER)
    players[0].user = viewer
    players[0].save()
    members = api_client(viewer).get(f"/api/groups/{group.pk}/members/").json()["results"]
    assert {(m["user"]["username"], m["role"], m["player"]) for m in members} == {
        ("owner", "owner", None), ("keeper", "scorekeeper", None), ("viewer", "member", "张三")}
    role_url = f"/api/groups/{group.pk}/members/{viewer.pk}/role/"
    assert post(api_client(keeper), role_url, {"role": "scorekeeper"}).status_code == 403
    changed = post(api_client(owner), role_url, {"role": "scorekeeper"})
    assert changed.status_code == 200 and changed.json()["role"] == "scorekeeper"
    assert post(api_client(owner), role_url, {"role": "king"}).status_code == 400
    last = post(api_client(owner), f"/api/groups/{group.pk}/members/{owner.pk}/role/", {"role": "member"})
    assert last.status_code == 400 and "圈主" in errors(last)["user"]
    outsider_id = 10 ** 6
    assert post(api_client(owner), f"/api/groups/{group.pk}/members/{outsider_id}/role/",
                {"role": "member"}).status_code == 404
    assert post(api_client(keeper), f"/api/groups/{group.pk}/members/{viewer.pk}/remove/").status_code == 403
    assert post(api_client(owner), f"/api/groups/{group.pk}/members/{viewer.pk}/remove/").status_code == 204
    assert post(api_client(keeper), f"/api/groups/{group.pk}/members/{keeper.pk}/remove/").status_code == 204
    assert list(group.memberships.values_list("user__username", flat=True)) == ["owner"]
    assert post(api_client(owner), f"/api/groups/{group.pk}/members/{owner.pk}/remove/").status_code == 400


def test_joining_by_token(group, owner, viewer, outsider):
    link = groups.group_link_renew(group=group, by=owner)
    joined = post(api_client(viewer), "/api/groups/join/", {"token": link.token})
    assert joined.status_code == 200 and joined.json()["id"] == group.pk and joined.json()["role"] == "member"
    assert post(api_client(viewer), "/api/groups/join/", {"token": link.token}).status_code == 200
    groups.group_link_turn_off(group=group, by=owner)
    refused = post(api_client(outsider), "/api/groups/join/", {"token": link.token})
    assert refused.status_code == 400 and "token" in errors(refused)
    assert group.role_of(outsider) is None


def test_group_players_are_added_renamed_and_merged(night, owner, players, viewer):
    group = night.group
    add(group, viewer, Role.MEMBER)
    url = f"/api/groups/{group.pk}/players/"
    assert post(api_client(viewer), url, {"name": "钱七"}).status_code == 403
    added = post(api_client(owner), url, {"name": "张小三"})
    assert added.status_code == 201 and added.json()["group"] == {"id": group.pk, "name": group.name}
    duplicate = post(api_client(owner), url, {"name": "张三"})
    assert duplicate.status_code == 400 and "name" in errors(duplicate)
    alias = added.json()["id"]
    assert patch(api_client(viewer), f"/api/players/{alias}/", {"name": "x"}).status_code == 403
    renamed = patch(api_client(owner), f"/api/players/{alias}/", {"name": "三儿"})
    assert renamed.status_code == 200 and renamed.json()["name"] == "三儿"
    assert post(api_client(viewer), f"/api/players/{alias}/merge/", {"into": players[0].pk}).status_code == 403
    other = new_night(owner, ["三儿", "李四", "王五", "赵六"], group, title="另一晚")
    services.hand_record(night=other, by=owner, entry=SELF_DRAW)
    before = api_client(owner).get(f"/api/nights/{other.pk}/totals/").json()["totals"]
    merged = post(api_client(owner), f"/api/players/{alias}/merge/", {"into": players[0].pk})
    assert merged.status_code == 200 and merged.json()["name"] == "张三"
    after = api_client(owner).get(f"/api/nights/{other.pk}/totals/").json()["totals"]
    assert after == [{**t, "player": "张三" if t["player"] == "三儿" else t["player"]} for t in before]
    assert [p["name"] for p in api_client(owner).get(url + "?size=100").json()["results"]].count("三儿") == 0
    refused = post(api_client(owner), f"/api/players/{players[1].pk}/merge/", {"into": players[0].pk})
    assert refused.status_code == 400 and "into" in errors(refused)
    assert post(api_client(owner), f"/api/players/{players[1].pk}/merge/", {"into": 10 ** 6}).status_code == 400
    assert AuditEntry.objects.filter(group=group, action=AuditEntry.Action.PLAYER_MERGED).count() == 1
    assert AuditEntry.objects.filter(group=group, action=AuditEntry.Action.PLAYER_RENAMED).count() == 1


def test_a_group_scorekeeper_records_through_the_api_and_a_member_may_not(group, owner, outsider, viewer):
    night = new_night(owner, ["甲", "乙", "丙", "丁"], group)
    add(group, outsider, Role.SCOREKEEPER)
    add(group, viewer, Role.MEMBER)
    url = reverse("api-hands", args=[night.pk])
    assert post(api_client(outsider), url, SELF_DRAW).status_code == 201
    assert post(api_client(viewer), url, SELF_DRAW).status_code == 403
    assert api_client(viewer).get(url).status_code == 200
    assert Night.objects.get(pk=night.pk).hands.count() == 1


def test_the_schema_documents_the_group_endpoints(schema):
    paths = schema["paths"]
    assert {"/api/groups/", "/api/groups/{id}/", "/api/groups/{id}/members/", "/api/groups/join/",
            "/api/groups/{id}/members/{user_id}/role/", "/api/groups/{id}/members/{user_id}/remove/",
            "/api/groups/{id}/players/", "/api/players/{id}/", "/api/players/{id}/merge/"} <= set(paths)
    for url in ("/api/groups/", "/api/groups/{id}/members/", "/api/groups/{id}/players/"):
        assert {p["name"] for p in paths[url]["get"]["parameters"] if p["in"] == "query"} >= {"cursor", "size"}
    components = schema["components"]["schemas"]
    for name in ("GroupInputRequest", "PatchedGroupPatchRequest", "RoleInputRequest", "JoinInputRequest", "MergeInputRequest",
                 "PatchedPlayerNameInputRequest"):
        assert components[name]["additionalProperties"] is False, name
    assert paths["/api/groups/{id}/"]["patch"]["responses"]["403"]


def test_refusals_speak_english_on_request(night, owner, players):
    client = api_client(owner)
    refused = client.post(f"/api/players/{players[1].pk}/merge/", json.dumps({"into": players[0].pk}),
                          content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert errors(refused) == {"into": "李四 and 张三 both sit at the table of 周五夜: they cannot be merged"}
    taken = client.patch(f"/api/players/{players[1].pk}/", json.dumps({"name": "张三"}),
                         content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert errors(taken) == {"name": "the group already has a player called 张三"}


def test_a_group_made_over_the_api_can_invite_at_once_and_its_link_is_managed_there(owner, viewer, outsider):
    """As on the page, a new group's invite link is on from the start; its owners and scorekeepers see it, renew it
    and turn it off over the API (an API-only client once had a group nobody could join)."""
    client = api_client(owner)
    made = post(client, "/api/groups/", {"name": "周五局"})
    assert made.status_code == 201
    url = f"/api/groups/{made.json()['id']}/invite/"
    shown = client.get(url).json()
    assert shown["on"] is True and "/groups/join/" in shown["url"]
    token = shown["url"].rstrip("/").rsplit("/", 1)[1]
    joined = post(api_client(viewer), "/api/groups/join/", {"token": token})
    assert joined.status_code == 200 and joined.json()["role"] == "member"
    for who, code in ((viewer, 403), (outsider, 404)):  # a plain member does not hand out the link
        assert api_client(who).get(url).status_code == code
        assert post(api_client(who), url, {}).status_code == code and api_client(who).delete(url).status_code == code
    assert client.get(url).json() == shown  # nothing changed by them
    renewed = post(client, url, {})
    assert renewed.status_code == 201 and renewed.json()["on"] and renewed.json()["url"] != shown["url"]
    assert post(api_client(outsider), "/api/groups/join/", {"token": token}).status_code == 400  # the old one stops
    bad = client.delete(url, json.dumps({"bogus": 1}), content_type="application/json")
    assert bad.status_code == 400 and client.get(url).json()["on"]  # unknown fields are errors, nothing done
    off = client.delete(url)
    assert off.status_code == 200 and off.json() == {"on": False, "url": None}
    assert AuditEntry.objects.filter(group_id=made.json()["id"], action=AuditEntry.Action.MEMBER_CHANGED).count() == 4  # on, joined, renewed, off
