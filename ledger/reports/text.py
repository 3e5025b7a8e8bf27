"""The night as plain text for the group chat: nets and transfers, one per line."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Sequence

from django.utils import translation
from django.utils.translation import gettext as _

from scoring import Transfer

from ledger.presenters.evenings import fee_rule
from ledger.models import Night
from ledger.presenters.nights import hand_count, house_rules_words, money, stake_amount
from ledger.selectors.nights import TABLE_FEE, Party, Total, night_fee
from ledger.reports.base import Rendered, file_stem, language
from ledger.reports.context import NightReport


def summary(night: Night, totals: Sequence[Total], transfers: Sequence[Transfer[Party]], hands: int, voided: int = 0,
            fee: Decimal = Decimal(0), adjustments: Sequence[str] = (), signoffs: Sequence[Any] = ()) -> str:
    """The text itself, in the active language (the end-of-night page shows it with a copy button); with a table
    fee, its 台费 line follows the players' nets (after the fee), so the lines sum to zero."""
    head = f"{night.title} · {night.date:%Y-%m-%d}" + (f" · {night.venue}" if night.venue else "")
    lines = [head, hand_count(hands, voided)]
    house = house_rules_words(night.rules)  # what this table plays beyond the usual rules (RULES.md §10)
    if house:
        lines.append(_("本桌玩法：%(rules)s") % {"rules": house})
    lines += ["", _("每人输赢")]
    lines += [f"{t.player.name} {money(t.amount)}" for t in totals]
    rule = night_fee(night)
    if rule.mode != "none":
        lines.append(_("%(fee)s %(amount)s（%(rule)s）") % {"fee": TABLE_FEE.name, "amount": money(fee),
                                                         "rule": fee_rule(rule, night)})
    if adjustments:  # the penalties and adjustments (罚分/调整) that count, in words: they are in the nets above
        lines += ["", _("罚分/调整")] + list(adjustments)
    lines += ["", _("最少转账")]
    if night.evening_id is not None:
        lines.append(_("这一桌是一个活动的一部分：各桌一起结算，请按活动的转账付钱，不要按下面这张单桌的。"))
    lines += [f"{_name(t.payer)} → {_name(t.payee)} {stake_amount(t.amount, night)}" for t in transfers] \
        or [_("无需转账。")]
    if signoffs:
        done = [s.name for s in signoffs if s.confirmed]
        waiting = [s.name for s in signoffs if not s.confirmed]
        lines += ["", _("签字确认")]
        if done:
            lines.append(_("已确认：%(names)s") % {"names": "、".join(done)})
        if waiting:
            lines.append(_("未确认：%(names)s") % {"names": "、".join(waiting)})
    return "\n".join(lines) + "\n"


def _name(who: object) -> str:
    return str(getattr(who, "name", who))


def render(report: NightReport, lang: str) -> Rendered:
    with translation.override(language(lang)):
        text = summary(report.night, report.totals, report.transfers, len(report.hands),
                       len(report.hands) - report.counted_hands, report.fee,
                       [a.line() for a in report.adjustments if a.counted], report.signoffs)
    return f"{file_stem(report.night)}.txt", "text/plain; charset=utf-8", text.encode("utf-8")
