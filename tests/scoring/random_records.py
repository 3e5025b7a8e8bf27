"""Hand records drawn from a seeded `random.Random` (not hypothesis): hands in the notations people type, and whole
records as a table might enter them. tests/data/engine_speed_cases.json was made with these generators (seed 10,
tests/scoring/test_engine_speed.py), so a change here changes which records those cases are: regenerate them then."""
from __future__ import annotations

import random
import re
from typing import Any

from scoring import format_tiles


# ---- hands and their notations ----------------------------------------------------------------

def random_sets(rng: random.Random, suits: list[int], fixed_pongs: tuple[int, ...] = ()) -> tuple[list[int], list[tuple[str, int]]]:
    """27 counts of four sets and a pair in these suits (some pongs given), and the sets ("chow"/"pong", tile)."""
    for _ in range(20):  # mostly at most four of a tile
        sets = [("pong", t) for t in fixed_pongs]
        while len(sets) < 4:
            base = rng.choice(suits)
            sets.append(("chow", base + rng.randint(0, 6)) if rng.random() < 0.5 else ("pong", base + rng.randint(0, 8)))
        counts = [0] * 27
        for kind, tile in sets:
            for t in (tile, tile + 1, tile + 2) if kind == "chow" else (tile, tile, tile):
                counts[t] += 1
        counts[rng.choice(suits) + rng.randint(0, 8)] += 2
        if max(counts) <= 4:
            break
    return counts, sets


def random_seven_pairs(rng: random.Random, suits: list[int]) -> list[int]:
    counts = [0] * 27
    for _ in range(7):
        counts[rng.choice(suits) + rng.randint(0, 8)] += 2
    return counts


def spelled(rng: random.Random, counts: list[int]) -> str:
    """The hand in one of the notations people type: canonical, 万/筒/条, capitals, spaces, suits out of order, a letter per tile."""
    text = format_tiles(counts)
    way = rng.randrange(7)
    if way == 1:
        return text.translate(str.maketrans({"m": rng.choice("万萬"), "p": rng.choice("筒饼餅"), "s": rng.choice("条條")}))
    if way == 2:
        return text.upper()
    if way == 3:
        return " ".join(re.findall(r"[1-9]+[mps]", text)) + rng.choice(["", " "])
    if way == 4:
        return "".join(reversed(re.findall(r"[1-9]+[mps]", text)))
    if way == 5:
        return "".join(f"{t % 9 + 1}{'mps'[t // 9]}" for t in range(27) for _ in range(counts[t]))
    return text


def spoiled(rng: random.Random, counts: list[int]) -> list[int]:
    """The hand with a tile added, removed or changed: usually not complete, sometimes the wrong count."""
    counts = counts[:]
    held = [t for t in range(27) if counts[t]]
    way = rng.randrange(3)
    if way in (0, 2):
        counts[rng.choice(held)] -= 1
    if way in (1, 2):
        counts[rng.randrange(27)] += 1
    return counts


# ---- whole records ----------------------------------------------------------------------------

RULES = [None, {}, {"max_fan": 3}, {"finished_players_pay_kongs": True, "kong_added": 2, "robbable_kongs": "added_direct"},
         {"call_transfer": True, "hua_zhu": True}, {"self_draw_bonus": "base", "cha_jiao": "max", "max_fan": 4},
         {"self_draw_bonus": "fan", "hai_di_fan": 2, "jin_gou_diao_fan": 1, "qiang_gang_hu_fan": 1},
         {"kong_refund": False, "dealer_when_no_winner": "next"}]
FLAGS = ["bao_jiao", "gang_shang_hua", "gang_shang_pao", "qiang_gang_hu", "tian_hu", "di_hu", "hai_di", "jin_gou_diao"]
PATTERNS = ["ping_hu", "dui_dui_hu", "qing_yi_se", "qi_dui", "yao_jiu", "qing_dui", "jiang_dui", "long_qi_dui"]


