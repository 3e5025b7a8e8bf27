"""Waits (叫) of a 13-tile hand: which tiles complete it, each with its pattern and fan; 查叫's fan."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple, Sequence

from .hands import (ALL_PONGS, EVERY_FLAG, TERMINALS, Fans, Meld, Rank, choose_pairs, choose_sets, only_258, parse_hand,
                    rank, suit_table, suits_of, table_fans, totals_of)
from .patterns import PATTERNS
from .tiles import KINDS, Counts, format_tiles, tile_name

if TYPE_CHECKING:
    from .rules import Rules

_TILE_NAMES = [tile_name(t) for t in range(KINDS)]


#: How many one-suit shapes suit_waits() keeps: about 0.4 kB each, so at most about 1.7 MB per process.
SUIT_WAITS_CACHE = 4096
#: One tile of each rank, in a suit's 9 counts read as one big-endian integer.
_ONE_OF_RANK = [1 << 8 * (8 - r) for r in range(9)]


@lru_cache(maxsize=SUIT_WAITS_CACHE)
def suit_waits(segment: bytes) -> tuple[tuple[int, int], ...]:
    """The tiles that complete one suit's 9 counts (each 0 to 4): (rank, flags) per such rank, in rank order.

    `flags` are the suit table's for the suit with that tile added; a rank held four times in
    this suit is never one, and waits_of() also drops a rank the whole hand holds four of.
    Worked out on first use of each shape (nine lookups in suit_table()) and kept in a bounded
    cache, rather than a table of every complete group less one tile (66,913 keys, about 34 MB
    in every process).
    """
    table = suit_table()
    held = int.from_bytes(segment, "big")
    # The suit with one more tile of each rank in turn (a rank held four times makes a 5: in no group).
    flags = [table.get((held + one).to_bytes(9, "big"), 0) for one in _ONE_OF_RANK]
    return tuple([(r, f) for r, f in enumerate(flags) if f])


class Wait(NamedTuple):
    """A tile that completes a ready hand, and the hand it makes (a tuple: cheap to make by the dozen)."""

    tile: str
    pattern: str
    roots: int
    pattern_fan: int | None = None  # the pattern's fan at a table with its own fan table (RULES.md §10)
    bonus: int = 0  # the hand-shape bonuses 查叫 counts at this table: 金钩钓, 门清, 中张 (RULES.md §6)

    @property
    def fan(self) -> int:
        return (PATTERNS[self.pattern].fan if self.pattern_fan is None else self.pattern_fan) + self.roots + self.bonus


@dataclass(frozen=True)
class ReadyAnalysis:
    """What a 13-tile hand waits on (叫); not ready when waits is empty."""

    tiles: str
    melds: tuple[str, ...]
    suits: tuple[str, ...]
    waits: tuple[Wait, ...]
    problem: str | None  # None, "ready_three_suits" or "hand_not_ready"
    # The parsed hand, so that callers need not parse the text again.
    counts: tuple[int, ...] = field(default=(), repr=False, compare=False)
    parsed_melds: tuple[Meld, ...] = field(default=(), repr=False, compare=False)

    @property
    def ready(self) -> bool:
        return bool(self.waits)

    def cha_jiao_fan(self, mode: str = "min") -> int:
        """The fan 查叫 charges: the smallest wait's fan (查小), or the largest with mode 'max' (查大)."""
        fans = [w.fan for w in self.waits]
        return max(fans) if mode == "max" else min(fans)


