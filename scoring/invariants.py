"""The invariants of RULES.md §7 over a read hand record: who may act when, flags, kongs, tiles, the end.

Each rule is a small predicate over a `Position` (the table just before an event). The checker
(`check_record`) reports what they refuse; `choices.hand_choices` offers what they allow, so the
rules exist once.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from .hands import Meld, has_run
from .house import NO_RUN_PATTERNS, all_pongs_names, men_qing_holds, scored_flags, uncapped_fan, zhong_zhang_holds
from .messages import Problem, ScoringError
from .patterns import MODIFIERS, SEVEN_PAIRS_PATTERNS, max_roots, min_roots
from .record import (MAX_KONGS_PER_PLAYER, MAX_WINS, MAX_WINS_XUE_LIU, SEATS, HandRecord, Kong, Win, Winner,
                     read_document)
from .rules import Rules
from .tiles import KINDS, tile_name

#: (code, params) of a refusal, before it gets its path.
Refusal = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class Position:
    """The table just before an event (or after the last one): who still plays, what came right before."""

    index: int  # the event's index in the document (after the last event: the event count)
    active: frozenset[int]  # players who still play, pay and receive (RULES.md §9: by mode)
    winners: int  # players who have won so far (in 血流, wins: one player may count several times)
    wins: int  # win events so far
    previous: Kong | Win | None  # the event right before, when it was read
    kongs: tuple[tuple[Kong, ...], ...]  # each seat's kongs so far, robbed ones aside
    last: bool  # no event follows
    over: bool = False  # the hand has ended with its wins (血战: all but one won; 标准: the first win)
    won: frozenset[int] = frozenset()  # players who have won at least once
    made: tuple[int, ...] = ()  # how many kongs each seat has made so far, robbed ones included (the limit of §7)

    @property
    def unfinished(self) -> frozenset[int]:
        """Players who take part in 查叫 and have never won (血战: the active ones; 血流: who never won)."""
        return self.active - self.won


def hand_over(rules: Rules, winners: int, wins: int) -> bool:
    """Have the wins so far ended the hand (RULES.md §9)? 血流 ends only with the wall exhausted."""
    if rules.mode == "first_win":
        return wins >= 1
    if rules.mode == "xue_liu":
        return False
    return winners >= rules.players - 1


def positions(record: HandRecord) -> list[Position]:
    """The position before each read event, then the position after the last one."""
    rules = record.rules
    active = frozenset(rules.seats)
    won: frozenset[int] = frozenset()
    winners = wins = 0
    previous: Kong | Win | None = None
    kongs: list[list[Kong]] = [[] for _ in rules.seats]
    made = [0 for _ in rules.seats]
    found = []
    for n, event in enumerate(record.events):
        found.append(Position(event.index, active, winners, wins, previous, tuple(tuple(k) for k in kongs),
                              last=n == len(record.events) - 1 and event.index == record.event_count - 1,
                              over=hand_over(rules, winners, wins), won=won, made=tuple(made)))
        if isinstance(event, Kong):
            if event.player is not None:
                made[event.player] += 1
                if not event.robbed:
                    kongs[event.player].append(event)
        else:
            if event.robs and event.discarder is not None and not (
                    isinstance(previous, Kong) and previous.player == event.discarder):
                made[event.discarder] += 1  # robs an added kong that was not recorded (RULES.md §5): one made
            seats = {w.player for w in event.winners if w.player is not None}
            winners += len(seats & active)
            won |= seats
            if rules.mode != "xue_liu":  # 血战: a winner stops playing (标准: the hand ends); 血流: nobody stops
                active -= seats
            wins += 1
        previous = event
    previous_index = record.events[-1].index if record.events else -1
    found.append(Position(record.event_count, active, winners, wins,
                          previous if previous_index == record.event_count - 1 else None,
                          tuple(tuple(k) for k in kongs), last=True, over=hand_over(rules, winners, wins), won=won,
                          made=tuple(made)))
    return found


# ---- who may act ------------------------------------------------------------------------------

def kong_player_refusal(pos: Position, seat: int) -> Refusal | None:
    """May `seat` kong here?"""
    if seat not in pos.active:
        return "player_already_won", {"seat": seat, "action": "kong"}
    if pos.made[seat] >= MAX_KONGS_PER_PLAYER:  # robbed ones included (RULES.md §7)
        return "too_many_kongs", {"seat": seat}
    return None


def discarder_refusal(pos: Position, seat: int, receivers: Iterable[int | None], action: str) -> Refusal | None:
    """May `seat` be the discarder (of a win, or of a direct kong) paying `receivers` here?"""
    if seat in receivers:
        return "discarder_is_receiver", {}
    if seat not in pos.active:
        return "player_already_won", {"seat": seat, "action": action}
    return None


def winner_refusal(pos: Position, seat: int, discarder: int | None, others: Iterable[int | None]) -> Refusal | None:
    """May `seat` win here, beside the event's other winners `others`?"""
    if seat in others:
        return "winner_twice_in_event", {"seat": seat}
    if seat == discarder:
        return "discarder_is_receiver", {}
    if seat not in pos.active:
        return "player_already_won", {"seat": seat, "action": "win"}
    return None


