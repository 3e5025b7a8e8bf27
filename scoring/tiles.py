"""Tiles (牌) and their text notation: 123m456p11s, with 万/筒/条 accepted for the suits."""
from __future__ import annotations

import re
from functools import lru_cache

from .messages import Problem, ScoringError

SUITS = "mps"
#: Suit characters accepted on input, mapped to the canonical suit letter.
SUIT_CHARS = {
    "m": "m", "万": "m", "萬": "m",
    "p": "p", "筒": "p", "饼": "p", "餅": "p",
    "s": "s", "条": "s", "條": "s",
}
KINDS = 27  # 3 suits x 9 ranks; a tile is suit * 9 + rank - 1
Counts = list[int]
#: Longest tile text read: 14 tiles with Chinese suits and spaces fit well within it; more is refused unread.
MAX_TILES_TEXT = 64


def tile_name(tile: int) -> str:
    """Return the notation of one tile, e.g. 0 -> '1m', 26 -> '9s'."""
    return f"{tile % 9 + 1}{SUITS[tile // 9]}"


_CANONICAL = re.compile(r"(?:[1-9]+[mps])+")
_OFFSET = {"m": 0, "p": 9, "s": 18}  # suit letter -> tile index of its rank 1
_RANK = {str(r): r - 1 for r in range(1, 10)}


def parse_tiles(text: object, path: str = "tiles", *, allow_empty: bool = False) -> Counts:
    """Parse tile notation into 27 counts; raise ScoringError saying where and what is wrong."""
    if isinstance(text, str) and len(text) <= MAX_TILES_TEXT and _CANONICAL.fullmatch(text):
        # The usual case (letters, no spaces): read backwards so each digit meets its suit first.
        counts = [0] * KINDS
        offset = 0
        for char in reversed(text):
            if char in _OFFSET:
                offset = _OFFSET[char]
            else:
                counts[offset + _RANK[char]] += 1
        if max(counts) <= 4:
            return counts
    if not isinstance(text, str):
        raise ScoringError([Problem(path, "tiles_not_text")])
    if len(text) > MAX_TILES_TEXT:
        raise ScoringError([Problem(path, "tiles_too_long", {"high": MAX_TILES_TEXT})])
    counts = [0] * KINDS
    problems: list[Problem] = []
    pending: list[int] = []
    pending_text = ""
    for pos, char in enumerate(text, start=1):
        if char.isspace():
            continue
        if "0" <= char <= "9":
            if char == "0":
                problems.append(Problem(path, "tiles_bad_rank", {"char": char, "pos": pos}))
            else:
                pending.append(int(char))
                pending_text += char
            continue
        suit = SUIT_CHARS.get(char.lower())
        if suit is None and not char.isprintable():
            # A lone surrogate or a control character: said by position, never echoed.
            problems.append(Problem(path, "tiles_bad_text", {"pos": pos}))
            continue
        if suit is None:
            last = problems[-1] if problems else None
            if last is not None and last.code in ("tiles_unknown_char", "tiles_unknown_chars") \
                    and last.params.get("last", last.params["pos"]) == pos - 1:
                # A word typed where tiles go ("abc") is one problem, not one per letter.
                problems[-1] = Problem(path, "tiles_unknown_chars", {"char": last.params["char"] + char,
                                                                     "pos": last.params["pos"], "last": pos})
            else:
                problems.append(Problem(path, "tiles_unknown_char", {"char": char, "pos": pos}))
            continue
        if not pending:
            problems.append(Problem(path, "tiles_suit_without_rank", {"char": char, "pos": pos}))
            continue
        base = SUITS.index(suit) * 9
        for rank in pending:
            counts[base + rank - 1] += 1
        pending, pending_text = [], ""
    if pending:
        problems.append(Problem(path, "tiles_no_suit", {"digits": pending_text}))
    if not problems and not allow_empty and sum(counts) == 0:
        problems.append(Problem(path, "tiles_empty"))
    for tile, count in enumerate(counts):
        if count > 4:
            problems.append(Problem(path, "tiles_too_many", {"tile": tile_name(tile), "count": count}))
    if problems:
        raise ScoringError(problems)
    return counts


def parse_tile(text: object, path: str = "tile") -> int:
    """Parse exactly one tile, e.g. '5m' or '5万'."""
    counts = parse_tiles(text, path)
    if sum(counts) != 1:
        raise ScoringError([Problem(path, "tile_not_single")])
    return counts.index(1)


def format_tiles(counts: Counts) -> str:
    """Return the canonical notation: suits in m, p, s order, ranks ascending."""
    return "".join([_suit_text(tuple(counts[start:start + 9]), suit) for start, suit in ((0, "m"), (9, "p"), (18, "s"))])


@lru_cache(maxsize=65536)
def _suit_text(segment: tuple[int, ...], suit: str) -> str:
    ranks = "".join([_RANK_TEXT[r] * c for r, c in enumerate(segment) if c])
    return ranks + suit if ranks else ""


_RANK_TEXT = "123456789"


def normalise_tiles(text: str) -> str:
    """Return the canonical form of a tile string (raises ScoringError when invalid)."""
    return format_tiles(parse_tiles(text))
