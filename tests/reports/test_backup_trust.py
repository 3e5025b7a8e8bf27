"""Forged backups (issue 16, item 4): only this server's signed exports are trusted as they are; a backup without
a valid signature is imported over the API by staff only, and names no other existing account; every value of any
backup is checked as the API checks it, refused with a path and a message, nothing written."""
import copy
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from ledger.services import nights as services
from ledger.management.commands.demo import DEMO_HANDS
from ledger.models import AuditEntry, Hand, HandRevision, Night, Player, SeatResult, Seating
from ledger.reports.backup import BackupError, _digest, export_night, import_night, signed_here

from tests.conftest import api_client
from tests.report_helpers import unsigned

User = get_user_model()


@pytest.fixture
def played(night, owner, keeper):
    for entry in DEMO_HANDS[:4]:
        services.hand_record(night=night, by=owner, entry=entry)
    services.hand_void(hand=night.hands.get(number=3), by=owner, reason="undo")
    return night


@pytest.fixture
def staff(db):
    return User.objects.create_user("admin", password="pw-admin", is_staff=True)


def forged(doc, edit):
    doc = copy.deepcopy(doc)
    doc["night"]["uuid"] = "00000000-0000-4000-8000-00000000abcd"  # a night not here yet
    edit(doc)
    return unsigned(doc)


def counts():
    return (Night.objects.count(), Hand.objects.count(), HandRevision.objects.count(), AuditEntry.objects.count(),
            User.objects.count(), Player.objects.count(), SeatResult.objects.count())


def empty_the_database_but(*keep):
    """Remove every night and account (the backup's own), as on a fresh server; keep (recreate) some accounts."""
    call_command("flush", interactive=False, verbosity=0)
    for name in keep:
        User.objects.create_user(name, password="pw", is_staff=name == "admin")
    return [User.objects.get(username=name) for name in keep]


# ---- signatures --------------------------------------------------------------------------------------------------

def test_an_export_is_signed_by_this_server_and_an_edit_loses_the_signature(played, settings):
    doc = export_night(played)
    assert doc["signature"].startswith("hmac-sha256:") and signed_here(doc)
    edited = copy.deepcopy(doc)
    edited["night"]["title"] = "改过"
    assert not signed_here(edited)
    old_key = settings.SECRET_KEY
    settings.SECRET_KEY = "another server's key, long enough to be a key of its own"
    assert not signed_here(doc)  # another server's export is not this server's
    settings.SECRET_KEY_FALLBACKS = [old_key]  # this server's, after its key was rotated
    assert signed_here(doc)


@pytest.mark.django_db(transaction=True)
def test_a_signed_export_round_trips_through_the_api_for_its_owner(played):
    doc = json.loads(json.dumps(export_night(played)))
    [owner] = empty_the_database_but("owner")
    response = api_client(owner).post("/api/nights/import/", doc, format="json")
    assert response.status_code == 201, response.content
    assert sorted(response.json()["new_users"]) == ["keeper", "viewer"]
    assert export_night(Night.objects.get()) == doc


