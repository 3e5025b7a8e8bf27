"""A night as a JSON backup, and restoring one: players, rules, table fee, evening and table, every hand with every
revision, voids, audit.

The document names people and players (usernames, player names), never database ids, so it can be
restored into any database; the night's UUID makes restoring idempotent. A `digest` (SHA-256 of the
rest of the document) catches a file edited after export; a `signature` (HMAC-SHA256 with a key derived
from this server's SECRET_KEY) says this server exported it: anyone can recompute a digest, nobody
else can sign. Over the API, only staff may import a backup without a valid signature (an older backup,
another server's, or one edited); the command line (the operator) imports any. Whatever its signature,
every value is checked as the API checks it (backup_check) and every revision is re-scored: a record
that no longer gives its stored result is refused with the hand numbers that differ.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import uuid
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring import ScoringError, format_amount, normalise_language, parse_fee, score_hand

from ledger import bounds, rights
from ledger.services import audit as audit_log
from ledger.services import standings
from ledger.services.groups import personal_group, player_get_or_create
from ledger.web.ratelimit import SIGN_UP
from ledger.services.nights import same_unit
from ledger.models import (AuditEntry, Evening, FeeShare, Group, Hand, HandRevision, Night, Player, Seating,
                      SeatResult, Settlement, WinResult, seat_results, win_results)
from ledger.selectors.nights import night_fee, night_fee_shares, night_nets
from ledger.reports.backup_check import check_document
from ledger.reports.base import Rendered, file_stem
from ledger.reports.context import NightReport

FORMAT = "chengdu-mahjong-ledger/night"
VERSION = 1


#: The key of the signature: derived from SECRET_KEY for this purpose only (salted_hmac's salt).
_SIGNING_SALT = "ledger.reports.backup.signature"


class BackupError(Exception):
    """A backup that cannot be restored; `problems` says why, in the active language, and `paths` where (one
    path per problem: "hands[3].status", "" for the whole document)."""

    def __init__(self, problems: list[str], hands: list[int] | None = None, paths: list[str] | None = None) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems
        self.hands = hands or []
        self.paths = paths if paths is not None else ["hands" if self.hands else ""] * len(problems)

    @property
    def errors(self) -> list[dict[str, str]]:
        return [{"path": p, "message": m} for p, m in zip(self.paths, self.problems)]

    def __str__(self) -> str:
        return "\n".join(f"{p}: {m}" if p else m for p, m in zip(self.paths, self.problems))


class BackupRefused(BackupError):
    """A backup this importer may not import (unsigned, or naming accounts it may not name): a 403 over the API."""


def _time(value: dt.datetime | None) -> str | None:
    return value.astimezone(dt.timezone.utc).isoformat() if value else None


def _canonical(body: dict[str, Any]) -> bytes:
    return json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")


def _digest(body: dict[str, Any]) -> str:
    return "sha256:" + hashlib.sha256(_canonical(body)).hexdigest()


def _signature(body: dict[str, Any], secret: str | bytes | None = None) -> str:
    mac = salted_hmac(_SIGNING_SALT, _canonical(body), secret=secret, algorithm="sha256")
    return "hmac-sha256:" + mac.hexdigest()


def _body(doc: dict[str, Any]) -> dict[str, Any]:
    """The document without its digest and signature (what the signature is computed over)."""
    return {k: v for k, v in doc.items() if k not in ("digest", "signature")}


def signed_here(doc: Any) -> bool:
    """True if this server signed the backup (with its SECRET_KEY, or one of SECRET_KEY_FALLBACKS)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("signature"), str):
        return False
    body = _body(doc)
    return any(constant_time_compare(doc["signature"], _signature(body, secret))
               for secret in [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])])


