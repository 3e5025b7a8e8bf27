"""What may be chosen at each point of a hand record being entered: computed by the rules' own predicates."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .invariants import (
    FlagContext, Position, discarder_refusal, exhausted_refusal, flag_refusal, hand_ended, hua_zhu_refusal,
    kong_player_refusal, past_winner_ready_refusal, positions, ready_refusal, robbed_kong_refusal, robbing_refusal,
    roots_bounds, self_draw_refusal, winner_refusal, flag_in_use, wins_refusal, TILE_FLAGS,
)
from .patterns import MODIFIERS, PATTERNS
from .record import (KONG_KINDS, MAX_EVENTS, MAX_KONGS_PER_PLAYER, MAX_READY_FAN, MAX_WINS, SEATS, HandRecord, Kong, Win, Winner, max_events,
                     read_document)

#: Flags that belong to the tile (every winner of the event or none), offered per event, not per winner:
#: 抢杠胡 (the robbed tile), 杠上炮 and 海底炮 (the discard; RULES.md §7, §10).
EVENT_FLAGS = TILE_FLAGS


def hand_choices(doc: object) -> dict[str, Any]:
    """Return what may be chosen in a hand record as it stands; never raises (malformed parts are skipped).

    The shape (seats are 0 … players−1 of the record's rules, RULES.md §9; every list is in seat or table order)::

        {"complete": bool,            # the record ends the hand (third winner, or exhausted)
         "events": [                  # one per event of the record, by index
           {"type": "kong",
            "player": [seats],        # who may make this kong here
            "from": [seats],          # who may have discarded it (a direct kong)
            "kinds": [kinds]},        # direct / added / concealed; only robbable kinds when the next win robs it
           {"type": "win",
            "from": [seats],          # who may be the discarder (or the robbed player)
            "self_draw": bool,        # may it be a self-draw
            "winners": [seats],       # who may be among its winners
            "more_winners": [seats],  # who may still be added (一炮多响), none on a self-draw
            "flags": ["qiang_gang_hu"],  # legal flags of the tile (EVENT_FLAGS): put on every winner or none
            "winner_choices": [       # one per winner entry that names a player
              {"player": seat,
               "patterns": [{"code", "fan", "min_roots", "max_roots"}],  # this table's, at its fans; min: own kongs
               "flags": [codes]}]},   # legal per-winner flags here, with the rules in force
           {"type": null}],           # an event that could not be read (no events at all past MAX_EVENTS)
         "next": {"open": bool,       # may another event follow
                  "winners": [seats], "kongers": [seats],
                  "exhausted": bool}, # may the hand end with the wall exhausted
         "ready": {"seats": [seats], "min_fan": 0, "max_fan": 20,  # who may be ready at 查叫, quick-entry fans
                   "required": [seats]},  # who must be listed as ready (血流: every past winner)
         "hua_zhu": [seats]}          # who may be listed as 花猪 (with the hua_zhu rule on; never at a 两房 table)

    By mode: in 血流 (xue_liu) a past winner may win again, deal in and kong, and the hand is open
    until the wall runs out; in 标准 (first_win) nothing is offered after the first win event.

    Every choice comes from the same predicates `check_record` uses to refuse a record
    (`scoring.invariants`), so what is offered is what the checker accepts.
    """
    try:
        return _choices(doc)
    except Exception:  # noqa: BLE001 -- a safety net: the page must always get an answer
        return _choices({})


def _choices(doc: object) -> dict[str, Any]:
    record, _ = read_document(doc)
    seats = record.rules.seats
    places = positions(record)
    raw = doc.get("events") if isinstance(doc, Mapping) else None
    count = len(raw) if isinstance(raw, list) and len(raw) <= max_events(record.rules) else 0
    read: dict[int, tuple[Position, Kong | Win]] = {e.index: (pos, e) for pos, e in zip(places, record.events)}
    events: list[dict[str, Any]] = []
    for index in range(count):
        if index not in read:
            events.append({"type": None})
            continue
        pos, event = read[index]
        events.append(_kong(record, pos, event) if isinstance(event, Kong) else _win(record, pos, event, places[-1]))
    end = places[-1]
    open_ = not end.over and record.event_count < max_events(record.rules)
    may_win = open_ and wins_refusal(record.rules, end) is None
    return {
        "complete": hand_ended(record, end),
        "events": events,
        "next": {
            "open": open_,
            "winners": [s for s in seats if may_win and winner_refusal(end, s, None, []) is None],
            "kongers": [s for s in seats if open_ and kong_player_refusal(end, s) is None],
            "exhausted": exhausted_refusal(end, record.rules) is None,
        },
        "ready": {"seats": [s for s in seats if ready_refusal(end, s) is None], "min_fan": 0, "max_fan": MAX_READY_FAN,
                  "required": [s for s in seats if past_winner_ready_refusal(record.rules, end, s, ()) is not None]},
        "hua_zhu": [s for s in seats if record.rules.hua_zhu and not record.rules.two_suits
                    and hua_zhu_refusal(end, s) is None],
    }


def _kong(record: HandRecord, pos: Position, kong: Kong) -> dict[str, Any]:
    live = not pos.over
    kinds = [k for k in KONG_KINDS if not kong.robbed or robbed_kong_refusal(k, record.rules) is None]
    return {
        "type": "kong",
        "player": [s for s in record.rules.seats if live and kong_player_refusal(pos, s) is None
                   and (kong.discarder is None or discarder_refusal(pos, kong.discarder, [s], "discard_kong") is None)],
        "from": [s for s in record.rules.seats if live and discarder_refusal(pos, s, [kong.player], "discard_kong") is None],
        "kinds": kinds,
    }


def _win(record: HandRecord, pos: Position, win: Win, end: Position) -> dict[str, Any]:
    live = not pos.over and wins_refusal(record.rules, pos) is None
    seats = [w.player for w in win.winners if w.player is not None]
    winners = [s for s in record.rules.seats if live and winner_refusal(pos, s, win.discarder, []) is None]
    if win.self_draw:
        more = [s for s in winners if not seats] if live else []
    else:
        # One discard is won by at most the active players other than the discarder (RULES.md §9).
        room = len(pos.active) - 1 - len(seats)
        more = [s for s in winners if s not in seats] if room > 0 else []
    choices = []
    for winner in win.winners:
        if winner.player is None:
            continue
        own = len(pos.kongs[winner.player])
        ctx = FlagContext(pos, win.discarder, winner.player, record.dealer, record.dealer_known, record.rules,
                          sum(winner.counts) if winner.counts is not None else None, winner.flags, winner)
        patterns = []
        for code, fan in record.rules.fans.items():  # the patterns of this table, at its fans (RULES.md §10)
            bounds = roots_bounds(code, own, record.rules)
            if bounds is not None:
                patterns.append({"code": code, "fan": fan, "min_roots": bounds[0], "max_roots": bounds[1]})
        flags = [f for f in MODIFIERS
                 if f not in EVENT_FLAGS and flag_in_use(f, record.rules) and flag_refusal(f, ctx) is None]
        choices.append({"player": winner.player, "patterns": patterns, "flags": flags})
    return {
        "type": "win",
        "from": [s for s in record.rules.seats if live and discarder_refusal(pos, s, seats, "discard") is None
                 and not (win.robs and _robs_a_fifth_kong(record, pos, s, win, end))],
        "self_draw": live and self_draw_refusal(len(seats)) is None and all(
            flag_refusal(f, FlagContext(pos, None, w.player, record.dealer, record.dealer_known, record.rules,
                                        sum(w.counts) if w.counts is not None else None, w.flags, w)) is None
            for w in win.winners for f in w.flags),
        "winners": winners,
        "more_winners": more,
        "flags": [f for f in EVENT_FLAGS if live and _tile_flag_allowed(f, record, pos, win.discarder, win.winners, end)],
        "winner_choices": choices,
    }


def _robs_a_fifth_kong(record: HandRecord, pos: Position, discarder: int, win: Win, end: Position) -> bool:
    """Would this 抢杠胡 rob `discarder` of a kong not recorded, a fifth with the kongs they make before and after
    it (RULES.md §7)? The same count as the flag's, below."""
    refusal = robbing_refusal(pos, discarder, record.rules, win.winners)
    if refusal is not None:
        return refusal[0] == "too_many_kongs"
    previous = pos.previous
    if isinstance(previous, Kong) and previous.player == discarder:
        return False  # it robs the kong recorded just before it
    counted = 1 if discarder == win.discarder else 0  # `end.made` counts the robbed kong of the seat in 'from'
    return end.made[discarder] - counted + 1 > MAX_KONGS_PER_PLAYER


def _tile_flag_allowed(flag: str, record: HandRecord, pos: Position, discarder: int | None,
                       winners: list[Winner], end: Position) -> bool:
    """May this flag of the tile go on every winner of the win here (the others' flags as they stand)?"""
    if flag == "qiang_gang_hu":
        if robbing_refusal(pos, discarder, record.rules, winners) is not None:
            return False
        previous = pos.previous
        if discarder is None or (isinstance(previous, Kong) and previous.player == discarder):
            return True
        # It robs a kong that was not recorded: one more of the discarder's, who may make at most four in all,
        # the kongs recorded after it included (`end.made` counts this one already when the flag is on).
        robs_already = any("qiang_gang_hu" in w.flags for w in winners)
        return end.made[discarder] + (0 if robs_already else 1) <= MAX_KONGS_PER_PLAYER
    if not flag_in_use(flag, record.rules):
        return False
    others = [f for w in winners for f in w.flags if f != flag]
    return all(flag_refusal(flag, FlagContext(pos, discarder, w.player, record.dealer, record.dealer_known,
                                              record.rules, None, others, w)) is None for w in winners) \
        if winners else flag_refusal(flag, FlagContext(pos, discarder, None, record.dealer, record.dealer_known,
                                                      record.rules, None, others)) is None
