"""The smaller points of issue 16 (item 10): sockets of people taken out of a group, frames that are not JSON,
unknown fields on the calculator and the token endpoint, the 50-name bound counted as sent, titles and venues
refusing what names refuse, a plain-decimal base, a meld error that says what, private pages not cached."""
import datetime as dt
from decimal import Decimal

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from ledger.services import nights as services
from ledger.services import groups as group_services
from ledger.models import GroupMember
from ledger.services import sharing as join_services

from tests.conftest import api_client
from tests.live_helpers import listen, run, session_headers

pytestmark = pytest.mark.usefixtures("keep_the_test_transactions_connection")


# ---- sockets ------------------------------------------------------------------------------------------------------

def test_a_member_taken_out_of_the_group_stops_hearing_its_nights(night, group, owner, outsider,
                                                                  django_capture_on_commit_callbacks):
    GroupMember.objects.create(group=group, user=outsider, role=GroupMember.Role.MEMBER)
    headers = session_headers(outsider)

    async def scenario():
        socket = listen(f"/ws/nights/{night.pk}/", headers)
        assert (await socket.connect())[0]

        def remove():
            with django_capture_on_commit_callbacks(execute=True):
                group_services.membership_remove(group=group, by=owner, user=outsider)
        await database_sync_to_async(remove)()
        return await socket.receive_output(timeout=2)
    assert run(scenario) == {"type": "websocket.close", "code": 4403}


def test_a_night_member_who_leaves_the_group_keeps_the_night_they_were_invited_to(night, group, owner, viewer,
                                                                                 django_capture_on_commit_callbacks):
    GroupMember.objects.create(group=group, user=viewer, role=GroupMember.Role.MEMBER)
    headers = session_headers(viewer)

    async def scenario():
        socket = listen(f"/ws/nights/{night.pk}/", headers)
        assert (await socket.connect())[0]

        def leave():
            with django_capture_on_commit_callbacks(execute=True):
                group_services.group_leave(group=group, user=viewer)
        await database_sync_to_async(leave)()
        quiet = await socket.receive_nothing(timeout=0.5)
        await socket.disconnect()
        return quiet
    assert run(scenario)  # still a member of the night itself: the socket stays


def test_a_group_members_new_role_is_told_on_their_socket(night, group, owner, outsider,
                                                          django_capture_on_commit_callbacks):
    GroupMember.objects.create(group=group, user=outsider, role=GroupMember.Role.MEMBER)
    headers = session_headers(outsider)

    async def scenario():
        socket = listen(f"/ws/nights/{night.pk}/", headers)
        assert (await socket.connect())[0]

        def promote():
            with django_capture_on_commit_callbacks(execute=True):
                group_services.membership_set_role(group=group, by=owner, user=outsider, role="scorekeeper")
        await database_sync_to_async(promote)()
        told = await socket.receive_json_from(timeout=2)
        await socket.disconnect()
        return told
    assert run(scenario) == {"kind": "role_changed", "night": night.pk}


@pytest.mark.parametrize("frame", [{"text_data": "not json {"}, {"text_data": "\x00"}, {"bytes_data": b"\x00\xff"},
                                   {"text_data": '{"a": 1}'}])
def test_any_frame_a_listener_sends_is_ignored_and_the_socket_stays(night, owner, viewer, frame,
                                                                    django_capture_on_commit_callbacks):
    headers = session_headers(viewer)

    async def scenario():
        socket = listen(f"/ws/nights/{night.pk}/", headers)
        assert (await socket.connect())[0]
        await socket.send_to(**frame)
        assert await socket.receive_nothing(timeout=0.3)

        def close():
            with django_capture_on_commit_callbacks(execute=True):
                services.night_close(night=night, by=owner)
        await database_sync_to_async(close)()
        event = await socket.receive_json_from(timeout=2)  # still open and listening
        await socket.disconnect()
        return event
    assert run(scenario)["kind"] == "night_closed"


# ---- unknown fields, bounds ---------------------------------------------------------------------------------------