def self_draw_refusal(winners: int) -> Refusal | None:
    """May a win with this many winners be a self-draw (自摸: exactly one winner)?"""
    return None if winners <= 1 else ("self_draw_one_winner", {})


def ready_refusal(end: Position, seat: int) -> Refusal | None:
    """May `seat` be listed as ready (下叫) at 查叫?"""
    return None if seat in end.active else ("ready_player_won", {"seat": seat})


def hua_zhu_refusal(end: Position, seat: int) -> Refusal | None:
    """May `seat` be listed as 花猪 at 查叫? (血流: a past winner holds a ready hand, so never.)"""
    if seat in end.unfinished:
        return None
    return ("hua_zhu_past_winner" if seat in end.active else "hua_zhu_player_won"), {"seat": seat}


def past_winner_ready_refusal(rules: Rules, end: Position, seat: int, listed: Iterable[int]) -> Refusal | None:
    """血流's 查叫 (RULES.md §9): a player who has won keeps a ready hand, so must be listed as ready."""
    if rules.mode == "xue_liu" and seat in end.won and seat not in listed:
        return "past_winner_not_ready", {"seat": seat}
    return None


def over_refusal(rules: Rules, pos: Position, what: str) -> Refusal:
    """Why nothing (`what`: "event" or "exhausted") may follow the wins that ended the hand."""
    if rules.mode == "first_win":
        return f"{what}_after_first_win", {}
    if rules.players == len(SEATS):
        return ("event_after_third_win" if what == "event" else "exhausted_after_three_wins"), {}
    return f"{what}_after_last_win", {"winners": pos.winners, "players": rules.players}


def exhausted_refusal(end: Position, rules: Rules | None = None) -> Refusal | None:
    """May the wall run out after these events (the wins have not ended the hand)?"""
    return over_refusal(rules or Rules(), end, "exhausted") if end.over else None


def wins_refusal(rules: Rules, pos: Position) -> Refusal | None:
    """May another win event come here? (血流 bounds its wins, RULES.md §9; the others end with theirs.)"""
    if rules.mode == "xue_liu" and pos.wins >= MAX_WINS_XUE_LIU:
        return "too_many_wins_xue_liu", {"high": MAX_WINS_XUE_LIU}
    return None


def robbed_kong_refusal(kind: str | None, rules: Rules) -> Refusal | None:
    """Can a kong of this kind be robbed (抢杠胡) under these rules?"""
    if kind == "concealed":
        return "robbed_kong_concealed", {}
    if kind == "direct" and rules.robbable_kongs != "added_direct":
        return "robbed_kong_direct", {}
    return None


# ---- flags (modifiers) ------------------------------------------------------------------------

