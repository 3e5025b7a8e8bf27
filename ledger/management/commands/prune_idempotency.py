"""Forget Idempotency-Keys older than a retention period (30 days by default), so the table does not grow forever.

A client retrying after that long would write again: 30 days is far beyond any phone's offline draft at the
table (a night, a weekend away). Run it daily, e.g. from cron: `manage.py prune_idempotency`.
"""
from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from ledger.web.idempotency import IdempotencyRecord


class Command(BaseCommand):
    help = "Delete Idempotency-Key records older than --days (default 30)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=30, help="Keep keys this many days (at least 1).")

    def handle(self, *args: Any, **options: Any) -> None:
        days = max(1, options["days"])
        cutoff = timezone.now() - dt.timedelta(days=days)
        deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()
        self.stdout.write(f"{deleted} idempotency keys older than {days} days deleted")
