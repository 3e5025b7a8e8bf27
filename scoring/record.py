"""The hand record of HAND_FORMAT.md: read and check a JSON document, collecting every problem."""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Mapping

from .hands import Meld, analyse_hand, analyse_ready
from .messages import Problem, ScoringError
from .patterns import DRAGON_PATTERNS, MODIFIERS, PATTERNS, SEVEN_PAIRS_PATTERNS
from .rules import Rules, parse_rules
from .tiles import KINDS, parse_tile, parse_tiles, tile_name

SEATS = (0, 1, 2, 3)
KONG_KINDS = ("direct", "added", "concealed")
MAX_ROOTS = 4
MAX_READY_FAN = 20


@dataclass
class Winner:
    """One player who won on an event (a win with several winners is 一炮多响)."""

    player: int | None
    pattern: str | None
    roots: int
    flags: list[str]
    tiles: str | None = None  # canonical, when entered as tiles
    melds: list[str] = field(default_factory=list)
    counts: list[int] | None = None  # concealed tiles and melds, for tile conservation
    parsed_melds: list[Meld] = field(default_factory=list)


@dataclass
class Kong:
    """A kong (杠: 刮风 direct/added, 下雨 concealed)."""

    index: int
    player: int | None
    kind: str | None
    discarder: int | None
    tile: int | None


@dataclass
class Win:
    """A win: a self-draw (discarder None), or a discard / robbed kong won by one to three players."""

    index: int
    discarder: int | None
    winners: list[Winner]

    @property
    def self_draw(self) -> bool:
        return self.discarder is None


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
    """A checked hand record: everything the settlement needs."""

    base: Decimal
    rules: Rules
    dealer: int
    events: list[Kong | Win]
    exhausted: bool
    ready: dict[int, Ready]
    hua_zhu: list[int]


