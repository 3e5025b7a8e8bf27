"""The rules engine of Chengdu mahjong (成都麻将 · 血战到底): pure Python, no Django.

Public functions (everything else in the project calls these; nothing re-implements a rule):

- ``parse_tiles(text) -> counts`` / ``format_tiles(counts) -> str``: the tile notation
  (``123m456p11s``; 万/萬, 筒/饼/餅, 条/條 accepted for the suits).
- ``analyse_hand(tiles, melds) -> HandAnalysis``: a 14-tile hand: complete or not (and why),
  every reading, the pattern (番型), roots (根) and fan.
- ``analyse_ready(tiles, melds) -> ReadyAnalysis``: a 13-tile hand: its waits (叫), each wait's
  fan, and the fan 查叫 charges (``cha_jiao_fan('min'|'max')``).
- ``score_hand(record, require_end=True) -> HandResult``: a hand record of HAND_FORMAT.md, checked and settled;
  ``HandResult.as_dict()`` is the output document. A bad record raises ``ScoringError``, which
  holds every problem with its path; ``as_dict(lang)`` gives the errors document ('zh' or 'en').
- ``hand_choices(doc) -> dict``: what may be chosen at each point of a record being entered (who may
  kong, discard or win, the legal patterns with their roots range and the legal flags), computed
  by the same predicates that check a record; never raises.
- ``read_json(text) -> value``: a hand record's JSON text, read alike by the command line and the API (no NaN,
  no key twice in one object; errors with line and column).
- ``parse_base(value, path) -> Decimal``: the one check of a stake (bounds in ``scoring.money``).
- ``settle_night(nets) -> list[Transfer]``: the fewest transfers that settle a night;
  ``settle_night_plan(nets) -> Plan(transfers, method, lower_bound)`` also says how they were found
  ("exact" up to EXACT_LIMIT players left after pairing opposites, "greedy" beyond).
- ``parse_fee(doc) -> Fee`` and ``fee_shares(fee, nets=, played=, wins=, self_draws=)``: a night's table fee
  (台费: none, per player, split among the winners, or per win) and each player's exact share of it.
- ``Rules``, ``parse_rules``, ``PRESETS``: the rule options of RULES.md §8, the table shapes of §9
  (``mode``: 血战到底 / 血流成河 / 标准; ``players``: 4, 3 or 2; ``suits``: 三房 "mps" or 两房 "ps") and the
  house rules of §10 (``Rules.fans``: the table's own fan table). ``analyse_hand`` and ``analyse_ready`` take
  ``rules=`` to read a hand at a table's fans (default: RULES.md §3's).
"""
from .choices import hand_choices
from .fees import FEE_MODES, FEE_WINS, MAX_FEE, Fee, fee_shares, parse_fee
from .hands import HandAnalysis, Meld, Reading, analyse_hand
from .invariants import read_record
from .json_text import read_json
from .messages import Problem, ScoringError, normalise_language, tile_words
from .money import BASE_PLACES, MAX_BASE, MAX_WIN_FAN, format_amount, parse_base
from .patterns import MODIFIERS, PATTERNS
from .record import (MAX_EVENTS, MAX_EVENTS_XUE_LIU, MAX_KONGS_PER_PLAYER, MAX_READY_FAN, MAX_WINS, MAX_WINS_XUE_LIU,
                     HandRecord)
from .rules import OPTIONS, PRESETS, RuleOption, Rules, parse_rules
from .settle_hand import HandResult, Payment, ScoredReady, ScoredWin, score_hand, win_fan
from .settle_night import EXACT_LIMIT, Plan, Transfer, settle_night, settle_night_plan
from .tiles import format_tiles, normalise_tiles, parse_tiles
from .waits import ReadyAnalysis, Wait, analyse_ready

__all__ = [
    "BASE_PLACES", "EXACT_LIMIT", "FEE_MODES", "FEE_WINS", "Fee", "MAX_FEE", "fee_shares", "parse_fee", "HandAnalysis", "HandRecord", "HandResult", "MAX_BASE", "MAX_EVENTS", "MAX_EVENTS_XUE_LIU", "MAX_WINS_XUE_LIU",
    "MAX_KONGS_PER_PLAYER", "MAX_READY_FAN", "MAX_WINS", "MAX_WIN_FAN", "MODIFIERS", "Meld", "OPTIONS",
    "PATTERNS", "PRESETS", "Payment", "Plan", "Problem", "Reading", "ReadyAnalysis",
    "RuleOption", "Rules", "ScoredReady", "ScoredWin", "ScoringError", "Transfer", "Wait", "analyse_hand",
    "analyse_ready", "format_amount", "format_tiles", "hand_choices", "normalise_language", "normalise_tiles",
    "parse_base", "parse_rules", "parse_tiles", "read_json", "read_record", "score_hand", "settle_night",
    "settle_night_plan", "tile_words", "win_fan",
]
