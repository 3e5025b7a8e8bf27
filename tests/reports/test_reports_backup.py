"""The JSON backup: export, restore into an empty database, idempotence, and refusal of tampered files."""
import copy
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import translation

from ledger.services import nights as services
from ledger.management.commands.demo import DEMO_HANDS
from ledger.models import AuditEntry, Hand, HandRevision, Night
from ledger.reports import night_report, render
from ledger.selectors.nights import night_totals
from ledger.reports.backup import BackupError, _digest, export_night, import_night


@pytest.fixture
def played(night, owner, keeper):
    for entry in DEMO_HANDS[:6]:
        services.hand_record(night=night, by=owner, entry=entry)
    services.hand_correct(hand=night.hands.get(number=2), by=keeper, entry=DEMO_HANDS[1], reason="补记")
    services.hand_void(hand=night.hands.get(number=4), by=owner, reason="undo")
    return services.night_close(night=night, by=owner)


def resigned(doc):
    """A backup edited by hand with its digest recomputed (as a determined editor would)."""
    body = {k: v for k, v in doc.items() if k != "digest"}
    return {**body, "digest": _digest(body)}


def test_the_backup_holds_players_rules_every_revision_voids_and_the_audit_trail(played):
    doc = export_night(played)
    assert doc["format"] == "chengdu-mahjong-ledger/night" and doc["night"]["uuid"] == str(played.uuid)
    assert doc["players"] == sorted(["张三", "李四", "王五", "赵六"]) and doc["night"]["rules"] == played.rules
    assert [len(h["revisions"]) for h in doc["hands"]] == [1, 2, 1, 1, 1, 1]
    assert doc["hands"][3]["status"] == "voided" and doc["hands"][3]["void_reason"] == "undo"
    assert [e["action"] for e in doc["audit"]][-3:] == ["hand_corrected", "hand_voided", "night_closed"]
    assert doc["night"]["members"] == ["viewer"] and doc["night"]["scorekeepers"] == ["keeper"]


@pytest.mark.django_db(transaction=True)
def test_export_then_import_into_an_empty_database_then_export_gives_the_same_document(played):
    first = render("json", night_report(played), "zh")[2]
    totals = [(t.player.name, t.amount) for t in night_totals(played)]
    call_command("flush", interactive=False, verbosity=0)
    assert not Night.objects.exists() and not get_user_model().objects.exists()
    restored = import_night(json.loads(first))
    assert restored.created and restored.new_users == ["keeper", "owner", "viewer"]
    assert not any(u.has_usable_password() for u in get_user_model().objects.all())
    again = render("json", night_report(restored.night), "zh")[2]
    assert again == first
    # The restored night counts: its running totals are the original's (stored nets restored too).
    assert [(t.player.name, t.amount) for t in night_totals(restored.night)] == totals
    assert sum(len(r.result["payments"]) for r in HandRevision.objects.filter(hand__night=restored.night)) == sum(
        len(r["result"]["payments"]) for h in json.loads(first)["hands"] for r in h["revisions"])
    # Its night standings (what statistics add up) are those of its rows, and hold its hands.
    from ledger.services import standings
    assert standings.differences([restored.night.pk]) == []
    assert sum(line[0] for line in standings.kept([restored.night.pk]).values()) > 0


def test_importing_the_same_backup_twice_changes_nothing(played):
    doc = export_night(played)
    counts = (Night.objects.count(), Hand.objects.count(), HandRevision.objects.count(), AuditEntry.objects.count())
    restored = import_night(copy.deepcopy(doc))
    assert not restored.created and restored.night == played
    assert (Night.objects.count(), Hand.objects.count(), HandRevision.objects.count(),
            AuditEntry.objects.count()) == counts


def test_a_backup_changed_after_export_is_refused(played):
    doc = export_night(played)
    doc["hands"][0]["revisions"][0]["result"]["net"][0] = "1000"
    with pytest.raises(BackupError, match="校验值"):
        import_night(doc)


def test_records_that_do_not_rescore_to_their_results_are_refused_with_their_hand_numbers(played):
    doc = export_night(played)
    doc["night"]["uuid"] = "00000000-0000-4000-8000-000000000001"
    doc["hands"][1]["revisions"][1]["result"]["payments"][0]["amount"] = "999"
    first_win = next(e for e in doc["hands"][4]["revisions"][0]["record"]["events"] if e["type"] == "win")
    first_win["winners"][0]["pattern"] = "qing_yi_se"
    before = Night.objects.count()
    with pytest.raises(BackupError) as refused:
        import_night(resigned(doc))
    assert refused.value.hands == [2, 5] and "2, 5" in refused.value.problems[0]
    with translation.override("en"), pytest.raises(BackupError, match="do not re-score"):
        import_night(resigned(doc))
    assert Night.objects.count() == before


def test_a_different_night_under_the_same_identifier_is_not_overwritten(played):
    doc = export_night(played)
    doc["night"]["title"] = "改过的标题"
    with pytest.raises(BackupError, match="内容不同"):
        import_night(resigned(doc))
    played.refresh_from_db()
    assert played.title == "周五夜"


def test_a_file_that_is_not_a_backup_is_refused_with_a_reason(db):
    for doc in ([], {"format": "other"}, {"format": "chengdu-mahjong-ledger/night", "version": 1}):
        with pytest.raises(BackupError):
            import_night(doc)


def test_the_commands_export_and_import_a_night(played, tmp_path, capsys):
    path = tmp_path / "night.json"
    call_command("export_night", str(played.pk), "-o", str(path))
    assert json.loads(path.read_text(encoding="utf-8"))["night"]["title"] == "周五夜"
    call_command("import_night", str(path))
    assert "already here" in capsys.readouterr().out
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["hands"][0]["revisions"][0]["result"]["net"][0] = "1000"
    path.write_text(json.dumps(doc), encoding="utf-8")
    from django.core.management.base import CommandError
    with pytest.raises(CommandError, match="校验值"):
        call_command("import_night", str(path))


def test_the_report_command_writes_a_named_pdf(played, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    call_command("night_report", str(played.pk), "--format", "txt", "--lang", "en")
    text = (tmp_path / "2026-11-27-周五夜.txt").read_text(encoding="utf-8")
    assert "Fewest transfers" in text
    call_command("night_report", str(played.pk), "-o", str(tmp_path / "r.pdf"))
    assert (tmp_path / "r.pdf").read_bytes().startswith(b"%PDF-")
