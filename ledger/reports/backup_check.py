"""Every value of a backup checked as the API checks it, before anything is written (issue 16, item 4).

A backup is a document anyone can edit, so nothing in it is taken on trust, signed or not: usernames as accounts
are named, texts and names with the rules of the forms and the API (ledger.bounds), the rules with the engine's
``parse_rules``, the stake with ``parse_base``, as many seats as the rules' ``players``, hand numbers and versions as the ledger writes them
(1, 2, 3… without gaps, one current version, the last), statuses and audit actions from their choices, times and
dates as ISO 8601. Each problem names where it is (``hands[3].status``) and what is wrong; the database's
constraints are never what stops a backup.
"""
from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring import PRESETS, ScoringError, normalise_language, parse_base, parse_fee, parse_rules

from ledger import bounds
from ledger.web import params
from ledger.models import AuditEntry, Hand, Night

#: More problems than this and the list stops (a hostile file could hold a million).
MAX_PROBLEMS = 20
#: The ledger's bounds on what a night holds (the API's: 50 usernames per list; a night has at most this many
#: players over its seat changes).
MAX_USERS_PER_LIST = bounds.MAX_USERNAMES
MAX_PLAYERS = 200


class Problems:
    """The problems found so far, each with its path."""

    def __init__(self) -> None:
        self.found: list[tuple[str, str]] = []

    def add(self, path: str, message: str) -> None:
        if len(self.found) < MAX_PROBLEMS:
            self.found.append((path, message))

    def django(self, path: str, exc: ValidationError) -> None:
        for message in exc.messages:
            self.add(path, message)

    def scoring(self, exc: ScoringError, path: str | None = None) -> None:
        language = normalise_language(get_language())
        for problem in exc.problems:
            self.add(path or problem.path, problem.message(language))


def _kind(problems: Problems, value: Any, kind: type | tuple[type, ...], path: str, what: str) -> bool:
    if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
        return True
    problems.add(path, _("应为%(what)s") % {"what": what})
    return False


def _text(problems: Problems, value: Any, path: str, max_length: int, *, blank: bool = True) -> None:
    if not _kind(problems, value, str, path, _("文字")):
        return
    try:
        if bounds.clean_text(value, field=path, max_length=max_length, blank=blank) != value:
            problems.add(path, _("前后不能有空格"))
    except ValidationError as exc:
        problems.django(path, exc)


def _number(problems: Problems, value: Any, path: str, low: int, high: int) -> None:
    if not _kind(problems, value, int, path, _("整数")) or not low <= value <= high:
        if isinstance(value, int) and not isinstance(value, bool):
            problems.add(path, _("应在 %(low)d 到 %(high)d 之间") % {"low": low, "high": high})


def _time(problems: Problems, value: Any, path: str, *, optional: bool = False) -> None:
    if value is None and optional:
        return
    if params.iso_datetime(value) is None:
        problems.add(path, _("应为时间（ISO 8601，如 2026-11-27T20:00:00+00:00）"))


def _date(problems: Problems, value: Any, path: str) -> None:
    if params.iso_date(value) is None:
        problems.add(path, _("应为日期，格式 YYYY-MM-DD"))


def _choice(problems: Problems, value: Any, choices: list[str], path: str) -> None:
    if value not in choices:
        problems.add(path, _("应为以下之一：%(choices)s") % {"choices": ", ".join(choices)})


class Usernames:
    """The usernames a backup names, each checked as an account's username is (the user model's validators)."""

    def __init__(self, problems: Problems) -> None:
        self.problems = problems
        self.names: set[str] = set()
        self.field = cast("models.Field[Any, Any]", get_user_model()._meta.get_field(get_user_model().USERNAME_FIELD))

    def check(self, value: Any, path: str) -> None:
        if not _kind(self.problems, value, str, path, _("文字")):
            return
        if not value:
            self.problems.add(path, _("用户名不能为空"))
            return
        try:
            self.field.clean(value, None)
        except ValidationError as exc:
            self.problems.django(path, exc)
            return
        self.names.add(value)

    def check_list(self, value: Any, path: str) -> None:
        if not _kind(self.problems, value, list, path, _("列表")):
            return
        if len(value) > MAX_USERS_PER_LIST:  # counted as given, before duplicates are dropped
            self.problems.add(path, _("最多 %(n)d 个用户名") % {"n": MAX_USERS_PER_LIST})
            return
        for i, name in enumerate(value):
            self.check(name, f"{path}[{i}]")
        if len(set(map(str, value))) != len(value):
            self.problems.add(path, _("用户名重复"))


