"""Property tests at every table shape of RULES.md §9 (mode x players x suits): random valid records are
accepted and sum to zero, and what hand_choices offers is exactly what score_hand accepts."""
import copy
from decimal import Decimal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import format_tiles, hand_choices, score_hand
from scoring.invariants import flag_in_use
from scoring.choices import EVENT_FLAGS
from scoring.patterns import MODIFIERS, PATTERNS, SEVEN_PAIRS_PATTERNS, max_roots
from scoring.rules import MODES, Rules

from tests.hand_helpers import kong, random_complete_hand, w, win
from tests.scoring.records import own_kongs, paths_under, problems
from tests.scoring.records import hand_records

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PATTERN_CODES = [c for c in PATTERNS if c != "jiang_qi_dui"]  # not a pattern at the default fans (jiang_qi_dui_fan 0)


@st.composite
def shaped_records(draw, finished=True):
    """A random valid record at a random table shape (finished, or as entered so far when finished=False)."""
    mode = draw(st.sampled_from(MODES))
    players = draw(st.sampled_from([4, 3, 2]))
    suits = draw(st.sampled_from(["mps", "ps"]))
    extras = [{}, {"call_transfer": True}, {"robbable_kongs": "added_direct", "hai_di_fan": 1},
              {"finished_players_pay_kongs": True, "kong_added": 2}, {"self_draw_bonus": "base", "max_fan": 3}]
    if suits == "mps":
        extras.append({"hua_zhu": True})
    rules = {"mode": mode, "players": players, "suits": suits, **draw(st.sampled_from(extras))}
    active = list(range(players))
    kongs = {s: 0 for s in active}  # kongs held (robbed ones aside: roots, patterns)
    made = {s: 0 for s in active}  # kongs made, robbed ones included (at most four: RULES.md §7)
    won: set[int] = set()
    events, wins = [], 0
    previous_kong = None

    def over():
        if mode == "first_win":
            return wins >= 1
        return mode == "xue_zhan" and len(won) >= players - 1

    def winner(player, self_draw, discarder, pao=False):
        own = kongs[player]
        codes = [c for c in PATTERN_CODES if not (own and c in SEVEN_PAIRS_PATTERNS) and max_roots(c) >= own]
        pattern = draw(st.sampled_from(codes))
        flags = draw(st.lists(st.sampled_from(["bao_jiao"]), max_size=1))
        if self_draw and previous_kong and previous_kong[0] == player and draw(st.booleans()):
            flags.append("gang_shang_hua")
        if pao:  # 杠上炮 is the discard's: on every winner of the event or none (RULES.md §7)
            flags.append("gang_shang_pao")
        return {"player": player, "pattern": pattern, "roots": draw(st.integers(own, max_roots(pattern))), "flags": flags}

    for _ in range(draw(st.integers(0, 12 if mode == "xue_liu" else 7))):
        if over():
            break
        action = draw(st.sampled_from(["kong", "win", "robbed"]))
        players_won: list[int] = []
        if action in ("kong", "robbed"):
            kongers = [p for p in active if made[p] < 4]
            if not kongers or (action == "robbed" and len(active) < 2):
                continue
            player = draw(st.sampled_from(kongers))
            kinds = ["direct", "added", "concealed"] if action == "kong" else (
                ["added", "direct"] if rules.get("robbable_kongs") else ["added"])
            kind = draw(st.sampled_from(kinds))
            event = {"type": "kong", "player": player, "kind": kind}
            if kind == "direct":
                others = [p for p in active if p != player]
                if not others:
                    continue
                event["from"] = draw(st.sampled_from(others))
            events.append(event)
            made[player] += 1
            if action == "kong":
                kongs[player] += 1
                previous_kong = (player, kind)
                continue
            robbers = [p for p in active if p != player]
            count = draw(st.integers(1, len(robbers)))
            players_won = draw(st.lists(st.sampled_from(robbers), min_size=count, max_size=count, unique=True))
            previous_kong = None
            winners = [winner(p, False, player) for p in players_won]
            for x in winners:
                x["flags"].append("qiang_gang_hu")
            events.append({"type": "win", "from": player, "winners": winners})
        else:
            if len(active) < 2:
                break
            discarder = draw(st.sampled_from([None] + active))
            candidates = [p for p in active if p != discarder]
            count = 1 if discarder is None else draw(st.integers(1, len(candidates)))
            players_won = draw(st.lists(st.sampled_from(candidates), min_size=count, max_size=count, unique=True))
            pao = discarder is not None and bool(previous_kong) and previous_kong[0] == discarder and draw(st.booleans())
            events.append({"type": "win", "from": discarder,
                           "winners": [winner(p, discarder is None, discarder, pao) for p in players_won]})
            previous_kong = None
        wins += 1
        won |= set(players_won)
        if mode != "xue_liu":
            active = [p for p in active if p not in players_won]
    record = {"base": str(draw(st.sampled_from(["1", "2", "0.5"]))), "dealer": draw(st.integers(0, players - 1)),
              "events": events, "rules": rules}
    if not over() and (finished or mode == "xue_liu" and draw(st.booleans()) or draw(st.booleans())):
        record["exhausted"] = True
        unfinished = [p for p in range(players) if p not in won]
        ready = sorted(won if mode == "xue_liu" else set()) + draw(st.lists(st.sampled_from(unfinished), unique=True)
                                                                    if unfinished else st.just([]))
        record["ready"] = {str(p): {"fan": draw(st.integers(0, 4))} for p in ready}
        if rules.get("hua_zhu"):
            record["hua_zhu"] = [p for p in unfinished if str(p) not in record["ready"]][:1]
    return record


