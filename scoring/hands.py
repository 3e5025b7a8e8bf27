"""Hand analysis: is a 14-tile hand complete, its readings, its pattern (番型), roots (根) and fan."""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Iterator, Mapping, NamedTuple, Sequence

from .messages import Problem, ScoringError
from .patterns import (PATTERN_ORDER, PATTERNS, best_pattern, choose_pattern, choose_seven_pairs, sets_patterns,
                       seven_pairs_patterns)
from .tiles import KINDS, MAX_TILES_TEXT, SUIT_CHARS, SUITS, Counts, format_tiles, parse_tiles, tile_name

if TYPE_CHECKING:
    from .rules import Rules

#: A table's fan table (Rules.fans): code -> fan of the patterns that exist there; None: RULES.md §3's own.
Fans = Mapping[str, int] | None

# Flags of a one-suit tile group in the suit table.
COMPLETE, ALL_PONGS, TERMINALS = 1, 2, 4
EVERY_FLAG = COMPLETE | ALL_PONGS | TERMINALS

#: How a candidate hand ranks (RULES.md §3): the highest total fan first; on a tie, the highest-fan pattern ("the
#: single highest-fan entry the hand satisfies": 清龙七对 + 0 roots, not 清七对 + 1), then the pattern listed first.
Rank = tuple[int, int, int, str, int]


def rank(pattern: str, roots: int, fans: Fans = None) -> Rank:
    """The ranking tuple of a (pattern, roots) candidate: compare with max(); [3:] is (pattern, roots)."""
    fan = PATTERNS[pattern].fan if fans is None else fans[pattern]
    return fan + roots, fan, -PATTERN_ORDER[pattern], pattern, roots


def table_fans(rules: Rules | None) -> Fans:
    """The fan table to value hands by: None (the fast paths of RULES.md §3) unless the table has its own."""
    return None if rules is None or rules.default_fans else rules.fans


def choose_sets(fans: Fans, *, qing: bool, all_pongs: bool, terminals: bool, only_258: bool,
                roots: int) -> tuple[str, int]:
    """The best four-sets-plus-pair (pattern, roots) of these properties, under a fan table (None: §3's)."""
    if fans is None:
        return choose_pattern(qing=qing, all_pongs=all_pongs, terminals=terminals, only_258=only_258), roots
    found = best_pattern([(p, roots) for p in sets_patterns(qing=qing, all_pongs=all_pongs, terminals=terminals,
                                                            only_258=only_258)], fans)
    assert found is not None  # ping_hu is at every table
    return found


def choose_pairs(fans: Fans, *, qing: bool, quads: int, only_258: bool) -> tuple[str, int]:
    """The best seven-pairs (pattern, roots), under a fan table (None: §3's)."""
    if fans is None:
        return choose_seven_pairs(qing=qing, quads=quads), max(quads - 1, 0)
    found = best_pattern(seven_pairs_patterns(qing=qing, quads=quads, only_258=only_258), fans)
    assert found is not None  # qi_dui is at every table
    return found


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


_SUIT_TABLE: dict[bytes, int] = {}


def suit_table() -> dict[bytes, int]:
    """The table of every complete one-suit group (see _build_suit_table), built on first use."""
    if not _SUIT_TABLE:
        _SUIT_TABLE.update(_build_suit_table())
    return _SUIT_TABLE


def _build_suit_table() -> dict[bytes, int]:
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
            pongs_only, terminals = True, True
            for index in combo:
                ranks, has_terminal = shapes[index] if index < 9 else chows[index - 9]
                for r in ranks:
                    base[r] += 1
                pongs_only = pongs_only and index < 9
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
                flags = COMPLETE | (ALL_PONGS if pongs_only else 0) | (TERMINALS if terminals and pair_terminal else 0)
                key = bytes(counts)
                table[key] = table.get(key, 0) | flags
    return table


def totals_of(counts: Counts, melds: Sequence[Meld]) -> Counts:
    """Every tile the player holds, concealed and in melds."""
    totals = counts[:]
    for meld in melds:
        totals[meld.tile] += meld.size
    return totals


def suits_of(totals: Counts) -> tuple[str, ...]:
    """The suits a hand holds, e.g. ('m', 'p')."""
    return tuple([suit for start, suit in ((0, "m"), (9, "p"), (18, "s")) if any(totals[start:start + 9])])


