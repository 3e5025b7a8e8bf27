"""Joining a night: sign-up, invite links, members and roles, claiming a name, view links, the token endpoint."""
import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from ledger import rights
from ledger.services import nights as services
from ledger.services import sharing as join_services
from ledger.models import NightLink
from ledger.models import Player

from tests.factories import page_client as client_for
from tests.hand_helpers import w, win

SELF_DRAW_THEN_WALL_OUT = {"events": [win(None, w(1))], "exhausted": True}

pytestmark = pytest.mark.usefixtures("own_cache")  # rate-limit counts of this test's own


def link(night, owner, kind):
    return join_services.link_renew(night=night, by=owner, kind=kind)


def sign_up(client, url, username, password="mahjong-2026", **extra):
    return client.post(url, {"username": username, "password1": password, "password2": password, **extra})


# ---- sign-up ------------------------------------------------------------------------------------------------


def test_signing_up_needs_only_a_username_and_a_password(db):
    client = Client()
    page = client.get("/signup/").content.decode()
    assert "用户名" in page and "email" not in page.lower()
    response = sign_up(client, "/signup/", "小明")
    assert response.status_code == 302 and response["Location"] == "/"
    assert get_user_model().objects.filter(username="小明").exists()
    assert client.get("/").status_code == 200  # signed in


def test_signing_up_refuses_a_taken_name_and_mismatched_passwords(owner):
    response = sign_up(Client(), "/signup/", "OWNER")
    assert response.status_code == 400 and get_user_model().objects.count() == 1
    response = Client().post("/signup/", {"username": "new", "password1": "abcd1234", "password2": "abcd1235"})
    assert response.status_code == 400 and not get_user_model().objects.filter(username="new").exists()


def test_the_sign_up_page_says_the_password_rule_before_the_first_try(db):
    assert "至少 8 个字符" in Client().get("/signup/").content.decode()
    assert "At least 8 characters" in client_for(lang="en").get("/signup/").content.decode()


@pytest.mark.parametrize("lang, message", [
    (None, "密码太短：至少要 8 个字符"), ("en", "This password is too short: it needs at least 8 characters."),
])
def test_a_short_password_is_refused_in_the_pages_language(db, lang, message):
    response = sign_up(client_for(lang=lang), "/signup/", "new", password="ab1")
    assert response.status_code == 400 and message in response.content.decode()
    assert not get_user_model().objects.filter(username="new").exists()


def test_signing_up_is_rate_limited_per_address(db):
    client = Client()
    statuses = [sign_up(client, "/signup/", f"u{i}", password="x").status_code for i in range(10)]
    assert set(statuses) == {400}  # too short a password, but every attempt counts
    response = sign_up(client, "/signup/", "late")
    assert response.status_code == 429 and "注册太频繁" in response.content.decode()
    assert not get_user_model().objects.filter(username="late").exists()
    other = Client(REMOTE_ADDR="192.0.2.9")
    assert sign_up(other, "/signup/", "elsewhere").status_code == 302


def test_the_sign_up_page_goes_back_where_it_was_asked_and_never_off_site(db):
    response = sign_up(Client(), "/signup/", "a1", next="/rules/")
    assert response["Location"] == "/rules/"
    response = sign_up(Client(), "/signup/", "a2", next="https://evil.example/")
    assert response["Location"] == "/"


def test_the_login_page_offers_sign_up(db):
    assert 'href="/signup/"' in Client().get("/login/").content.decode()


# ---- invite links ----------------------------------------------------------------------------------------


def test_a_newcomer_signs_up_by_the_invite_link_and_becomes_a_member(night, owner):
    invite = link(night, owner, NightLink.Kind.INVITE)
    client = Client()
    page = client.get(f"/join/{invite.token}/").content.decode()
    assert night.title in page and "注册并加入" in page
    response = sign_up(client, f"/join/{invite.token}/", "小红")
    assert response.status_code == 302 and response["Location"] == f"/nights/{night.pk}/"
    newcomer = get_user_model().objects.get(username="小红")
    assert night.members.filter(pk=newcomer.pk).exists() and not rights.may_write_night(newcomer, night)
    assert client.get(f"/nights/{night.pk}/").status_code == 200