def waits_of(counts: Counts, melds: Sequence[Meld] = (), fans: Fans = None) -> list[Wait]:
    """Return the waits of a 13-tile hand (no validation): never a tile the hand holds four of,
    never one that would break the missing suit.

    Only the suit of the added tile changes: the other suits are looked up once in suit_table()
    and the waiting suit's completing tiles come from suit_waits().
    """
    totals = totals_of(counts, melds) if melds else counts
    present = [s for s in (0, 9, 18) if any(totals[s:s + 9])]
    if len(present) == 3:
        return []
    table = suit_table()
    flags_of: dict[int, int] = {}
    for s in present:
        segment = counts[s:s + 9]
        flags_of[s] = table.get(bytes(segment), 0) if any(segment) else EVERY_FLAG
    qing = len(present) == 1
    melds_terminal = all(m.tile % 9 in (0, 8) for m in melds)
    quads = totals.count(4)
    all_258: bool | None = None  # worked out only when an all-pongs reading needs it
    found: dict[int, Rank] = {}
    for s in present:
        others = EVERY_FLAG
        for o in present:
            if o != s:
                others &= flags_of[o]
        if not others:
            continue
        for r, flags in suit_waits(bytes(counts[s:s + 9])):
            flags &= others
            if not flags or totals[s + r] == 4:
                continue
            all_pongs = bool(flags & ALL_PONGS)
            if all_pongs and all_258 is None:
                all_258 = only_258(totals)
            found[s + r] = rank(*choose_sets(fans, qing=qing, all_pongs=all_pongs,
                                             terminals=bool(flags & TERMINALS) and melds_terminal,
                                             only_258=all_pongs and bool(all_258) and r in (1, 4, 7),
                                             roots=quads + (1 if totals[s + r] == 3 else 0)), fans)
    if not melds and counts.count(1) + counts.count(3) == 1:
        # Six pairs and a single (or a pair beside a pong): seven pairs on that tile.
        tile = counts.index(1) if 1 in counts else counts.index(3)
        pairs_quads = quads + (1 if counts[tile] == 3 else 0)
        candidate = rank(*choose_pairs(fans, qing=qing, quads=pairs_quads,
                                       only_258=fans is not None and tile % 9 in (1, 4, 7) and only_258(counts)), fans)
        if tile not in found or candidate > found[tile]:
            found[tile] = candidate
    if fans is None:
        return [Wait(_TILE_NAMES[t], found[t][3], found[t][4]) for t in sorted(found)]
    return [Wait(_TILE_NAMES[t], found[t][3], found[t][4], fans[found[t][3]]) for t in sorted(found)]


def shape_bonus(rules: Rules, counts: Counts, melds: Sequence[Meld], wait: int, men_qing: bool) -> int:
    """The hand-shape bonuses of RULES.md §6 that 查叫 adds to a wait, at this table's fans.

    金钩钓: four melds, so the wait is on the pair; 中张: no 1 or 9 in the hand with the wait tile;
    门清: `men_qing` (decided by the caller from the melds and the player's kong events).
    """
    bonus = rules.jin_gou_diao_fan if len(melds) == 4 else 0
    if rules.zhong_zhang_fan and wait % 9 not in (0, 8) and not any(
            counts[t] for t in range(KINDS) if t % 9 in (0, 8)) and all(m.tile % 9 not in (0, 8) for m in melds):
        bonus += rules.zhong_zhang_fan
    if men_qing:
        bonus += rules.men_qing_fan
    return bonus


def analyse_ready(tiles: object, melds: object = None, *, path: str = "", rules: Rules | None = None,
                  kong_kinds: Sequence[str] | None = None, table_suits: str = "mps") -> ReadyAnalysis:
    """Analyse a 13-tile hand for 查叫: its waits and each wait's fan.

    `rules`: a table's rules, for its own fan table and the hand-shape bonuses 查叫 counts there
    (RULES.md §6, §10). 门清 needs no pong and every kong meld a concealed kong of this hand: give the
    kinds of the player's kongs this hand (`kong_kinds`); None takes the kong melds as concealed.
    `table_suits` is the table's suit set (RULES.md §9): at a 两房 table ("ps") no 万 tile is a wait. (A hand
    of 筒 and 条 alone never waits on a 万 anyway; a hand holding 万 there is refused by the record.)
    """
    counts, parsed = parse_hand(tiles, melds, size=13, path=path)
    suits = suits_of(totals_of(counts, parsed))
    tiles_text, meld_texts = format_tiles(counts), tuple(str(m) for m in parsed)
    if len(suits) == 3:
        return ReadyAnalysis(tiles_text, meld_texts, suits, (), "ready_three_suits", tuple(counts), tuple(parsed))
    waits = tuple(w for w in waits_of(counts, parsed, table_fans(rules)) if w.tile[-1] in table_suits)
    if rules is not None and (rules.jin_gou_diao_fan or rules.zhong_zhang_fan or rules.men_qing_fan):
        kong_melds = sum(1 for m in parsed if m.is_kong)
        men_qing = all(m.is_kong for m in parsed) and (kong_kinds is None or (
            all(kind == "concealed" for kind in kong_kinds) and kong_melds <= len(kong_kinds)))
        waits = tuple(w._replace(bonus=shape_bonus(rules, counts, parsed, _TILE_NAMES.index(w.tile), men_qing))
                      for w in waits)
    return ReadyAnalysis(tiles_text, meld_texts, suits, waits, None if waits else "hand_not_ready",
                         tuple(counts), tuple(parsed))