def only_258(totals: Counts) -> bool:
    """Every tile held is a 2, 5 or 8 (将对)."""
    return all(totals[t] == 0 or t % 9 in (1, 4, 7) for t in range(KINDS))


def evaluate(counts: Counts, melds: Sequence[Meld] = (), fans: Fans = None) -> tuple[str, int] | None:
    """Return the best (pattern, roots) of a 14-tile hand, or None when it is not a win.

    No validation: counts are the concealed tiles (27 counts), melds the pongs and kongs.
    A hand with three suits is not a win (打缺). `fans`: the table's fan table (None: RULES.md §3's).
    """
    segments = (counts[0:9], counts[9:18], counts[18:27])
    totals = totals_of(counts, melds) if melds else counts
    suits = sum(1 for s in (0, 9, 18) if any(totals[s:s + 9])) if melds else sum(1 for seg in segments if any(seg))
    if suits == 3:
        return None
    best: tuple[str, int] | None = None
    table = _SUIT_TABLE or suit_table()
    flags = EVERY_FLAG
    for segment in segments:
        if any(segment):
            flags &= table.get(bytes(segment), 0)
            if not flags:
                break
    if flags:
        all_pongs = bool(flags & ALL_PONGS)
        # The suit table ORs its flags over a suit's splits: each pattern needs at most one of
        # all-pongs and terminals (beside whole-hand properties), so each candidate is a real reading.
        best = choose_sets(fans, qing=suits == 1, all_pongs=all_pongs,
                           terminals=bool(flags & TERMINALS) and all(m.tile % 9 in (0, 8) for m in melds),
                           only_258=all_pongs and only_258(totals), roots=totals.count(4))
    if not melds and 1 not in counts and 3 not in counts and sum(counts) == 14:
        quads = counts.count(4)
        pairs = choose_pairs(fans, qing=suits == 1, quads=quads, only_258=fans is not None and only_258(counts))
        if best is None or rank(*pairs, fans) > rank(*best, fans):
            best = pairs
    return best


class Reading(NamedTuple):
    """One way to read a complete hand: four sets and a pair, or seven pairs (a tuple: made by the dozen)."""

    form: str  # "sets" or "seven_pairs"
    groups: tuple[str, ...]  # sets (melds included) then the pair; or the seven pairs
    pattern: str
    roots: int
    pattern_fan: int | None = None  # the pattern's fan at this table, when it has its own (RULES.md §10)

    @property
    def own_fan(self) -> int:
        """The pattern's fan alone (without roots)."""
        return PATTERNS[self.pattern].fan if self.pattern_fan is None else self.pattern_fan

    @property
    def fan(self) -> int:
        return self.own_fan + self.roots


def _decompose(counts: list[int], start: int) -> Iterator[list[tuple[str, int]]]:
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
            yield [("pong", i)] + rest
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


@dataclass(frozen=True)
class _Split:
    """One split of one suit into sets and at most one pair, with what a reading needs of it."""

    all_pongs: bool
    terminals: bool
    sets: tuple[tuple[int, str, str], ...]  # (tile, kind, name) of each set, in reading order
    names: tuple[str, ...]  # the sets' names, in the same order
    pair: str | None  # the pair's name


