"""The fan table of RULES.md §3: hand patterns (番型) and modifiers (加番), with their names."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping


@dataclass(frozen=True)
class Pattern:
    code: str
    fan: int
    zh: str
    en: str


#: In the order of RULES.md §3; on equal fan the one listed first names the hand.
PATTERNS: dict[str, Pattern] = {p.code: p for p in (
    Pattern("ping_hu", 0, "平胡", "Basic win"),
    Pattern("dui_dui_hu", 1, "对对胡", "All pongs"),
    Pattern("qing_yi_se", 2, "清一色", "Full flush"),
    Pattern("qi_dui", 2, "七对", "Seven pairs"),
    Pattern("yao_jiu", 2, "幺九", "Terminals in every set"),
    Pattern("qing_dui", 3, "清对", "Flush all pongs"),
    Pattern("jiang_dui", 3, "将对", "2-5-8 all pongs"),
    Pattern("long_qi_dui", 4, "龙七对", "Dragon seven pairs"),
    # RULES.md §10: a pattern only where jiang_qi_dui_fan gives it fan (4 is usual); listed after 龙七对.
    Pattern("jiang_qi_dui", 4, "将七对", "2-5-8 seven pairs"),
    Pattern("qing_qi_dui", 4, "清七对", "Flush seven pairs"),
    Pattern("qing_yao_jiu", 4, "清幺九", "Flush terminals"),
    Pattern("qing_long_qi_dui", 5, "清龙七对", "Flush dragon seven pairs"),
)}
PATTERN_ORDER = {code: i for i, code in enumerate(PATTERNS)}
SEVEN_PAIRS_PATTERNS = frozenset({"qi_dui", "long_qi_dui", "qing_qi_dui", "qing_long_qi_dui", "jiang_qi_dui"})
DRAGON_PATTERNS = frozenset({"long_qi_dui", "qing_long_qi_dui"})
#: The most roots (根) any quick-entry win can have: four kongs.
MAX_ROOTS = 4


#: What each combined pattern of RULES.md §3 is made of ("清对 = 清一色 + 对对胡"): a table that gives 对对胡 two fan
#: usually raises 清对 and 将对 with it (the preset 对对胡两番), which the night form offers (`containing`).
PARTS: dict[str, tuple[str, ...]] = {
    "qing_dui": ("qing_yi_se", "dui_dui_hu"), "jiang_dui": ("dui_dui_hu",), "long_qi_dui": ("qi_dui",),
    "qing_qi_dui": ("qing_yi_se", "qi_dui"), "qing_yao_jiu": ("qing_yi_se", "yao_jiu"),
    "qing_long_qi_dui": ("qing_yi_se", "long_qi_dui"),
}


def containing(code: str) -> tuple[str, ...]:
    """The patterns made of this one, directly or through another (七对: 龙七对, 清七对, 清龙七对), in §3's order."""
    found = {whole for whole, parts in PARTS.items() if code in parts}
    for whole in list(found):
        found |= set(containing(whole))
    return tuple(sorted(found, key=PATTERN_ORDER.__getitem__))


#: The dragon pattern of each plain seven-pairs pattern.
DRAGON_OF = {"qi_dui": "long_qi_dui", "qing_qi_dui": "qing_long_qi_dui"}


def max_roots(pattern: str, fans: Mapping[str, int] | None = None) -> int:
    """The most roots (根) a quick-entry win with this pattern can have (at a table's fans, when given).

    Seven pairs with a quad is 龙七对 at RULES.md §3's fans; where a table makes the dragon worth no more
    than plain seven pairs, the quads are the plain pattern's roots (RULES.md §10). At one fan above, the
    two readings tie and the dragon, worth more, names the hand (§3), as by tiles.
    """
    if pattern in DRAGON_OF and fans is not None and DRAGON_OF[pattern] in fans and pattern in fans \
            and fans[pattern] >= fans[DRAGON_OF[pattern]]:
        return 3
    if pattern in DRAGON_PATTERNS:
        return 2  # 14 tiles hold at most three quads, one of which the pattern counts
    if pattern == "jiang_qi_dui":
        return 3  # seven pairs of at most six kinds: one to three quads, each a root
    if pattern in SEVEN_PAIRS_PATTERNS:
        return 0  # seven pairs with a quad is 龙七对
    return MAX_ROOTS


@dataclass(frozen=True)
class Modifier:
    code: str
    zh: str
    en: str
    fan: int | None  # fixed fan, or None when a rule option sets it
    option: str | None = None