def export_night(night: Night) -> dict[str, Any]:
    """The backup document of a night (a fixed number of queries, however many hands)."""
    revisions = (HandRevision.objects.filter(hand__night=night)
                 .select_related("player_0", "player_1", "player_2", "player_3", "created_by")
                 .order_by("hand__number", "version"))
    by_hand: dict[int, list[dict[str, Any]]] = {}
    for r in revisions:
        by_hand.setdefault(r.hand_id, []).append({
            "version": r.version, "is_current": r.is_current, "dealer": r.dealer,
            "players": r.names, "record": r.record, "result": r.result,
            "created_by": r.created_by.username, "created_at": _time(r.created_at), "reason": r.reason})
    hands: list[dict[str, Any]] = [{"number": h.number, "status": h.status, "void_reason": h.void_reason,
              "recorded_by": h.recorded_by.username, "recorded_at": _time(h.recorded_at),
              "revisions": by_hand.get(h.pk, [])}
             for h in night.hands.select_related("recorded_by").order_by("number")]
    audit = [{"at": _time(e.at), "actor": e.actor.username, "action": e.action,
              "hand": e.hand.number if e.hand else None, "reason": e.reason, "before": e.before, "after": e.after,
              **({"adjustment": e.adjustment.number} if e.adjustment else {})}
             for e in night.audit.select_related("actor", "hand", "adjustment").order_by("at", "id")]
    extra = export_adjustments(night)
    seating = [s.player.name for s in night.seating.select_related("player").order_by("seat")]
    names = set(seating) | {n for h in hands for r in h["revisions"] for n in r["players"]}
    names |= {n for a in extra.get("adjustments", []) for n in a["players"]}
    names |= {c["player"] for c in extra.get("confirmations", [])}
    body: dict[str, Any] = {
        "format": FORMAT, "version": VERSION,
        "night": {
            "uuid": str(night.uuid), "title": night.title, "date": night.date.isoformat(), "venue": night.venue,
            "base": format_amount(night.base), "stake": night.stake, "currency": night.currency,
            "preset": night.preset, "rules": night.rules, "first_dealer": night.first_dealer,
            "owner": night.owner.username,
            "members": sorted(u.username for u in night.members.all()),
            "scorekeepers": sorted(u.username for u in night.scorekeepers.all()),
            "is_closed": night.is_closed, "closed_at": _time(night.closed_at), "created_at": _time(night.created_at),
            "fee": night_fee(night).as_dict(),
            "evening": ({"title": night.evening.title, "date": night.evening.date.isoformat(),
                         "venue": night.evening.venue} if night.evening else None),
            "table_no": night.table_no,
        },
        "players": sorted(names),
        "seating": seating,
        "hands": hands,
        "audit": audit,
        **extra,
    }
    signed = {**body, "signature": _signature(body)}
    return {**signed, "digest": _digest(signed)}  # the digest covers the signature (older backups have none)


def render(report: NightReport, lang: str) -> Rendered:
    """The backup as a file (the language does not matter: a backup holds data, not words)."""
    text = json.dumps(export_night(report.night), ensure_ascii=False, indent=1)
    return f"{file_stem(report.night)}.json", "application/json", text.encode("utf-8")


@dataclass(frozen=True)
class Restored:
    night: Night
    created: bool  # False: this night (same UUID, same content) was already here
    new_users: list[str]  # usernames created without a usable password


def _need(condition: bool, problem: str) -> None:
    if not condition:
        raise BackupError([problem])


def _parse_time(value: Any, where: str) -> dt.datetime:
    parsed = parse_datetime(value) if isinstance(value, str) else None
    if parsed is None:
        raise BackupError([_("时间格式不对：%(where)s") % {"where": where}])
    return parsed


def _check_file(doc: Any) -> dict[str, Any]:
    """A backup of this application whose digest matches (a file changed by accident is refused as such)."""
    _need(isinstance(doc, dict), _("备份文件应是一个 JSON 对象"))
    _need(doc.get("format") == FORMAT and doc.get("version") == VERSION, _("不是本应用的牌局备份（或版本不支持）"))
    _need(doc.get("digest") == _digest({k: v for k, v in doc.items() if k != "digest"}),
          _("备份文件在导出后被改动过（校验值不符），不能导入"))
    checked: dict[str, Any] = doc
    return checked


def _check_shape(doc: dict[str, Any]) -> dict[str, Any]:
    """Every value, as the API checks it (backup_check)."""
    for key, kind in (("night", dict), ("players", list), ("seating", list), ("hands", list), ("audit", list)):
        _need(isinstance(doc.get(key), kind), _("备份缺少 %(key)s") % {"key": key})
    problems, _names = check_document(doc)
    if problems.found:
        raise BackupError([m for _p, m in problems.found], paths=[p for p, _m in problems.found])
    # A table seats its rules' `players` (RULES.md §9; 4 for a backup made before table shapes).
    seats = doc["night"].get("rules", {}).get("players", 4) if isinstance(doc["night"].get("rules"), dict) else 4
    _need(seats in (2, 3, 4) and len(doc["seating"]) == seats, _("座位应有 %(n)s 人") % {"n": seats})
    return doc