def _name(kind: str, tile: int) -> str:
    rank_text, suit = _RANK_TEXT[tile % 9], SUITS[tile // 9]
    if kind == "chow":
        return _RANK_TEXT[tile % 9:tile % 9 + 3] + suit
    return rank_text * (2 if kind == "pair" else 3) + suit


_RANK_TEXT = "123456789"


#: Suit shapes whose splits are kept: about 1.3 kB each, so at most ~5 MB a worker (65,536 grew to 18.6 MB after
#: 20,000 random hands). A miss costs little (bench/README.md, "Memory").
SUIT_SPLITS_CACHE = 4096


@lru_cache(maxsize=SUIT_SPLITS_CACHE)
def _suit_splits(suit: int, segment: bytes) -> tuple[_Split, ...]:
    """Every split of one suit's 9 counts, with the group names (cached: worked out once per suit shape)."""
    splits = []
    for split in _decompose(list(segment), 0):
        sets = tuple(sorted((suit * 9 + r, kind, _name(kind, suit * 9 + r)) for kind, r in split if kind != "pair"))
        pair = next((_name(kind, suit * 9 + r) for kind, r in split if kind == "pair"), None)
        splits.append(_Split(
            all_pongs=all(kind != "chow" for kind, _ in split),
            terminals=all(r in (0, 6) if kind == "chow" else r in (0, 8) for kind, r in split),
            sets=sets, names=tuple(name for _, _, name in sets), pair=pair))
    return tuple(splits)


def readings(counts: Counts, melds: Sequence[Meld] = (), fans: Fans = None) -> list[Reading]:
    """Return every distinct reading of a 14-tile hand with at most two suits (none if not complete)."""
    totals = totals_of(counts, melds) if melds else counts
    suits = suits_of(totals)
    if len(suits) == 3:
        return []
    return _readings(counts, melds, totals, qing=len(suits) == 1, fans=fans)


def has_run(counts: Counts, melds: Sequence[Meld], start: int) -> bool:
    """The hand has a four-sets reading with the run start-start+1-start+2 (rank index, 0 = 1) in some suit."""
    names = {_name("chow", suit * 9 + start) for suit in range(3)}
    return any(r.form == "sets" and names.intersection(r.groups) for r in readings(counts, melds))


def _readings(counts: Counts, melds: Sequence[Meld], totals: Counts, *, qing: bool,
              fans: Fans = None) -> list[Reading]:
    roots = totals.count(4)
    per_suit = [_suit_splits(s, bytes(segment)) for s, segment in enumerate((counts[0:9], counts[9:18], counts[18:27]))
                if any(segment)]
    meld_sets = tuple((m.tile, "meld", str(m)) for m in melds)
    melds_terminal = all(m.tile % 9 in (0, 8) for m in melds)
    hand_258: bool | None = None
    found: dict[tuple[str, ...], Reading] = {}
    for parts in itertools.product(*per_suit):
        pairs = [part.pair for part in parts if part.pair is not None]
        if len(pairs) != 1 or sum(len(part.names) for part in parts) + len(melds) != 4:
            continue
        all_pongs = all(part.all_pongs for part in parts)
        if all_pongs and hand_258 is None:
            hand_258 = only_258(totals)
        pattern, _ = choose_sets(fans, qing=qing, all_pongs=all_pongs,
                                 terminals=melds_terminal and all(part.terminals for part in parts),
                                 only_258=all_pongs and bool(hand_258), roots=roots)
        # Suits are in tile order, so their sets are too; melds fall in between by tile.
        if meld_sets:
            key = tuple([name for _, _, name in sorted([g for part in parts for g in part.sets] + list(meld_sets))]
                        + pairs)
        else:
            key = tuple([name for part in parts for name in part.names] + pairs)
        found[key] = Reading("sets", key, pattern, roots, None if fans is None else fans[pattern])
    if not melds and counts.count(1) + counts.count(3) == 0 and sum(counts) == 14:
        quads = counts.count(4)
        pairs_seven = tuple(_name("pair", t) for t in range(KINDS) for _ in range(counts[t] // 2))
        pairs_pattern, pairs_roots = choose_pairs(fans, qing=qing, quads=quads,
                                                  only_258=fans is not None and only_258(counts))
        found[pairs_seven] = Reading("seven_pairs", pairs_seven, pairs_pattern, pairs_roots,
                                     None if fans is None else fans[pairs_pattern])
    if len(found) == 1:
        return list(found.values())
    return sorted(found.values(), key=lambda r: (-r.fan, -r.own_fan, PATTERN_ORDER[r.pattern], r.groups))


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
    # The parsed hand, so that callers need not parse the text again.
    counts: tuple[int, ...] = field(default=(), repr=False, compare=False)
    parsed_melds: tuple[Meld, ...] = field(default=(), repr=False, compare=False)
    pattern_fan: int | None = field(default=None, compare=False)  # the pattern's fan at a table with its own

    @property
    def complete(self) -> bool:
        return self.pattern is not None

    @property
    def fan(self) -> int:
        """Pattern fan plus roots (no situational modifiers, no cap)."""
        if not self.pattern:
            return 0
        return (PATTERNS[self.pattern].fan if self.pattern_fan is None else self.pattern_fan) + self.roots


def parse_hand(tiles: object, melds: object, *, size: int, path: str = "", melds_path: str | None = None) -> tuple[Counts, list[Meld]]:
    """Parse and check a hand of `size` tiles' worth (14 to win, 13 to be ready); every problem at once."""
    if melds is None and isinstance(tiles, str):
        try:
            concealed = parse_tiles(tiles)
        except ScoringError:
            pass  # said again below, with its path
        else:
            if sum(concealed) == size:
                return concealed, []  # the usual case: concealed tiles alone, parsed and checked
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
        totals = totals_of(counts, parsed_melds) if parsed_melds else counts
        if max(totals) > 4:
            problems.extend(Problem(tiles_path, "tiles_too_many", {"tile": tile_name(tile), "count": totals[tile]})
                            for tile in range(KINDS) if totals[tile] > 4)
    if problems:
        raise ScoringError(problems)
    assert counts is not None
    return counts, parsed_melds


class HandValue(NamedTuple):
    """A 14-tile hand as scoring needs it: parsed, with its best pattern and roots (None: not a win)."""

    counts: Counts
    melds: list[Meld]
    pattern: str | None
    roots: int
    problem: str | None  # None, "hand_three_suits" or "hand_not_complete"
    suits: tuple[str, ...]  # given when the hand is not a win (for the message)


class _SuitText(NamedTuple):
    """One complete suit of a hand as written (its ranks, e.g. "1112345"), with what valuing a hand needs of it."""

    segment: bytes  # its nine counts
    flags: int  # COMPLETE | ALL_PONGS | TERMINALS, as in the suit table
    tiles: int
    quads: int  # kinds held four times (roots)
    even: bool  # every count is 0, 2 or 4: it can be pairs (seven pairs)
    only_258: bool  # every tile is a 2, 5 or 8


_NO_SUIT = _SuitText(bytes(9), EVERY_FLAG, 0, 0, True, True)
_SUIT_TEXTS: dict[str, _SuitText] = {}
#: Canonical notation with each suit at most once, in m, p, s order: the three suits' ranks.
_BY_SUIT = re.compile(r"(?:([1-9]+)m)?(?:([1-9]+)p)?(?:([1-9]+)s)?")
#: What parse_tiles reads as a suit letter (SUIT_CHARS, capitals too) to the letter, and spaces dropped.
_TO_LETTERS = str.maketrans({**{char: suit for char, suit in SUIT_CHARS.items() if char != suit},
                             **{suit.upper(): suit for suit in SUITS}, " ": None})


def suit_texts() -> dict[str, _SuitText]:
    """Every complete one-suit group of the suit table, keyed by its ranks as written ("1112345"), built on first use.

    The same 21,742 groups as suit_table(): a suit's text maps straight to its counts and flags,
    so a hand in canonical notation is valued without counting its tiles one by one.
    """
    if not _SUIT_TEXTS:
        for key, flags in suit_table().items():
            text = "".join([_RANK_TEXT[r] * count for r, count in enumerate(key)])
            _SUIT_TEXTS[text] = _SuitText(key, flags, sum(key), key.count(4), 1 not in key and 3 not in key,
                                          all(count == 0 or r in (1, 4, 7) for r, count in enumerate(key)))
    return _SUIT_TEXTS


def _value_by_suit_text(text: str) -> HandValue | None:
    """The value of a concealed 14-tile hand written canonically whose every suit is complete; None for any other.

    Gives exactly what parse_hand() and evaluate() give for such a hand (tests/scoring/test_engine_speed.py
    compares them): fourteen tiles in complete suits hold exactly one pair, so the suits' flags
    decide the pattern as in evaluate(). Suits may be written 万/筒/条 (any spelling parse_tiles
    reads) and ASCII spaces are dropped. Hands it does not know (three suits, a suit not complete,
    ranks out of order, a suit written twice or out of m-p-s order, a wrong count) return None,
    for the general path.
    """
    match = _BY_SUIT.fullmatch(text)
    if match is None:
        if len(text) > MAX_TILES_TEXT or (text.isascii() and text.islower() and " " not in text):
            return None  # refused unread by parse_tiles; or nothing to translate
        match = _BY_SUIT.fullmatch(text.translate(_TO_LETTERS))  # 万/筒/条, capitals, spaces
        if match is None:
            return None
    table = _SUIT_TEXTS or suit_texts()
    m, p, s = match.groups()
    a = _NO_SUIT if m is None else table.get(m)
    b = _NO_SUIT if p is None else table.get(p)
    c = _NO_SUIT if s is None else table.get(s)
    if a is None or b is None or c is None or a.tiles + b.tiles + c.tiles != 14:
        return None
    suits = (m is not None) + (p is not None) + (s is not None)
    if suits == 3:
        return None
    flags = a.flags & b.flags & c.flags
    all_pongs = bool(flags & ALL_PONGS)
    qing = suits == 1
    pattern = choose_pattern(qing=qing, all_pongs=all_pongs, terminals=bool(flags & TERMINALS),
                             only_258=all_pongs and a.only_258 and b.only_258 and c.only_258)
    roots = a.quads + b.quads + c.quads
    if a.even and b.even and c.even:
        pairs = choose_seven_pairs(qing=qing, quads=roots), max(roots - 1, 0)
        if rank(*pairs) > rank(pattern, roots):
            pattern, roots = pairs
    return HandValue(list(a.segment + b.segment + c.segment), [], pattern, roots, None, ())


def value_hand(tiles: object, melds: object = None, *, path: str = "", rules: Rules | None = None) -> HandValue:
    """The scoring path of a tile-entered winner: parse and check the hand, find its best pattern and roots.

    No readings, no text. The usual hand (canonical text, no melds, every suit complete) is read
    suit by suit from a table keyed by each suit's ranks (see _value_by_suit_text); any other
    hand takes one parse and one evaluate(), which also say what is wrong. Raises ScoringError
    like analyse_hand. `rules`: the table's, for its own fan table (RULES.md §10).
    """
    fans = table_fans(rules)
    if melds is None and isinstance(tiles, str) and fans is None:
        known = _value_by_suit_text(tiles)
        if known is not None:
            return known
    counts, parsed = parse_hand(tiles, melds, size=14, path=path)
    best = evaluate(counts, parsed, fans)
    if best is None:
        suits = suits_of(totals_of(counts, parsed))
        return HandValue(counts, parsed, None, 0, "hand_three_suits" if len(suits) == 3 else "hand_not_complete", suits)
    return HandValue(counts, parsed, best[0], best[1], None, ())


def analyse_hand(tiles: object, melds: object = None, *, path: str = "", with_readings: bool = True,
                 rules: Rules | None = None) -> HandAnalysis:
    """Analyse a 14-tile hand: completeness, the missing-suit rule, every reading, pattern and roots.

    With `with_readings=False` the readings are not listed (scoring needs only the best one).
    `rules`: a table's rules, whose own fan table (RULES.md §10) names and ranks the readings.
    Raises ScoringError for tiles that cannot be a hand at all (bad notation, wrong count, a fifth copy).
    """
    fans = table_fans(rules)
    counts, parsed = parse_hand(tiles, melds, size=14, path=path)
    totals = totals_of(counts, parsed) if parsed else counts
    suits = suits_of(totals)
    tiles_text, meld_texts = format_tiles(counts), tuple(str(m) for m in parsed)
    found: tuple[Reading, ...] = ()
    best: tuple[str, int] | None = None
    if len(suits) < 3:
        if with_readings:
            # The readings come best first (highest fan, then the pattern listed first), as evaluate() ranks.
            found = tuple(_readings(counts, parsed, totals, qing=len(suits) == 1, fans=fans))
            best = (found[0].pattern, found[0].roots) if found else None
        else:
            best = evaluate(counts, parsed, fans)
    if best is None:
        problem = "hand_three_suits" if len(suits) == 3 else "hand_not_complete"
        return HandAnalysis(tiles_text, meld_texts, suits, None, 0, (), problem, tuple(counts), tuple(parsed))
    return HandAnalysis(tiles_text, meld_texts, suits, best[0], best[1], found, None, tuple(counts), tuple(parsed),
                        None if fans is None else fans[best[0]])
