"""The night as plain text for the group chat: nets and transfers, one per line."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Callable, Sequence

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from scoring import Transfer

from ledger.presenters.evenings import fee_rule
from ledger.models import Night
from ledger.presenters.nights import hand_count, house_rules_words, money, stake_amount
from ledger.selectors.nights import TABLE_FEE, Party, Total, night_fee
from ledger.reports.base import Rendered, file_stem, language
from ledger.reports.context import NightReport, ToPay
from ledger.services.confirmations import in_use, not_confirmed
from ledger.selectors.evenings import EveningView, carried_in, carried_out_words, carried_words


def summary(night: Night, totals: Sequence[Total], to_pay: ToPay, hands: int, voided: int = 0,
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
    note = transfers_note(to_pay, night, debts_apart=True)
    if note:
        lines.append(note)
    lines += [f"{_name(t.payer)} → {_name(t.payee)} {stake_amount(t.amount, night)}" for t in to_pay.transfers] \
        or [nothing_to_pay(to_pay)]
    lines += [f"{_name(t.payer)} → {_name(t.payee)} {stake_amount(t.amount, night)} {paid_mark()}" for t in to_pay.paid]
    # Older debts a settlement took in, and this one's carried into a later one: each on its own line, under the
    # transfers and said not to be paid again here (a walk: nine of them in one sentence before the seven to pay,
    # read in the chat as more to pay).
    def stake(amount: Decimal) -> str:
        return stake_amount(amount, night)

    if to_pay.settled and to_pay.carried:
        lines += ["", _("上面的转账已包含以下之前没付的欠款，不要另外再付：")]
        lines += [debt_line(*carried_words(t), stake) for t in to_pay.carried]
    if to_pay.settled and to_pay.carried_out:
        lines += ["", _("并入之后结算的（在那里付，这里不付）：")]
        lines += [debt_line(*carried_out_words(t), stake) for t in to_pay.carried_out]
    if signoffs and in_use(signoffs):  # no name claimed: nobody could confirm, and the chat is not told so
        done = [s.name for s in signoffs if s.confirmed]
        waiting = not_confirmed(signoffs)
        lines += ["", _("签字确认")]
        if done:
            lines.append(_("已确认：%(names)s") % {"names": pgettext("list", "、").join(done)})
        if waiting["missing"]:
            lines.append(_("未确认：%(names)s") % {"names": pgettext("list", "、").join(waiting["missing"])})
        if waiting["unclaimed"]:
            lines.append(_("名字没人认领，不能确认：%(names)s")
                         % {"names": pgettext("list", "、").join(waiting["unclaimed"])})
    return "\n".join(lines) + "\n"


def debt_line(payer: str, payee: str, amount: Decimal, where: str, stake: Callable[[Decimal], str]) -> str:
    """An earlier debt a settlement took in, in one line: 胖子 → 老王 ¥110 · 第一周（12-07）."""
    return f"{payer} → {payee} {stake(amount)}" + (f" · {where}" if where else "")


def transfers_note(to_pay: ToPay, night: Night, *, debts_apart: bool = False) -> str:
    """What the transfers a night's reports give are: at a table of an evening, the evening's (all its tables
    together) or, for a reader who may not see the evening, the table's own, not to be paid; once settled, those still
    to pay. Empty for a night of its own not settled yet (its fewest transfers, as ever). With `debts_apart` (the
    text for the chat) the debts carried in or out are not named here: the text lists them on lines of their own."""
    if night.evening_id is not None and to_pay.evening is None:
        return _("这一桌是一个活动的一部分：各桌一起结算，请按活动的转账付钱，不要按下面这张单桌的。")
    if to_pay.settled:
        if to_pay.evening is not None:
            note = _("这一桌是活动“%(title)s”的一部分，活动已结算。") % {"title": to_pay.evening.title}
        else:
            note = _("已结算。")
        if to_pay.paid:
            note += _("付过的标着“%(mark)s”。") % {"mark": paid_mark()}
        if to_pay.carried_out and not debts_apart:  # still owed, in a later settlement: said where (a walk read "all paid")
            debts = [debt_line(*carried_out_words(t), lambda x: stake_amount(x, night)) for t in to_pay.carried_out]
            note += _("并入之后结算的（在那里付）：%(debts)s。") % {"debts": pgettext("between debts", "；").join(debts)}
        if to_pay.carried and not debts_apart:
            debts = [debt_line(*carried_words(t), lambda x: stake_amount(x, night)) for t in to_pay.carried]
            return note + _("结算时把之前没付的一起结了，转账里含：%(debts)s。") % {
                "debts": pgettext("between debts", "；").join(debts)}
        return note + (_("结算时把之前没付的一起结了：转账里含之前的欠款。") if to_pay.carried_in else "")
    if to_pay.evening is not None:
        return _("这一桌是活动“%(title)s”的一部分：下面是所有牌桌一起算的转账，按这个付钱。") % {"title": to_pay.evening.title}
    return ""


def paid_mark() -> str:
    """What follows a transfer marked paid in the reports: ✓ 已付."""
    return _("✓ 已付")


def nothing_to_pay(to_pay: ToPay) -> str:
    """What stands where no transfer is listed: once settled, that everything is paid or carried into a later
    settlement (无需转账 read as if nobody had ever owed anything); before, that nobody needs to pay."""
    return _("都付清了，或已并入之后的结算。") if to_pay.settled else _("无需转账。")


def _name(who: object) -> str:
    return str(getattr(who, "name", who))


def render(report: NightReport, lang: str) -> Rendered:
    with translation.override(language(lang)):
        text = summary(report.night, report.totals, report.to_pay, len(report.hands),
                       len(report.hands) - report.counted_hands, report.fee,
                       [a.line() for a in report.adjustments if a.counted], report.signoffs)
    return f"{file_stem(report.night)}.txt", "text/plain; charset=utf-8", text.encode("utf-8")


def evening_summary(view: EveningView) -> str:
    """An evening at several tables as text for the group chat (the evening page shows it with a copy button): each
    player's net over the tables (after the fees), the fee, and the transfers everyone pays: the fixed settlement's
    with who has paid, or, before 结算, the fewest transfers computed so far. What the tables' own texts cannot say
    (each table's transfers are not what anyone pays)."""
    evening = view.evening
    first = view.tables[0].night if view.tables else None
    head = f"{evening.title} · {evening.date:%Y-%m-%d}" + (f" · {evening.venue}" if evening.venue else "")
    tables = len(view.tables)
    lines = [head, ngettext("%(n)d 桌", "%(n)d 桌", tables) % {"n": tables}, "", _("每人输赢（所有牌桌一起）")]
    lines += [f"{p.name} {money(view.nets[p.pk])}" for p in view.players]
    if view.fee:
        lines.append(f"{TABLE_FEE.name} {money(view.fee)}")
    settlement = view.settlement
    lines += ["", pgettext("heading", "结算") if settlement is not None else _("最少转账（还没结算）")]

    def stake(amount: Decimal) -> str:
        return stake_amount(amount, first) if first is not None else money(amount)

    if settlement is not None and settlement.include_carry:
        lines.append(_("含之前没付的") + _("："))
        lines += ["  " + debt_line(*words, stake) for words in carried_in(settlement)]

    if settlement is None:
        rows = [f"{_name(t.payer)} → {_name(t.payee)} {stake(t.amount)}" for t in view.plan.transfers]
    else:
        rows = []
        for fixed in getattr(settlement, "transfers_list", []):
            line = f"{_party(fixed.payer)} → {_party(fixed.payee)} {stake(fixed.amount)}"
            if fixed.carried_into_id is not None:
                line += " " + _("（已并入之后的结算）")
            elif fixed.paid_at is not None:
                line += " " + _("✓已付")
            rows.append(line)
    lines += rows
    if not rows:
        lines.append(_("无需转账。"))
    return "\n".join(lines) + "\n"


def _party(player: object) -> str:
    return TABLE_FEE.name if player is None else _name(player)