def _check_scores(hands: list[dict[str, Any]]) -> None:
    """Every revision must re-score to its stored result with today's engine."""
    differ = []
    for hand in hands:
        for revision in hand["revisions"]:
            try:
                result = score_hand(revision["record"])
                bounds.check_payments(result.payments)  # as a hand recorded at the table: amounts that fit
                same = result.as_dict() == revision["result"]
            except (ScoringError, ValidationError):
                same = False
            if not same:
                differ.append(hand["number"])
                break
    if differ:
        raise BackupError([_("这些局重新计算后与备份里的结果不同：%(numbers)s")
                           % {"numbers": ", ".join(str(n) for n in differ)}], hands=differ)


def import_night(doc: Any, *, by: Any = None) -> Restored:
    """Restore a night from its backup in one transaction; nothing is written if anything is wrong.

    `by` is the account importing over the API; None is the operator at the command line, who may import any
    backup. Over the API a backup this server did not sign is imported only by staff, and then names no existing
    account but the importer's (an unsigned file could otherwise put hands and audit entries under anyone's
    name); and no import over the API creates more accounts than the sign-up limit lets a visitor create.
    """
    _check_file(doc)
    signed = signed_here(doc)
    if by is not None and not signed and not rights.may_import_unsigned_backup(by):
        raise BackupRefused([_("这个备份没有本服务器的有效签名（较早的备份、别的服务器的备份，或导出后改过）：只有管理员可以导入")],
                            paths=["signature"])
    try:
        return _import(_check_shape(doc), by=by, signed=signed)
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise BackupError([_("备份内容不完整或格式不对：%(detail)s") % {"detail": exc}]) from exc


@transaction.atomic
def _import(doc: dict[str, Any], *, by: Any, signed: bool) -> Restored:
    data = doc["night"]
    try:
        night_uuid = uuid.UUID(str(data["uuid"]))
        base = Decimal(str(data["base"]))
        date = parse_date(str(data["date"]))
        if date is None:
            raise ValueError(data["date"])
    except (KeyError, ValueError, InvalidOperation) as exc:
        raise BackupError([_("牌局信息不完整：%(detail)s") % {"detail": exc}]) from exc
    _check_scores(doc["hands"])
    existing = Night.objects.filter(uuid=night_uuid).first()
    if existing is not None:
        if _same(export_night(existing), doc):
            return Restored(existing, False, [])
        raise BackupError([_("这一场（%(uuid)s）已经在数据库里，而且内容不同：不覆盖") % {"uuid": night_uuid}])

    try:
        fee = parse_fee(data.get("fee")).as_dict()
    except ScoringError as exc:
        raise BackupError([p.message(normalise_language(get_language())) for p in exc.problems]) from exc
    users, new_users = _users(doc, by=by, signed=signed)
    group = personal_group(users[data["owner"]])
    players = {name: player_get_or_create(name=name, group=group, exact=True) for name in doc["players"]}
    evening, table_no = _evening(data, group, users[data["owner"]])
    night = Night(uuid=night_uuid, group=group, evening=evening, table_no=table_no, fee=fee,
                  title=data.get("title", ""), date=date, venue=data.get("venue", ""), base=base,
                  stake=data.get("stake", Night.Stake.MONEY), currency=data.get("currency", ""),
                  preset=data.get("preset", "chengdu"), rules=data.get("rules"),
                  first_dealer=data.get("first_dealer", 0), owner=users[data["owner"]],
                  is_closed=bool(data.get("is_closed")), closed_at=_parse_time(data["closed_at"], "closed_at") if data.get("closed_at") else None)
    try:
        night.full_clean(exclude=["uuid"])
    except ValidationError as exc:
        raise BackupError(exc.messages) from exc
    night.save()
    night.members.set([users[u] for u in data.get("members", [])])
    night.scorekeepers.set([users[u] for u in data.get("scorekeepers", [])])
    Seating.objects.bulk_create(Seating(night=night, seat=s, player=players[n]) for s, n in enumerate(doc["seating"]))
    hands = _restore_hands(night, doc["hands"], users, players)
    adjusted = restore_adjustments(night, doc, users, players)
    entries = audit_log.log_many([
        audit_log.build(e["action"], night=night, hand=hands.get(e["hand"]) if e.get("hand") is not None else None,
                        adjustment=adjusted.get(e["adjustment"]) if e.get("adjustment") is not None else None,
                        actor=users[e["actor"]], reason=e.get("reason", ""), before=e.get("before"),
                        after=e.get("after")) for e in doc["audit"]])
    # auto_now_add stamps "now" on create: put back the times of the original.
    if data.get("created_at") is not None:
        night.created_at = _parse_time(data["created_at"], "created_at")
    Night.objects.filter(pk=night.pk).update(created_at=night.created_at)
    for entry, e in zip(entries, doc["audit"]):
        entry.at = _parse_time(e["at"], "audit.at")
    AuditEntry.objects.bulk_update(entries, ["at"], batch_size=500)
    if night.is_closed:  # as night_close would have: what each player paid towards the table fee
        shares = night_fee_shares(night, night_nets(night))
        FeeShare.objects.bulk_create(FeeShare(night=night, player_id=pk, amount=a) for pk, a in shares.items())
    standings.refresh([night.pk])
    if not _same(export_night(night), doc):  # the promise of a backup: restoring gives back the same document
        raise BackupError([_("导入后的牌局与备份不一致，已撤回")])
    return Restored(night, True, new_users)


