"""Old Idempotency-Keys are forgotten by `manage.py prune_idempotency`; recent ones still protect retries."""
import datetime as dt
from io import StringIO

from django.core.management import call_command
from django.utils import timezone

from ledger.web.idempotency import IdempotencyRecord


def test_keys_older_than_the_retention_are_deleted_and_recent_ones_kept(owner):
    old = IdempotencyRecord.objects.create(user=owner, key="old", endpoint="POST /api/x/", request_hash="0" * 64)
    recent = IdempotencyRecord.objects.create(user=owner, key="new", endpoint="POST /api/x/", request_hash="0" * 64)
    IdempotencyRecord.objects.filter(pk=old.pk).update(created_at=timezone.now() - dt.timedelta(days=31))
    IdempotencyRecord.objects.filter(pk=recent.pk).update(created_at=timezone.now() - dt.timedelta(days=29))
    out = StringIO()
    call_command("prune_idempotency", stdout=out)
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["new"]
    assert out.getvalue().startswith("1 ")
    call_command("prune_idempotency", "--days", "1", stdout=StringIO())
    assert not IdempotencyRecord.objects.exists()
