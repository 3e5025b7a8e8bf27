"""The table's preview document: one function for the server's preview API and the engine in the phone.

``POST /api/nights/{id}/preview/`` answers ``preview_document(entry, base=, rules=, dealer=, lang=)``; the table
page, while offline, runs this same module in the browser (Pyodide, static/ledger/table/engine_worker.js) with the
night's base, rules and dealer it was given, so the two cannot drift. Only the public ``scoring`` API is used.
"""
from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from . import (OPTIONS, HandResult, Meld, Problem, Rules, ScoringError, analyse_hand, analyse_ready, hand_choices,
               normalise_language, parse_rules, score_hand)
from .tiles import tile_name

#: The fields of a hand record that the table enters; base, rules and dealer come from the night.
ENTRY_FIELDS = ("events", "exhausted", "ready", "hua_zhu")
#: What a hand record holds that the night gives (frozen at its creation), and an entry may not bring.
FROZEN_FIELDS = ("rules", "players", "mode", "suits")


def check_entry(entry: Mapping[str, Any]) -> None:
    """Base, rules and dealer belong to the night: an entry holds only what happened at the table."""
    unknown = sorted(set(entry) - set(ENTRY_FIELDS))
    if unknown:
        # What the night fixes (its rules and so its table shape: RULES.md §9) is named as such, not as a typo.
        raise ScoringError([Problem(name, "frozen_with_night" if name in FROZEN_FIELDS else "unknown_field",
                                    {"name": name}) for name in unknown])


def hand_document(entry: Mapping[str, Any], *, base: str, rules: Mapping[str, Any], dealer: int) -> dict[str, Any]:
    """The full hand record for an entry at a night's table: its base, frozen rules and the dealer."""
    doc: dict[str, Any] = {"base": base, "rules": rules, "dealer": dealer}
    for key, value in entry.items():
        doc[key] = value
    return doc


def preview_document(entry: Mapping[str, Any], *, base: str, rules: Mapping[str, Any], dealer: int,
                     lang: str = "zh") -> tuple[int, dict[str, Any]]:
    """The preview's status and body: 200 with the result document and ``choices`` for a hand that has ended;
    200 too for a hand that is fine but not over yet (what the table sees after every tap), with the errors
    document (what is missing), ``so_far`` (its payments up to now) and ``choices``; 400 with the errors document,
    ``so_far`` None and ``choices`` for a hand that is wrong."""
    check_entry(entry)
    doc = hand_document(entry, base=base, rules=rules, dealer=dealer)
    choices = hand_choices(doc)
    try:
        result = score_hand(doc)
    except ScoringError as error:
        try:
            so_far: HandResult | None = score_hand(doc, require_end=False)
        except ScoringError:
            so_far = None
        # Each error with its code too (the table tells a hand still being typed, `hand_wrong_count`, from a tile
        # too many, which no tile typed next puts right); /api/score/'s errors are HAND_FORMAT.md's, path and message.
        errors = [{**problem.as_dict(normalise_language(lang)), "code": problem.code} for problem in error.problems]
        return 200 if so_far else 400, {"errors": errors, "so_far": so_far.as_dict() if so_far else None,
                                        "choices": choices}
    return 200, {**result.as_dict(), "choices": choices}


def _table_suits(body: Mapping[str, Any], rules: Rules | None) -> str:
    """The optional `suits` of an analysis (RULES.md §9: "mps" or "ps" for a 两房 table); without it, those of the
    table's `rules` when given (a 两房 table's rules say "ps"), else "mps"."""
    if "suits" not in body:
        return rules.suits if rules is not None else "mps"
    value, problem = OPTIONS["suits"].check(body["suits"], "suits")
    if problem is not None:
        raise ScoringError([problem])
    return str(value)


def _refuse_wan(counts: Sequence[int], melds: Sequence[Meld], suits: str) -> None:
    """At a 两房 table a hand holding 万 is refused, as in a hand record."""
    wan = [t for t in range(9) if counts[t]] + [m.tile for m in melds if m.tile < 9]
    if suits == "ps" and wan:
        raise ScoringError([Problem("tiles", "suit_not_at_table", {"tile": tile_name(wan[0])})])


def analysis_document(body: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/analyse/``'s answer: ``{"tiles", "melds", "ready", "suits"}`` -> pattern, roots, fan and readings
    (a win) or the waits (``ready``); a hand that cannot be read raises ScoringError (path ``tiles``)."""
    # Optional: a table's rules, to read the tiles at its own fans (RULES.md §10) and suits; the usual ones otherwise.
    rules = parse_rules(body["rules"]) if body.get("rules") is not None else None
    suits = _table_suits(body, rules)
    if body.get("ready"):
        ready = analyse_ready(body.get("tiles"), body.get("melds"), table_suits=suits, rules=rules)
        _refuse_wan(ready.counts, ready.parsed_melds, suits)
        if ready.problem:
            raise ScoringError([Problem("tiles", ready.problem, {"suits": ready.suits})])
        waits = [{"tile": w.tile, "pattern": w.pattern, "roots": w.roots, "fan": w.fan} for w in ready.waits]
        return {"tiles": ready.tiles, "melds": list(ready.melds), "waits": waits,
                "fan_min": ready.cha_jiao_fan("min"), "fan_max": ready.cha_jiao_fan("max")}
    hand = analyse_hand(body.get("tiles"), body.get("melds"), rules=rules)
    _refuse_wan(hand.counts, hand.parsed_melds, suits)
    if hand.problem:
        raise ScoringError([Problem("tiles", hand.problem, {"suits": hand.suits})])
    return {"tiles": hand.tiles, "melds": list(hand.melds), "pattern": hand.pattern, "roots": hand.roots,
            "fan": hand.fan, "readings": [{"groups": list(r.groups), "pattern": r.pattern, "fan": r.fan}
                                          for r in hand.readings]}


def analysis_answer(body: Any, lang: str) -> tuple[int, dict[str, Any]]:
    """``POST /api/analyse/``'s status and document: 200 and the analysis, or 400 and the errors document in
    ``lang``; the server's view and the phone's engine (``analysis_json``) both answer with it."""
    try:
        if not isinstance(body, dict):
            raise ScoringError([Problem("", "not_object")])
        return 200, analysis_document(body)
    except ScoringError as error:
        return 400, error.as_dict(lang)


def analysis_json(request: str) -> str:
    """The phone's tile analysis: ``{"body", "lang"}`` in, ``{"status", "body"}`` out, as ``POST /api/analyse/``."""
    asked = json.loads(request)
    status, body = analysis_answer(asked.get("body"), normalise_language(asked.get("lang")))
    return json.dumps({"status": status, "body": body}, ensure_ascii=False)


def preview_json(request: str) -> str:
    """The phone's entry point (strings cross the JavaScript boundary, not proxies): ``{"entry", "base", "rules",
    "dealer", "lang"}`` in, ``{"status", "body"}`` out; an entry the engine refuses as a whole (not an object, an
    unknown field) answers 400 with its errors document, as the server does."""
    asked = json.loads(request)
    lang = normalise_language(asked.get("lang"))
    entry = asked.get("entry")
    try:
        if not isinstance(entry, dict):
            raise ScoringError([Problem("", "not_object")])
        status, body = preview_document(entry, base=asked["base"], rules=asked["rules"], dealer=asked["dealer"],
                                        lang=lang)
    except ScoringError as error:
        status, body = 400, error.as_dict(lang)
    return json.dumps({"status": status, "body": body}, ensure_ascii=False)