def test_a_signed_in_user_joins_with_one_tap(night, owner, outsider):
    invite = link(night, owner, NightLink.Kind.INVITE)
    client = client_for(outsider)
    assert "以 outsider 的身份加入" in client.get(f"/join/{invite.token}/").content.decode()
    assert client.post(f"/join/{invite.token}/").status_code == 302
    assert night.members.filter(pk=outsider.pk).exists()
    # A member opening the link again goes straight to the table.
    assert client.get(f"/join/{invite.token}/")["Location"] == f"/nights/{night.pk}/"


def test_a_renewed_invite_link_replaces_the_old_one_and_a_turned_off_one_works_no_more(night, owner, outsider):
    old = link(night, owner, NightLink.Kind.INVITE)
    new = link(night, owner, NightLink.Kind.INVITE)
    assert old.token != new.token
    assert Client().get(f"/join/{old.token}/").status_code == 404
    assert client_for(outsider).post(f"/join/{old.token}/").status_code == 404
    assert Client().get(f"/join/{new.token}/").status_code == 200
    join_services.link_turn_off(night=night, by=owner, kind=NightLink.Kind.INVITE)
    assert Client().get(f"/join/{new.token}/").status_code == 404
    assert not night.members.filter(pk=outsider.pk).exists()


def test_link_tokens_are_random_with_at_least_128_bits(night, owner):
    tokens = {link(night, owner, NightLink.Kind.VIEW).token for _ in range(5)}
    assert len(tokens) == 5
    assert all(len(t) * 6 >= 128 for t in tokens)  # URL-safe base64: 6 bits a character


def test_the_owner_sees_the_invite_qr_code_on_the_table_page(night, owner, keeper, viewer, outsider):
    invite = link(night, owner, NightLink.Kind.INVITE)
    page = client_for(owner).get(f"/nights/{night.pk}/").content.decode()
    assert f"/join/{invite.token}/" in page and f"/nights/{night.pk}/invite.svg" in page
    svg = client_for(keeper).get(f"/nights/{night.pk}/invite.svg")
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"
    assert svg.content.startswith(b"<svg") and b"xmlns" in svg.content
    assert invite.token not in client_for(viewer).get(f"/nights/{night.pk}/").content.decode()
    assert client_for(viewer).get(f"/nights/{night.pk}/invite.svg").status_code == 403
    assert client_for(outsider).get(f"/nights/{night.pk}/invite.svg").status_code == 404


def test_the_owner_sees_the_view_link_as_a_qr_code_too(night, owner, keeper, outsider):
    """Friends at the table scan the view link (no account needed) as they scan the invite; the code follows the
    link: renewed, it is another code; turned off, there is none."""
    view = link(night, owner, NightLink.Kind.VIEW)
    page = client_for(owner).get(f"/nights/{night.pk}/members/").content.decode()
    assert f"/v/{view.token}/" in page and f"/nights/{night.pk}/view.svg" in page
    first = client_for(owner).get(f"/nights/{night.pk}/view.svg")
    assert first.status_code == 200 and first["Content-Type"] == "image/svg+xml"
    assert first.content.startswith(b"<svg") and first["Cache-Control"] == "private, no-store"
    assert client_for(keeper).get(f"/nights/{night.pk}/view.svg").status_code == 403  # the owner's link alone
    assert client_for(outsider).get(f"/nights/{night.pk}/view.svg").status_code == 404
    link(night, owner, NightLink.Kind.VIEW)
    assert client_for(owner).get(f"/nights/{night.pk}/view.svg").content != first.content
    join_services.link_turn_off(night=night, by=owner, kind=NightLink.Kind.VIEW)
    assert client_for(owner).get(f"/nights/{night.pk}/view.svg").status_code == 404
    assert "view.svg" not in client_for(owner).get(f"/nights/{night.pk}/members/").content.decode()


