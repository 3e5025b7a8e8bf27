"""Strict inputs (issue 9, hole 10): unknown fields and usernames are errors, names are clean, one errors format."""
import pytest
from django.core.exceptions import ValidationError

from ledger.services import nights as services
from ledger.models import Night, Player

from tests.conftest import api_client
from tests.factories import page_client as client_for
from tests.harden_helpers import post_json, snapshot

NIGHT = {"title": "周六", "date": "2026-11-28", "base": "1", "players": ["甲", "乙", "丙", "丁"]}


def test_names_are_trimmed(owner):
    response = post_json(api_client(owner), "/api/players/", {"name": "  新人 "})
    assert response.status_code == 201 and response.json()["name"] == "新人"


@pytest.mark.parametrize("name", ["\u200b", "a\u200db", "\u202e甲", "a\tb", "a\u0085b", "\ufeff甲", "a\u2028b", "\ue000"])
def test_names_with_control_or_invisible_characters_are_refused_by_the_service(group, name):
    with pytest.raises(ValidationError) as error:
        services.player_get_or_create(name=name, group=group)
    assert "name" in error.value.message_dict and Player.objects.count() == 0


def test_names_may_hold_spaces_and_any_script(group):
    assert services.player_get_or_create(name="Anne Marie", group=group).name == "Anne Marie"
    assert services.player_get_or_create(name="張 三", group=group).name == "張 三"


def test_unknown_usernames_are_errors_not_dropped(owner, viewer):
    response = post_json(api_client(owner), "/api/nights/", {**NIGHT, "members": ["viewer", "nobody"]},
                         HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response.json() == {"errors": [{"path": "members", "message": "no such users: nobody"}]}
    assert Night.objects.count() == 0


def test_known_usernames_are_kept(owner, viewer, keeper):
    response = post_json(api_client(owner), "/api/nights/", {**NIGHT, "members": ["viewer"], "scorekeepers": ["keeper"]})
    night = Night.objects.get(pk=response.json()["id"])
    assert list(night.members.all()) == [viewer] and list(night.scorekeepers.all()) == [keeper]


def test_unknown_night_fields_are_errors(owner):
    response = post_json(api_client(owner), "/api/nights/", {**NIGHT, "colour": "red", "size": 3})
    assert response.status_code == 400 and sorted(e["path"] for e in response.json()["errors"]) == ["colour", "size"]


def test_the_night_form_refuses_unknown_usernames_and_writes_nothing(owner):
    data = {"title": "周六夜", "date": "2026-11-28", "player_0": "甲", "player_1": "乙", "player_2": "丙", "player_3": "丁",
            "first_dealer": "0", "base": "5", "stake": "money", "currency": "CNY", "preset": "chengdu",
            "scorekeepers": "ghost", "members": "",
            "rule_kong_direct": "2", "rule_kong_added": "1", "rule_kong_concealed": "2", "rule_gang_shang_hua_fan": "1",
            "rule_qiang_gang_hu_fan": "0", "rule_robbable_kongs": "added", "rule_self_draw_bonus": "none",
            "rule_max_fan": "", "rule_cha_jiao": "min", "rule_hua_zhu_fan": "",
            "rule_hai_di_fan": "0", "rule_jin_gou_diao_fan": "0", "rule_dealer_when_no_winner": "stay"}
    before = snapshot()
    response = client_for(owner).post("/nights/new/", data)
    assert response.status_code == 200 and "ghost" in response.content.decode()
    assert snapshot() == before
    one_player_twice = client_for(owner).post("/nights/new/", {**data, "scorekeepers": "", "player_1": "甲"})
    twice = one_player_twice.content.decode()
    assert one_player_twice.status_code == 200 and 'id="form-errors"' in twice and "甲 坐了不止一个座位" in twice
    # Marked at both seats it sits in, each linked from the list at the top (a walk: no field was marked).
    assert twice.count('aria-invalid="true"') == 2 and 'id="id_player_0"' in twice and 'href="#id_player_1"' in twice
    assert '<details id="rule-details">' in twice  # the rules stay folded: none of them is wrong
    assert snapshot() == before
