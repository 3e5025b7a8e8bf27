"""On PostgreSQL the app binds parameters on the server and prepares a statement run often on one connection
(ledger/settings.py, PG_PREPARED; bench/README.md, stop 27), so the server plans it once."""
import pytest
from django.db import connection

from ledger.models import Player


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements are PostgreSQL's")
def test_a_statement_run_five_times_on_a_connection_is_prepared_by_the_server(db, settings):
    assert connection.settings_dict["OPTIONS"].get("server_side_binding") is True
    for name in ("甲", "乙", "丙", "丁", "戊", "己"):
        list(Player.objects.filter(name=name).values_list("pk", flat=True))
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("ledger_player" in sql and "$1" in sql for sql in prepared), prepared