def test_a_signed_export_tampered_with_and_its_digest_recomputed_is_refused_for_its_owner(played, owner):
    doc = export_night(played)
    doc["night"]["uuid"] = "00000000-0000-4000-8000-00000000abcd"
    doc["hands"][0]["recorded_by"] = "viewer"
    body = {k: v for k, v in doc.items() if k != "digest"}  # the signature kept, the digest made to match
    doc = {**body, "digest": _digest(body)}
    before = counts()
    response = api_client(owner).post("/api/nights/import/", doc, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 403
    [error] = response.json()["errors"]
    assert error["path"] == "signature" and "signature" in error["message"] and "staff" in error["message"]
    assert counts() == before


def test_a_signed_export_changed_without_its_digest_is_refused_as_changed(played, owner):
    doc = export_night(played)
    doc["hands"][0]["revisions"][0]["result"]["net"][0] = "1000"
    response = api_client(owner).post("/api/nights/import/", doc, format="json")
    assert response.status_code == 400 and "校验值" in response.json()["errors"][0]["message"]


def test_an_unsigned_backup_naming_its_importer_as_owner_is_refused_to_an_ordinary_account(played, viewer):
    """The forgery of the issue: any account imports a backup that names itself owner."""
    doc = forged(export_night(played), lambda d: d["night"].update(owner="viewer"))
    before = counts()
    response = api_client(viewer).post("/api/nights/import/", doc, format="json")
    assert response.status_code == 403 and response.json()["errors"][0]["path"] == "signature"
    assert counts() == before


@pytest.mark.django_db(transaction=True)
def test_an_older_backup_still_imports_for_staff_and_at_the_command_line(played, tmp_path):
    doc = unsigned(export_night(played))  # as exported before backups were signed
    [staff] = empty_the_database_but("admin")
    response = api_client(staff).post("/api/nights/import/", doc, format="json")
    assert response.status_code == 201, response.content
    assert sorted(response.json()["new_users"]) == ["keeper", "owner", "viewer"]
    empty_the_database_but()
    path = tmp_path / "old.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    call_command("import_night", str(path))
    assert Night.objects.get().hands.count() == 4


def test_an_unsigned_backup_cannot_put_hands_under_another_existing_account_even_for_staff(played, staff, outsider):
    doc = forged(export_night(played), lambda d: d["hands"][1].update(recorded_by="outsider"))
    before = counts()
    response = api_client(staff).post("/api/nights/import/", doc, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 403
    [error] = response.json()["errors"]
    assert error["path"] == "night.owner" and "outsider" in error["message"] and "import_night" in error["message"]
    assert counts() == before
    # The operator may (the command line is the server's own).
    assert import_night(doc).created


def test_an_api_import_creates_no_more_accounts_than_a_visitor_may_sign_up(played, staff):
    names = [f"made{i:02}" for i in range(30)]
    doc = forged(export_night(played), lambda d: d["night"].update(owner="admin", members=names, scorekeepers=[]))
    doc = forged(doc, lambda d: [h.update(recorded_by="admin") or [r.update(created_by="admin") for r in h["revisions"]]
                                 for h in d["hands"]] and [e.update(actor="admin") for e in d["audit"]])
    before = counts()
    response = api_client(staff).post("/api/nights/import/", doc, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 403, response.content
    [error] = response.json()["errors"]
    assert error["path"] == "night.members[10]" and "30" in error["message"] and "10" in error["message"]
    assert counts() == before
    ten = forged(doc, lambda d: d["night"].update(members=names[:10]))
    assert api_client(staff).post("/api/nights/import/", ten, format="json").status_code == 201


# ---- every value checked ----------------------------------------------------------------------------------------

def _set(path, value):
    def edit(doc):
        *parents, last = path
        target = doc
        for key in parents:
            target = target[key]
        target[last] = value
    return edit


FORGERIES = [
    # (what, the edit, the path of the refusal, a word of the message in English)
    ("an empty username", _set(("night", "members"), [""]), "night.members[0]", "empty"),
    ("a username no account may have", _set(("night", "owner"), "a b/c"), "night.owner", "username"),
    ("a hand status hacked", _set(("hands", 0, "status"), "hacked"), "hands[0].status", "recorded, voided"),
    ("first_dealer 9", _set(("night", "first_dealer"), 9), "night.first_dealer", "0 and 3"),
    ("first_dealer true", _set(("night", "first_dealer"), True), "night.first_dealer", "integer"),
    ("rules no hand can be recorded with", _set(("night", "rules", "no_such_option"), 1),
     "night.rules.no_such_option", "no_such_option"),
    ("rules the PDF cannot show", _set(("night", "rules", "dealer_when_no_winner"), ["x"]),
     "night.rules.dealer_when_no_winner", ""),
    ("rules that are not an object", _set(("night", "rules"), ["max_fan"]), "night.rules", "object"),
    ("a rule value the engine would not write", _set(("night", "rules", "max_fan"), 4.0), "night.rules.max_fan", ""),
    ("a stake of 1e9", _set(("night", "base"), "1e9"), "night.base", "decimal"),
    ("a negative stake", _set(("night", "base"), "-2"), "night.base", "decimal"),
    ("a stake of gold", _set(("night", "stake"), "gold"), "night.stake", "money, points"),
    ("a title of 200 characters", _set(("night", "title"), "长" * 200), "night.title", "80"),
    ("a title reversed by U+202E", _set(("night", "title"), "周五\u202e夜"), "night.title", "invisible"),
    ("an empty title", _set(("night", "title"), ""), "night.title", "empty"),
    ("a venue with a zero-width joiner", _set(("night", "venue"), "茶\u200d馆"), "night.venue", "invisible"),
    ("a player name with a control character", _set(("players", 0), "张\x07三"), "players[0]", "invisible"),
    ("a seat naming no player", _set(("seating", 2), "无名"), "seating[2]", "players"),
    ("a hand number 0", _set(("hands", 0, "number"), 0), "hands[0].number", "1"),
    ("a hand number repeated", _set(("hands", 1, "number"), 1), "hands[1].number", "2"),
    ("a hand number too big for the column", _set(("hands", 1, "number"), 10**20), "hands[1].number", "2"),
    ("a version that is not the first", _set(("hands", 0, "revisions", 0, "version"), 2),
     "hands[0].revisions[0].version", "1"),
    ("no current revision", _set(("hands", 0, "revisions", 0, "is_current"), False),
     "hands[0].revisions[0].is_current", "true"),
    ("a dealer in seat 7", _set(("hands", 0, "revisions", 0, "dealer"), 7), "hands[0].revisions[0].dealer", "3"),
    ("three players at a hand", _set(("hands", 0, "revisions", 0, "players"), ["张三", "李四", "王五"]),
     "hands[0].revisions[0].players", "expected 4 seats"),
    ("a void reason of 500 characters", _set(("hands", 2, "void_reason"), "x" * 500), "hands[2].void_reason", "200"),
    ("a time that is not a time", _set(("hands", 0, "recorded_at"), "yesterday"), "hands[0].recorded_at", "ISO"),
    ("an audit action rm", _set(("audit", 0, "action"), "rm -rf"), "audit[0].action", "night_created"),
    ("an audit entry of a hand that is not there", _set(("audit", 1, "hand"), 99), "audit[1].hand", "99"),
    ("a table number without an evening", _set(("night", "table_no"), 3), "night.table_no", "evening"),
    ("51 members", _set(("night", "members"), [f"u{i}" for i in range(51)]), "night.members", "50"),
    ("a fee of -5", _set(("night", "fee"), {"mode": "per_player", "amount": "-5"}), "night.fee.amount", ""),
    ("a date of 2026-13-45", _set(("night", "date"), "2026-13-45"), "night.date", "YYYY-MM-DD"),
    ("is_closed as text", _set(("night", "is_closed"), "yes"), "night.is_closed", "true"),
]


@pytest.mark.parametrize("what,edit,path,word", FORGERIES, ids=[f[0] for f in FORGERIES])
def test_each_forged_value_is_refused_with_its_path_and_nothing_is_written(played, staff, what, edit, path, word):
    doc = forged(export_night(played), edit)
    before = counts()
    from django.utils import translation
    with translation.override("en"), pytest.raises(BackupError) as refused:
        import_night(doc)  # the operator's import: checked all the same
    errors = refused.value.errors
    assert path in [e["path"] for e in errors], errors
    message = next(e["message"] for e in errors if e["path"] == path)
    assert word in message and message, errors
    assert counts() == before
    response = api_client(staff).post("/api/nights/import/", doc, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400, response.content
    assert path in [e["path"] for e in response.json()["errors"]]
    assert counts() == before


def test_refused_backups_reach_neither_the_database_nor_the_error_log(played, staff, caplog):
    for _what, edit, _path, _word in FORGERIES:
        response = api_client(staff).post("/api/nights/import/", forged(export_night(played), edit), format="json")
        assert response.status_code == 400
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


def test_the_command_line_names_the_path_of_what_it_refuses(played, tmp_path):
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged(export_night(played), _set(("hands", 0, "status"), "hacked"))), encoding="utf-8")
    with pytest.raises(CommandError, match=r"hands\[0\]\.status"):
        call_command("import_night", str(path))
