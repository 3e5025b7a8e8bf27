"""Random hand records for the engine's property tests (hypothesis), and the problems a record being entered has."""
from hypothesis import strategies as st

from scoring import ScoringError, score_hand
from scoring.patterns import PATTERNS, SEVEN_PAIRS_PATTERNS, max_roots

PATTERN_CODES = list(PATTERNS)


def hand_records(finished=True):
    """Random valid hand records (finished, or as entered so far when finished=False)."""
    return _hand_records(finished)


@st.composite
def _hand_records(draw, finished):
    rules = draw(st.sampled_from([{}, {"max_fan": 3}, {"finished_players_pay_kongs": True, "kong_added": 2},
                                  {"call_transfer": True, "hua_zhu": True}, {"self_draw_bonus": "base"},
                                  {"robbable_kongs": "added_direct", "hai_di_fan": 1}]))
    active = [0, 1, 2, 3]
    kongs = {s: 0 for s in active}  # kongs held (robbed ones aside: roots, patterns)
    made = {s: 0 for s in active}  # kongs made, robbed ones included (at most four: RULES.md §7)
    events, wins = [], 0
    previous_kong = None  # (player, kind) of the event right before, when a kong

    def winner(player, self_draw, discarder, pao=False):
        own = kongs[player]
        codes = [c for c in PATTERN_CODES if not (own and c in SEVEN_PAIRS_PATTERNS) and max_roots(c) >= own
                 and c != "jiang_qi_dui"]  # not a pattern with the rules drawn here (jiang_qi_dui_fan 0)
        pattern = draw(st.sampled_from(codes))
        flags = draw(st.lists(st.sampled_from(["bao_jiao"]), max_size=1))
        if self_draw and previous_kong and previous_kong[0] == player and draw(st.booleans()):
            flags.append("gang_shang_hua")
        if pao:  # 杠上炮 is the discard's: on every winner of the event or none (RULES.md §7)
            flags.append("gang_shang_pao")
        return {"player": player, "pattern": pattern, "roots": draw(st.integers(own, max_roots(pattern))), "flags": flags}

    for _ in range(draw(st.integers(0, 7))):
        if wins >= 3:
            break
        action = draw(st.sampled_from(["kong", "win", "robbed"]))
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
            count = draw(st.integers(1, min(3 - wins, len(robbers))))
            players = draw(st.lists(st.sampled_from(robbers), min_size=count, max_size=count, unique=True))
            previous_kong = None
            winners = [winner(p, False, player) for p in players]
            for w in winners:
                w["flags"].append("qiang_gang_hu")
            events.append({"type": "win", "from": player, "winners": winners})
        else:
            if len(active) < 2:
                break
            discarder = draw(st.sampled_from([None] + active))
            candidates = [p for p in active if p != discarder]
            count = 1 if discarder is None else draw(st.integers(1, min(3 - wins, len(candidates))))
            players = draw(st.lists(st.sampled_from(candidates), min_size=count, max_size=count, unique=True))
            pao = discarder is not None and bool(previous_kong) and previous_kong[0] == discarder and draw(st.booleans())
            events.append({"type": "win", "from": discarder, "winners": [winner(p, discarder is None, discarder, pao)
                                                                           for p in players]})
            previous_kong = None
        active = [p for p in active if p not in players]
        wins += len(players)
    record = {"base": str(draw(st.sampled_from(["1", "2", "0.5"]))), "dealer": draw(st.integers(0, 3)),
              "events": events, "rules": rules}
    if wins < 3 and (finished or draw(st.booleans())):
        record["exhausted"] = True
        ready = draw(st.lists(st.sampled_from(active), unique=True))
        record["ready"] = {str(p): {"fan": draw(st.integers(0, 4))} for p in ready}
        if record["rules"].get("hua_zhu"):
            record["hua_zhu"] = [p for p in active if p not in ready][:1]
    return record


def problems(doc):
    """Every problem of a record being entered (the end of the hand is not required)."""
    try:
        score_hand(doc, require_end=False)
    except ScoringError as exc:
        return [(p.path, p.code) for p in exc.problems]
    return []


def paths_under(doc, prefix):
    return [p for p in problems(doc) if p[0] == prefix or p[0].startswith(prefix + ".") or p[0].startswith(prefix + "[")]


def own_kongs(doc, seat, before):
    events = doc["events"][:before]
    robbed = {i for i, e in enumerate(events[:-1]) if e["type"] == "kong" and events[i + 1]["type"] == "win"
              and events[i + 1]["from"] == e["player"]
              and any("qiang_gang_hu" in x.get("flags", []) for x in events[i + 1]["winners"])}
    return sum(1 for i, e in enumerate(events) if e["type"] == "kong" and e["player"] == seat and i not in robbed)