#: What a backup's night gained with table fees and evenings (issue 11); older backups have none of them.
_LATER_KEYS = ("fee", "evening", "table_no")


def _same(exported: dict[str, Any], doc: dict[str, Any]) -> bool:
    """True if a night exports as the backup `doc`; an older backup (without fee, evening and table) is compared
    with the export as it would have been then: the same night with no fee and no evening."""
    if all(key in doc["night"] for key in _LATER_KEYS):
        return _body(exported) == _body(doc)  # a signature or not: the same night
    night = exported["night"]
    if night["fee"] != {"mode": "none"} or night["evening"] is not None or night["table_no"] is not None:
        return False
    body = _body(exported)
    body["night"] = {k: v for k, v in night.items() if k not in _LATER_KEYS}
    return body == _body(doc)


def _evening(data: dict[str, Any], group: Group, owner: Any) -> tuple[Evening | None, int | None]:
    """The evening a restored night is a table of: the group's evening of that title, date and venue if it is not
    settled and the table is free there, else a new one like it (the backup's evening comes back the same)."""
    if not data.get("evening"):
        return None, None
    about = data["evening"]
    date = parse_date(str(about["date"]))
    table_no = data.get("table_no")
    if date is None or not isinstance(table_no, int) or not 1 <= table_no <= 99:
        raise BackupError([_("活动信息不完整：%(detail)s") % {"detail": about}])
    if str(date) != str(data.get("date")):
        raise BackupError([_("活动的日期和牌局的日期不同：%(detail)s") % {"detail": about}])
    fields = {"group": group, "title": str(about["title"])[:80], "date": date, "venue": str(about.get("venue", ""))[:80]}
    stake = data.get("stake", Night.Stake.MONEY)
    currency = data.get("currency", "") if stake == Night.Stake.MONEY else ""
    for evening in Evening.objects.filter(**fields).select_for_update().order_by("id"):
        if (not Settlement.objects.filter(evening=evening).exists()
                and not evening.nights.filter(table_no=table_no).exists()
                and same_unit(evening, stake=stake, currency=currency)):
            return evening, table_no
    return Evening.objects.create(created_by=owner, **fields), table_no


def _named(doc: dict[str, Any]) -> dict[str, str]:
    """The usernames the backup names, each with the first place that names it."""
    data = doc["night"]
    places = [("night.owner", data["owner"]),
              *((f"night.members[{i}]", n) for i, n in enumerate(data.get("members", []))),
              *((f"night.scorekeepers[{i}]", n) for i, n in enumerate(data.get("scorekeepers", [])))]
    for i, hand in enumerate(doc["hands"]):
        places.append((f"hands[{i}].recorded_by", hand["recorded_by"]))
        places += [(f"hands[{i}].revisions[{j}].created_by", r["created_by"]) for j, r in enumerate(hand["revisions"])]
    places += [(f"audit[{i}].actor", e["actor"]) for i, e in enumerate(doc["audit"])]
    places += [("adjustments", name) for name in sorted(adjustment_users(doc))]
    named: dict[str, str] = {}
    for path, name in places:
        named.setdefault(name, path)
    return named


