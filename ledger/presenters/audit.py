"""The audit trail in words: an entry's before and after as readable lines, never a dump (issue 10)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import pgettext

from scoring import ScoringError, format_amount, parse_fee

from ledger.presenters.rules import SEAT_LABELS
from ledger.models import AuditEntry, Evening, Hand, Night
from ledger.selectors.nights import hand_last_snapshot
from ledger.presenters.nights import adjustment_line, describe, money, rule_options, stake_amount


def _colon() -> str:
    """The label colon of a line: "庄：张三", "Dealer: 张三" (it was an ASCII ": " in Chinese)."""
    return _("：")


def _hand_lines(snapshot: dict[str, Any]) -> list[str]:
    """A hand snapshot ({"version", "players", "record", "result"}) in words, as on the hand list."""
    names = list(snapshot.get("players") or [])
    record, result = snapshot.get("record") or {}, snapshot.get("result") or {}
    lines = [_("第 %(v)d 版") % {"v": snapshot.get("version", 1)} + " · " + " / ".join(names)]
    seats = len(names)  # 4, 3 or 2 (RULES.md §9)
    dealer = record.get("dealer")
    if isinstance(dealer, int) and 0 <= dealer < seats:
        lines.append(_("庄") + _colon() + names[dealer])
    override = snapshot.get("dealer_override")
    if isinstance(override, dict) and all(
            isinstance(override.get(k), int) and 0 <= override[k] < seats for k in ("computed", "given")):
        lines.append(_("庄家由 %(a)s 改为 %(b)s") % {"a": names[override["computed"]], "b": names[override["given"]]})
    try:
        lines += describe(names, record, result)
    except (KeyError, IndexError, TypeError):  # an old or odd snapshot: say what we can
        lines.append(_("（无法描述这一局）"))
    if result.get("net") and len(result["net"]) == seats:
        lines.append("  ".join(f"{n} {money(a)}" for n, a in zip(names, result["net"])))
    return lines


def _adjustment_lines(snapshot: dict[str, Any]) -> list[str]:
    """An adjustment snapshot (ledger.services.adjustments.snapshot) in words, as on its card."""
    names = [str(n) for n in snapshot.get("players") or []]
    lines = [_("第 %(v)d 版") % {"v": snapshot.get("version", 1)} + " · " + " / ".join(names)]
    try:
        lines.append(adjustment_line(snapshot["kind"], names, snapshot["payer"], snapshot.get("payee"),
                                     snapshot.get("fan"), snapshot["amount"], snapshot.get("note", "")))
    except (KeyError, TypeError, ArithmeticError):
        lines.append(_("（无法描述这一项）"))
    if isinstance(snapshot.get("net"), list) and len(snapshot["net"]) == len(names):
        lines.append("  ".join(f"{n} {money(a)}" for n, a in zip(names, snapshot["net"]) if str(a) != "0"))
    return lines


ROLE_WORDS = {"owner": _lazy("圈主"), "scorekeeper": _lazy("记分员"), "member": _lazy("成员"),
              "removed": _lazy("已移除")}
LINK_WORDS = {"invite": _lazy("邀请链接"), "view": _lazy("查看链接")}


def entry_title(entry: AuditEntry) -> str:
    """An entry's title: its action (记录一局), or for a night's link turned on or off, which and how (查看链接已打开:
    a walk read 成员变动 for it). The trail's list annotates the link (`link_kind`, `link_state`: views.nights.audit
    defers `after`); one entry reads it from `after`."""
    if entry.action == AuditEntry.Action.MEMBER_CHANGED:
        if hasattr(entry, "link_kind"):
            kind, state = entry.link_kind, getattr(entry, "link_state", None)
        else:
            after = entry.after if isinstance(entry.after, dict) else {}
            kind, state = after.get("link"), after.get("state")
        if kind in LINK_WORDS:
            words = _("%(link)s已打开") if state == "on" else _("%(link)s已关闭")
            return words % {"link": LINK_WORDS[kind]}
    return str(entry.get_action_display())


def _status(value: Any) -> str:
    return str(dict(Hand.Status.choices).get(value, value))


def side_lines(entry: AuditEntry, side: dict[str, Any] | None, stake: Night | None = None) -> list[str]:
    """One side (before or after) of an audit entry in words; a settlement's amounts in `stake`, the night whose
    stake they are in (¥27, 27 分), where the page knows it."""
    if not side:
        return []
    if "record" in side and "result" in side:
        return _hand_lines(side)
    if "kind" in side and "payer" in side and "amount" in side:  # a penalty or adjustment (罚分/调整)
        return _adjustment_lines(side)
    if entry.action == AuditEntry.Action.CONFIRMS_CLEARED and "cause" in side:
        from ledger.services.confirmations import cause_words
        return [cause_words(side)]
    if "confirmed" in side and isinstance(side["confirmed"], list):
        return [_("已确认：%(names)s") % {"names": pgettext("list", "、").join(map(str, side["confirmed"]))}]
    if entry.action == AuditEntry.Action.SETTLED and isinstance(side.get("transfers"), list):
        return _settled_lines(side, amount_words(stake))
    if entry.action in (AuditEntry.Action.TRANSFER_PAID, AuditEntry.Action.TRANSFER_UNPAID) and "transfer" in side:
        return _mark_lines(side, amount_words(stake))
    if entry.action == AuditEntry.Action.SEAT_CHANGED:
        seat = side.get("seat")
        label = SEAT_LABELS[seat] if isinstance(seat, int) and 0 <= seat < len(SEAT_LABELS) else seat
        return [f"{label}{_colon()}{side.get('player', '')}"]
    lines = []
    for key, value in sorted(side.items(), key=_key_place):
        if key == "status":
            lines.append(_("状态") + _colon() + _status(value))
        elif key == "players" and isinstance(value, list):
            lines.append(pgettext("audit", "玩家") + _colon() + " / ".join(map(str, value)))
        elif key == "base":
            lines.append(_("底金") + _colon() + f"{_amount(value)}")  # 2, as the pages write it (not 2.00)
        elif key == "closed_at":
            lines.append(_("结束时间") + _colon() + f"{_local_time(value)}")
        elif key == "user":
            lines.append(_("用户") + _colon() + f"{value}")
        elif key == "role":
            lines.append(_("角色") + _colon() + str(ROLE_WORDS.get(value, value)))
        elif key == "link":
            lines.append(str(LINK_WORDS.get(value, value)) + _colon() + (_("开") if side.get("state") == "on" else _("关")))
        elif key in ("state", "via"):
            continue  # said with "link" / implied by the role
        elif key == "rules" and isinstance(value, dict):  # every option in words, labelled as on the rules page
            lines += [f"{label}{_colon()}{words}" for label, words in rule_options(value)]
        elif key == "fee" and isinstance(value, dict):
            lines.append(_("台费") + _colon() + _fee_words(value, entry))
        elif key == "fee_shares" and isinstance(value, dict):
            shares = [f"{name} {_amount(share)}" for name, share in value.items()]
            lines.append(_("台费") + _colon() + pgettext("list", "、").join(shares))
        elif key == "evening":
            if value is not None:
                lines.append(_("活动") + _colon() + _evening_words(value, entry))
        elif key == "title":
            lines.append(_("名称") + _colon() + f"{value}")
        elif key == "date":
            lines.append(_("日期") + _colon() + f"{value}")
        elif key == "table_no":
            if value is not None:
                lines.append(_("桌号") + _colon() + f"{value}")
        else:
            lines.append(f"{key}{_colon()}{value}")
    return lines


# The order a side's fields are said in. PostgreSQL's jsonb keeps keys sorted by length, SQLite's JSON as written,
# so the page cannot rely on the stored order; fields not named here follow, by name.
_KEY_ORDER = ("title", "date", "players", "evening", "table_no", "status", "closed_at", "base", "rules", "fee",
              "fee_shares", "user", "role", "link")


def _key_place(item: tuple[str, Any]) -> tuple[int, str]:
    key = item[0]
    return (_KEY_ORDER.index(key) if key in _KEY_ORDER else len(_KEY_ORDER), key)


def _settled_lines(side: dict[str, Any], amount: Callable[[Decimal], str]) -> list[str]:
    """A settlement (结算): each transfer it fixed (its amount as the pages write amounts), and whether it took in
    what was still unpaid from before."""
    lines = []
    for transfer in side["transfers"]:
        lines.append(transfer_words(transfer, amount))
    if not lines:
        lines.append(_("无需转账。"))
    if side.get("include_carry"):
        lines.append(_("把之前没付的一起结"))
    return lines


def _amount(value: Any) -> str:
    try:
        return format_amount(Decimal(str(value)))
    except (InvalidOperation, ValueError):
        return str(value)


def _fee_words(value: dict[str, Any], entry: AuditEntry) -> str:
    """A night's table fee as stored ({"mode": "per_player", "amount": "5"}) in the words of its rule: 每人 ¥5."""
    from ledger.presenters.evenings import fee_rule  # evenings' words import the selectors; the audit's need one

    try:
        fee = parse_fee(value)
    except ScoringError:
        return str(value)
    return fee_rule(fee, entry.night) if entry.night is not None else str(value)