def test_the_owner_turns_the_invite_on_from_the_table_page_and_comes_back_to_it(night, owner, keeper):
    client = client_for(owner)
    assert 'id="invite-on"' in client.get(f"/nights/{night.pk}/").content.decode()
    assert 'id="invite-on"' not in client_for(keeper).get(f"/nights/{night.pk}/").content.decode()
    response = client.post(f"/nights/{night.pk}/members/", {"action": "invite-renew", "next": f"/nights/{night.pk}/"})
    assert response["Location"] == f"/nights/{night.pk}/"
    token = NightLink.objects.active().get(night=night, kind="invite").token
    assert f"/join/{token}/" in client.get(f"/nights/{night.pk}/").content.decode()
    off_site = client.post(f"/nights/{night.pk}/members/", {"action": "invite-renew", "next": "https://evil.example/"})
    assert off_site["Location"] == f"/nights/{night.pk}/members/"


def test_a_debug_server_seen_on_its_own_machine_puts_its_lan_address_in_the_qr_code(night, owner, settings):
    import socket

    from ledger.web.lan import lan_address
    settings.DEBUG = True
    invite = link(night, owner, NightLink.Kind.INVITE)
    with socket.socket() as server:  # a server listening on every address, as with ADDRESS=0.0.0.0:PORT
        server.bind(("0.0.0.0", 0))
        server.listen()
        port = server.getsockname()[1]
        page = client_for(owner).get(f"/nights/{night.pk}/", HTTP_HOST=f"127.0.0.1:{port}").content.decode()
        assert f"http://{lan_address()}:{port}/join/{invite.token}/" in page
        settings.DEBUG = False
        page = client_for(owner).get(f"/nights/{night.pk}/", HTTP_HOST=f"127.0.0.1:{port}").content.decode()
        assert f"http://127.0.0.1:{port}/join/{invite.token}/" in page


def test_a_debug_server_only_on_localhost_keeps_localhost_in_the_qr_code(night, owner, settings):
    import socket
    settings.DEBUG = True
    invite = link(night, owner, NightLink.Kind.INVITE)
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        page = client_for(owner).get(f"/nights/{night.pk}/", HTTP_HOST=f"127.0.0.1:{port}").content.decode()
    assert f"http://127.0.0.1:{port}/join/{invite.token}/" in page


# ---- members ---------------------------------------------------------------------------------------------


def test_the_owner_makes_a_member_a_scorekeeper_and_back(night, owner, viewer):
    client = client_for(owner)
    client.post(f"/nights/{night.pk}/members/", {"action": "scorekeeper", "user": viewer.pk})
    assert rights.may_write_night(viewer, night)
    client.post(f"/nights/{night.pk}/members/", {"action": "member", "user": viewer.pk})
    assert not rights.may_write_night(viewer, night) and night.members.filter(pk=viewer.pk).exists()


def test_the_owner_removes_a_member_who_then_cannot_see_the_night(night, owner, viewer):
    client_for(owner).post(f"/nights/{night.pk}/members/", {"action": "remove", "user": viewer.pk})
    assert client_for(viewer).get(f"/nights/{night.pk}/").status_code == 404


@pytest.mark.parametrize("action", ["scorekeeper", "remove", "invite-renew", "view-renew", "view-off"])
def test_only_the_owner_manages_members_and_links(night, keeper, viewer, action):
    response = client_for(keeper).post(f"/nights/{night.pk}/members/", {"action": action, "user": viewer.pk})
    assert response.status_code == 403
    assert not rights.may_write_night(viewer, night) and not NightLink.objects.exists()


def test_outsiders_get_404_on_the_members_page(night, outsider):
    assert client_for(outsider).get(f"/nights/{night.pk}/members/").status_code == 404
    assert client_for(outsider).post(f"/nights/{night.pk}/members/", {"action": "claim"}).status_code == 404


def test_a_member_claims_their_name_once(night, viewer, keeper, players):
    client = client_for(viewer)
    client.post(f"/nights/{night.pk}/members/", {"action": "claim", "player": players[2].pk})
    assert Player.objects.get(pk=players[2].pk).user == viewer
    assert "就是你" in client.get(f"/nights/{night.pk}/members/").content.decode()
    # Nobody else can take that name, and the member cannot take a second one.
    client_for(keeper).post(f"/nights/{night.pk}/members/", {"action": "claim", "player": players[2].pk})
    client.post(f"/nights/{night.pk}/members/", {"action": "claim", "player": players[3].pk})
    assert Player.objects.get(pk=players[2].pk).user == viewer and Player.objects.get(pk=players[3].pk).user is None
    client.post(f"/nights/{night.pk}/members/", {"action": "unclaim"})
    assert Player.objects.get(pk=players[2].pk).user is None