def rotate(record, k=1):
    """Seat s becomes s + k (mod the table's size): the dealer and every reference."""
    n = record["rules"]["players"]
    r = lambda s: None if s is None else (s + k) % n  # noqa: E731
    out = dict(record, dealer=r(record["dealer"]), events=[])
    for e in record["events"]:
        e = dict(e)
        if "player" in e:
            e["player"] = r(e["player"])
        if "from" in e:
            e["from"] = r(e["from"])
        if e["type"] == "win":
            e["winners"] = [dict(x, player=r(x["player"])) for x in e["winners"]]
        out["events"].append(e)
    if "ready" in record:
        out["ready"] = {str(r(int(s))): v for s, v in record["ready"].items()}
    if "hua_zhu" in record:
        out["hua_zhu"] = [r(s) for s in record["hua_zhu"]]
    return out


@settings(max_examples=300, deadline=None)
@given(shaped_records())
def test_every_finished_hand_at_every_shape_is_accepted_and_sums_to_zero(record):
    result = score_hand(record).as_dict()
    assert len(result["net"]) == record["rules"]["players"]
    assert sum(Decimal(n) for n in result["net"]) == 0
    assert all(Decimal(p["amount"]) > 0 for p in result["payments"])
    assert 0 <= result["next_dealer"] < record["rules"]["players"]
    seats = set(range(record["rules"]["players"]))
    assert all(p["from"] in seats and p["to"] in seats for p in result["payments"])


@settings(max_examples=200, deadline=None)
@given(shaped_records())
def test_rotating_the_seats_rotates_the_result_at_every_shape(record):
    n = record["rules"]["players"]
    before = score_hand(record).as_dict()
    after = score_hand(rotate(record)).as_dict()
    assert after["net"] == before["net"][-1:] + before["net"][:-1]
    assert after["next_dealer"] == (before["next_dealer"] + 1) % n
    moved = sorted((p["event"] or -1, p["reason"], (p["from"] + 1) % n, (p["to"] + 1) % n, p["amount"])
                   for p in before["payments"])
    assert sorted((p["event"] or -1, p["reason"], p["from"], p["to"], p["amount"]) for p in after["payments"]) == moved


