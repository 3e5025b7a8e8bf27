"""Counters shared by every worker, each step one atomic operation: what every rate limit counts with (issue 16).

A limit that reads a count and then writes it back lets parallel requests all read the same count (40 wrong
passwords at once were all checked). Here an increment and its answer are one step of the shared store:

- with ``REDIS_URL``: ``INCR`` and ``EXPIRE`` in one ``MULTI`` (the keys under ``REDIS_PREFIX:counter:``);
- else the database: one ``INSERT … ON CONFLICT (key) DO UPDATE … RETURNING count`` on `RateCounter`
  (SQLite 3.35+ and PostgreSQL), which restarts a count whose time is up.

`hit` counts one and returns the count. A count lasts `seconds` from its first hit (fixed windows), or from its
latest hit when `sliding` (a lockout that lasts until that long passes without a new failure). Expired rows are
deleted when a new count starts, so the table holds about one row per live key.
"""
from __future__ import annotations

import functools
import time
from typing import Any

from django.conf import settings
from django.db import connections, models, router

#: A key is at most this long (callers hash what a client chooses, e.g. a username).
MAX_KEY_LENGTH = 200


class RateCounter(models.Model):
    """One live count of a rate limit (the database store of `hit`)."""

    key = models.CharField(max_length=MAX_KEY_LENGTH, unique=True)
    count = models.IntegerField()
    expires_at = models.FloatField(db_index=True, help_text="Seconds since the epoch (time.time()).")

    class Meta:
        app_label = "ledger"

    def __str__(self) -> str:
        return f"{self.key} {self.count}"


@functools.cache
def _redis(url: str) -> Any:
    import redis  # installed with channels-redis
    return redis.Redis.from_url(url)


def _redis_key(key: str) -> str:
    return f"{settings.REDIS_PREFIX}:counter:{key}"


def _table() -> tuple[Any, str]:
    connection = connections[router.db_for_write(RateCounter)]
    return connection, connection.ops.quote_name(RateCounter._meta.db_table)


def hit(key: str, seconds: int, *, sliding: bool = False) -> int:
    """Count one for `key` and return its count, in one atomic step of the shared store."""
    key = key[:MAX_KEY_LENGTH]
    if settings.REDIS_URL:
        pipe = _redis(settings.REDIS_URL).pipeline(transaction=True)
        pipe.incr(_redis_key(key))
        if sliding:
            pipe.expire(_redis_key(key), seconds)
        else:
            pipe.expire(_redis_key(key), seconds, nx=True)
        return int(pipe.execute()[0])
    now = time.time()
    connection, table = _table()
    expiry = "excluded.expires_at" if sliding else f"CASE WHEN {table}.expires_at <= %s THEN excluded.expires_at " \
                                                    f"ELSE {table}.expires_at END"
    sql = (f'INSERT INTO {table} ("key", "count", expires_at) VALUES (%s, 1, %s) ON CONFLICT ("key") DO UPDATE SET '
           
           f'"count" = CASE WHEN {table}.expires_at <= %s THEN 1 ELSE {table}."count" + 1 END, expires_at = {expiry} '
           f'RETURNING "count"')
    params = [key, now + seconds, now] + ([] if sliding else [now])
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        count = int(cursor.fetchone()[0])
        if count == 1:  # a new count: the right moment to forget the ones whose time is up
            cursor.execute(f"DELETE FROM {table} WHERE expires_at <= %s", [now])
    return count


def get(key: str) -> int:
    """The key's count now (0 when it has none or its time is up)."""
    key = key[:MAX_KEY_LENGTH]
    if settings.REDIS_URL:
        return int(_redis(settings.REDIS_URL).get(_redis_key(key)) or 0)
    connection, table = _table()
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT "count" FROM {table} WHERE "key" = %s AND expires_at > %s', [key, time.time()])
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def take_back(key: str) -> None:
    """Undo one `hit` of the key (an attempt that turned out not to count), if its count is still there."""
    key = key[:MAX_KEY_LENGTH]
    if settings.REDIS_URL:
        _redis(settings.REDIS_URL).eval(_TAKE_BACK, 1, _redis_key(key))
        return
    connection, table = _table()
    with connection.cursor() as cursor:
        cursor.execute(f'UPDATE {table} SET "count" = "count" - 1 WHERE "key" = %s AND "count" > 0', [key])


#: DECR only a key that exists (a plain DECR of an expired key would make a count of -1 that never expires).
_TAKE_BACK = "if redis.call('exists', KEYS[1]) == 1 then return redis.call('decr', KEYS[1]) end return 0"


def reset(key: str) -> None:
    """Forget the key's count."""
    key = key[:MAX_KEY_LENGTH]
    if settings.REDIS_URL:
        _redis(settings.REDIS_URL).delete(_redis_key(key))
        return
    RateCounter.objects.filter(key=key).delete()


def reset_all() -> None:
    """Forget every count (tests, and an operator lifting every limit at once)."""
    if settings.REDIS_URL:
        client = _redis(settings.REDIS_URL)
        for name in client.scan_iter(match=_redis_key("*"), count=500):
            client.delete(name)
        return
    RateCounter.objects.all().delete()
