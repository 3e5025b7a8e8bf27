"""The night as CSV for spreadsheets: one file of hands, one of payments (UTF-8 with a BOM for Excel)."""
from __future__ import annotations

import csv
import io
import re
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from ledger.presenters.nights import amount, money, payment_words, void_reason
from ledger.selectors.nights import TABLE_FEE
from ledger.reports.base import Rendered, file_stem, language
from ledger.reports.context import AdjustmentRow, NightReport


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


def _adjustment_mark(item: AdjustmentRow) -> str:
    """What the number column says for an adjustment: "调整 2" (not a hand number)."""
    return _("调整 %(n)d") % {"n": item.number}


def _in_order(report: NightReport, hands: list[Any]) -> list[Any]:
    """The hands (or (hand, lines) pairs) with the adjustments in the night's order: each after the hand it
    followed."""
    after: dict[int, list[AdjustmentRow]] = {}
    for a in report.adjustments:
        after.setdefault(a.after_hand, []).append(a)
    items: list[Any] = list(after.get(0, []))
    for item in hands:
        hand = item[0] if isinstance(item, tuple) else item
        items.append(item)
        items += after.get(hand.number, [])
    return items


def _status(counted: bool) -> str:
    return _("已记录") if counted else _("已作废")


def _nets(counted: bool, net: tuple[Any, ...]) -> list[str]:
    """A row's net cells: empty for a voided hand or adjustment, which counts for nobody."""
    return [money(n) if counted else "" for n in net]


def render_hands(report: NightReport, lang: str) -> Rendered:
    """One row per hand: number, status, revision, why it was voided, dealer, the table's players and their nets (4,
    3 or 2 columns each: RULES.md §9), the hand in words (every win of a 血流 hand), why its current revision was made.
    A voided row's nets are left empty (its words still say what it was), so that each net column sums to the
    player's result before the table fee, as a spreadsheet's SUM would be read."""
    seats = range(report.night.seat_count)
    with translation.override(language(lang)):
        rows = [[_("局数"), _("状态"), _("版本"), _("作废原因"), _("庄家"),
                 *(f"{_('玩家')}{s + 1}" for s in seats), *(f"{_('输赢')}{s + 1}" for s in seats), _("经过"),
                 _("更正原因")]]
        for item in _in_order(report, list(zip(report.hands, report.lines()))):
            if isinstance(item, AdjustmentRow):  # a 罚分/调整 row: its own marker in the number column, no dealer
                rows.append([_adjustment_mark(item), _status(item.counted), str(item.version), item.void_reason, "",
                             *item.players, *_nets(item.counted, item.net), item.line(), ""])
                continue
            hand, lines = item
            rows.append([str(hand.number), _status(hand.counted), str(hand.version), void_reason(hand.void_reason),
                         hand.dealer, *hand.players, *_nets(hand.counted, hand.net), " / ".join(lines),
                         hand.correction_reason])
    return f"{file_stem(report.night)}-hands.csv", "text/csv; charset=utf-8", _csv(rows)


def _amount(counted: bool, value: Any) -> str:
    """A payment's amount: empty for a voided hand's or adjustment's, which nobody pays."""
    return amount(value) if counted else ""


def render_payments(report: NightReport, lang: str) -> Rendered:
    """One row per payment: hand number, status, reason, payer, payee, amount (empty for a voided hand's, so that
    the column sums to what was paid); then each player's share of the table fee (台费), without a hand number."""
    with translation.override(language(lang)):
        rows = [[_("局数"), _("状态"), _("原因"), _("付款人"), _("收款人"), _("金额")]]
        for item in _in_order(report, report.hands):
            if isinstance(item, AdjustmentRow):  # 罚分/调整: one row per payment, its reason in words
                why = _("诈胡") if item.kind == "zha_hu" else _("调整：%(reason)s") % {"reason": item.note}
                rows += [[_adjustment_mark(item), _status(item.counted), why, payer, payee,
                          _amount(item.counted, value)] for payer, payee, value in item.payments()]
                continue
            rows += [[str(item.number), _status(item.counted), payment_words(p.reason, p.event, item.record), p.payer, p.payee,
                      _amount(item.counted, p.amount)] for p in item.payments]
        # The table fee (台费) last: one row per player's share, payee 台费, so the rows still balance.
        rows += [["", "", _("台费"), t.player.name, TABLE_FEE.name, amount(t.fee)] for t in report.totals if t.fee]
    return f"{file_stem(report.night)}-payments.csv", "text/csv; charset=utf-8", _csv(rows)