@SETTINGS
@given(shaped_records(finished=False))
def test_every_seat_offered_to_act_next_may_act_and_no_other_at_every_shape(doc):
    choices = hand_choices(doc)
    n = len(doc["events"])
    for seat in range(5):  # seats outside the table too: never offered, always refused
        konged = copy.deepcopy(doc)
        konged["events"].append(kong(seat, "concealed"))
        konged.pop("exhausted", None), konged.pop("ready", None), konged.pop("hua_zhu", None)
        assert (paths_under(konged, f"events[{n}]") == []) == (seat in choices["next"]["kongers"]), seat
        won = copy.deepcopy(konged)
        won["events"][-1] = win(None, w(seat, "ping_hu", own_kongs(doc, seat, n)))
        assert (paths_under(won, f"events[{n}]") == []) == (seat in choices["next"]["winners"]), seat
    finished = copy.deepcopy(doc)
    finished["exhausted"] = True
    finished.pop("ready", None), finished.pop("hua_zhu", None)
    past = set() if doc["rules"]["mode"] != "xue_liu" else {
        x["player"] for e in doc["events"] if e["type"] == "win" for x in e["winners"]}
    finished["ready"] = {str(s): {"fan": 0} for s in past}
    assert (paths_under(finished, "exhausted") == []) == choices["next"]["exhausted"]


@SETTINGS
@given(shaped_records(finished=False))
def test_ready_and_hua_zhu_seats_offered_are_accepted_and_no_other(doc):
    choices = hand_choices(doc)
    if not doc.get("exhausted"):
        return
    for seat in range(5):
        listed = copy.deepcopy(doc)
        listed["ready"] = {**listed.get("ready", {}), str(seat): {"fan": 0}}
        listed["hua_zhu"] = [s for s in listed.get("hua_zhu", []) if s != seat]
        assert (paths_under(listed, f"ready.{seat}") == []) == (seat in choices["ready"]["seats"]), seat
        if doc["rules"].get("hua_zhu"):
            pig = copy.deepcopy(doc)
            pig["ready"] = {s: v for s, v in pig.get("ready", {}).items() if s != str(seat)}
            pig["hua_zhu"] = [seat]
            accepted = [p for p in problems(pig) if p[0].startswith("hua_zhu")] == []
            assert accepted == (seat in choices["hua_zhu"]), seat
        else:
            assert choices["hua_zhu"] == []


@SETTINGS
@given(shaped_records(finished=False))
def test_every_seat_offered_on_an_event_is_accepted_there_at_every_shape(doc):
    assert problems(doc) == []
    choices = hand_choices(doc)
    for i, event in enumerate(doc["events"]):
        offered = choices["events"][i]
        assert offered["type"] == event["type"]
        if event["type"] == "kong":
            for seat in offered["player"]:
                changed = copy.deepcopy(doc)
                changed["events"][i]["player"] = seat
                assert paths_under(changed, f"events[{i}].player") == []
            assert set(offered["player"]) <= set(range(doc["rules"]["players"]))
        else:
            for seat in offered["from"]:
                changed = copy.deepcopy(doc)
                changed["events"][i]["from"] = seat
                assert [p for p in problems(changed) if p[0] == f"events[{i}].from" or p[1] == "discarder_is_receiver"] == []
            for seat in range(5):
                changed = copy.deepcopy(doc)
                # The discard's flags go with every winner of it (RULES.md §7): a robbed kong, 杠上炮.
                robs = [f for f in ("qiang_gang_hu", "gang_shang_pao") if f in event["winners"][0]["flags"]]
                changed["events"][i]["winners"].append(w(seat, "ping_hu", own_kongs(doc, seat, i), robs))
                k = len(event["winners"])
                here = paths_under(changed, f"events[{i}].winners[{k}]") + paths_under(changed, f"events[{i}].winners")
                if seat in offered["more_winners"]:  # offered: accepted on this event (a later one may then break)
                    assert here == [], seat
                if problems(changed) == []:  # accepted as a whole: offered
                    assert seat in offered["more_winners"], seat


