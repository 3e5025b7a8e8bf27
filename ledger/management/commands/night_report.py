"""`manage.py night_report NIGHT_ID [-o FILE] [--lang zh|en] [--format pdf|png|txt|hands.csv|payments.csv]`."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.models import Night
from ledger.reports import FORMATS, night_report, render


class Command(BaseCommand):
    help = "Write a night's report (PDF by default) to a file named for the night, or to -o FILE ('-': stdout)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("night_id", type=int)
        parser.add_argument("-o", "--output", help="file to write (default: the report's own name, e.g. 2026-11-30-周五夜.pdf)")
        parser.add_argument("--lang", choices=["zh", "en"], default="zh")
        parser.add_argument("--format", choices=[f for f in FORMATS if f != "json"], default="pdf")

    def handle(self, *args: Any, **options: Any) -> None:
        night = Night.objects.filter(pk=options["night_id"]).first()
        if night is None:
            raise CommandError(f"no night {options['night_id']}")
        filename, _content_type, data = render(options["format"], night_report(night), options["lang"])
        if options["output"] == "-":
            out: Any = self.stdout  # a PDF or PNG is bytes: to the stream's buffer when it has one
            out.buffer.write(data) if hasattr(out, "buffer") else out.write(data.decode())
            return
        path = Path(options["output"] or filename)
        path.write_bytes(data)
        self.stderr.write(f"{path} ({len(data)} bytes)")