@dataclass(frozen=True)
class FlagContext:
    """What a winner's flags depend on."""

    pos: Position
    discarder: int | None
    seat: int | None
    dealer: int
    dealer_known: bool
    rules: Rules
    concealed: int | None  # concealed tiles, when the winner entered tiles
    flags: Sequence[str]  # the winner's flags
    winner: Winner | None = None  # the winner as read (for the flags its hand decides, RULES.md §10)


def flag_refusal(flag: str, ctx: FlagContext) -> Refusal | None:
    """Is this flag possible for this winner here?"""
    pos, self_draw = ctx.pos, ctx.discarder is None
    previous = pos.previous
    after_own_kong = isinstance(previous, Kong) and previous.player == ctx.seat and not previous.robbed
    after_discarder_kong = isinstance(previous, Kong) and previous.player == ctx.discarder and not self_draw
    broken = False
    if flag == "gang_shang_hua":
        broken = not (self_draw and after_own_kong)
    elif flag == "gang_shang_pao":
        if "qiang_gang_hu" in ctx.flags:
            return "qiang_gang_hu_with_gang_shang_pao", {}
        broken = not after_discarder_kong
    elif flag == "qiang_gang_hu":
        broken = self_draw
    # 天胡 / 地胡 read the same in every mode (RULES.md §9 is silent on 血流): the dealer's self-draw as the
    # hand's first event, a non-dealer's win before any other win; so a player's later wins are neither.
    elif flag == "tian_hu":
        broken = not (self_draw and pos.index == 0 and (ctx.seat == ctx.dealer or not ctx.dealer_known))
    elif flag == "di_hu":
        broken = pos.wins > 0 or (ctx.dealer_known and ctx.seat == ctx.dealer)
    elif flag == "hai_di":
        broken = not (self_draw and pos.last)
    elif flag == "jin_gou_diao":
        # With tiles the shape says it; with quick entry the pattern must be one a hand of the 对对胡 family (§10)
        # is named at this table.
        if (ctx.concealed is None and ctx.winner is not None and ctx.winner.pattern is not None
                and ctx.winner.pattern not in all_pongs_names(ctx.rules.fans)):
            return "jin_gou_diao_pattern", {}
        broken = ctx.concealed is not None and ctx.concealed != 2
    elif flag == "hai_di_pao":
        broken = self_draw or not pos.last
    elif flag in ("men_qing", "zhong_zhang", "jia_xin_wu"):
        return _hand_flag_refusal(flag, ctx)
    if broken:
        return f"{flag}_rule", {}
    return None


def _hand_flag_refusal(flag: str, ctx: FlagContext) -> Refusal | None:
    """门清, 中张, 夹心五: does the winner's hand allow the flag (RULES.md §10)?"""
    winner = ctx.winner
    if winner is None or ctx.seat is None:
        return None
    kongs = ctx.pos.kongs[ctx.seat]
    if flag == "men_qing":
        broken = not men_qing_holds(winner, kongs)
    elif flag == "zhong_zhang":
        broken = not zhong_zhang_holds(winner, kongs)
    elif winner.counts is not None:  # jia_xin_wu with tiles: a reading with a 4-5-6 run
        broken = not has_run(winner.counts, winner.parsed_melds, 3)
    else:  # jia_xin_wu with quick entry: a pattern whose tiles may have such a reading
        broken = winner.pattern in NO_RUN_PATTERNS
    return (f"{flag}_rule", {}) if broken else None


#: Optional modifiers of RULES.md §3 and §10, "off by default": they count only when the night gives them fan.
OPTIONAL_MODIFIERS = ("hai_di", "jin_gou_diao", "tian_hu", "di_hu", "men_qing", "zhong_zhang", "jia_xin_wu",
                      "hai_di_pao")
#: Flags that belong to the tile, not the winner (RULES.md §7, §10): on every winner of a win event or on none.
TILE_FLAGS = ("qiang_gang_hu", "gang_shang_pao", "hai_di_pao")


