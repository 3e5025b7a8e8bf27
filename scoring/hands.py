"""Hand analysis: is a hand complete, its readings, its pattern (番型), roots (根) and fan; its waits (叫)."""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, NamedTuple, Sequence

from .messages import Problem, ScoringError
from .patterns import PATTERN_ORDER, PATTERNS, choose_pattern, choose_seven_pairs
from .tiles import KINDS, SUITS, Counts, format_tiles, parse_tiles, tile_name

_TILE_NAMES = [tile_name(t) for t in range(KINDS)]
# Flags of a one-suit tile group in the suit table.
_COMPLETE, _ALL_PUNGS, _TERMINALS = 1, 2, 4


@dataclass(frozen=True)
class Meld:
    """An exposed or set-aside group: a pong (碰, 3 tiles) or a kong (杠, 4 tiles)."""

    tile: int
    size: int

    @property
    def is_kong(self) -> bool:
        return self.size == 4

    def __str__(self) -> str:
        return f"{str(self.tile % 9 + 1) * self.size}{SUITS[self.tile // 9]}"


def parse_melds(value: object, path: str) -> list[Meld]:
    """Parse a list of meld strings ("555p" a pong, "7777s" a kong)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise ScoringError([Problem(path, "melds_not_list")])
    melds, problems = [], []
    for i, text in enumerate(value):
        where = f"{path}[{i}]"
        try:
            counts = parse_tiles(text, where)
        except ScoringError as exc:
            problems.extend(exc.problems)
            continue
        kinds = [t for t in range(KINDS) if counts[t]]
        if len(kinds) != 1 or counts[kinds[0]] not in (3, 4):
            problems.append(Problem(where, "meld_bad", {"text": text}))
            continue
        melds.append(Meld(kinds[0], counts[kinds[0]]))
    if problems:
        raise ScoringError(problems)
    return melds


@lru_cache(maxsize=1)
def suit_table() -> dict[bytes, int]:
    """Every one-suit group of sets (and at most one pair), keyed by its 9 counts, with its flags.

    Built once (about 50,000 combinations); looking a suit up replaces a search at scoring time.
    """
    shapes: list[tuple[tuple[int, ...], bool]] = []  # (ranks added, has a 1 or 9) per set
    for r in range(9):
        shapes.append(((r, r, r), r in (0, 8)))
    chows = [((r, r + 1, r + 2), r in (0, 6)) for r in range(7)]
    table: dict[bytes, int] = {}
    for n in range(5):
        for combo in itertools.combinations_with_replacement(range(16), n):
            base = [0] * 9
            pungs_only, terminals = True, True
            for index in combo:
                ranks, has_terminal = shapes[index] if index < 9 else chows[index - 9]
                for r in ranks:
                    base[r] += 1
                pungs_only = pungs_only and index < 9
                terminals = terminals and has_terminal
            if max(base) > 4:
                continue
            for pair in range(-1, 9):
                counts = base[:]
                pair_terminal = True
                if pair >= 0:
                    counts[pair] += 2
                    if counts[pair] > 4:
                        continue
                    pair_terminal = pair in (0, 8)
                if not any(counts):
                    continue
                flags = _COMPLETE | (_ALL_PUNGS if pungs_only else 0) | (_TERMINALS if terminals and pair_terminal else 0)
                key = bytes(counts)
                table[key] = table.get(key, 0) | flags
    return table


@lru_cache(maxsize=1)
def wait_table() -> dict[bytes, tuple[tuple[int, int], ...]]:
    """One-suit groups one tile short of complete, keyed by their 9 counts: (rank, flags) per completing tile.

    Derived from suit_table() by taking each tile out of each complete group, so finding a
    hand's waits is one lookup per suit instead of one per candidate tile.
    """
    short: dict[bytes, dict[int, int]] = {}
    for key, flags in suit_table().items():
        counts = list(key)
        for r in range(9):
            if counts[r]:
                counts[r] -= 1
                entry = short.setdefault(bytes(counts), {})
                entry[r] = entry.get(r, 0) | flags
                counts[r] += 1
    return {key: tuple(sorted(entry.items())) for key, entry in short.items()}


def _totals(counts: Counts, melds: Sequence[Meld]) -> Counts:
    totals = counts[:]
    for meld in melds:
        totals[meld.tile] += meld.size
    return totals


def _suits(totals: Counts) -> tuple[str, ...]:
    return tuple(SUITS[s] for s in range(3) if any(totals[s * 9:s * 9 + 9]))


def evaluate(counts: Counts, melds: Sequence[Meld] = ()) -> tuple[str, int] | None:
    """Return the best (pattern, roots) of a 14-tile hand, or None when it is not a win.

    No validation: counts are the concealed tiles (27 counts), melds the pongs and kongs.
    A hand with three suits is not a win (打缺).
    """
    totals = _totals(counts, melds) if melds else counts
    suits = 0
    for s in (0, 9, 18):
        if any(totals[s:s + 9]):
            suits += 1
    if suits == 3:
        return None
    qing = suits == 1
    best: tuple[int, int, str, int] | None = None
    table = suit_table()
    flags = _COMPLETE | _ALL_PUNGS | _TERMINALS
    for s in (0, 9, 18):
        segment = counts[s:s + 9]
        if any(segment):
            found = table.get(bytes(segment))
            if found is None:
                flags = 0
                break
            flags &= found
    if flags:
        terminals = bool(flags & _TERMINALS) and all(m.tile % 9 in (0, 8) for m in melds)
        all_pungs = bool(flags & _ALL_PUNGS)
        only_258 = all_pungs and all(totals[t] == 0 or t % 9 in (1, 4, 7) for t in range(KINDS))
        pattern = choose_pattern(qing=qing, all_pungs=all_pungs, terminals=terminals, only_258=only_258)
        roots = totals.count(4)
        best = (PATTERNS[pattern].fan + roots, -PATTERN_ORDER[pattern], pattern, roots)
    if not melds and counts.count(1) + counts.count(3) == 0 and sum(counts) == 14:
        quads = counts.count(4)
        pattern = choose_seven_pairs(qing=qing, quads=quads)
        roots = max(quads - 1, 0)
        candidate = (PATTERNS[pattern].fan + roots, -PATTERN_ORDER[pattern], pattern, roots)
        if best is None or candidate > best:
            best = candidate
    if best is None:
        return None
    return best[2], best[3]


@dataclass(frozen=True)
class Reading:
    """One way to read a complete hand: four sets and a pair, or seven pairs."""

    form: str  # "sets" or "seven_pairs"
    groups: tuple[str, ...]  # sets (melds included) then the pair; or the seven pairs
    pattern: str
    roots: int

    @property
    def fan(self) -> int:
        return PATTERNS[self.pattern].fan + self.roots


def _decompose(counts: list[int], start: int) -> Iterable[list[tuple[str, int]]]:
    """Yield every split of one suit's counts into sets and at most one pair."""
    i = start
    while i < 9 and counts[i] == 0:
        i += 1
    if i == 9:
        yield []
        return
    if counts[i] >= 3:
        counts[i] -= 3
        for rest in _decompose(counts, i):
            yield [("pung", i)] + rest
        counts[i] += 3
    if i <= 6 and counts[i + 1] and counts[i + 2]:
        for r in (i, i + 1, i + 2):
            counts[r] -= 1
        for rest in _decompose(counts, i):
            yield [("chow", i)] + rest
        for r in (i, i + 1, i + 2):
            counts[r] += 1
    if counts[i] >= 2:
        counts[i] -= 2
        for rest in _decompose(counts, i):
            if all(kind != "pair" for kind, _ in rest):
                yield [("pair", i)] + rest
        counts[i] += 2


