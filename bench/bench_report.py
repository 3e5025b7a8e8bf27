"""Benchmark: the night report PDF against the floor of WeasyPrint rendering a bare table of the same rows.

Run:  .venv/bin/python bench/bench_report.py            # --hands 300 --growth 50,300,1000 --repeats 3 [--charts]

In one run, on one night of --hands hands: the report (context from the database, template, chart,
WeasyPrint) and, as the floor, WeasyPrint rendering a bare HTML table of the same rows (number,
dealer, the hand in words, payments, nets) in the same font; the measurements are interleaved.
Then how the report grows with the number of hands, and the PNG (page 1 rasterised).
"""
from __future__ import annotations

import argparse
import html
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp(prefix='bench-report-')}/bench.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ledger.settings")

import django  # noqa: E402

django.setup()

import datetime as dt  # noqa: E402
from decimal import Decimal  # noqa: E402

import weasyprint  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.utils import translation  # noqa: E402

from ledger.services import nights as services  # noqa: E402
from ledger.models import Night  # noqa: E402
from ledger.presenters.nights import money, stake_amount  # noqa: E402
from ledger.reports import night_report, render  # noqa: E402
from tests.report_helpers import add_hands  # noqa: E402


def make_night(hands: int) -> Night:
    owner = get_user_model().objects.get_or_create(username="bench")[0]
    players = [services.player_get_or_create(name=n, group=services.personal_group(owner)) for n in ("张三", "李四", "王五", "赵六")]
    night = services.night_create(owner=owner, title=f"{hands} 局", date=dt.date(2026, 11, 30), base=Decimal(2),
                                  players=players, first_dealer=0)
    add_hands(night, hands, owner)
    return night


def floor_pdf(night: Night) -> bytes:
    """A bare table of the report's hand rows in the same font: what WeasyPrint needs at the least."""
    report = night_report(night)
    with translation.override("zh-hans"):
        rows = []
        for hand, lines in zip(report.hands, report.lines()):
            payments = " · ".join(f"{p.payer}→{p.payee} {stake_amount(p.amount, night)}" for p in hand.payments)
            nets = " ".join(f"{n} {money(a)}" for n, a in zip(hand.players, hand.net))
            cells = [str(hand.number), hand.dealer, "<br>".join(map(html.escape, lines)) + "<br>" + html.escape(payments),
                     html.escape(nets)]
            rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    page = ('<html><body style="font-family: \'Noto Sans CJK SC\'"><table>' + "".join(rows) + "</table></body></html>")
    data: bytes = weasyprint.HTML(string=page).write_pdf()
    return data


def report_pdf(night: Night) -> bytes:
    return render("pdf", night_report(night), "zh")[2]


def report_png(night: Night) -> bytes:
    return render("png", night_report(night), "zh")[2]


def chart_libraries(night: Night, repeats: int) -> None:
    """pygal against matplotlib's SVG backend on this night's running totals: import, draw, and lay out in WeasyPrint."""
    import subprocess

    from ledger.reports.chart import running_totals_svg

    running = night_report(night).running

    def matplotlib_svg() -> str:
        import io

        import matplotlib
        matplotlib.use("svg")
        from matplotlib.figure import Figure
        matplotlib.rcParams["svg.fonttype"] = "none"
        figure = Figure(figsize=(8, 4.2))
        axes = figure.add_subplot()
        for series in running:
            axes.plot(range(len(series.points)), [float(v) for v in series.points], linewidth=2)
        out = io.StringIO()
        figure.savefig(out, format="svg")
        return out.getvalue()[out.getvalue().index("<svg"):]

    def laid_out(svg: str) -> None:
        weasyprint.HTML(string=f'<html><body style="font-family: \'Noto Sans CJK SC\'"><div style="width: 18cm">'
                                f"{svg}</div></body></html>").write_pdf()

    for name, module in (("pygal", "pygal"), ("matplotlib", "matplotlib.pyplot")):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", f"import {module}"], check=True)
        print(f"  {name}: import (fresh interpreter, incl. start-up) {time.perf_counter() - started:.2f} s", end="")
        draw = (lambda: running_totals_svg(running)) if name == "pygal" else matplotlib_svg
        svg = draw()
        drawn, page = best(repeats, [draw, lambda: laid_out(svg)])
        print(f", draw {drawn * 1000:.0f} ms, WeasyPrint page with the chart {page * 1000:.0f} ms, {len(svg) // 1024} KiB")


def best(repeats: int, fns: list) -> list[float]:
    """Seconds of the fastest of `repeats` runs of each function, interleaved."""
    times = [float("inf")] * len(fns)
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            start = time.perf_counter()
            fn()
            times[i] = min(times[i], time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--growth", default="50,300,1000", help="hand counts for the growth table")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--charts", action="store_true", help="also compare pygal and matplotlib (bench/requirements.txt)")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    night = make_night(args.hands)
    report_pdf(night)  # warm up: imports, fonts, templates
    floor, report = best(args.repeats, [lambda: floor_pdf(night), lambda: report_pdf(night)])
    print(f"{args.hands} hands: report {report:.2f} s, bare table {floor:.2f} s, ratio {report / floor:.2f} "
          f"(limit 1.5)")
    (png,) = best(args.repeats, [lambda: report_png(night)])
    print(f"PNG (page 1, 1080 px wide): {png:.2f} s")
    if args.charts:
        print(f"chart of {args.hands} hands:")
        chart_libraries(night, args.repeats)
    for count in (int(n) for n in args.growth.split(",") if n):
        grown = night if count == args.hands else make_night(count)
        (seconds,) = best(args.repeats, [lambda: report_pdf(grown)])
        print(f"{count:>5} hands: report {seconds:.2f} s ({seconds / count * 1000:.1f} ms per hand)")


if __name__ == "__main__":
    main()