def flag_in_use(flag: str, rules: Rules) -> bool:
    """Whether a flag means anything under these rules: an optional modifier whose fan option is 0 is off.

    An off flag is still accepted in a record (it adds 0 fan, as records written before the option
    existed may hold it); it is only not offered as a choice.
    """
    option = MODIFIERS[flag].option
    return flag not in OPTIONAL_MODIFIERS or bool(option and getattr(rules, option))


def robbing_refusal(pos: Position, discarder: int | None, rules: Rules, winners: Sequence[Winner]) -> Refusal | None:
    """May this win's tile be a robbed kong's (抢杠胡, a flag of the tile: on every winner or none)?"""
    if discarder is None:
        return "qiang_gang_hu_rule", {}
    if any("gang_shang_pao" in w.flags for w in winners):
        return "qiang_gang_hu_with_gang_shang_pao", {}
    previous = pos.previous
    if isinstance(previous, Kong) and previous.player == discarder:
        return robbed_kong_refusal(previous.kind, rules)
    if pos.made[discarder] >= MAX_KONGS_PER_PLAYER:  # the unrecorded kong it robs would be a fifth (RULES.md §7)
        return "too_many_kongs", {"seat": discarder}
    return None


# ---- roots and kongs held ---------------------------------------------------------------------

def roots_bounds(pattern: str, kongs: int, rules: Rules | None = None) -> tuple[int, int] | None:
    """The roots (根) a quick-entry win with this pattern may claim after `kongs` kongs of its own, or None."""
    if kongs and pattern in SEVEN_PAIRS_PATTERNS:
        return None  # a kong is a meld: no seven pairs
    high = max_roots(pattern, rules.fans if rules is not None else None)
    return (max(kongs, min_roots(pattern)), high) if kongs <= high else None


def quick_entry_refusal(pattern: str, roots: int, seat: int, kongs: int) -> tuple[str, Refusal] | None:
    """(field, refusal) when a quick entry's pattern and roots cannot hold the winner's own kongs."""
    if roots_bounds(pattern, kongs) is None and kongs:
        if pattern in SEVEN_PAIRS_PATTERNS:
            return "pattern", ("seven_pairs_after_kong", {"seat": seat})
        return "roots", ("roots_below_kongs", {"seat": seat, "kongs": kongs})
    if roots < kongs:
        return "roots", ("roots_below_kongs", {"seat": seat, "kongs": kongs})
    return None


def melds_refusals(seat: int, kongs: Sequence[Kong], melds: Sequence[Meld]) -> list[Refusal]:
    """A winner entered with tiles holds each of their kongs among the melds (the named tile where given)."""
    kong_melds = [m.tile for m in melds if m.is_kong]
    refusals: list[Refusal] = []
    unnamed = 0
    for kong in kongs:
        if kong.tile is None:
            unnamed += 1
        elif kong.tile in kong_melds:
            kong_melds.remove(kong.tile)
        else:
            name = tile_name(kong.tile)
            refusals.append(("kong_not_in_melds", {"seat": seat, "tile": name, "event": kong.index,
                                                   "meld": name[0] * 4 + name[1]}))
    if not refusals and unnamed > len(kong_melds):
        refusals.append(("kongs_missing_from_melds", {"seat": seat, "kongs": len(kongs),
                                                      "found": sum(1 for m in melds if m.is_kong)}))
    return refusals


# ---- the checker ------------------------------------------------------------------------------

