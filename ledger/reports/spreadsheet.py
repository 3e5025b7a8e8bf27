"""The night as CSV for spreadsheets: one file of hands, one of payments (UTF-8 with a BOM for Excel)."""
from __future__ import annotations

import csv
import io
import re

from django.utils import translation
from django.utils.translation import gettext as _

from ..presenters import amount, money, payment_reason
from ..selectors import TABLE_FEE
from .base import Rendered, file_stem, language
from .context import NightReport


#: What a spreadsheet reads as the start of a formula (OWASP, "CSV injection"): =, +, -, @, tab, carriage return.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: A plain signed amount ("-5", "+8", "0.5"): Excel reads it as a number, not a formula, so it is left as it is.
_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def cell(value: str) -> str:
    """The text of one cell, made inert: a text a spreadsheet would run as a formula (a player named
    =HYPERLINK(…), a reason +cmd|…) gets a leading ' (shown as text); amounts stay numbers."""
    if value.startswith(_FORMULA_START) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def _csv(rows: list[list[str]]) -> bytes:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows([[cell(str(v)) for v in row] for row in rows])
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def _status(counted: bool) -> str:
    return _("已记录") if counted else _("已作废")


def render_hands(report: NightReport, lang: str) -> Rendered:
    """One row per hand: number, status, revision, dealer, the four players and their nets, the hand in words."""
    with translation.override(language(lang)):
        rows = [[_("局数"), _("状态"), _("版本"), _("作废原因"), _("庄家"),
                 *(f"{_('玩家')}{s + 1}" for s in range(4)), *(f"{_('输赢')}{s + 1}" for s in range(4)), _("经过")]]
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