def test_someone_whose_name_in_the_circle_is_not_at_this_table_is_told_so_not_offered_names_to_tap(
        night, viewer, players):
    """A walk: 哪个是你？ listed the table's names with nothing to tap (the account had claimed 东哥 elsewhere in
    the circle, and a member claims one name per circle)."""
    elsewhere = services.player_get_or_create(name="东哥", group=night.group)
    Player.objects.filter(pk=elsewhere.pk).update(user=viewer)
    page = client_for(viewer).get(f"/nights/{night.pk}/members/").content.decode()
    assert "你在这个圈子已经是 东哥，不在这一桌。" in page and 'value="claim"' not in page
    assert 'value="unclaim"' in page and players[0].name in page  # the table's names stay, to read; 东哥 can go
    client_for(viewer).post(f"/nights/{night.pk}/members/", {"action": "unclaim"})
    assert Player.objects.get(pk=elsewhere.pk).user is None
    assert 'id="claimed-elsewhere"' not in client_for(night.owner).get(f"/nights/{night.pk}/members/").content.decode()
    assert "创建人" in page and "主人" not in page.split('id="claim"')[0].split("<main")[-1]


def test_a_name_from_another_night_cannot_be_claimed(night, viewer):
    stranger = services.player_get_or_create(name="路人", group=night.group)
    client_for(viewer).post(f"/nights/{night.pk}/members/", {"action": "claim", "player": stranger.pk})
    assert Player.objects.get(pk=stranger.pk).user is None


def test_a_member_who_may_only_look_sees_a_read_only_hint(night, viewer, keeper):
    assert 'id="readonly-hint"' in client_for(viewer).get(f"/nights/{night.pk}/").content.decode()
    assert 'id="readonly-hint"' not in client_for(keeper).get(f"/nights/{night.pk}/").content.decode()
    english = client_for(viewer, "en").get(f"/nights/{night.pk}/").content.decode()
    assert "You can look but not keep score" in english


def test_the_hint_sends_a_group_member_to_the_groups_members_page_where_the_role_is_changed(night, owner, outsider):
    from ledger.services import groups
    groups.group_join(token=groups.group_link_renew(group=night.group, by=owner).token, user=outsider)
    page = client_for(outsider).get(f"/nights/{night.pk}/").content.decode()
    hint = page.split('id="readonly-hint"')[1].split("</p>")[0]
    assert f'href="/groups/{night.group_id}/members/"' in hint and "成员与邀请" not in hint
    members = client_for(owner).get(f"/groups/{night.group_id}/members/").content.decode()
    assert "outsider" in members and 'value="scorekeeper"' in members  # the role control is there


def test_the_hint_of_an_open_night_goes_when_it_closes_and_a_closed_one_says_so(night, owner, viewer):
    assert "data-live-hide-closed" in client_for(viewer).get(f"/nights/{night.pk}/").content.decode().split(
        'id="readonly-hint"')[1].split(">")[0]
    services.night_close(night=night, by=owner)
    page = client_for(viewer).get(f"/nights/{night.pk}/").content.decode()
    assert "这一场已经结束，只能查看。" in page and "设为记分员" not in page


# ---- view links ------------------------------------------------------------------------------------------


@pytest.fixture
def played(night, keeper):
    services.hand_record(night=night, by=keeper, entry=SELF_DRAW_THEN_WALL_OUT)
    return night


def test_a_view_link_shows_table_hands_and_settlement_without_an_account(played, owner):
    view = link(played, owner, NightLink.Kind.VIEW)
    response = Client().get(f"/v/{view.token}/")
    page = response.content.decode()
    assert response.status_code == 200 and response["Referrer-Policy"] == "same-origin"
    assert "李四" in page and "+6" in page                      # the table with totals
    assert "李四 自摸 平胡 0番，张三、王五、赵六 各付2" in page                  # the hands
    assert "最少转账" in page and "张三 → 李四" in page          # the settlement
    assert f"/ws/view/{view.token}/" in page


