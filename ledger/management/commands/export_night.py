"""`manage.py export_night NIGHT_ID [-o FILE]`: the night's JSON backup (standard output by default)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.models import Night
from ledger.reports.backup import export_night


class Command(BaseCommand):
    help = "Print a night's JSON backup (players, rules, every hand and revision, voids, audit), or write it to -o FILE."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("night_id", type=int)
        parser.add_argument("-o", "--output", help="file to write instead of standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        night = Night.objects.filter(pk=options["night_id"]).first()
        if night is None:
            raise CommandError(f"no night {options['night_id']}")
        text = json.dumps(export_night(night), ensure_ascii=False, indent=1) + "\n"
        if options["output"]:
            Path(options["output"]).write_text(text, encoding="utf-8")
        else:
            self.stdout.write(text, ending="")