@SETTINGS
@given(shaped_records(finished=False))
def test_every_flag_offered_is_accepted_and_every_flag_accepted_is_offered_at_every_shape(doc):
    choices = hand_choices(doc)
    rules = Rules(**doc["rules"])
    for i, event in enumerate(doc["events"]):
        if event["type"] != "win":
            continue
        for j, winner in enumerate(event["winners"]):
            offered = choices["events"][i]["winner_choices"][j]
            assert offered["player"] == winner["player"]
            for flag in MODIFIERS:
                if flag in EVENT_FLAGS or flag in winner["flags"]:
                    continue
                changed = copy.deepcopy(doc)
                changed["events"][i]["winners"][j]["flags"].append(flag)
                accepted = problems(changed) == []
                assert (accepted and flag_in_use(flag, rules)) == (flag in offered["flags"]), flag
        for flag in EVENT_FLAGS:  # the tile's flags (抢杠胡, 杠上炮, 海底炮), on every winner at once
            if all(flag in x["flags"] for x in event["winners"]):
                continue
            changed = copy.deepcopy(doc)
            for x in changed["events"][i]["winners"]:
                if flag not in x["flags"]:
                    x["flags"].append(flag)
            accepted = problems(changed) == []
            assert (accepted and flag_in_use(flag, rules)) == (flag in choices["events"][i]["flags"]), flag
            for pattern in offered["patterns"]:
                for roots in (pattern["min_roots"], pattern["max_roots"]):
                    changed = copy.deepcopy(doc)
                    changed["events"][i]["winners"][j].update(pattern=pattern["code"], roots=roots)
                    assert paths_under(changed, f"events[{i}].winners[{j}]") == [], (pattern, roots)


@SETTINGS
@given(shaped_records(finished=False))
def test_complete_means_the_hand_has_ended_by_its_mode(doc):
    choices = hand_choices(doc)
    mode, players = doc["rules"]["mode"], doc["rules"]["players"]
    wins = [e for e in doc["events"] if e["type"] == "win"]
    seats = {x["player"] for e in wins for x in e["winners"]}
    ended = {"xue_zhan": len(seats) >= players - 1, "first_win": bool(wins), "xue_liu": False}[mode]
    assert choices["complete"] == (doc.get("exhausted", False) or ended)
    assert choices["next"]["open"] == (not ended and len(doc["events"]) < (60 if mode == "xue_liu" else 19))
    if mode == "xue_liu" and choices["next"]["open"]:  # a past winner may win again and kong
        assert choices["next"]["winners"] == list(range(players))
    if mode == "first_win" and wins:
        assert choices["next"] == {"open": False, "winners": [], "kongers": [], "exhausted": False}


@settings(max_examples=150, deadline=None)
@given(hand_records())
def test_a_four_player_two_suit_table_scores_quick_entry_as_the_default_table(record):
    # Quick entry names no tile, so nothing tells the tables apart but 花猪, which a two-suit table has not.
    if record["rules"].get("hua_zhu"):
        record = dict(record, rules={k: v for k, v in record["rules"].items() if k != "hua_zhu"}, hua_zhu=[])
    explicit = dict(record, rules={**record["rules"], "mode": "xue_zhan", "players": 4, "suits": "ps"})
    assert score_hand(explicit).as_dict() == score_hand(record).as_dict()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(st.randoms(use_true_random=False), st.sampled_from([None, 0, 1, 2]), st.sampled_from(MODES))
def test_a_two_suit_table_accepts_a_hand_exactly_when_it_holds_no_wan(rng, discarder, mode):
    counts = random_complete_hand(rng)
    tiles = format_tiles(counts)
    doc = {"rules": {"mode": mode, "players": 3, "suits": "ps"}, "exhausted": mode != "first_win",
           "events": [win(discarder, {"player": 2 if discarder != 2 else 0, "tiles": tiles})]}
    if mode == "xue_liu":
        doc["ready"] = {str(doc["events"][0]["winners"][0]["player"]): {"fan": 0}}
    wan = any(counts[:9])
    found = [p for p in problems(doc) if p[1] == "suit_not_at_table"]
    assert bool(found) == wan and problems(doc) == found
    if not wan:
        mps = dict(doc, rules={**doc["rules"], "suits": "mps"})
        assert score_hand(doc).as_dict() == score_hand(mps).as_dict()
