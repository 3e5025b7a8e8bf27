"""The hand record of HAND_FORMAT.md: read a JSON document into typed events, collecting every problem.

Reading checks each field on its own (types, seats, codes, tiles); the rules that tie fields
together (who may act when, flags, kongs held, tiles on the table, the end of the hand) are
in `invariants.py`. `read_record` does both.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from collections.abc import Mapping
from typing import Any

from .hands import Meld, value_hand
from .messages import Problem, ScoringError
from .money import parse_base
from .patterns import MODIFIERS, PATTERNS, max_roots, min_roots
from .rules import Rules, parse_rules, table_shape
from .tiles import parse_tile, tile_name
from .waits import analyse_ready

__all__ = ["HandRecord", "Kong", "MAX_EVENTS", "MAX_EVENTS_XUE_LIU", "MAX_KONGS_PER_PLAYER", "MAX_READY_FAN",
           "MAX_WINS", "MAX_WINS_XUE_LIU", "Ready", "SEATS", "Win", "Winner", "max_events", "max_roots",
           "read_document", "read_record"]

SEATS = (0, 1, 2, 3)
KONG_KINDS = ("direct", "added", "concealed")
MAX_READY_FAN = 20
#: The most roots any pattern may claim (a hand of 14 tiles holds at most four quads' worth of 根).
MOST_ROOTS = max(max_roots(pattern) for pattern in PATTERNS)
#: A hand ends at its third winner; one tile can be won by three players at most.
MAX_WINS = 3
#: A hand of 14 tiles holds at most four sets, so a player makes at most four kongs in a hand.
MAX_KONGS_PER_PLAYER = 4
#: The most events a hand can record: three wins and four kongs per player. More is refused unread.
MAX_EVENTS = MAX_WINS + MAX_KONGS_PER_PLAYER * len(SEATS)
#: 血流成河 (RULES.md §9): winners stay in, so a hand holds many wins; these bound it.
MAX_WINS_XUE_LIU = 40
MAX_EVENTS_XUE_LIU = 60
TOP_LEVEL = ("base", "rules", "dealer", "events", "exhausted", "ready", "hua_zhu")


@dataclass
class Winner:
    """One player who won on an event (a win with several winners is 一炮多响)."""

    player: int | None
    pattern: str | None
    roots: int
    flags: list[str]
    counts: list[int] | None = None  # the concealed tiles, when entered as tiles
    parsed_melds: list[Meld] = field(default_factory=list)
    quick: bool = False  # entered as pattern and roots


@dataclass
class Kong:
    """A kong (杠: 刮风 direct/added, 下雨 concealed); robbed when the next event is a 抢杠胡 on it."""

    index: int
    player: int | None
    kind: str | None
    discarder: int | None
    tile: int | None
    robbed: bool = False


@dataclass
class Win:
    """A win: a self-draw (discarder None), or a discard / robbed kong won by one to three players."""

    index: int
    discarder: int | None
    winners: list[Winner]
    from_null: bool = True  # "from" is null in the document: a self-draw as written
    listed: int = 0  # entries under "winners", read or not

    @property
    def self_draw(self) -> bool:
        return self.discarder is None

    @property
    def robs(self) -> bool:
        """The tile is a robbed kong's (抢杠胡): the flag of the tile, on its winners."""
        return not self.self_draw and any("qiang_gang_hu" in w.flags for w in self.winners)


@dataclass
class Ready:
    """A player ready (下叫) at 查叫: the fan to charge, the waits when tiles were given."""

    seat: int
    fan: int | None
    waits: list[str] = field(default_factory=list)
    counts: list[int] | None = None
    parsed_melds: list[Meld] = field(default_factory=list)


@dataclass
class HandRecord:
    """A hand record as read: everything the checks and the settlement need."""

    base: Decimal
    rules: Rules
    dealer: int
    events: list[Kong | Win]
    exhausted: bool
    ready: dict[int, Ready]
    hua_zhu: list[int]
    dealer_known: bool = True
    event_count: int = 0  # events in the document, read or not
    ready_listed: tuple[int, ...] = ()  # seats listed under "ready", entry valid or not


def max_events(rules: Rules) -> int:
    """The most events a hand may record under these rules (more is refused unread)."""
    return MAX_EVENTS_XUE_LIU if rules.mode == "xue_liu" else MAX_EVENTS


