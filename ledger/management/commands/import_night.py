"""`manage.py import_night FILE`: restore a night from its JSON backup ('-' reads standard input)."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.reports.backup import BackupError, import_night


class Command(BaseCommand):
    help = ("Restore a night from a backup made by export_night, in one transaction. Importing the same backup "
            "again changes nothing. Users named in it who do not exist are created without a usable password. "
            "The operator imports any backup (signed by this server or not, an older one); every value is checked.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            text = sys.stdin.read() if options["file"] == "-" else Path(options["file"]).read_text(encoding="utf-8-sig")
            doc = json.loads(text)
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read {options['file']}: {exc}") from exc
        try:
            restored = import_night(doc)
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        night = restored.night
        if not restored.created:
            self.stdout.write(f"night #{night.pk} ({night.uuid}) is already here, unchanged")
            return
        self.stdout.write(self.style.SUCCESS(f"restored night #{night.pk} {night.title} ({night.hands.count()} hands)"))
        if restored.new_users:
            self.stdout.write("created without a usable password (set one with manage.py changepassword NAME): "
                              + ", ".join(restored.new_users))
