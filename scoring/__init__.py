"""The rules engine of Chengdu mahjong (成都麻将 · 血战到底): pure Python, no Django.

Public functions (everything else in the project calls these; nothing re-implements a rule):

- ``parse_tiles(text) -> counts`` / ``format_tiles(counts) -> str``: the tile notation
  (``123m456p11s``; 万/萬, 筒/饼/餅, 条/條 accepted for the suits).
- ``analyse_hand(tiles, melds) -> HandAnalysis``: a 14-tile hand: complete or not (and why),
  every reading, the pattern (番型), roots (根) and fan.
- ``analyse_ready(tiles, melds) -> ReadyAnalysis``: a 13-tile hand: its waits (叫), each wait's
  fan, and the fan 查叫 charges (``cha_jiao_fan('min'|'max')``).
- ``score_hand(record) -> HandResult``: a hand record of HAND_FORMAT.md, checked and settled;
  ``HandResult.as_dict()`` is the output document. A bad record raises ``ScoringError``, which
  holds every problem with its path; ``as_dict(lang)`` gives the errors document ('zh' or 'en').
- ``settle_night(nets) -> list[Transfer]``: the fewest transfers that settle a night.
- ``Rules``, ``parse_rules``, ``PRESETS``: the rule options of RULES.md §8.
"""
from .hands import HandAnalysis, Meld, ReadyAnalysis, Reading, Wait, analyse_hand, analyse_ready
from .messages import Problem, ScoringError, normalise_language
from .patterns import MODIFIERS, PATTERNS
from .record import HandRecord, read_record
from .rules import OPTION_SPECS, PRESETS, Rules, parse_rules
from .settle_hand import HandResult, Payment, ScoredReady, ScoredWin, format_amount, score_hand, win_fan
from .settle_night import Transfer, settle_night
from .tiles import format_tiles, normalise_tiles, parse_tiles

__all__ = [
    "HandAnalysis", "HandRecord", "HandResult", "MODIFIERS", "Meld", "OPTION_SPECS", "PATTERNS", "PRESETS",
    "Payment", "Problem", "ReadyAnalysis", "Reading", "Rules", "ScoredReady", "ScoredWin", "ScoringError",
    "Transfer", "Wait", "analyse_hand", "analyse_ready", "format_amount", "format_tiles", "normalise_language",
    "normalise_tiles", "parse_rules", "parse_tiles", "read_record", "score_hand", "settle_night", "win_fan",
]