class _Reader:
    """Walks a document, turning it into a HandRecord and collecting problems with their paths."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, path: str, code: str, **params: Any) -> None:
        self.problems.append(Problem(path, code, params))

    def absorb(self, exc: ScoringError) -> None:
        self.problems.extend(exc.problems)

    def keys(self, obj: Mapping[str, Any], allowed: tuple[str, ...], path: str) -> None:
        for key in obj:
            if key not in allowed:
                self.add(f"{path}.{key}" if path else str(key), "unknown_field", name=key)

    def seat(self, value: object, path: str) -> int | None:
        if isinstance(value, int) and not isinstance(value, bool) and value in SEATS:
            return value
        self.add(path, "bad_seat")
        return None

    def required_seat(self, obj: Mapping[str, Any], key: str, path: str) -> int | None:
        if key not in obj:
            self.add(path, "missing_field", name=key)
            return None
        return self.seat(obj[key], f"{path}.{key}")

    def base(self, value: object) -> Decimal:
        if isinstance(value, int) and not isinstance(value, bool):
            amount = Decimal(value)
        elif isinstance(value, str):
            try:
                amount = Decimal(value.strip())
            except InvalidOperation:
                amount = Decimal("NaN")
        else:
            amount = Decimal("NaN")
        if not amount.is_finite() or amount <= 0:
            self.add("base", "bad_base")
            return Decimal(1)
        return amount

    def flag_list(self, value: object, path: str) -> list[str]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.add(path, "not_list")
            return []
        flags: list[str] = []
        for i, flag in enumerate(value):
            if not isinstance(flag, str) or flag not in MODIFIERS:
                self.add(f"{path}[{i}]", "unknown_flag", name=flag)
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
                analysis = analyse_hand(obj["tiles"], obj.get("melds"), path=path)
            except ScoringError as exc:
                self.absorb(exc)
                return winner
            if analysis.problem:
                self.add(f"{path}.tiles", analysis.problem, suits=analysis.suits)
            winner.pattern, winner.roots = analysis.pattern, analysis.roots
            winner.tiles, winner.melds = analysis.tiles, list(analysis.melds)
            winner.counts = parse_tiles(analysis.tiles)
            winner.parsed_melds = _melds_of(analysis.melds)
            if "jin_gou_diao" in flags and sum(winner.counts) != 2:
                self.add(f"{path}.flags", "jin_gou_diao_rule")
        elif has_pattern:
            if "melds" in obj:
                self.add(f"{path}.melds", "melds_without_tiles")
            pattern = obj["pattern"]
            if not isinstance(pattern, str) or pattern not in PATTERNS:
                self.add(f"{path}.pattern", "unknown_pattern", name=pattern)
            else:
                winner.pattern = pattern
                winner.roots = self.roots(obj.get("roots", 0), pattern, f"{path}.roots")
        else:
            self.add(path, "winner_needs_tiles_or_pattern")
        return winner

    def roots(self, value: object, pattern: str, path: str) -> int:
        high = max_roots(pattern)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= high:
            return value
        self.add(path, "roots_range", pattern=pattern, low=0, high=high)
        return 0

    def event(self, index: int, obj: object) -> Kong | Win | None:
        path = f"events[{index}]"
        if not isinstance(obj, Mapping):
            self.add(path, "not_object")
            return None
        kind = obj.get("type")
        if kind == "kong":
            self.keys(obj, ("type", "player", "kind", "from", "tile"), path)
            player = self.required_seat(obj, "player", path)
            kong_kind = obj.get("kind")
            if kong_kind not in KONG_KINDS:
                self.add(f"{path}.kind", "bad_kong_kind")
                kong_kind = None
            discarder = None
            if kong_kind == "direct":
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
            return Kong(index, player, kong_kind, discarder, tile)
        if kind == "win":
            self.keys(obj, ("type", "from", "winners"), path)
            if "from" not in obj:
                self.add(path, "missing_field", name="from")
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
                if len(raw) > 3:
                    self.add(f"{path}.winners", "too_many_winners_event")
                for j, entry in enumerate(raw):
                    winner = self.winner(entry, f"{path}.winners[{j}]")
                    if winner is not None:
                        winners.append(winner)
                if obj.get("from", "missing") is None and len(raw) != 1:
                    self.add(f"{path}.winners", "self_draw_one_winner")
            return Win(index, discarder, winners)
        self.add(f"{path}.type", "unknown_event_type")
        return None

    def ready_entry(self, seat: int, obj: object, path: str, mode: str) -> Ready | None:
        if not isinstance(obj, Mapping):
            self.add(path, "not_object")
            return None
        self.keys(obj, ("tiles", "melds", "fan"), path)
        if "tiles" in obj and "fan" in obj:
            self.add(path, "ready_tiles_and_fan")
            return None
        if "tiles" in obj:
            try:
                analysis = analyse_ready(obj["tiles"], obj.get("melds"), path=path)
            except ScoringError as exc:
                self.absorb(exc)
                return None
            if analysis.problem:
                self.add(f"{path}.tiles", analysis.problem, suits=analysis.suits)
                return None
            return Ready(seat, analysis.cha_jiao_fan(mode), [w.tile for w in analysis.waits],
                         parse_tiles(analysis.tiles), _melds_of(analysis.melds))
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


def max_roots(pattern: str) -> int:
    """The most roots (根) a quick-entry win with this pattern can have."""
    if pattern in DRAGON_PATTERNS:
        return 2  # 14 tiles hold at most three quads, one of which the pattern counts
    if pattern in SEVEN_PAIRS_PATTERNS:
        return 0  # seven pairs with a quad is 龙七对
    return MAX_ROOTS


def _melds_of(texts: tuple[str, ...] | list[str]) -> list[Meld]:
    melds = []
    for text in texts:
        counts = parse_tiles(text)
        tile = next(t for t in range(KINDS) if counts[t])
        melds.append(Meld(tile, counts[tile]))
    return melds


TOP_LEVEL = ("base", "rules", "dealer", "events", "exhausted", "ready", "hua_zhu")


def read_record(doc: object) -> HandRecord:
    """Check a hand record and return it typed; raise ScoringError listing every problem."""
    reader = _Reader()
    if not isinstance(doc, Mapping):
        raise ScoringError([Problem("", "not_object")])
    reader.keys(doc, TOP_LEVEL, "")
    base = reader.base(doc.get("base", "1"))
    try:
        rules = parse_rules(doc.get("rules"))
    except ScoringError as exc:
        reader.absorb(exc)
        rules = Rules()
    dealer = reader.seat(doc.get("dealer", 0), "dealer")
    events: list[Kong | Win] = []
    raw_events = doc.get("events", [])
    if not isinstance(raw_events, list):
        reader.add("events", "not_list")
    else:
        for i, obj in enumerate(raw_events):
            event = reader.event(i, obj)
            if event is not None:
                events.append(event)
    exhausted = doc.get("exhausted", False)
    if not isinstance(exhausted, bool):
        reader.add("exhausted", "bad_bool")
        exhausted = False
    ready: dict[int, Ready] = {}
    raw_ready = doc.get("ready", {})
    if raw_ready is None:
        raw_ready = {}
    if not isinstance(raw_ready, Mapping):
        reader.add("ready", "not_object")
    else:
        for key, entry in raw_ready.items():
            if not (isinstance(key, str) and key in ("0", "1", "2", "3")):
                reader.add(f"ready.{key}", "bad_ready_key")
                continue
            parsed = reader.ready_entry(int(key), entry, f"ready.{key}", rules.cha_jiao)
            if parsed is not None:
                ready[int(key)] = parsed
    hua_zhu: list[int] = []
    raw_hua = doc.get("hua_zhu", [])
    if raw_hua is None:
        raw_hua = []
    if not isinstance(raw_hua, list):
        reader.add("hua_zhu", "not_list")
    else:
        for i, value in enumerate(raw_hua):
            seat = reader.seat(value, f"hua_zhu[{i}]")
            if seat is None:
                continue
            if seat in hua_zhu:
                reader.add(f"hua_zhu[{i}]", "hua_zhu_duplicate", seat=seat)
            else:
                hua_zhu.append(seat)
    record = HandRecord(base, rules, dealer if dealer is not None else 0, events, exhausted, ready, hua_zhu)
    _check_order(record, raw_ready if isinstance(raw_ready, Mapping) else {}, raw_hua if isinstance(raw_hua, list) else [],
                 dealer_known=dealer is not None, reader=reader)
    _check_tiles_on_table(record, reader)
    if reader.problems:
        raise ScoringError(reader.problems)
    return record


def _check_order(record: HandRecord, raw_ready: Mapping[str, Any], raw_hua: list[Any], *, dealer_known: bool,
                 reader: _Reader) -> None:
    """The invariants of RULES.md §7 that depend on the order of events (who is still active)."""
    active = set(SEATS)
    wins_so_far = 0
    winners_so_far = 0
    last = len(record.events) - 1
    previous: Kong | Win | None = None
    for event in record.events:
        path = f"events[{event.index}]"
        if winners_so_far >= 3:
            reader.add(path, "event_after_third_win")
            previous = event
            continue
        if isinstance(event, Kong):
            if event.player is not None and event.player not in active:
                reader.add(f"{path}.player", "player_already_won", seat=event.player, action="kong")
            if event.discarder is not None:
                if event.discarder == event.player:
                    reader.add(f"{path}.from", "discarder_is_receiver")
                elif event.discarder not in active:
                    reader.add(f"{path}.from", "player_already_won", seat=event.discarder, action="discard_kong")
        else:
            if event.discarder is not None and event.discarder not in active:
                reader.add(f"{path}.from", "player_already_won", seat=event.discarder, action="discard")
            seen: set[int] = set()
            for j, winner in enumerate(event.winners):
                wpath = f"{path}.winners[{j}]"
                if winner.player is None:
                    continue
                if winner.player in seen:
                    reader.add(f"{wpath}.player", "winner_twice_in_event", seat=winner.player)
                elif winner.player == event.discarder:
                    reader.add(f"{wpath}.player", "discarder_is_receiver")
                elif winner.player not in active:
                    reader.add(f"{wpath}.player", "player_already_won", seat=winner.player, action="win")
                seen.add(winner.player)
                _check_flags(event, winner, wpath, previous, record, wins_so_far, event.index == last,
                             dealer_known, reader)
            active -= seen
            winners_so_far += len(seen)
            wins_so_far += 1
        previous = event
    if record.exhausted and winners_so_far >= 3:
        reader.add("exhausted", "exhausted_after_three_wins")
    if not record.exhausted and raw_ready:
        reader.add("ready", "not_exhausted_with_ready")
    if not record.exhausted and raw_hua:
        reader.add("hua_zhu", "not_exhausted_with_hua_zhu")
    for seat in record.ready:
        if seat not in active:
            reader.add(f"ready.{seat}", "ready_player_won", seat=seat)
    for i, seat in enumerate(record.hua_zhu):
        if seat not in active:
            reader.add(f"hua_zhu[{i}]", "hua_zhu_player_won", seat=seat)
        elif str(seat) in raw_ready:
            reader.add(f"hua_zhu[{i}]", "hua_zhu_and_ready", seat=seat)


def _check_flags(event: Win, winner: Winner, path: str, previous: Kong | Win | None, record: HandRecord,
                 wins_before: int, is_last: bool, dealer_known: bool, reader: _Reader) -> None:
    after_own_kong = isinstance(previous, Kong) and previous.player == winner.player
    after_discarder_kong = isinstance(previous, Kong) and previous.player == event.discarder
    rules_broken = {
        "gang_shang_hua": not (event.self_draw and after_own_kong),
        "gang_shang_pao": event.self_draw or not after_discarder_kong,
        "qiang_gang_hu": event.self_draw,
        "tian_hu": not (event.self_draw and event.index == 0 and (winner.player == record.dealer or not dealer_known)),
        "di_hu": wins_before > 0 or (dealer_known and winner.player == record.dealer),
        "hai_di": not (event.self_draw and is_last),
    }
    for i, flag in enumerate(winner.flags):
        if rules_broken.get(flag, False):
            reader.add(f"{path}.flags[{i}]", f"{flag}_rule")


def _check_tiles_on_table(record: HandRecord, reader: _Reader) -> None:
    """No tile kind more than four times across every tile recorded for the hand (RULES.md §7).

    A player's kong counts once whether it is a kong event, a meld, or both; a discard won on by
    several players counts once (allowed for on every kind that all those winners hold).
    """
    if any(p.code.startswith("tiles") or p.code == "hand_wrong_count" for p in reader.problems):
        return
    kongs: dict[int, set[int]] = {seat: set() for seat in SEATS}
    for event in record.events:
        if isinstance(event, Kong) and event.player is not None and event.tile is not None:
            kongs[event.player].add(event.tile)
    shown: set[int] = set()

    def held(seat: int | None, counts: list[int], melds: list[Meld]) -> list[int]:
        kong_tiles = set(kongs[seat]) if seat is not None else set()
        tiles = counts[:]
        for meld in melds:
            if meld.is_kong:
                kong_tiles.add(meld.tile)
            else:
                tiles[meld.tile] += meld.size
        for tile in kong_tiles:
            tiles[tile] += 4
        if seat is not None:
            shown.add(seat)
        return tiles

    # Groups of (path, tiles) in record order, each group checked after its own allowance.
    groups: list[list[tuple[str, list[int]]]] = []
    for event in record.events:
        if isinstance(event, Win):
            group = [(f"events[{event.index}].winners[{j}].tiles", held(w.player, w.counts, w.parsed_melds))
                     for j, w in enumerate(event.winners) if w.counts is not None]
            if len(group) > 1:
                shared = [min(1, *(tiles[t] for _, tiles in group)) for t in range(KINDS)]
                group.append(("", [-(len(group) - 1) * s for s in shared]))
            groups.append(group)
    for seat, entry in sorted(record.ready.items()):
        if entry.counts is not None:
            groups.append([(f"ready.{seat}.tiles", held(seat, entry.counts, entry.parsed_melds))])
    # The kongs of players who showed no tiles are checked against each other only: the worked
    # example of HAND_FORMAT.md has seat 2 kong 5m while seat 1 wins holding 55m.
    kong_groups = []
    for event in record.events:
        if isinstance(event, Kong) and event.player is not None and event.tile is not None:
            tiles = [0] * KINDS
            tiles[event.tile] = 4
            kong_groups.append([(f"events[{event.index}].tile", tiles)])
    _report_overflow(groups, reader)
    _report_overflow(kong_groups, reader)


def _report_overflow(groups: list[list[tuple[str, list[int]]]], reader: _Reader) -> None:
    on_table = [0] * KINDS
    reported: set[int] = set()
    for group in groups:
        for _, tiles in group:
            for t in range(KINDS):
                on_table[t] += tiles[t]
        for t in range(KINDS):
            if on_table[t] > 4 and t not in reported:
                path = next(p for p, tiles in reversed(group) if p and tiles[t] > 0)
                reported.add(t)
                reader.add(path, "table_too_many", tile=tile_name(t), count=on_table[t])