def _evening_words(value: Any, entry: AuditEntry) -> str:
    """The evening a night is a table of, by its title and date (its id is what the entry keeps), looked up in the
    night's own group (a restored night's entries keep ids of the server they came from)."""
    group = entry.night.group_id if entry.night is not None else entry.group_id
    found = (Evening.objects.filter(pk=value, group_id=group).values_list("title", "date").first()
             if isinstance(value, int) and group is not None else None)
    return _("%(title)s（%(date)s）") % {"title": found[0], "date": found[1].isoformat()} if found else str(value)


def amount_words(stake: Night | None) -> Callable[[Decimal], str]:
    """How an amount of a transfer is said: in `stake` (¥27, 27 分, 27 EUR), or bare where the stake is not known."""
    return format_amount if stake is None else (lambda value: stake_amount(value, stake))


#: The table fee as a party, as settling wrote it in its actor's language.
FEE_WORDS = ("台费", "Table fee")


def transfer_words(transfer: Any, amount_words: Callable[[Decimal], str] = format_amount) -> str:
    """"张三 → 李四 1.0000" as stored, its amount as the pages write amounts (张三 → 李四 1; or as `amount_words` says
    it: 张三 → 李四 ¥1), the table fee (台费) in the page's language whatever the language it was written in."""
    words, _sep, amount = str(transfer).rpartition(" ")
    words = " → ".join(_("台费") if side in FEE_WORDS else side for side in words.split(" → "))
    try:
        return f"{words} {amount_words(Decimal(amount))}"
    except (InvalidOperation, ValueError):
        return str(transfer)


