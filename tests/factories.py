"""Plain builders the tests share: signed-in clients for pages and the API, JSON posts, the CLI, migrations."""
import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from rest_framework.test import APIClient

ROOT = Path(__file__).resolve().parent.parent
#: A demo database made by the code of before groups (tests/migrations/test_migration_demo_copy.py says how).
COPY = ROOT / "tests" / "data" / "demo_before_groups.sqlite3.gz"


def api_client(user=None):
    """An API client, authenticated as `user` (or anonymous)."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def page_client(user=None, lang=None):
    """A browser-like client signed in as `user` (or signed out), asking for `lang` by the language cookie."""
    client = Client()
    if user is not None:
        client.force_login(user)
    if lang:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client


def post_json(client, url, body=None, **headers):
    """POST `body` as JSON ({} when none); bytes or text are sent as they are, for bodies that are not JSON."""
    data = body if isinstance(body, (bytes, str)) else json.dumps(body if body is not None else {})
    return client.post(url, data, content_type="application/json", **headers)


def run_cli(*args, stdin=None):
    """`manage.py score_hand` with these arguments, in a process of its own."""
    return subprocess.run([sys.executable, "manage.py", "score_hand", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=60)


def migrate(targets):
    """Migrate the test database to `targets`; the apps as they were there (for historical models)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def fee_shares(night, shares):
    """Write fee shares ({player: amount}) of a night as a close does (`FeeShare` rows, then the night's standings
    recomputed, as services.night_close does after writing them), without closing it."""
    from ledger.models import FeeShare
    from ledger.services import standings
    FeeShare.objects.bulk_create(FeeShare(night=night, player=p, amount=amount) for p, amount in shares.items())
    standings.refresh([night.pk])


def run_manage(database: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "SECRET_KEY_FILE": str(database.parent / "secret"),
           "DJANGO_SETTINGS_MODULE": "ledger.settings"}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


def manage(database: Path, *args: str) -> str:
    done = run_manage(database, *args)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def stored_payments(revisions=None):
    """(payer, payee, amount) of every payment the stored revisions' results hold (all, or those of the queryset
    `revisions`), by the players of each revision's seats: the ledger keeps payments in the results (migration
    0020)."""
    from decimal import Decimal

    from ledger.models import HandRevision
    revisions = HandRevision.objects.all() if revisions is None else revisions
    for revision in revisions.select_related("player_0", "player_1", "player_2", "player_3").order_by("pk"):
        players = revision.players
        for p in revision.result["payments"]:
            yield players[p["from"]], players[p["to"]], Decimal(p["amount"])
