"""The house rules of RULES.md §10 that a winner's hand decides: 门清 and 中张 found from the tiles, the fan
of a win at the table's own fan table, and the smallest fan a discard win needs.

Shared by the checker (`invariants`) and the settlement (`settle_hand`), so both read a hand alike.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from .patterns import MODIFIERS, PATTERNS, best_pattern, sets_patterns
from .record import Kong, Winner
from .rules import Rules

#: Flags found from the tiles of a winner entered with tiles (RULES.md §10); with quick entry they are flags.
FOUND_FLAGS = ("men_qing", "zhong_zhang")
#: Quick-entry patterns that hold a 1 or a 9 in every set and the pair: never 中张.
TERMINAL_PATTERNS = frozenset({"yao_jiu", "qing_yao_jiu"})
#: Quick-entry patterns whose tiles have no reading with a 4-5-6 run (夹心五): the 幺九 family holds a 1 or a 9 in
#: every set and the pair, so no 5; 将对 and 将七对 only 2, 5 and 8. Any other may (444555666m is 对对胡 and three
#: 456m; 11445566m778899p 七对 and two 456m), as the same hand by tiles is accepted.
NO_RUN_PATTERNS = frozenset({"yao_jiu", "qing_yao_jiu", "jiang_dui", "jiang_qi_dui"})
#: The 对对胡 family (four pongs or kongs and a pair), the patterns 金钩钓 can have (and see `all_pongs_names`).
ALL_PONGS_PATTERNS = frozenset({"dui_dui_hu", "qing_dui", "jiang_dui"})


def all_pongs_names(fans: Mapping[str, int]) -> frozenset[str]:
    """The patterns a hand of four pongs or kongs and a pair can be named at this fan table: the 对对胡 family,
    and whatever the best reading and the tie rule of RULES.md §3 name such a hand instead (清一色 where a table
    sets 清对 below it, 平胡 where 对对胡 is worth 0). A 金钩钓 by quick entry may carry these, as the same hand by
    tiles does. (Never a 幺九: four pongs of 1s and 9s in two suits leave no 1 or 9 for the pair.)"""
    names = set(ALL_PONGS_PATTERNS)
    for qing in (False, True):
        for only_258 in (False, True):
            satisfied = sets_patterns(qing=qing, all_pongs=True, terminals=False, only_258=only_258)
            best = best_pattern(((pattern, 0) for pattern in satisfied), fans)
            if best is not None:
                names.add(best[0])
    return frozenset(names)


def men_qing_holds(winner: Winner, kongs: Sequence[Kong]) -> bool:
    """门清: no pong, no direct or added kong; every kong meld is a concealed kong of this hand.

    `kongs`: the winner's own kongs this hand (robbed ones aside). With quick entry only the kong
    events can break it.
    """
    if any(kong.kind != "concealed" for kong in kongs):
        return False
    if winner.counts is None:
        return True
    melds = winner.parsed_melds
    return all(m.is_kong for m in melds) and sum(1 for m in melds if m.is_kong) <= len(kongs)


def _terminal(tile: int) -> bool:
    return tile % 9 in (0, 8)


def zhong_zhang_holds(winner: Winner, kongs: Sequence[Kong]) -> bool:
    """中张 (断幺九): no 1 and no 9 anywhere in the hand, melds included.

    With quick entry: not 幺九 / 清幺九, and no kong of the winner's on a 1 or a 9 (the kong is held).
    """
    if winner.counts is not None:
        return not any(winner.counts[t] for t in range(len(winner.counts)) if _terminal(t)) and not any(
            _terminal(m.tile) for m in winner.parsed_melds)
    if winner.pattern in TERMINAL_PATTERNS:
        return False
    return not any(kong.tile is not None and _terminal(kong.tile) for kong in kongs)


def found_flags(winner: Winner, kongs: Sequence[Kong], rules: Rules) -> list[str]:
    """The flags a tile-entered winner has by its tiles and the night gives fan, not already given."""
    if winner.counts is None:
        return []
    holds = {"men_qing": men_qing_holds, "zhong_zhang": zhong_zhang_holds}
    return [flag for flag in FOUND_FLAGS
            if getattr(rules, MODIFIERS[flag].option or "") and flag not in winner.flags and holds[flag](winner, kongs)]


def scored_flags(winner: Winner, kongs: Sequence[Kong], rules: Rules) -> list[str]:
    """The winner's flags as scored: those given, in their order, then those found from the tiles."""
    return winner.flags + found_flags(winner, kongs, rules)


def uncapped_fan(pattern: str, roots: int, flags: Sequence[str], rules: Rules, *, self_draw: bool) -> int:
    """Total fan of a win before the cap: the pattern at the table's fans + roots + modifiers (+1 for 自摸加番)."""
    fan = rules.fans.get(pattern, PATTERNS[pattern].fan) + roots
    for flag in flags:
        modifier = MODIFIERS[flag]
        fan += modifier.fan if modifier.fan is not None else int(getattr(rules, modifier.option or ""))
    if self_draw and rules.self_draw_bonus == "fan":
        fan += 1
    return fan