MODIFIERS: dict[str, Modifier] = {m.code: m for m in (
    Modifier("gang_shang_hua", "杠上花", "Win on a kong replacement", None, "gang_shang_hua_fan"),
    Modifier("gang_shang_pao", "杠上炮", "Win on a discard after a kong", 1),
    Modifier("qiang_gang_hu", "抢杠胡", "Robbing a kong", None, "qiang_gang_hu_fan"),
    Modifier("bao_jiao", "报叫", "Declared ready", 2),
    Modifier("tian_hu", "天胡", "Heavenly win", None, "tian_hu_fan"),
    Modifier("di_hu", "地胡", "Earthly win", None, "di_hu_fan"),
    Modifier("hai_di", "海底捞月", "Last tile of the wall", None, "hai_di_fan"),
    Modifier("jin_gou_diao", "金钩钓", "Golden hook", None, "jin_gou_diao_fan"),
    # RULES.md §10: house rules
    Modifier("men_qing", "门清", "Concealed hand", None, "men_qing_fan"),
    Modifier("zhong_zhang", "中张", "No terminals", None, "zhong_zhang_fan"),
    Modifier("jia_xin_wu", "夹心五", "Win on the middle 5", None, "jia_xin_wu_fan"),
    Modifier("hai_di_pao", "海底炮", "Last discard of the wall", None, "hai_di_pao_fan"),
)}


def choose_pattern(*, qing: bool, all_pongs: bool, terminals: bool, only_258: bool) -> str:
    """Return the highest-fan four-sets-plus-pair pattern that these properties allow."""
    if qing and terminals:
        return "qing_yao_jiu"
    if qing and all_pongs:
        return "qing_dui"
    if all_pongs and only_258:
        return "jiang_dui"
    if qing:
        return "qing_yi_se"
    if terminals:
        return "yao_jiu"
    if all_pongs:
        return "dui_dui_hu"
    return "ping_hu"


def choose_seven_pairs(*, qing: bool, quads: int) -> str:
    """Return the seven-pairs pattern (七对 family) for a hand of pairs."""
    if quads:
        return "qing_long_qi_dui" if qing else "long_qi_dui"
    return "qing_qi_dui" if qing else "qi_dui"


def min_roots(pattern: str) -> int:
    """The fewest roots a quick-entry win with this pattern has: a 将七对 always holds a 4-of-a-kind (RULES.md §10)."""
    return 1 if pattern == "jiang_qi_dui" else 0


# ---- patterns under a table's own fans (RULES.md §10) --------------------------------------------

def sets_patterns(*, qing: bool, all_pongs: bool, terminals: bool, only_258: bool) -> list[str]:
    """Every four-sets-plus-pair pattern a reading with these properties satisfies."""
    found = ["ping_hu"]
    if all_pongs:
        found.append("dui_dui_hu")
    if qing:
        found.append("qing_yi_se")
    if terminals:
        found.append("yao_jiu")
    if qing and all_pongs:
        found.append("qing_dui")
    if all_pongs and only_258:
        found.append("jiang_dui")
    if qing and terminals:
        found.append("qing_yao_jiu")
    return found


def seven_pairs_patterns(*, qing: bool, quads: int, only_258: bool) -> list[tuple[str, int]]:
    """Every (pattern, roots) a seven-pairs hand satisfies: a 龙 pattern takes one quad as its dragon (roots =
    quads − 1); the others, 将七对 included, count every quad as a root.

    清一色 ("all 14 tiles one suit") is satisfied too: it names the hand only where a table makes it worth more.
    """
    found = [("qi_dui", quads)]
    if quads:
        found.append(("long_qi_dui", quads - 1))
    if only_258:
        found.append(("jiang_qi_dui", quads))
    if qing:
        found += [("qing_yi_se", quads), ("qing_qi_dui", quads)]
        if quads:
            found.append(("qing_long_qi_dui", quads - 1))
    return found


def best_pattern(candidates: Iterable[tuple[str, int]], fans: Mapping[str, int]) -> tuple[str, int] | None:
    """The candidate (pattern, roots) of the highest total fan under a fan table; on a tie the one whose pattern is
    worth more (RULES.md §3: the pattern is the single highest-fan entry, so 清龙七对 + 0 roots before 清七对 + 1),
    then the one listed first.

    Patterns the table lacks (幺九将对 off, no 将七对) are passed over.
    """
    best: tuple[str, int] | None = None
    best_rank = (0, 0, 0)
    for pattern, roots in candidates:
        if pattern not in fans:
            continue
        ranked = (fans[pattern] + roots, fans[pattern], -PATTERN_ORDER[pattern])
        if best is None or ranked > best_rank:
            best, best_rank = (pattern, roots), ranked
    return best
