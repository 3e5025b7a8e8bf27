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


def test_a_link_turned_on_or_off_is_titled_so_in_the_trail_and_its_entry_not_as_a_member_change(recorded, owner,
                                                                                                 client):
    """A walk read 成员变动 (members changed) for the view link turned on."""
    from ledger.models import NightLink
    from ledger.services import sharing
    sharing.link_renew(night=recorded, by=owner, kind=NightLink.Kind.VIEW)
    sharing.link_turn_off(night=recorded, by=owner, kind=NightLink.Kind.VIEW)
    client.force_login(owner)
    page = client.get(f"/nights/{recorded.pk}/audit/").content.decode()
    assert "<strong>查看链接已打开</strong>" in page and "<strong>查看链接已关闭</strong>" in page
    assert "<strong>成员变动</strong>" not in page
    off = AuditEntry.objects.filter(night=recorded, action=AuditEntry.Action.MEMBER_CHANGED).latest("id")
    entry = client.get(f"/nights/{recorded.pk}/audit/{off.pk}/").content.decode()
    assert "<strong>查看链接已关闭</strong>" in entry
    client.cookies["django_language"] = "en"
    assert "<strong>View link turned on</strong>" in client.get(f"/nights/{recorded.pk}/audit/").content.decode()
