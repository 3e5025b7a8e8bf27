"""The night as CSV for spreadsheets: one file of hands, one of payments (UTF-8 with a BOM for Excel)."""
from __future__ import annotations

import csv
import io

from django.utils import translation
from django.utils.translation import gettext as _

from ..presenters import amount, money, payment_reason
from ..selectors import TABLE_FEE
from .base import Rendered, file_stem, language
from .context import NightReport


def _csv(rows: list[list[str]]) -> bytes:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def _status(counted: bool) -> str:
    return _("已记录") if counted else _("已作废")


def render_hands(report: NightReport, lang: str) -> Rendered:
    """One row per hand: number, status, revision, dealer, the table's players and their nets (4, 3 or 2 columns
    each: RULES.md §9), the hand in words (every win of a 血流 hand)."""
    seats = range(report.night.seat_count)
    with translation.override(language(lang)):
        rows = [[_("局数"), _("状态"), _("版本"), _("作废原因"), _("庄家"),
                 *(f"{_('玩家')}{s + 1}" for s in seats), *(f"{_('输赢')}{s + 1}" for s in seats), _("经过")]]
        for hand, lines in zip(report.hands, report.lines()):
            rows.append([str(hand.number), _status(hand.counted), str(hand.version), hand.void_reason, hand.dealer,
                         *hand.players, *(money(n) for n in hand.net), " / ".join(lines)])
    return f"{file_stem(report.night)}-hands.csv", "text/csv; charset=utf-8", _csv(rows)


def render_payments(report: NightReport, lang: str) -> Rendered:
    """One row per payment: hand number, status, reason, payer, payee, amount; then each player's share of the
    table fee (台费), without a hand number."""
    with translation.override(language(lang)):
        rows = [[_("局数"), _("状态"), _("原因"), _("付款人"), _("收款人"), _("金额")]]
        for hand in report.hands:
            rows += [[str(hand.number), _status(hand.counted), payment_reason(p.reason), p.payer, p.payee,
                      amount(p.amount)] for p in hand.payments]
        # The table fee (台费) last: one row per player's share, payee 台费, so the rows still balance.
        rows += [["", "", _("台费"), t.player.name, TABLE_FEE.name, amount(t.fee)] for t in report.totals if t.fee]
    return f"{file_stem(report.night)}-payments.csv", "text/csv; charset=utf-8", _csv(rows)