def check_record(record: HandRecord, problems_so_far: Sequence[Problem] = (), *, require_end: bool = True) -> list[Problem]:
    """Every invariant of RULES.md §7 the record breaks, each at its path."""
    problems: list[Problem] = []

    def add(path: str, refusal: Refusal | None) -> None:
        if refusal is not None:
            problems.append(Problem(path, refusal[0], refusal[1]))

    places = positions(record)
    for pos, event in zip(places, record.events):
        path = f"events[{event.index}]"
        if pos.over:
            add(path, over_refusal(record.rules, pos, "event"))
        elif isinstance(event, Kong):
            _check_kong(pos, event, path, add)
        else:
            add(path, wins_refusal(record.rules, pos))
            _check_win(record, pos, event, path, add)
    end = places[-1]
    # An `exhausted` that is not true or false was read as false: what follows from it (the hand not over, a ready
    # list without an exhausted wall) would be a second error made up by the first.
    exhausted_unread = any(p.path == "exhausted" for p in problems_so_far)
    _check_end(record, end, require_end and not exhausted_unread, add, exhausted_unread)
    if not any(p.code.startswith("tiles") or p.code == "hand_wrong_count" for p in problems_so_far):
        if record.rules.mode == "xue_liu":
            _check_ready_tiles_together(record, add)
        else:
            _check_tiles_on_table(record, add)
    return problems


def _check_kong(pos: Position, kong: Kong, path: str, add: Any) -> None:
    if kong.player is not None:
        add(f"{path}.player", kong_player_refusal(pos, kong.player))
    if kong.discarder is not None:
        add(f"{path}.from", discarder_refusal(pos, kong.discarder, [kong.player], "discard_kong"))


def _check_win(record: HandRecord, pos: Position, win: Win, path: str, add: Any) -> None:
    if win.from_null:
        add(f"{path}.winners", self_draw_refusal(win.listed))
    if win.discarder is not None:
        add(f"{path}.from", discarder_refusal(pos, win.discarder, [], "discard"))
    seen: list[int] = []
    for j, winner in enumerate(win.winners):
        wpath = f"{path}.winners[{j}]"
        if winner.player is None:
            continue
        refusal = winner_refusal(pos, winner.player, win.discarder, seen)
        add(f"{wpath}.player", refusal)
        seen.append(winner.player)
        if winner.flags:
            ctx = FlagContext(pos, win.discarder, winner.player, record.dealer, record.dealer_known, record.rules,
                              sum(winner.counts) if winner.counts is not None else None, winner.flags, winner)
            for i, flag in enumerate(winner.flags):
                add(f"{wpath}.flags[{i}]", flag_refusal(flag, ctx))
        if win.discarder is not None and record.rules.min_fan_on_discard and winner.pattern is not None:
            add(wpath, min_fan_refusal(winner, pos.kongs[winner.player], record.rules))
        if refusal is None:
            kongs = pos.kongs[winner.player]
            if winner.quick and winner.pattern is not None:
                found = quick_entry_refusal(winner.pattern, winner.roots, winner.player, len(kongs))
                if found:
                    add(f"{wpath}.{found[0]}", found[1])
            elif winner.counts is not None and (kongs or winner.parsed_melds):  # else nothing to hold
                for missing in melds_refusals(winner.player, kongs, winner.parsed_melds):
                    add(f"{wpath}.melds", missing)
    for flag in ("gang_shang_pao", "hai_di_pao"):  # flags of the discard: on every winner or none (§7, §10)
        having = [flag in w.flags for w in win.winners]
        if any(having) and not all(having):
            add(f"{path}.winners", (f"{flag}_all_winners", {}))
    robbing = [("qiang_gang_hu" in w.flags) for w in win.winners]
    if any(robbing) and win.discarder is not None:
        if not all(robbing):
            add(f"{path}.winners", ("qiang_gang_hu_all_winners", {}))
        refusal = robbing_refusal(pos, win.discarder, record.rules, win.winners)
        if refusal and refusal[0] == "too_many_kongs":  # the kong it robs, not recorded, would be a fifth
            add(f"{path}.from", refusal)
        elif refusal and refusal[0] != "qiang_gang_hu_with_gang_shang_pao":  # said on the gang_shang_pao flag
            previous = pos.previous
            assert isinstance(previous, Kong)
            add(f"events[{previous.index}].kind", refusal)


