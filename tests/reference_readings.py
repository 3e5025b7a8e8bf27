"""The engine's readings as they were before the per-suit cache (kept to prove the new code gives identical output)."""
import itertools
from typing import Iterable, NamedTuple, Sequence

from scoring.hands import Meld
from scoring.patterns import PATTERN_ORDER, PATTERNS, choose_pattern, choose_seven_pairs
from scoring.tiles import KINDS, SUITS, Counts, format_tiles, tile_name


class OldReading(NamedTuple):
    form: str
    groups: tuple
    pattern: str
    roots: int

    @property
    def fan(self):
        return PATTERNS[self.pattern].fan + self.roots


def _totals(counts, melds):
    totals = counts[:]
    for meld in melds:
        totals[meld.tile] += meld.size
    return totals


def _suits(totals):
    return tuple(SUITS[s] for s in range(3) if any(totals[s * 9:s * 9 + 9]))


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


def readings(counts: Counts, melds: Sequence[Meld] = ()) -> list[OldReading]:
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
        pattern = choose_pattern(qing=qing, all_pongs=all_pungs, terminals=terminals, only_258=all_pungs and only_258)
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
        found[key] = OldReading("sets", key, pattern, roots)
    if not melds and all(c in (0, 2, 4) for c in counts) and sum(counts) == 14:
        quads = counts.count(4)
        pairs = tuple(tile_name(t)[0] * 2 + tile_name(t)[1] for t in range(KINDS) for _ in range(counts[t] // 2))
        found[pairs] = OldReading("seven_pairs", pairs, choose_seven_pairs(qing=qing, quads=quads), max(quads - 1, 0))
    # On a tie of total fan the pattern worth more comes first (RULES.md §3, the ranking of scoring.hands.rank since
    # stop 28; it was the pattern listed first), then the pattern listed first.
    return sorted(found.values(), key=lambda r: (-r.fan, -PATTERNS[r.pattern].fan, PATTERN_ORDER[r.pattern], r.groups))
