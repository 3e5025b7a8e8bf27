"""The rules of issue 7 through the API: the calculator, the night's preview and recording all refuse what
the engine refuses, with the field's path, in both languages, and recording then stores nothing."""
import json

import pytest

from ledger.models import AuditEntry, Hand, HandRevision, SeatResult
from scoring import score_hand

from tests.conftest import api_client
from tests.hand_helpers import kong, w, win


def rob(robbed, *winners):
    return win(robbed, *[dict(x, flags=x["flags"] + ["qiang_gang_hu"]) for x in winners])


# (what, the entry, the path of the refusal): each a hand that cannot happen at a table.
REFUSED = [
    ("an empty hand", {"events": []}, "exhausted"),
    ("fewer than three winners and no exhausted", {"events": [win(2, w(1)), win(None, w(0))]}, "exhausted"),
    ("a robbed concealed kong", {"events": [kong(2, "concealed"), rob(2, w(1))], "exhausted": True}, "events[0].kind"),
    ("a robbed direct kong under robbable_kongs added",
     {"events": [kong(2, "direct", 3), rob(2, w(1))], "exhausted": True}, "events[0].kind"),
    ("qiang_gang_hu on one of two winners of a tile",
     {"events": [kong(2, "added"), win(2, w(1, flags=["qiang_gang_hu"]), w(3))], "exhausted": True},
     "events[1].winners"),
    ("qiang_gang_hu with gang_shang_pao",
     {"events": [kong(2, "added"), win(2, w(1, flags=["qiang_gang_hu", "gang_shang_pao"]))], "exhausted": True},
     "events[1].winners[0].flags[1]"),
    ("roots below the winner's own kongs",
     {"events": [kong(1, "concealed", tile="9p"), win(None, w(1, "ping_hu", 0))], "exhausted": True},
     "events[1].winners[0].roots"),
    ("the winner's named kong missing from the melds",
     {"events": [kong(1, "concealed", tile="5p"), win(None, {"player": 1, "tiles": "11122233355m", "melds": ["7777s"]})],
      "exhausted": True}, "events[1].winners[0].melds"),
    ("a kong's tiles counted against another hand",
     {"events": [kong(2, "concealed", tile="5m"), win(None, {"player": 1, "tiles": "11122233355m", "melds": ["7777s"]})],
      "exhausted": True}, "events[1].winners[0].tiles"),
]


def post(client, url, body, lang):
    return client.post(url, json.dumps(body), content_type="application/json", HTTP_ACCEPT_LANGUAGE=lang)


def stored():
    return (Hand.objects.count(), HandRevision.objects.count(), SeatResult.objects.count(), AuditEntry.objects.count())


@pytest.mark.parametrize("what, entry, path", REFUSED, ids=[r[0] for r in REFUSED])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_calculator_the_preview_and_recording_refuse_it_with_the_path(night, keeper, what, entry, path, lang):
    client = api_client(keeper)
    before = stored()
    calculator = post(api_client(), "/api/score/", {"base": "2", **entry}, lang)
    preview = post(client, f"/api/nights/{night.pk}/preview/", entry, lang)
    recording = post(client, f"/api/nights/{night.pk}/hands/", entry, lang)
    # The preview answers a hand that is only not over yet with 200 (what is missing, and the payments so far).
    unfinished = preview.json().get("so_far") is not None
    assert preview.status_code == (200 if unfinished else 400), (what, preview.json())
    for response in (calculator, preview, recording):
        assert response.status_code == 400 or response is preview, (what, response.json())
        errors = response.json()["errors"]
        assert path in [e["path"] for e in errors], (what, errors)
        message = next(e["message"] for e in errors if e["path"] == path)
        assert (any("\u4e00" <= c <= "\u9fff" for c in message) if lang == "zh" else message.isascii()), message
    # The same errors; the preview's carry their codes too (the table reads them: scoring.preview).
    assert calculator.json()["errors"] == recording.json()["errors"] == [
        {"path": e["path"], "message": e["message"]} for e in preview.json()["errors"]]
    assert all(e["code"] for e in preview.json()["errors"])
    assert stored() == before


def test_a_robbed_added_kong_recorded_through_the_api_pays_no_kong(night, keeper):
    entry = {"events": [kong(2, "added", tile="4s"), rob(2, w(1, "dui_dui_hu"))], "exhausted": True}
    response = post(api_client(keeper), f"/api/nights/{night.pk}/hands/", entry, "en")
    assert response.status_code == 201
    result = response.json()["result"]
    # 王五's 补杠 is robbed by 李四 (对对胡, 1 fan, x2 at base 2): 王五 pays 4 and collects nothing.
    assert result["payments"] == [{"event": 1, "from": 2, "to": 1, "amount": "4", "reason": "discard"}]
    assert result["net"] == ["0", "4", "-4", "0"]
    assert result == score_hand({"base": "2", "rules": night.rules, "dealer": 0, **entry}).as_dict()


def test_robbable_kongs_takes_only_its_two_spellings_through_the_api(db):
    kongs = {"events": [kong(2, "direct", 3), rob(2, w(1))], "exhausted": True}
    assert post(api_client(), "/api/score/", {**kongs, "rules": {"robbable_kongs": "added_direct"}}, "en").status_code == 200
    refused = post(api_client(), "/api/score/", {**kongs, "rules": {"robbable_kongs": "added+direct"}}, "en")
    assert refused.status_code == 400
    # Every problem is listed: the spelling, and the direct kong the default rules then cannot let be robbed.
    assert [e["path"] for e in refused.json()["errors"]] == ["rules.robbable_kongs", "events[0].kind"]


def test_the_table_pages_partial_preview_answers_an_entry_with_errors_with_200(night, keeper):
    """?partial=1 (the table page asks at every tap): the same errors document, with its choices, as a 200."""
    client = api_client(keeper)
    entry = {"events": [{"type": "win", "winners": [{"player": 1, "pattern": "ping_hu"}]}], "exhausted": True}
    plain = post(client, f"/api/nights/{night.pk}/preview/", entry, "zh")
    partial = post(client, f"/api/nights/{night.pk}/preview/?partial=1", entry, "zh")
    assert plain.status_code == 400 and partial.status_code == 200
    assert partial.json() == plain.json() and partial.json()["errors"] and "choices" in partial.json()
