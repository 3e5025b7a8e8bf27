"""The audit trail in words (ledger.presenters.audit): times as every page shows them, and a smaller table's hands
with their dealer and nets (they were said only at four seats)."""
from ledger.models import AuditEntry
from ledger.presenters.audit import entry_change
from ledger.services import nights as services

from tests.conftest import api_client
from tests.factories import post_json
from tests.hand_helpers import w, win


def test_a_close_time_is_local_to_the_minute_not_utc_text(recorded, owner, settings):
    settings.TIME_ZONE = "Asia/Shanghai"
    services.night_close(night=recorded, by=owner)
    entry = AuditEntry.objects.get(night=recorded, action=AuditEntry.Action.NIGHT_CLOSED)
    line = next(text for text in entry_change(entry)["after"] if text.startswith("结束时间"))
    stored = entry.after["closed_at"]
    assert "+00:00" in stored and "T" not in line and "+00:00" not in line
    from django.utils import timezone
    from django.utils.dateparse import parse_datetime
    assert line == "结束时间：" + timezone.localtime(parse_datetime(stored)).strftime("%Y-%m-%d %H:%M")


def test_a_three_player_hand_in_the_trail_says_its_dealer_and_nets(owner):
    client = api_client(owner)
    made = post_json(client, "/api/nights/", {"title": "三人", "date": "2026-12-05", "base": "1",
                                               "players": ["甲", "乙", "丙"], "rules": {"players": 3}})
    pk = made.json()["id"]
    assert post_json(client, f"/api/nights/{pk}/hands/", {"events": [win(None, w(1)), win(0, w(2))]}).status_code == 201
    entry = AuditEntry.objects.get(night_id=pk, action=AuditEntry.Action.HAND_RECORDED)
    lines = entry_change(entry)["after"]
    assert "庄：甲" in lines and "甲 -2  乙 +2  丙 0" in lines, lines