def test_the_analyser_refuses_unknown_fields(db):
    response = api_client().post("/api/analyse/", {"tiles": "11m", "melds": [], "readdy": True, "x": 1},
                                 format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == ["readdy", "x"]


def test_the_token_endpoint_refuses_unknown_fields(owner):
    response = api_client().post("/api/token/", {"username": "owner", "password": "pw-owner", "otp": "1"},
                                 format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and "token" not in response.json()
    assert [e["path"] for e in response.json()["errors"]] == ["otp"]
    assert api_client().post("/api/token/", {"username": "owner", "password": "pw-owner"},
                             format="json").status_code == 200


def new_night(**extra):
    return {"title": "周五夜", "date": "2026-11-27", "base": "2", "players": ["张三", "李四", "王五", "赵六"], **extra}


def test_the_50_name_bound_counts_names_as_sent(owner, viewer):
    client = api_client(owner)
    response = client.post("/api/nights/", new_night(members=["viewer"] * 51), format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["path"] == "members"
    assert client.post("/api/nights/", new_night(members=["viewer"] * 50), format="json").status_code == 201


def test_the_night_form_bounds_its_usernames_too(owner, viewer, players):
    from ledger.models import Night

    from tests.factories import page_client as client_for
    data = {"title": "周六夜", "date": "2026-11-28", "venue": "", "player_0": "张三", "player_1": "李四",
            "player_2": "王五", "player_3": "新人", "first_dealer": "2", "base": "5", "stake": "points", "currency": "",
            "preset": "chengdu", "scorekeepers": "", "members": ",".join(["viewer"] * 51),
            "rule_kong_direct": "2", "rule_kong_added": "1", "rule_kong_concealed": "2", "rule_gang_shang_hua_fan": "1",
            "rule_qiang_gang_hu_fan": "0", "rule_robbable_kongs": "added", "rule_self_draw_bonus": "base",
            "rule_max_fan": "4", "rule_cha_jiao": "min", "rule_kong_refund": "on", "rule_hua_zhu_fan": "",
            "rule_hai_di_fan": "0", "rule_jin_gou_diao_fan": "0", "rule_dealer_when_no_winner": "stay"}
    response = client_for(owner).post("/nights/new/", data)
    assert response.status_code == 200, response.status_code
    assert response.context["form"].errors.get("members") == ["最多 50 个用户名"], response.context["form"].errors
    assert "最多 50 个用户名" in response.content.decode()  # shown by the field
    assert not Night.objects.filter(title="周六夜").exists()
    assert client_for(owner).post("/nights/new/", {**data, "members": ",".join(["viewer"] * 50)}).status_code == 302


@pytest.mark.parametrize("field", ["title", "venue"])
@pytest.mark.parametrize("char", ["\u202e", "\u200d", "\u200b", "\x07", "\n"])
def test_titles_and_venues_refuse_what_names_refuse(owner, group, field, char):
    response = api_client(owner).post("/api/nights/", new_night(**{field: f"周五{char}夜"}), format="json",
                                      HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response.json()["errors"] == [{"path": field, "message": "must not contain control or invisible characters"}]
    evening = api_client(owner).post(f"/api/groups/{group.pk}/evenings/",
                                     {"title": "周五", "date": "2026-11-27", field: f"周五{char}夜"}, format="json")
    assert evening.status_code == 400 and evening.json()["errors"][0]["path"] == field


@pytest.mark.parametrize("field", ["title", "venue"])
def test_the_services_refuse_them_too_whatever_the_caller(owner, players, field):
    from django.core.exceptions import ValidationError
    texts = {"title": "周五夜", "venue": "", field: "周五\u202e夜"}
    with pytest.raises(ValidationError) as refused:
        services.night_create(owner=owner, date=dt.date(2026, 11, 27), base=Decimal("2"), players=players,
                              first_dealer=0, **texts)
    assert field in refused.value.message_dict


@pytest.mark.parametrize("base", ["1e9", "1e3", "１２", "٣", "2.5e0"])
def test_the_calculator_refuses_a_base_that_is_not_a_plain_decimal(db, base):
    record = {"base": base, "dealer": 0, "events": [], "exhausted": True}
    response = api_client().post("/api/score/", record, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == ["base"]


def test_a_meld_count_no_hand_can_have_is_named_as_such(db):
    response = api_client().post("/api/analyse/", {"tiles": "11m", "melds": ["555p", "666p", "777p", "888p", "999p",
                                                                             "111s"] * 3}, format="json",
                                 HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    messages = [e["message"] for e in response.json()["errors"]]
    assert "too many melds: 18; a hand has at most 4 pongs or kongs" in messages
    assert not any("expected -" in m for m in messages)


# ---- caching ------------------------------------------------------------------------------------------------------

def test_private_pages_are_not_kept_by_caches_and_public_ones_may_be(night, owner, viewer):
    client = Client()
    client.force_login(owner)
    for url in ("/", f"/nights/{night.pk}/", f"/nights/{night.pk}/hands/", f"/nights/{night.pk}/audit/",
                f"/groups/{night.group_id}/", f"/players/{night.seating.first().player_id}/", "/rules/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Cache-Control"] == "private, no-store", url
    token = join_services.link_renew(night=night, by=owner, kind="view").token
    assert Client().get(f"/v/{token}/")["Cache-Control"] == "private, no-store"
    assert api_client(viewer).get(f"/api/nights/{night.pk}/")["Cache-Control"] == "private, no-store"
    anonymous = Client().get("/rules/")
    assert anonymous.status_code == 200 and "no-store" not in anonymous.get("Cache-Control", "")