def _night(problems: Problems, users: Usernames, night: Any) -> int:
    """The night's fields checked; its number of seats (RULES.md §9: its rules' ``players``; 4 if unreadable)."""
    if not _kind(problems, night, dict, "night", _("对象")):
        return 4
    get: Callable[..., Any] = night.get
    try:
        uuid.UUID(str(get("uuid")))
    except ValueError:
        problems.add("night.uuid", _("应为 UUID"))
    if not isinstance(get("uuid"), str):
        problems.add("night.uuid", _("应为 UUID"))
    _text(problems, get("title"), "night.title", 80, blank=False)
    _date(problems, get("date"), "night.date")
    _text(problems, get("venue", ""), "night.venue", 80)
    if _kind(problems, get("base"), str, "night.base", _("文字（如 \"2\"）")):
        try:
            bounds.check_base(parse_base(get("base"), "night.base"), field="night.base")
        except ScoringError as exc:
            problems.scoring(exc)
        except ValidationError as exc:
            problems.django("night.base", exc)
    stake = get("stake", Night.Stake.MONEY)
    _choice(problems, stake, list(Night.Stake.values), "night.stake")
    _text(problems, get("currency", ""), "night.currency", 8)
    if stake == Night.Stake.POINTS and get("currency", ""):
        problems.add("night.currency", _("积分的牌局没有币种"))
    _choice(problems, get("preset", "chengdu"), list(PRESETS), "night.preset")
    seats = _rules(problems, get("rules"))
    _number(problems, get("first_dealer", 0), "night.first_dealer", 0, seats - 1)
    users.check(get("owner"), "night.owner")
    users.check_list(get("members", []), "night.members")
    users.check_list(get("scorekeepers", []), "night.scorekeepers")
    _kind(problems, get("is_closed", False), bool, "night.is_closed", _("true 或 false"))
    _time(problems, get("closed_at"), "night.closed_at", optional=True)
    _time(problems, get("created_at"), "night.created_at", optional=True)
    try:
        parse_fee(get("fee"), "night.fee")
    except ScoringError as exc:
        problems.scoring(exc)
    evening = get("evening")
    if evening is not None and _kind(problems, evening, dict, "night.evening", _("对象")):
        unknown = sorted(set(evening) - {"title", "date", "venue"})
        if unknown:
            problems.add("night.evening", _("未知的字段：%(names)s") % {"names": ", ".join(map(str, unknown))})
        _text(problems, evening.get("title"), "night.evening.title", 80, blank=False)
        _date(problems, evening.get("date"), "night.evening.date")
        _text(problems, evening.get("venue", ""), "night.evening.venue", 80)
        _number(problems, get("table_no"), "night.table_no", 1, 99)
    elif evening is None and get("table_no") is not None:
        problems.add("night.table_no", _("桌号只用于活动里的牌局"))
    return seats


def _rules(problems: Problems, rules: Any) -> int:
    """The rules as the engine reads them: known options, each value as the engine writes it (what a night's
    pages, reports and every hand read: a value the engine would not have written can break all of them)."""
    if not _kind(problems, rules, dict, "night.rules", _("对象")):
        return 4
    try:
        parsed = parse_rules(rules, "night.rules")
    except ScoringError as exc:
        problems.scoring(exc)
        return 4
    canonical = parsed.as_dict()
    for name, value in rules.items():
        if canonical.get(name) != value or type(canonical.get(name)) is not type(value):
            problems.add(f"night.rules.{name}", _("不是规则引擎写出的值：%(value)s") % {"value": canonical.get(name)})
    return parsed.players


def _players(problems: Problems, players: Any, seating: Any, seats: int) -> set[str]:
    names: set[str] = set()
    if _kind(problems, players, list, "players", _("列表")):
        if len(players) > MAX_PLAYERS:
            problems.add("players", _("最多 %(n)d 位玩家") % {"n": MAX_PLAYERS})
            return names
        for i, name in enumerate(players):
            path = f"players[{i}]"
            if not _kind(problems, name, str, path, _("文字")):
                continue
            try:
                if bounds.clean_name(name, field=path) != name:
                    problems.add(path, _("前后不能有空格"))
            except ValidationError as exc:
                problems.django(path, exc)
                continue
            if name in names:
                problems.add(path, _("名字重复：%(name)s") % {"name": name})
            names.add(name)
    if _kind(problems, seating, list, "seating", _("列表")):
        _seats(problems, seating, names, "seating", seats)
    return names