def tile_entry(rng: random.Random, kong_tiles: list[int]) -> dict[str, Any]:
    """A winner's tiles: a random hand holding the player's kongs as melds (and maybe a pong meld)."""
    suits = sorted({t // 9 * 9 for t in kong_tiles} | set(rng.sample([0, 9, 18], rng.choice([1, 2]))))[:rng.choice([1, 2, 2, 3])]
    suits = suits or [0]
    if not kong_tiles and rng.random() < 0.15:
        return {"tiles": spelled(rng, random_seven_pairs(rng, suits))}
    counts, sets = random_sets(rng, suits, tuple(kong_tiles))
    melds = []
    for kind, tile in sets:
        if tile in kong_tiles or (kind == "pong" and rng.random() < 0.2):
            counts[tile] -= 3
            melds.append(f"{tile % 9 + 1}" * (4 if tile in kong_tiles else 3) + "mps"[tile // 9])
            if tile in kong_tiles:
                kong_tiles = [t for t in kong_tiles if t != tile] + [t for t in kong_tiles if t == tile][1:]
    if rng.random() < 0.1:
        counts = spoiled(rng, counts)
    entry: dict[str, Any] = {"tiles": spelled(rng, counts) if rng.random() < 0.3 else format_tiles(counts)}
    if melds:
        entry["melds"] = melds
    return entry


def ready_entry(rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.4:
        return {"fan": rng.randint(0, 4)}
    counts = random_sets(rng, rng.sample([0, 9, 18], rng.choice([1, 2])))[0]
    counts[rng.choice([t for t in range(27) if counts[t]])] -= 1
    return {"tiles": format_tiles(counts)}


def random_record(rng: random.Random) -> dict[str, Any]:
    """A hand record as a table might enter it: kongs, wins by tiles or by pattern, maybe 查叫; often legal, not always."""
    active = [0, 1, 2, 3]
    kongs: dict[int, list[int]] = {p: [] for p in active}
    events: list[dict[str, Any]] = []
    winners_so_far = 0
    for _ in range(rng.randint(1, 6)):
        if winners_so_far >= 3 or len(active) < 2:
            break
        if rng.random() < 0.3:
            player = rng.choice(active)
            kind = rng.choice(["direct", "added", "concealed"])
            event: dict[str, Any] = {"type": "kong", "player": player, "kind": kind}
            if kind == "direct":
                event["from"] = rng.choice([p for p in active if p != player])
            tile = rng.randrange(27)
            if rng.random() < 0.7:
                event["tile"] = f"{tile % 9 + 1}{'mps'[tile // 9]}"
            kongs[player].append(tile)
            events.append(event)
            continue
        discarder = rng.choice([None] + active)
        candidates = [p for p in active if p != discarder]
        count = 1 if discarder is None else rng.randint(1, min(3 - winners_so_far, len(candidates)))
        players = rng.sample(candidates, count)
        winners = []
        for p in players:
            if rng.random() < 0.65:
                winner = {"player": p, **tile_entry(rng, kongs[p])}
            else:
                pattern = rng.choice(PATTERNS)
                winner = {"player": p, "pattern": pattern, "roots": 0 if pattern == "qi_dui" else min(len(kongs[p]) + rng.randint(0, 1), 4)}
            if rng.random() < 0.2:
                winner["flags"] = ["bao_jiao"] if rng.random() < 0.6 else rng.sample(FLAGS, rng.choice([1, 1, 2]))
            winners.append(winner)
        events.append({"type": "win", "from": discarder, "winners": winners})
        active = [p for p in active if p not in players]
        winners_so_far += len(players)
    record: dict[str, Any] = {"events": events}
    rules = rng.choice(RULES)
    if rules is not None:
        record["rules"] = rules
    if rng.random() < 0.7:
        record["base"] = rng.choice(["1", "0.5", 2, "10", "0.25"])
    record["dealer"] = rng.randint(0, 3)
    if winners_so_far < 3 and rng.random() < 0.9:
        record["exhausted"] = True
        ready = rng.sample(active, rng.randint(0, len(active)))
        if ready:
            record["ready"] = {str(p): ready_entry(rng) for p in ready}
        if rules and rules.get("hua_zhu") and rng.random() < 0.5:
            record["hua_zhu"] = [p for p in active if p not in ready][:1]
    return record
