"""The table's preview: the result or the errors, the payments so far, and the engine's choices."""
import json

from ledger.services import nights as services
from ledger.models import AuditEntry, Hand
from scoring import hand_choices, score_hand

from tests.conftest import api_client
from tests.hand_helpers import kong, w, win


def preview(client, night, entry, **headers):
    return client.post(f"/api/nights/{night.pk}/preview/", json.dumps(entry), content_type="application/json",
                       **headers)


def test_a_finished_hand_previews_its_result_with_the_engines_choices(night, keeper):
    entry = {"events": [win(2, w(1, "qing_yi_se")), win(None, w(0)), win(3, w(2))]}
    response = preview(api_client(keeper), night, entry)
    assert response.status_code == 200
    body = response.json()
    doc = {"base": "2", "rules": night.rules, "dealer": 0, **entry}
    assert body == {**score_hand(doc).as_dict(), "choices": hand_choices(doc)}
    assert body["choices"]["complete"] is True and body["choices"]["next"]["open"] is False


def test_an_unfinished_hand_answers_its_errors_the_payments_so_far_and_who_may_act_next(night, keeper):
    entry = {"events": [win(2, w(1, "qing_yi_se"))]}
    response = preview(api_client(keeper), night, entry, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200  # not over yet is no error: the browser logs no 400 after every tap
    body = response.json()
    assert [e["path"] for e in body["errors"]] == ["exhausted"]
    assert body["so_far"]["payments"] == [{"event": 0, "from": 2, "to": 1, "amount": "8", "reason": "discard"}]
    assert body["so_far"]["net"] == ["0", "8", "-8", "0"]
    # 李四 has won: the others may still win or kong, and the hand may end with the wall exhausted.
    assert body["choices"]["complete"] is False
    assert body["choices"]["next"] == {"open": True, "winners": [0, 2, 3], "kongers": [0, 2, 3], "exhausted": True}


def test_an_empty_hand_is_not_over_and_says_why(night, keeper):
    response = preview(api_client(keeper), night, {"events": []}, HTTP_ACCEPT_LANGUAGE="zh")
    assert response.status_code == 200
    assert [e["path"] for e in response.json()["errors"]] == ["exhausted"]
    assert response.json()["so_far"]["payments"] == []
    assert response.json()["choices"]["next"]["winners"] == [0, 1, 2, 3]


def test_a_winners_own_kong_raises_the_least_roots_the_page_offers(night, keeper):
    entry = {"events": [kong(1, "concealed", tile="9p"), win(None, w(1, "ping_hu", 1))], "exhausted": True}
    body = preview(api_client(keeper), night, entry).json()
    (winner,) = body["choices"]["events"][1]["winner_choices"]
    ping_hu = next(p for p in winner["patterns"] if p["code"] == "ping_hu")
    assert (winner["player"], ping_hu["min_roots"]) == (1, 1)
    # Seven pairs cannot hold a kong: not offered after one.
    assert not {"qi_dui", "long_qi_dui"} & {p["code"] for p in winner["patterns"]}
    assert body["choices"]["events"][1]["self_draw"] is True


def test_a_wrong_hand_is_400_with_nothing_so_far(night, keeper):
    response = preview(api_client(keeper), night, {"events": [win(1, w(1))], "exhausted": True})
    assert response.status_code == 400 and response.json()["so_far"] is None


def test_the_preview_refuses_fields_that_belong_to_the_night(night, keeper):
    response = preview(api_client(keeper), night, {"events": [], "exhausted": True, "base": "100"},
                       HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response.json()["errors"] == [{"path": "base", "message": "unknown field 'base'"}]


def test_members_may_preview_but_outsiders_get_404(night, viewer, outsider):
    entry = {"events": [], "exhausted": True}
    assert preview(api_client(viewer), night, entry).status_code == 200
    assert preview(api_client(outsider), night, entry).status_code == 404
    assert Hand.objects.count() == 0


def test_a_dealer_given_by_the_client_is_recorded_as_an_override_in_the_audit(night, owner):
    entry = {"events": [win(None, w(2))], "exhausted": True}
    services.hand_record(night=night, by=owner, entry=entry)          # the night's own next dealer
    services.hand_record(night=night, by=owner, entry=entry, dealer=3)  # the table says seat 3 deals
    first, second = AuditEntry.objects.filter(action=AuditEntry.Action.HAND_RECORDED).order_by("id")
    assert "dealer_override" not in first.after
    assert second.after["dealer_override"] == {"computed": 2, "given": 3}
    assert night.hands.get(number=2).current.dealer == 3