def test_a_view_link_page_has_no_write_control_and_nothing_else_of_the_night(played, owner):
    view = link(played, owner, NightLink.Kind.VIEW)
    page = Client().get(f"/v/{view.token}/").content.decode()
    forms = page.count("<form")
    assert forms == 1 and 'action="/i18n/setlang/"' in page  # only the language switch
    for other in ("/hands/1/void/", "/hands/1/correct/", "/audit/", "/members/", 'id="entry"', "<button type=\"button\" class=\"seat"):
        assert other not in page


def test_a_revoked_view_link_stops_working(played, owner):
    view = link(played, owner, NightLink.Kind.VIEW)
    join_services.link_turn_off(night=played, by=owner, kind=NightLink.Kind.VIEW)
    assert Client().get(f"/v/{view.token}/").status_code == 404
    assert Client().get(f"/v/{view.token}/fragments/").status_code == 404


def test_the_view_links_fragments_carry_no_write_controls(played, owner):
    view = link(played, owner, NightLink.Kind.VIEW)
    data = json.loads(Client().get(f"/v/{view.token}/fragments/", {"pieces": "head,seats,settlement"}).content)
    assert [h["number"] for h in data["hands"]] == [1]
    html = "".join(h["html"] for h in data["hands"]) + "".join(data["pieces"].values())
    assert "<form" not in html and "<button" not in html and "李四" in html


def test_the_owner_turns_the_view_link_on_renews_it_and_turns_it_off(played, owner):
    client = client_for(owner)
    client.post(f"/nights/{played.pk}/members/", {"action": "view-renew"})
    first = NightLink.objects.active().get(kind="view").token
    assert f"/v/{first}/" in client.get(f"/nights/{played.pk}/members/").content.decode()
    client.post(f"/nights/{played.pk}/members/", {"action": "view-renew"})
    second = NightLink.objects.active().get(kind="view").token
    assert first != second and Client().get(f"/v/{first}/").status_code == 404
    client.post(f"/nights/{played.pk}/members/", {"action": "view-off"})
    assert Client().get(f"/v/{second}/").status_code == 404


# ---- the hand list ---------------------------------------------------------------------------------------


def test_the_hand_list_is_newest_first_and_paged_by_hand_number(night, owner, keeper):
    for _ in range(23):
        services.hand_record(night=night, by=keeper, entry=SELF_DRAW_THEN_WALL_OUT)
    client = client_for(owner)
    first = client.get(f"/nights/{night.pk}/hands/").content.decode()
    assert first.index('id="hand-23"') < first.index('id="hand-22"')
    assert 'id="hand-4"' in first and 'id="hand-3"' not in first and "?before=4" in first
    older = client.get(f"/nights/{night.pk}/hands/", {"before": 4}).content.decode()
    assert 'id="hand-3"' in older and 'id="hand-1"' in older and 'id="hand-4"' not in older
    assert "更早的局" not in older
    # A hand recorded meanwhile does not shift the older page: the cursor is a hand number.
    services.hand_record(night=night, by=keeper, entry=SELF_DRAW_THEN_WALL_OUT)
    assert client.get(f"/nights/{night.pk}/hands/", {"before": 4}).content.decode().count('class="card hand') == 3


# ---- token, error pages, icons ---------------------------------------------------------------------------


def test_the_api_gives_a_token_for_a_username_and_password(owner):
    response = Client().post("/api/token/", {"username": "owner", "password": "pw-owner"},
                             content_type="application/json")
    assert response.status_code == 200
    token = response.json()["token"]
    nights = Client().get("/api/nights/", HTTP_AUTHORIZATION=f"Token {token}")
    assert nights.status_code == 200