def _seats(problems: Problems, seats: list[Any], names: set[str], path: str, count: int) -> None:
    if len(seats) != count:
        problems.add(path, _("应有 %(n)d 个座位（规则的 players）") % {"n": count})
        return
    for i, name in enumerate(seats):
        if name not in names:
            problems.add(f"{path}[{i}]", _("不在 players 里：%(name)s") % {"name": str(name)[:40]})
    if len({str(n) for n in seats}) != count:
        problems.add(path, _("%(n)d 个座位需要 %(n)d 位不同的玩家") % {"n": count})


def _hands(problems: Problems, users: Usernames, hands: Any, names: set[str], seats: int) -> set[int]:
    numbers: set[int] = set()
    if not _kind(problems, hands, list, "hands", _("列表")):
        return numbers
    for i, hand in enumerate(hands):
        path = f"hands[{i}]"
        if not _kind(problems, hand, dict, path, _("对象")):
            continue
        if hand.get("number") != i + 1 or isinstance(hand.get("number"), bool):
            problems.add(f"{path}.number", _("局数应从 1 起连续：这里应为 %(n)d") % {"n": i + 1})
        else:
            numbers.add(i + 1)
        _choice(problems, hand.get("status"), list(Hand.Status.values), f"{path}.status")
        _text(problems, hand.get("void_reason", ""), f"{path}.void_reason", 200)
        users.check(hand.get("recorded_by"), f"{path}.recorded_by")
        _time(problems, hand.get("recorded_at"), f"{path}.recorded_at")
        revisions = hand.get("revisions")
        if not _kind(problems, revisions, list, f"{path}.revisions", _("列表")):
            continue
        if not revisions:
            problems.add(f"{path}.revisions", _("至少要有一个版本"))
        for j, revision in enumerate(revisions):
            _revision(problems, users, revision, f"{path}.revisions[{j}]", j + 1, j == len(revisions) - 1, names,
                      seats)
    return numbers


def _revision(problems: Problems, users: Usernames, revision: Any, path: str, version: int, last: bool,
              names: set[str], seats: int) -> None:
    if not _kind(problems, revision, dict, path, _("对象")):
        return
    if revision.get("version") != version or isinstance(revision.get("version"), bool):
        problems.add(f"{path}.version", _("版本应从 1 起连续：这里应为 %(n)d") % {"n": version})
    if revision.get("is_current") is not last:
        problems.add(f"{path}.is_current", _("只有最后一个版本是当前版本：这里应为 %(value)s")
                     % {"value": "true" if last else "false"})
    _number(problems, revision.get("dealer"), f"{path}.dealer", 0, seats - 1)
    record = revision.get("record")
    if _kind(problems, record, dict, f"{path}.record", _("对象")) and record.get("dealer") != revision.get("dealer"):
        problems.add(f"{path}.dealer", _("和记录里的庄家不同"))
    _kind(problems, revision.get("result"), dict, f"{path}.result", _("对象"))
    if _kind(problems, revision.get("players"), list, f"{path}.players", _("列表")):
        _seats(problems, revision["players"], names, f"{path}.players", seats)
    users.check(revision.get("created_by"), f"{path}.created_by")
    _time(problems, revision.get("created_at"), f"{path}.created_at")
    _text(problems, revision.get("reason", ""), f"{path}.reason", 200)


def _audit(problems: Problems, users: Usernames, audit: Any, numbers: set[int]) -> None:
    if not _kind(problems, audit, list, "audit", _("列表")):
        return
    for i, entry in enumerate(audit):
        path = f"audit[{i}]"
        if not _kind(problems, entry, dict, path, _("对象")):
            continue
        _time(problems, entry.get("at"), f"{path}.at")
        users.check(entry.get("actor"), f"{path}.actor")
        _choice(problems, entry.get("action"), list(AuditEntry.Action.values), f"{path}.action")
        hand = entry.get("hand")
        if hand is not None and (isinstance(hand, bool) or hand not in numbers):
            problems.add(f"{path}.hand", _("没有这一局：%(hand)s") % {"hand": str(hand)[:20]})
        _text(problems, entry.get("reason", ""), f"{path}.reason", 200)
        for key in ("before", "after"):
            if entry.get(key) is not None and not isinstance(entry.get(key), dict):
                problems.add(f"{path}.{key}", _("应为对象"))


def check_document(doc: dict[str, Any]) -> tuple[Problems, set[str]]:
    """Every value of the backup (its shape was checked): the problems found, and the usernames it names."""
    problems = Problems()
    users = Usernames(problems)
    seats = _night(problems, users, doc.get("night"))
    names = _players(problems, doc.get("players"), doc.get("seating"), seats)
    numbers = _hands(problems, users, doc.get("hands"), names, seats)
    _audit(problems, users, doc.get("audit"), numbers)
    return problems, users.names