class _Reader:
    """Walks a document, turning it into a HandRecord and collecting problems with their paths."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.rules = Rules()
        self.players = len(SEATS)  # the table's size (RULES.md §9), known once the rules are read

    def add(self, path: str, code: str, **params: Any) -> None:
        self.problems.append(Problem(path, code, params))

    def absorb(self, exc: ScoringError) -> None:
        self.problems.extend(exc.problems)

    def keys(self, obj: Mapping[str, Any], allowed: tuple[str, ...], path: str) -> None:
        for key in obj:
            if key not in allowed:
                self.add(f"{path}.{key}" if path else str(key), "unknown_field", name=key)

    def seat(self, value: object, path: str) -> int | None:
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < self.players:
            return value
        if self.players == len(SEATS):
            self.add(path, "bad_seat", high=self.players - 1)
        else:
            self.add(path, "seat_outside_table", players=self.players, high=self.players - 1)
        return None

    def table_suits(self, counts: list[int] | None, melds: list[Meld], path: str, tile: int | None = None) -> None:
        """At a 两房 table (suits "ps") no 万 tile may appear anywhere in the record (RULES.md §9)."""
        if not self.rules.two_suits:
            return
        if tile is not None and tile < 9:
            self.add(path, "suit_not_at_table", tile=tile_name(tile))
        if counts is not None:
            wan = [t for t in range(9) if counts[t]]
            if wan:
                self.add(f"{path}.tiles", "suit_not_at_table", tile=tile_name(wan[0]))
        for k, meld in enumerate(melds):
            if meld.tile < 9:
                self.add(f"{path}.melds[{k}]", "suit_not_at_table", tile=tile_name(meld.tile))

    def required_seat(self, obj: Mapping[str, Any], key: str, path: str) -> int | None:
        if key not in obj:
            self.add(f"{path}.{key}", "missing_field", name=key)  # where it is missing, as fee.mode is
            return None
        return self.seat(obj[key], f"{path}.{key}")

    def base(self, value: object) -> Decimal:
        try:
            return parse_base(value)
        except ScoringError as exc:
            self.absorb(exc)
            return Decimal(1)

    def flag_list(self, value: object, path: str) -> list[str]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.add(path, "not_list")
            return []
        flags: list[str] = []
        for i, flag in enumerate(value):
            if not isinstance(flag, str) or flag not in MODIFIERS:
                self.add(f"{path}[{i}]", "unknown_flag", name=flag if isinstance(flag, str) else repr(flag))
            elif flag in flags:
                self.add(f"{path}[{i}]", "duplicate_flag", name=flag)
            else:
                flags.append(flag)
        return flags

    def winner(self, obj: object, path: str) -> Winner | None:
        if not isinstance(obj, Mapping):
            self.add(path, "not_object")
            return None
        self.keys(obj, ("player", "tiles", "melds", "pattern", "roots", "flags"), path)
        player = self.required_seat(obj, "player", path)
        flags = self.flag_list(obj.get("flags"), f"{path}.flags")
        winner = Winner(player=player, pattern=None, roots=0, flags=flags)
        has_tiles, has_pattern = "tiles" in obj, "pattern" in obj
        if has_tiles and has_pattern:
            self.add(path, "winner_tiles_and_pattern")
        elif has_tiles:
            if "roots" in obj:
                self.add(f"{path}.roots", "roots_without_pattern")
            try:
                value = value_hand(obj["tiles"], obj.get("melds"), path=path, rules=self.rules)
            except ScoringError as exc:
                self.absorb(exc)
                return winner
            self.table_suits(value.counts, value.melds, path)
            if value.problem:
                self.add(f"{path}.tiles", value.problem, suits=value.suits)
            winner.pattern, winner.roots = value.pattern, value.roots
            winner.counts, winner.parsed_melds = value.counts, value.melds
        elif has_pattern:
            winner.quick = True
            if "melds" in obj:
                self.add(f"{path}.melds", "melds_without_tiles")
            pattern = obj["pattern"]
            if not isinstance(pattern, str) or pattern not in PATTERNS:
                self.add(f"{path}.pattern", "unknown_pattern", name=pattern if isinstance(pattern, str) else repr(pattern))
                self.any_roots(obj, f"{path}.roots")
            elif pattern not in self.rules.fans:
                # 幺九将对 off, or no 将七对 at this table (RULES.md §10).
                self.add(f"{path}.pattern", "pattern_not_at_table", name=pattern)
                self.any_roots(obj, f"{path}.roots")
            else:
                winner.pattern = pattern
                winner.roots = self.roots(obj.get("roots", 0), pattern, f"{path}.roots")
        else:
            self.add(path, "winner_needs_tiles_or_pattern")
        return winner

    def any_roots(self, obj: Mapping[str, Any], path: str) -> None:
        """Roots beside a pattern that cannot be read: still checked against what any pattern allows, so every
        problem is said at once."""
        value = obj.get("roots", 0)
        if not (isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MOST_ROOTS):
            self.add(path, "roots_any_range", high=MOST_ROOTS)

    def roots(self, value: object, pattern: str, path: str) -> int:
        low, high = min_roots(pattern), max_roots(pattern, self.rules.fans)
        if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            return value
        self.add(path, "roots_range", pattern=pattern, low=low, high=high)
        return low

    def kong(self, index: int, obj: Mapping[str, Any], path: str) -> Kong:
        self.keys(obj, ("type", "player", "kind", "from", "tile"), path)
        player = self.required_seat(obj, "player", path)
        kind = obj.get("kind")
        if kind not in KONG_KINDS:
            self.add(f"{path}.kind", "bad_kong_kind")
            kind = None
        discarder = None
        if kind == "direct":
            if obj.get("from") is None:
                self.add(f"{path}.from", "kong_needs_from")
            else:
                discarder = self.seat(obj["from"], f"{path}.from")
        elif obj.get("from") is not None:
            self.add(f"{path}.from", "kong_from_only_direct")
        tile = None
        if obj.get("tile") is not None:
            try:
                tile = parse_tile(obj["tile"], f"{path}.tile")
            except ScoringError as exc:
                self.absorb(exc)
            self.table_suits(None, [], f"{path}.tile", tile)
        return Kong(index, player, kind, discarder, tile)

    def win(self, index: int, obj: Mapping[str, Any], path: str) -> Win:
        self.keys(obj, ("type", "from", "winners"), path)
        if "from" not in obj:
            self.add(f"{path}.from", "missing_field", name="from")
            discarder = None
        else:
            discarder = None if obj["from"] is None else self.seat(obj["from"], f"{path}.from")
        raw = obj.get("winners")
        winners: list[Winner] = []
        if not isinstance(raw, list):
            self.add(f"{path}.winners", "not_list")
        elif not raw:
            self.add(f"{path}.winners", "winners_empty")
        else:
            # One discard is won by at most every other player (RULES.md §9: three at four seats).
            most = self.players - 1
            if len(raw) > most:
                if self.players == len(SEATS):
                    self.add(f"{path}.winners", "too_many_winners_event")
                else:
                    self.add(f"{path}.winners", "too_many_winners_table", players=self.players, high=most)
            for j, entry in enumerate(raw[:most + 1]):
                winner = self.winner(entry, f"{path}.winners[{j}]")
                if winner is not None:
                    winners.append(winner)
        return Win(index, discarder, winners, from_null="from" in obj and obj["from"] is None, listed=len(raw) if isinstance(raw, list) else 0)

    def event(self, index: int, obj: object) -> Kong | Win | None:
        path = f"events[{index}]"
        if not isinstance(obj, Mapping):
            self.add(path, "not_object")
            return None
        kind = obj.get("type")
        if kind == "kong":
            return self.kong(index, obj, path)
        if kind == "win":
            return self.win(index, obj, path)
        self.add(f"{path}.type", "unknown_event_type")
        return None

    def ready_entry(self, seat: int, obj: object, path: str, mode: str, kong_kinds: list[str]) -> Ready | None:
        if not isinstance(obj, Mapping):
            self.add(path, "not_object")
            return None
        self.keys(obj, ("tiles", "melds", "fan"), path)
        if "tiles" in obj and "fan" in obj:
            self.add(path, "ready_tiles_and_fan")
            return None
        if "tiles" in obj:
            try:
                analysis = analyse_ready(obj["tiles"], obj.get("melds"), path=path, rules=self.rules,
                                         kong_kinds=kong_kinds, table_suits=self.rules.suits)
            except ScoringError as exc:
                self.absorb(exc)
                return None
            before = len(self.problems)
            self.table_suits(list(analysis.counts), list(analysis.parsed_melds), path)
            if analysis.problem:
                self.add(f"{path}.tiles", analysis.problem, suits=analysis.suits)
            if analysis.problem or len(self.problems) > before:
                return None
            return Ready(seat, analysis.cha_jiao_fan(mode), [w.tile for w in analysis.waits],
                         list(analysis.counts), list(analysis.parsed_melds))
        if "fan" in obj:
            if "melds" in obj:
                self.add(f"{path}.melds", "melds_without_tiles")
            fan = obj["fan"]
            if isinstance(fan, int) and not isinstance(fan, bool) and 0 <= fan <= MAX_READY_FAN:
                return Ready(seat, fan)
            self.add(f"{path}.fan", "bad_fan", high=MAX_READY_FAN)
            return None
        self.add(path, "ready_needs_tiles_or_fan")
        return None

    def events(self, raw: object) -> tuple[list[Kong | Win], int]:
        if not isinstance(raw, list):
            self.add("events", "not_list")
            return [], 0
        most = max_events(self.rules)
        if len(raw) > most:
            if self.rules.mode == "xue_liu":
                self.add("events", "too_many_events_xue_liu", high=most)
            else:
                self.add("events", "too_many_events", high=most)
            return [], len(raw)
        events = [e for e in (self.event(i, obj) for i, obj in enumerate(raw)) if e is not None]
        for kong, after in zip(events, events[1:]):
            # A kong followed at once by a 抢杠胡 from its player never happened (RULES.md §5).
            if (isinstance(kong, Kong) and isinstance(after, Win) and after.index == kong.index + 1
                    and after.robs and after.discarder == kong.player):
                kong.robbed = True
        return events, len(raw)

    def ready(self, raw: object, mode: str, events: list[Kong | Win]) -> tuple[dict[int, Ready], tuple[int, ...]]:
        ready: dict[int, Ready] = {}
        listed: list[int] = []
        if raw is None:
            return ready, ()
        if not isinstance(raw, Mapping):
            self.add("ready", "not_object")
            return ready, ()
        for key, entry in raw.items():
            if not (isinstance(key, str) and key in [str(seat) for seat in range(self.players)]):
                self.add(f"ready.{key}", "bad_ready_key", high=self.players - 1)
                continue
            listed.append(int(key))
            # The seat's kongs decide 门清 at 查叫 (RULES.md §6, §10).
            kinds = [e.kind or "" for e in events if isinstance(e, Kong) and e.player == int(key) and not e.robbed]
            parsed = self.ready_entry(int(key), entry, f"ready.{key}", mode, kinds)
            if parsed is not None:
                ready[int(key)] = parsed
        return ready, tuple(listed)

    def hua_zhu(self, raw: object) -> list[int]:
        seats: list[int] = []
        if raw is None:
            return seats
        if not isinstance(raw, list):
            self.add("hua_zhu", "not_list")
            return seats
        if len(raw) > self.players + 1:  # a bound, as for winners: said, so that nothing is dropped unseen
            self.add("hua_zhu", "hua_zhu_too_many", count=len(raw), players=self.players, read=self.players + 1)
        for i, value in enumerate(raw[:self.players + 1]):
            seat = self.seat(value, f"hua_zhu[{i}]")
            if seat is None:
                continue
            if self.rules.two_suits:
                self.add(f"hua_zhu[{i}]", "hua_zhu_at_two_suits")
                continue
            if seat in seats:
                self.add(f"hua_zhu[{i}]", "hua_zhu_duplicate", seat=seat)
            else:
                seats.append(seat)
        return seats

    def record(self, doc: Mapping[str, Any]) -> HandRecord:
        self.keys(doc, TOP_LEVEL, "")
        base = self.base(doc.get("base", "1"))
        try:
            rules = parse_rules(doc.get("rules"))
        except ScoringError as exc:
            self.absorb(exc)
            rules = table_shape(doc.get("rules"))
        self.rules, self.players = rules, rules.players
        dealer = self.seat(doc.get("dealer", 0), "dealer")
        events, event_count = self.events(doc.get("events", []))
        exhausted = doc.get("exhausted", False)
        if not isinstance(exhausted, bool):
            self.add("exhausted", "bad_bool")
            exhausted = False
        ready, listed = self.ready(doc.get("ready", {}), rules.cha_jiao, events)
        hua_zhu = self.hua_zhu(doc.get("hua_zhu", []))
        return HandRecord(base, rules, dealer if dealer is not None else 0, events, exhausted, ready, hua_zhu,
                          dealer_known=dealer is not None, event_count=event_count, ready_listed=listed)


def read_document(doc: object) -> tuple[HandRecord, list[Problem]]:
    """Read a document field by field, never raising: the record as far as it could be read, and the problems."""
    reader = _Reader()
    if not isinstance(doc, Mapping):
        reader.add("", "not_object")
        return reader.record({}), reader.problems
    return reader.record(doc), reader.problems