def min_fan_refusal(winner: Winner, kongs: Sequence[Kong], rules: Rules) -> Refusal | None:
    """A discard win (or 抢杠胡) needs min_fan_on_discard, modifiers included, before the cap (RULES.md §10)."""
    assert winner.pattern is not None
    fan = uncapped_fan(winner.pattern, winner.roots, scored_flags(winner, kongs, rules), rules, self_draw=False)
    if fan < rules.min_fan_on_discard:
        return "fan_below_min_on_discard", {"fan": fan, "low": rules.min_fan_on_discard}
    return None


def hand_ended(record: HandRecord, end: Position) -> bool:
    """The hand is over: a third winner, or the wall ran out."""
    return end.over or record.exhausted


def _check_end(record: HandRecord, end: Position, require_end: bool, add: Any, exhausted_unread: bool = False) -> None:
    if record.exhausted:
        add("exhausted", exhausted_refusal(end, record.rules))
    if require_end and not hand_ended(record, end):
        if record.rules.mode == "xue_liu":
            add("exhausted", ("xue_liu_needs_exhausted", {}))
        elif record.event_count == 0:
            add("exhausted", ("hand_empty", {}))
        else:
            add("exhausted", ("hand_not_finished", {"winners": end.winners}))
    if not record.exhausted and record.ready_listed and not exhausted_unread:
        add("ready", ("not_exhausted_with_ready", {}))
    if not record.exhausted and record.hua_zhu and not exhausted_unread:
        add("hua_zhu", ("not_exhausted_with_hua_zhu", {}))
    for seat in record.ready_listed:
        add(f"ready.{seat}", ready_refusal(end, seat))
    if record.exhausted:
        for seat in sorted(end.won):
            add(f"ready.{seat}", past_winner_ready_refusal(record.rules, end, seat, record.ready_listed))
    for i, seat in enumerate(record.hua_zhu):
        refusal = hua_zhu_refusal(end, seat)
        if refusal:
            add(f"hua_zhu[{i}]", refusal)
        elif seat in record.ready_listed:
            add(f"hua_zhu[{i}]", ("hua_zhu_and_ready", {"seat": seat}))


class _KongsShown:
    """What each player's kong events put on the table, so that their hands recorded later add only the rest
    (RULES.md §7: a kong counts once, as an event, a meld or both). A robbed kong's three tiles stay with its
    player, concealed (a direct kong's) or as a pong meld (an added kong's): the same three wherever a hand lists
    them; a concealed tile beside one's own kong is a fifth."""

    def __init__(self) -> None:
        self.kongs: list[dict[int, int]] = [{} for _ in SEATS]
        self.robbed: list[dict[int, int]] = [{} for _ in SEATS]

    def add(self, kong: Kong) -> int:
        """Note a kong event (with its player and tile); return the tiles its player keeps of it (4, robbed 3)."""
        assert kong.player is not None and kong.tile is not None
        kept, count = (self.robbed, 3) if kong.robbed else (self.kongs, 4)
        kept[kong.player][kong.tile] = kept[kong.player].get(kong.tile, 0) + count
        return count

    def adds(self, seat: int | None, counts: Sequence[int], melds: Sequence[Meld], tile: int) -> int:
        """What this player's hand adds of `tile` beside their kong events."""
        melded = sum(m.size for m in melds if m.tile == tile)
        if seat is None:
            return counts[tile] + melded
        own = counts[tile] + max(0, melded - self.kongs[seat].get(tile, 0))
        return max(0, own - self.robbed[seat].get(tile, 0))

    def concealed_beyond(self, seat: int | None, counts: Sequence[int], tile: int) -> bool:
        """Does the hand hold `tile` concealed beyond a robbed kong's three (so one may be the discard it won)?"""
        return counts[tile] > (self.robbed[seat].get(tile, 0) if seat is not None else 0)