def test_the_token_endpoint_refuses_a_wrong_password_in_the_errors_format(owner):
    response = Client().post("/api/token/", {"username": "owner", "password": "nope"},
                             content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == "" and "credentials" in response.json()["errors"][0]["message"]


def test_the_token_endpoint_is_rate_limited(owner):
    statuses = [Client().post("/api/token/", {"username": "x", "password": "nope"}, content_type="application/json")
                .status_code for _ in range(21)]
    assert statuses[:20] == [400] * 20 and statuses[20] == 429


@pytest.mark.parametrize("lang, text", [(None, "找不到这个页面"), ("en", "Page not found")])
def test_the_404_page_is_the_apps_own_in_the_users_language(outsider, night, lang, text):
    response = client_for(outsider, lang).get(f"/nights/{night.pk}/")
    assert response.status_code == 404 and text in response.content.decode()


@pytest.mark.parametrize("lang, text", [(None, "没有权限"), ("en", "Not allowed")])
def test_the_403_page_is_the_apps_own_in_the_users_language(viewer, night, lang, text):
    response = client_for(viewer, lang).get(f"/nights/{night.pk}/hands/1/correct/")
    assert response.status_code == 403 and text in response.content.decode()


def test_the_app_has_a_favicon_and_a_web_app_manifest(db):
    page = Client().get("/login/").content.decode()
    assert 'rel="icon"' in page and 'rel="manifest" href="/manifest.webmanifest"' in page
    manifest = Client().get("/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    data = json.loads(manifest.content)
    assert data["name"] == "成都麻将记账" and data["display"] == "standalone"
    assert {i["sizes"] for i in data["icons"]} >= {"192x192", "512x512"}
    assert json.loads(client_for(None, "en").get("/manifest.webmanifest").content)["name"] == "Chengdu Mahjong Ledger"
    assert Client().get("/favicon.ico").status_code == 302


def test_leaving_the_group_releases_the_name_claimed_there_but_one_of_a_night_still_shared(owner, group, night,
                                                                                          django_user_model):
    """bob left with 李四 claimed: nobody else could claim 李四, and bob, out of the group, could not give it up (a
    walk). Leaving (or being taken out) releases it, audited; a name of a night bob is still a member of stays his,
    to confirm that night."""
    from ledger.models import AuditEntry, GroupMember, Player
    from ledger.services import groups as group_services
    bob = django_user_model.objects.create_user("bob", password="pw-bob-2026")
    carol = django_user_model.objects.create_user("carol", password="pw-carol-2026")
    for user in (bob, carol):
        GroupMember.objects.create(group=group, user=user, role=GroupMember.Role.MEMBER)
    li, wang = (night.seating.get(seat=s).player for s in (1, 2))
    group_services.player_claim(player=li, user=bob)
    group_services.player_claim(player=wang, user=carol)
    night.members.add(carol)  # carol is also a member of the night 王五 sits at
    group_services.group_leave(group=group, user=bob)
    group_services.membership_remove(group=group, by=owner, user=carol)
    assert Player.objects.get(pk=li.pk).user_id is None and Player.objects.get(pk=wang.pk).user_id == carol.pk
    released = AuditEntry.objects.filter(group=group, before__claimed_by="bob")
    assert released.count() == 1 and released.get().actor == bob
    assert not AuditEntry.objects.filter(before__claimed_by="carol").exists()


def test_leaving_keeps_a_name_substituted_out_of_a_night_still_shared(owner, group, played, django_user_model):
    """王五 played, then 孙七 took the seat (换人): the night's totals still name 王五, whom carol, still a member of
    the night, may confirm; leaving the group must not release that name (a review)."""
    from ledger.models import GroupMember, Player
    from ledger.services import confirmations
    from ledger.services import groups as group_services
    from ledger.services import nights as services
    carol = django_user_model.objects.create_user("carol", password="pw-carol-2026")
    GroupMember.objects.create(group=group, user=carol, role=GroupMember.Role.MEMBER)
    played.members.add(carol)
    wang = played.seating.get(seat=2).player
    group_services.player_claim(player=wang, user=carol)
    services.seat_change(night=played, by=owner, seat=2, player=services.player_get_or_create(name="孙七", group=group))
    services.night_close(night=played, by=owner)
    assert [p[0] for p in confirmations.players_of(played, carol)] == [wang.pk]
    group_services.membership_remove(group=group, by=owner, user=carol)
    assert Player.objects.get(pk=wang.pk).user_id == carol.pk