def _mark_lines(side: dict[str, Any], amount: Callable[[Decimal], str]) -> list[str]:
    """A 标记已付 / 撤销已付: which transfer, and whether it stood paid (when, marked by whom) or unpaid."""
    lines = [transfer_words(side["transfer"], amount)]
    if side.get("paid_at"):
        lines.append(_("已付：%(time)s（%(user)s 标记）") % {"time": _local_time(side["paid_at"]),
                                                         "user": side.get("paid_by") or "?"})
    else:
        lines.append(_("未付"))
    return lines


def _local_time(value: Any) -> str:
    """A stored ISO time as every page shows a time: local, to the minute (2026-12-06 07:49), not UTC's text."""
    moment = parse_datetime(value) if isinstance(value, str) else None
    return date_format(timezone.localtime(moment), "Y-m-d H:i") if moment is not None else str(value)


def entry_change(entry: AuditEntry, stake: Night | None = None) -> dict[str, Any]:
    """{"before": lines, "after": lines} of an audit entry, and where both are given which lines differ, by index:
    "gone" (before, no equal line after) and "new" (after, none before), marked on the page (a walk had to find a
    correction's one changed line by eye among a hand's five)."""
    before, after = side_lines(entry, entry.before, stake), side_lines(entry, entry.after, stake)
    # A void changes only the hand's status: the hand it took off, in words with its nets, is said beside it (a
    # walk had to open the entry that recorded it), as its last recording or correction left it.
    last = (hand_last_snapshot(entry.hand_id)
            if entry.action == AuditEntry.Action.HAND_VOIDED and entry.hand_id is not None else None)
    voided = _hand_lines(last) if last else []
    if not (before and after):
        return {"before": before, "after": after, "gone": set(), "new": set(), "voided": voided}
    return {"before": before, "after": after, "gone": _unmatched(before, after), "new": _unmatched(after, before),
            "voided": voided}


def _unmatched(lines: list[str], others: list[str]) -> set[int]:
    """The indexes of one side's lines with no equal line left on the other: a line twice on one side and once on
    the other is marked once."""
    left = Counter(others)
    out = set()
    for i, line in enumerate(lines):
        if left[line]:
            left[line] -= 1
        else:
            out.add(i)
    return out