def _check_ready_tiles_together(record: HandRecord, add: Any) -> None:
    """血流 (RULES.md §9): a seat's hand is recorded at several moments, so tiles are counted within each
    recorded hand (parsing does that) and across what is on the table at the same moment at 查叫: the ready
    hands, and the kongs, which stay where they were made (two kongs of one tile cannot both be; a robbed kong's
    fourth tile is its robber's, out of the wall too). A player's own kong shown again among a ready hand's melds
    is one; a robbed kong's three tiles stay with its player."""
    on_table = [0] * KINDS
    by_kongs = [0] * KINDS
    places: list[list[tuple[str, int, int]]] = [[] for _ in range(KINDS)]  # (what, seat, tiles), as in the message
    shown = _KongsShown()
    for event in record.events:
        if isinstance(event, Kong) and event.player is not None and event.tile is not None:
            # On the table at 查叫: all four, a robbed kong's fourth with its robber (out of the wall for good).
            t, count = event.tile, 4
            shown.add(event)
            places[t].append(("kong", event.player, count))
            if on_table[t] <= 4 < on_table[t] + count:
                add(f"events[{event.index}].tile", ("table_too_many", {"tile": tile_name(t), "count": on_table[t] + count,
                                                                        "where": tuple(places[t])}))
            on_table[t] += count
            by_kongs[t] += count
    for seat, entry in sorted(record.ready.items()):
        if entry.counts is None:
            continue
        for t in range(KINDS):
            held = shown.adds(seat, entry.counts, entry.parsed_melds, t)
            if held:
                places[t].append(("ready", seat, held))
            if held and on_table[t] <= 4 < on_table[t] + held:
                code = "table_too_many" if by_kongs[t] else "ready_table_too_many"
                add(f"ready.{seat}.tiles", (code, {"tile": tile_name(t), "count": on_table[t] + held,
                                                   "where": tuple(places[t])}))
            on_table[t] += held


def _check_tiles_on_table(record: HandRecord, add: Any) -> None:
    """No tile kind more than four times across every tile recorded for the hand (RULES.md §7).

    Each player's tiles are counted once: a kong event gives its player four of the tile (a robbed
    kong three: the pong stays, the fourth went to the robber), a hand shown later adds only what the
    player's events did not already show. A discard won on by several players counts once: one tile of one
    kind (the record does not say which, so any kind they all hold may be it, but only one).
    """
    # First a cheap bound on every kind at once: a player's kong counted both as event and as meld.
    # Only the kinds above four under it are counted exactly, in record order. The bound adds whole
    # hands as integers with one byte per kind (a hand holds at most four of a kind, so no byte overflows).
    total = 0
    extra = [0] * KINDS  # kong events and melds
    for event in record.events:
        if isinstance(event, Kong):
            if event.tile is not None:
                extra[event.tile] += 4
            continue
        for winner in event.winners:  # a discard several players won on is counted by each here (a bound)
            if winner.counts is not None:
                total += int.from_bytes(bytes(winner.counts), "little")
                for meld in winner.parsed_melds:
                    extra[meld.tile] += meld.size
    for entry in record.ready.values():
        if entry.counts is not None:
            total += int.from_bytes(bytes(entry.counts), "little")
            for meld in entry.parsed_melds:
                extra[meld.tile] += meld.size
    if max(extra) > _BYTE_ROOM:
        suspects = list(range(KINDS))
    else:
        total += int.from_bytes(bytes(extra), "little")
        if not (total + _ADD_123) & _HIGH_BITS:
            return  # no byte above four
        suspects = [t for t, count in enumerate(total.to_bytes(KINDS, "little")) if count > 4]
    _count_exactly(record, suspects, add)


_ADD_123 = int.from_bytes(bytes([123] * KINDS), "little")  # a byte above four then reaches 128
_HIGH_BITS = int.from_bytes(bytes([128] * KINDS), "little")
_BYTE_ROOM = 255 - 123 - 4 * 7  # kong events and melds per kind that keep every byte below 256 (seven hands of four)


