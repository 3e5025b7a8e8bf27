"""Exactly-once API writes: the ``Idempotency-Key`` header (issue 9).

A client sends a fresh key with each write and the same key when it retries.  The first request
with a key inserts an :class:`IdempotencyRecord` row *in the same transaction as the write* and
stores its response there; a repeat (same user, same key) answers that stored response and writes
nothing.  Concurrent repeats are serialised by the database: the second INSERT of the same
(user, key) waits on the unique index until the first transaction ends, then finds the committed
row (or, if the first rolled back, goes ahead itself).  A key reused for another request (other
endpoint or other body) is refused with 422 and the errors document.

Only successful (2xx) responses are stored: a refused request rolls back with its key, so the
client may correct the body and send it again with the same key.
"""
from __future__ import annotations

import functools
import hashlib
import json
from typing import Any, Callable

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext as _, gettext_lazy
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.response import Response

from ledger.web.users import signed_in

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 100


class IdempotencyRecord(models.Model):
    """One write done with an Idempotency-Key, and the response it got."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=MAX_KEY_LENGTH)
    endpoint = models.CharField(max_length=200, help_text="Method and path, e.g. 'POST /api/nights/3/hands/'.")
    request_hash = models.CharField(max_length=64, help_text="SHA-256 of the canonical JSON body.")
    status_code = models.PositiveSmallIntegerField(null=True)
    response = models.JSONField(null=True, encoder=DjangoJSONEncoder)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "ledger"
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_unique_per_user")]
        verbose_name = gettext_lazy("幂等键")
        verbose_name_plural = gettext_lazy("幂等键")

    def __str__(self) -> str:
        return f"{self.user_id} {self.key} {self.endpoint}"


class KeyReused(APIException):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_code = "idempotency_key_reused"

    def __init__(self) -> None:
        super().__init__(_("这个 Idempotency-Key 已用于另一个请求"))


class BadKey(APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "bad_idempotency_key"

    def __init__(self) -> None:
        super().__init__(_("Idempotency-Key 应为 1–100 个可见 ASCII 字符"))


def request_hash(request: Request) -> str:
    """SHA-256 of the body as canonical JSON (key order and spacing do not matter).

    The body must have been parsed (`request.data`) without error: the parsers give JSON values only.
    """
    canonical = json.dumps(request.data, sort_keys=True, ensure_ascii=True, separators=(",", ":"),
                           cls=DjangoJSONEncoder).encode()
    return hashlib.sha256(canonical).hexdigest()


def _valid_key(key: str) -> bool:
    return 0 < len(key) <= MAX_KEY_LENGTH and all(33 <= ord(c) <= 126 for c in key)


ViewMethod = Callable[..., Response]

class _Repeat(Exception):
    """The user's key has a row already: the claiming transaction is rolled back and the row read."""


def idempotent(method: ViewMethod) -> ViewMethod:
    """Make an API write view method atomic and honour the Idempotency-Key header (see the module's docstring)."""

    @functools.wraps(method)
    def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        # Parse the body first, whatever the view reads of it: a body that cannot be parsed is refused (400, 413,
        # 415) before any key is claimed or anything written. DRF keeps empty data after a parse error, which a
        # later read (the key's hash, the view) would take for an empty body.
        request.data  # noqa: B018  (raises the parse error)
        key = request.headers.get(HEADER)
        if key is None:
            with transaction.atomic():  # a write is all or nothing, key or not
                return method(self, request, *args, **kwargs)
        if not _valid_key(key):
            raise BadKey()
        endpoint = f"{request.method} {request.path}"[:200]
        digest = request_hash(request)
        user = signed_in(request)  # writes require an account (IsAuthenticated ran before the view)
        try:
            with transaction.atomic():
                # The key's row first, in the write's transaction (no savepoint): a repeat's INSERT waits on the
                # unique index for the first request's transaction, then fails if that one committed.
                try:
                    claimed = IdempotencyRecord.objects.create(user=user, key=key, endpoint=endpoint,
                                                               request_hash=digest)
                except IntegrityError as error:
                    raise _Repeat() from error  # leaves the atomic block: nothing else was written
                response = method(self, request, *args, **kwargs)
                if not 200 <= response.status_code < 300:
                    transaction.set_rollback(True)
                    return response
                claimed.status_code, claimed.response = response.status_code, response.data
                claimed.save(update_fields=["status_code", "response"])
                return response
        except _Repeat:
            record = IdempotencyRecord.objects.get(user=user, key=key)
            if record.endpoint != endpoint or record.request_hash != digest or record.status_code is None:
                raise KeyReused() from None
            return Response(record.response, status=record.status_code, headers={"Idempotent-Replayed": "true"})

    return wrapper