def _users(doc: dict[str, Any], *, by: Any, signed: bool) -> tuple[dict[str, Any], list[str]]:
    """The users the backup names, by username; missing ones are created without a usable password (over the
    API at most SIGN_UP.limit of them, and an unsigned backup names no existing account but the importer's)."""
    named = _named(doc)
    model = get_user_model()
    users = {u.get_username(): u for u in model.objects.filter(**{f"{model.USERNAME_FIELD}__in": list(named)})}
    if by is not None and not signed:
        others = [name for name in named if name in users and name != by.get_username()]
        if others:
            raise BackupRefused([_("没有本服务器签名的备份不能把记录算在已有的其他账户名下：%(names)s"
                                   "（服务器管理员可以用 manage.py import_night 导入）") % {"names": ", ".join(others)}],
                                paths=[named[others[0]]])
    new_users = sorted(set(named) - set(users))
    if by is not None and len(new_users) > SIGN_UP.limit:
        extra = [name for name in named if name not in users][SIGN_UP.limit]
        raise BackupRefused([_("这个备份要新建 %(n)d 个账户，通过 API 一次最多 %(limit)d 个（和注册的上限一样）"
                               "（服务器管理员可以用 manage.py import_night 导入）")
                             % {"n": len(new_users), "limit": SIGN_UP.limit}], paths=[named[extra]])
    for name in new_users:
        user = model(**{model.USERNAME_FIELD: name})
        user.set_unusable_password()
        user.save()
        users[name] = user
    return users, new_users


def _restore_hands(night: Night, hands: list[dict[str, Any]], users: dict[str, Any],
                   players: dict[str, Player]) -> dict[int, Hand]:
    Hand.objects.bulk_create(
        Hand(night=night, number=h["number"], status=h["status"], void_reason=h.get("void_reason", ""),
             recorded_by=users[h["recorded_by"]]) for h in hands)
    by_number = {h.number: h for h in Hand.objects.filter(night=night)}
    for h in hands:
        by_number[h["number"]].recorded_at = _parse_time(h["recorded_at"], "recorded_at")
    Hand.objects.bulk_update(list(by_number.values()), ["recorded_at"], batch_size=500)
    revisions, docs = [], {}
    for h in hands:
        for r in h["revisions"]:
            # A table of 3 or 2 leaves the last columns empty.
            seats: list[Player | None] = [*(players[n] for n in r["players"]), *[None] * (4 - len(r["players"]))]
            revisions.append(HandRevision(
                hand=by_number[h["number"]], version=r["version"], is_current=r["is_current"], dealer=r["dealer"],
                player_0=seats[0], player_1=seats[1], player_2=seats[2], player_3=seats[3], record=r["record"],
                result=r["result"], created_by=users[r["created_by"]], reason=r.get("reason", ""),
                player_names=list(r["players"])))
            docs[(h["number"], r["version"])] = r
    HandRevision.objects.bulk_create(revisions)
    saved = list(HandRevision.objects.filter(hand__night=night).select_related(
        "hand", "player_0", "player_1", "player_2", "player_3"))
    for revision in saved:
        revision.created_at = _parse_time(docs[(revision.hand.number, revision.version)]["created_at"], "created_at")
    HandRevision.objects.bulk_update(saved, ["created_at"], batch_size=500)
    # As services._write_revision does: statistics and per-win fees count these.
    results = []
    for revision in saved:
        for row in seat_results(revision.result, revision.players):
            row.revision = revision
            results.append(row)
    SeatResult.objects.bulk_create(results, batch_size=500)
    wins = []
    for revision in saved:
        for win in win_results(revision.result, revision.players):
            win.revision = revision
            wins.append(win)
    WinResult.objects.bulk_create(wins, batch_size=500)
    return by_number



# ---- penalties and adjustments (罚分/调整) and sign-offs (签字确认), issue 21 ---------------------------------------
# Kept apart from the rest of the backup: both keys are present only when the night has some, so a night without
# them exports exactly as before (and an older backup, which has neither, still compares equal on import).