def _count_exactly(record: HandRecord, kinds: list[int], add: Any) -> None:
    """Count these tile kinds on the table item by item; report each at the item that takes it past four. A
    robbed kong's fourth tile is its robber's: in their tiles where typed, else counted at the robbing win."""
    if not kinds:
        return
    shown = _KongsShown()

    # Items in record order: (path, {kind: count}, kinds held concealed, where); the winners of one discard come
    # together. `where` names the item in the error (seat 1's kong, seat 2's winning hand), so that the message
    # says where the other tiles are, not only the item that makes one too many.
    items: list[list[tuple[str, dict[int, int], frozenset[int], tuple[str, int | None]]]] = []
    robbed: int | None = None  # the tile of a robbed kong, until the win that robs it
    for event in record.events:
        if isinstance(event, Kong):
            if event.player is not None and event.tile is not None:
                count = shown.add(event)
                items.append([(f"events[{event.index}].tile", {event.tile: count}, frozenset(), ("kong", event.player))])
                robbed = event.tile if event.robbed else None
            continue
        if event.robs and robbed is not None and all(w.counts is None for w in event.winners):
            # The fourth tile went to its robber(s), entered by pattern: on the table all the same (one tile).
            items.append([(f"events[{event.index}].winners[0]", {robbed: 1}, frozenset(),
                           ("win", event.winners[0].player))])
        robbed = None
        items.append([(f"events[{event.index}].winners[{j}].tiles",
                       {t: shown.adds(w.player, w.counts, w.parsed_melds, t) for t in kinds},
                       frozenset(t for t in kinds if shown.concealed_beyond(w.player, w.counts, t)), ("win", w.player))
                      for j, w in enumerate(event.winners) if w.counts is not None])
    for seat, entry in sorted(record.ready.items()):
        if entry.counts is not None:
            items.append([(f"ready.{seat}.tiles", {t: shown.adds(seat, entry.counts, entry.parsed_melds, t) for t in kinds},
                           frozenset(), ("ready", seat))])
    # The winners of one discard share one tile, of one kind, in their concealed tiles (a meld is not the discard):
    # of the kinds they all hold concealed, the one the table has most of (counted without sharing) is taken as
    # that discard; the others count in full.
    everywhere = {t: sum(counts.get(t, 0) for group in items for _, counts, _, _ in group) for t in kinds}
    on_table = dict.fromkeys(kinds, 0)
    places: dict[int, list[tuple[str, int | None, int]]] = {t: [] for t in kinds}  # (what, seat, tiles) so far
    for group in items:
        held_by_all = frozenset.intersection(*(concealed for _, _, concealed, _ in group)) if len(group) > 1 else ()
        shared = max(held_by_all, key=lambda t: (everywhere[t], -t), default=None)
        for t in kinds:
            if on_table[t] > 4:
                continue  # reported
            values = [counts.get(t, 0) for _, counts, _, _ in group]
            on_table[t] += sum(values) - (len(values) - 1 if t == shared else 0)
            places[t] += [(what, seat, n) for (_, _, _, (what, seat)), n in zip(group, values) if n > 0]
            if t == shared:  # each hand as typed, and the discard they all won on said once
                places[t].append(("shared", None, len(values) - 1))
            if on_table[t] > 4:
                path = next(p for p, counts, _, _ in reversed(group) if counts.get(t, 0) > 0)
                add(path, ("table_too_many", {"tile": tile_name(t), "count": on_table[t], "where": tuple(places[t])}))


def read_record(doc: object, *, require_end: bool = True) -> HandRecord:
    """Read and check a hand record; raise ScoringError listing every problem.

    `require_end=False` skips only the check that the hand has ended (for a live preview).
    """
    if not isinstance(doc, Mapping):
        raise ScoringError([Problem("", "not_object")])
    record, problems = read_document(doc)
    problems.extend(check_record(record, problems, require_end=require_end))
    if problems:
        raise ScoringError(problems)
    return record