def readings(counts: Counts, melds: Sequence[Meld] = ()) -> list[Reading]:
    """Return every distinct reading of a 14-tile hand with at most two suits (none if not complete)."""
    totals = _totals(counts, melds)
    suits = _suits(totals)
    if len(suits) == 3:
        return []
    qing = len(suits) == 1
    roots = totals.count(4)
    per_suit: list[list[list[tuple[str, int]]]] = []
    for s in range(3):
        segment = counts[s * 9:s * 9 + 9]
        options = [[(kind, s * 9 + r) for kind, r in split] for split in _decompose(segment[:], 0)]
        per_suit.append(options)
    found: dict[tuple[str, ...], Reading] = {}
    for parts in itertools.product(*per_suit):
        groups = [g for part in parts for g in part] + [("meld", m.tile) for m in melds]
        if [kind for kind, _ in groups].count("pair") != 1 or len(groups) != 5:
            continue
        all_pungs = all(kind != "chow" for kind, _ in groups)
        terminals = all((t % 9 in (0, 8)) if kind != "chow" else (t % 9 in (0, 6)) for kind, t in groups)
        only_258 = all(totals[t] == 0 or t % 9 in (1, 4, 7) for t in range(KINDS))
        pattern = choose_pattern(qing=qing, all_pungs=all_pungs, terminals=terminals, only_258=all_pungs and only_258)
        names = []
        for kind, t in sorted(groups, key=lambda g: (g[0] == "pair", g[1], g[0])):
            if kind == "chow":
                names.append(format_tiles([1 if x in (t, t + 1, t + 2) else 0 for x in range(KINDS)]))
            elif kind == "pair":
                names.append(tile_name(t)[0] * 2 + tile_name(t)[1])
            elif kind == "meld":
                names.append(str(next(m for m in melds if m.tile == t)))
            else:
                names.append(tile_name(t)[0] * 3 + tile_name(t)[1])
        key = tuple(names)
        found[key] = Reading("sets", key, pattern, roots)
    if not melds and all(c in (0, 2, 4) for c in counts) and sum(counts) == 14:
        quads = counts.count(4)
        pairs = tuple(tile_name(t)[0] * 2 + tile_name(t)[1] for t in range(KINDS) for _ in range(counts[t] // 2))
        found[pairs] = Reading("seven_pairs", pairs, choose_seven_pairs(qing=qing, quads=quads), max(quads - 1, 0))
    return sorted(found.values(), key=lambda r: (-r.fan, PATTERN_ORDER[r.pattern], r.groups))


@dataclass(frozen=True)
class HandAnalysis:
    """What a player's 14 tiles amount to; pattern is None when the hand is not a win."""

    tiles: str
    melds: tuple[str, ...]
    suits: tuple[str, ...]
    pattern: str | None
    roots: int
    readings: tuple[Reading, ...]
    problem: str | None  # None, "hand_three_suits" or "hand_not_complete"

    @property
    def complete(self) -> bool:
        return self.pattern is not None

    @property
    def fan(self) -> int:
        """Pattern fan plus roots (no situational modifiers, no cap)."""
        return PATTERNS[self.pattern].fan + self.roots if self.pattern else 0


class Wait(NamedTuple):
    """A tile that completes a ready hand, and the hand it makes (a tuple: cheap to make by the dozen)."""

    tile: str
    pattern: str
    roots: int

    @property
    def fan(self) -> int:
        return PATTERNS[self.pattern].fan + self.roots


@dataclass(frozen=True)
class ReadyAnalysis:
    """What a 13-tile hand waits on (叫); not ready when waits is empty."""

    tiles: str
    melds: tuple[str, ...]
    suits: tuple[str, ...]
    waits: tuple[Wait, ...]
    problem: str | None  # None, "ready_three_suits" or "hand_not_ready"

    @property
    def ready(self) -> bool:
        return bool(self.waits)

    def cha_jiao_fan(self, mode: str = "min") -> int:
        """The fan 查叫 charges: the smallest wait's fan (查小), or the largest with mode 'max' (查大)."""
        fans = [w.fan for w in self.waits]
        return max(fans) if mode == "max" else min(fans)


def parse_hand(tiles: object, melds: object, *, size: int, path: str = "", melds_path: str | None = None) -> tuple[Counts, list[Meld]]:
    """Parse and check a hand of `size` tiles' worth (14 to win, 13 to be ready); every problem at once."""
    tiles_path = f"{path}.tiles" if path else "tiles"
    melds_path = melds_path or (f"{path}.melds" if path else "melds")
    problems: list[Problem] = []
    counts: Counts | None = None
    parsed_melds: list[Meld] = []
    try:
        counts = parse_tiles(tiles, tiles_path)
    except ScoringError as exc:
        problems.extend(exc.problems)
    try:
        parsed_melds = parse_melds(melds, melds_path)
    except ScoringError as exc:
        problems.extend(exc.problems)
    if counts is not None and not problems:
        expected = size - 3 * len(parsed_melds)
        if sum(counts) != expected:
            problems.append(Problem(tiles_path, "hand_wrong_count",
                                    {"concealed": sum(counts), "melds": len(parsed_melds), "expected": expected}))
        totals = _totals(counts, parsed_melds)
        for tile in range(KINDS):
            if totals[tile] > 4:
                problems.append(Problem(tiles_path, "tiles_too_many", {"tile": tile_name(tile), "count": totals[tile]}))
    if problems:
        raise ScoringError(problems)
    assert counts is not None
    return counts, parsed_melds


def analyse_hand(tiles: object, melds: object = None, *, path: str = "") -> HandAnalysis:
    """Analyse a 14-tile hand: completeness, the missing-suit rule, every reading, pattern and roots.

    Raises ScoringError for tiles that cannot be a hand at all (bad notation, wrong count, a fifth copy).
    """
    counts, parsed = parse_hand(tiles, melds, size=14, path=path)
    totals = _totals(counts, parsed)
    suits = _suits(totals)
    tiles_text, meld_texts = format_tiles(counts), tuple(str(m) for m in parsed)
    best = None if len(suits) == 3 else evaluate(counts, parsed)
    if best is None:
        problem = "hand_three_suits" if len(suits) == 3 else "hand_not_complete"
        return HandAnalysis(tiles_text, meld_texts, suits, pattern=None, roots=0, readings=(), problem=problem)
    return HandAnalysis(tiles_text, meld_texts, suits, pattern=best[0], roots=best[1],
                        readings=tuple(readings(counts, parsed)), problem=None)


def waits_of(counts: Counts, melds: Sequence[Meld] = ()) -> list[Wait]:
    """Return the waits of a 13-tile hand (no validation): never a tile the hand holds four of,
    never one that would break the missing suit.

    Only the suit of the added tile changes: the other suits are looked up once in suit_table()
    and the waiting suit once in wait_table().
    """
    totals = _totals(counts, melds) if melds else counts
    present = [s for s in (0, 9, 18) if any(totals[s:s + 9])]
    if len(present) == 3:
        return []
    table = suit_table()
    everything = _COMPLETE | _ALL_PUNGS | _TERMINALS
    flags_of: dict[int, int] = {}
    for s in present:
        segment = counts[s:s + 9]
        flags_of[s] = table.get(bytes(segment), 0) if any(segment) else everything
    qing = len(present) == 1
    melds_terminal = all(m.tile % 9 in (0, 8) for m in melds)
    quads = totals.count(4)
    waits = wait_table()
    all_258: bool | None = None  # worked out only when an all-pungs reading needs it
    found: dict[int, tuple[int, int, str, int]] = {}
    for s in present:
        others = everything
        for o in present:
            if o != s:
                others &= flags_of[o]
        if not others:
            continue
        for r, flags in waits.get(bytes(counts[s:s + 9]), ()):
            flags &= others
            if not flags or totals[s + r] == 4:
                continue
            all_pungs = bool(flags & _ALL_PUNGS)
            if all_pungs and all_258 is None:
                all_258 = all(totals[t] == 0 or t % 9 in (1, 4, 7) for t in range(KINDS))
            pattern = choose_pattern(qing=qing, all_pungs=all_pungs,
                                     terminals=bool(flags & _TERMINALS) and melds_terminal,
                                     only_258=all_pungs and bool(all_258) and r in (1, 4, 7))
            roots = quads + (1 if totals[s + r] == 3 else 0)
            found[s + r] = (PATTERNS[pattern].fan + roots, -PATTERN_ORDER[pattern], pattern, roots)
    if not melds and counts.count(1) + counts.count(3) == 1:
        # Six pairs and a single (or a pair beside a pung): seven pairs on that tile.
        tile = counts.index(1) if 1 in counts else counts.index(3)
        pairs_quads = quads + (1 if counts[tile] == 3 else 0)
        pattern = choose_seven_pairs(qing=qing, quads=pairs_quads)
        roots = max(pairs_quads - 1, 0)
        candidate = (PATTERNS[pattern].fan + roots, -PATTERN_ORDER[pattern], pattern, roots)
        if tile not in found or candidate > found[tile]:
            found[tile] = candidate
    return [Wait(_TILE_NAMES[t], found[t][2], found[t][3]) for t in sorted(found)]


def analyse_ready(tiles: object, melds: object = None, *, path: str = "") -> ReadyAnalysis:
    """Analyse a 13-tile hand for 查叫: its waits and each wait's fan."""
    counts, parsed = parse_hand(tiles, melds, size=13, path=path)
    suits = _suits(_totals(counts, parsed))
    tiles_text, meld_texts = format_tiles(counts), tuple(str(m) for m in parsed)
    if len(suits) == 3:
        return ReadyAnalysis(tiles_text, meld_texts, suits, waits=(), problem="ready_three_suits")
    waits = tuple(waits_of(counts, parsed))
    return ReadyAnalysis(tiles_text, meld_texts, suits, waits=waits, problem=None if waits else "hand_not_ready")