def export_adjustments(night: Night) -> dict[str, Any]:
    """{"adjustments": [...], "confirmations": [...]} of a night, each key only when it has any."""
    from ledger.models import Adjustment, Confirmation
    out: dict[str, Any] = {}
    adjustments = [{"number": a.number, "after_hand": a.after_hand, "kind": a.kind, "status": a.status,
                    "void_reason": a.void_reason, "version": a.version, "players": list(a.player_names),
                    "payer": a.payer_seat, "payee": a.payee_seat, "fan": a.fan, "amount": format_amount(a.amount),
                    "note": a.note, "recorded_by": a.recorded_by.username, "recorded_at": _time(a.recorded_at)}
                   for a in Adjustment.objects.filter(night=night).select_related("recorded_by").order_by("number")]
    if adjustments:
        out["adjustments"] = adjustments
    confirmations = [{"player": c.player.name, "seat": c.seat, "user": c.user.username, "at": _time(c.at)}
                     for c in Confirmation.objects.filter(night=night).select_related("player", "user")
                     .order_by("seat", "player__name")]
    if confirmations:
        out["confirmations"] = confirmations
    return out


def adjustment_users(doc: dict[str, Any]) -> set[str]:
    """The usernames the adjustments and confirmations of a backup name."""
    return ({a["recorded_by"] for a in doc.get("adjustments", [])}
            | {c["user"] for c in doc.get("confirmations", [])})


def _seat_of(value: Any, table: tuple[int, ...]) -> bool:
    return type(value) is int and value in table  # not True, which equals 1


def restore_adjustments(night: Night, doc: dict[str, Any], users: dict[str, Any],
                        players: dict[str, Player]) -> dict[int, Any]:
    """Restore a backup's adjustments (with their seat nets, derived again) and confirmations; number -> row."""
    from ledger.services.adjustments import adjustment_nets
    from ledger.models import Adjustment, AdjustmentSeat, Confirmation
    docs = doc.get("adjustments", [])
    _need(isinstance(docs, list) and isinstance(doc.get("confirmations", []), list), _("备份里的罚分/调整格式不对"))
    made: dict[int, Adjustment] = {}
    seats = []
    table = night.seats  # the night's own table (RULES.md §9: 4, 3 or 2 seats)
    for i, a in enumerate(docs):
        try:
            amount = Decimal(str(a["amount"]))
            ok = (a["kind"] in Adjustment.Kind.values and a["status"] in Hand.Status.values
                  and len(a["players"]) == len(table) and _seat_of(a["payer"], table)
                  and (_seat_of(a["payee"], table) if a["kind"] == Adjustment.Kind.TRANSFER else a["payee"] is None)
                  and amount.is_finite() and amount > 0)
        except (InvalidOperation, KeyError, TypeError) as exc:
            raise BackupError([_("备份里的罚分/调整格式不对")], paths=[f"adjustments[{i}]"]) from exc
        if not ok:
            raise BackupError([_("备份里的罚分/调整 %(n)s 格式不对") % {"n": a.get("number")}], paths=[f"adjustments[{i}]"])
        row = Adjustment.objects.create(
            night=night, number=a["number"], after_hand=a["after_hand"], kind=a["kind"], status=a["status"],
            void_reason=a.get("void_reason", ""), version=a.get("version", 1), player_names=list(a["players"]),
            payer_seat=a["payer"], payee_seat=a["payee"], fan=a.get("fan"), amount=amount, note=a.get("note", ""),
            recorded_by=users[a["recorded_by"]])
        row.recorded_at = _parse_time(a["recorded_at"], "adjustments.recorded_at")
        Adjustment.objects.filter(pk=row.pk).update(recorded_at=row.recorded_at)
        nets = adjustment_nets(row.kind, row.payer_seat, row.payee_seat, row.amount, seats=len(table))
        seats += [AdjustmentSeat(adjustment=row, seat=s, player=players[name], net=nets[s])
                  for s, name in enumerate(a["players"])]
        made[row.number] = row
    AdjustmentSeat.objects.bulk_create(seats)
    for c in doc.get("confirmations", []):
        signed = Confirmation.objects.create(night=night, player=players[c["player"]], seat=c.get("seat"),
                                             user=users[c["user"]])
        Confirmation.objects.filter(pk=signed.pk).update(at=_parse_time(c["at"], "confirmations.at"))
    return made
