"""Hand analysis: the seed hands of RULES.md §3, readings, missing suit, waits and the published counts."""
import itertools

import pytest

from scoring import analyse_hand, analyse_ready, parse_tiles
from scoring.hands import evaluate, readings, suit_table
from scoring.waits import waits_of

SEED_HANDS = [
    ("23445677m345789p", "ping_hu", 0, 0),
    ("123333m45566799s", "ping_hu", 1, 1),
    ("111333444m66677p", "dui_dui_hu", 0, 1),
    ("11223345678999m", "qing_yi_se", 0, 2),
    ("22244455577799m", "qing_dui", 0, 3),
    ("222555888m55588p", "jiang_dui", 0, 3),
    ("11334466m557799p", "qi_dui", 0, 2),
    ("11334466778899m", "qing_qi_dui", 0, 4),
    ("11222244m557788p", "long_qi_dui", 0, 4),
    ("11224444557799m", "qing_long_qi_dui", 0, 5),
    ("111222333m78999p", "yao_jiu", 0, 2),
    ("11123777888999m", "qing_yao_jiu", 4 - 4, 4),
]


@pytest.mark.parametrize("tiles, pattern, roots, fan", SEED_HANDS)
def test_the_seed_hands_have_their_published_pattern(tiles, pattern, roots, fan):
    hand = analyse_hand(tiles)
    assert (hand.pattern, hand.roots, hand.fan) == (pattern, roots, fan)


def test_the_seed_hands_in_chinese_notation_score_the_same():
    assert analyse_hand("23445677万345789筒").pattern == "ping_hu"


def test_it_lists_every_reading_and_picks_the_highest():
    hand = analyse_hand("111222333m78999p")
    assert [(r.groups, r.pattern) for r in hand.readings] == [
        (("123m", "123m", "123m", "789p", "99p"), "yao_jiu"),
        (("111m", "222m", "333m", "789p", "99p"), "ping_hu"),
    ]
    seven = analyse_hand("11223344556677m")
    assert {r.form for r in seven.readings} == {"sets", "seven_pairs"}
    assert seven.pattern == "qing_qi_dui"


def test_a_three_suit_hand_is_not_a_win():
    hand = analyse_hand("123m456p789s11m456m")
    assert hand.problem == "hand_three_suits" and not hand.complete


def test_an_incomplete_hand_says_so():
    assert analyse_hand("12356789m123457p").problem == "hand_not_complete"


def test_melds_count_for_roots_and_pongs():
    hand = analyse_hand("11122233355m", ["7777s"])
    assert (hand.pattern, hand.roots) == ("dui_dui_hu", 1)
    pong_plus_fourth = analyse_hand("456m123789p11p", ["555m"])
    assert pong_plus_fourth.roots == 1


def test_seven_pairs_need_no_melds():
    # Eleven concealed tiles beside a meld cannot all be pairs.
    assert analyse_hand("11334466m557p", ["999p"]).problem == "hand_not_complete"


def test_two_equal_fan_patterns_name_the_first_listed():
    # 清对 and 将对 both give 3 fan: 清对 is listed first (no real one-suit hand is both: three
    # kinds cannot make four pongs, so the rule is checked on the choice itself).
    from scoring.patterns import choose_pattern
    assert choose_pattern(qing=True, all_pongs=True, terminals=False, only_258=True) == "qing_dui"
    assert choose_pattern(qing=False, all_pongs=True, terminals=False, only_258=True) == "jiang_dui"


def test_waits_with_their_fan_and_the_cha_jiao_fan():
    ready = analyse_ready("1112345678999m")
    assert [w.tile for w in ready.waits] == [f"{r}m" for r in range(1, 10)]
    assert ready.cha_jiao_fan("min") == 2 and ready.cha_jiao_fan("max") == 3


def test_a_tile_held_four_times_is_not_a_wait_but_the_other_completing_tile_is():
    # 1111m + 23m: 1m would be a fifth copy, so only 4m completes.
    ready = analyse_ready("1111234m", ["555p", "666p"])
    assert [(w.tile, w.pattern, w.roots) for w in ready.waits] == [("4m", "ping_hu", 1)]


def test_a_three_suit_hand_is_not_ready():
    assert analyse_ready("123m456p789s1122m").problem == "ready_three_suits"


def test_readings_agree_with_the_fast_evaluation_on_every_small_hand():
    # Every two-suit hand from a fixed family: the best reading equals the table-driven answer.
    for a, b in itertools.product(range(9), range(9)):
        counts = parse_tiles(f"{a + 1}{a + 1}{a + 1}m123456p789p" + f"{b + 1}{b + 1}p")
        if max(counts) > 4:
            continue
        best = evaluate(counts)
        found = readings(counts)
        assert (best is None) == (not found)
        if found:
            assert (found[0].pattern, found[0].roots) == best


def _standard(counts, pairs=1):
    """Independent check: four sets and a pair in one suit, by plain recursion."""
    i = next((r for r in range(9) if counts[r]), None)
    if i is None:
        return pairs == 0
    if counts[i] >= 3:
        counts[i] -= 3
        ok = _standard(counts, pairs)
        counts[i] += 3
        if ok:
            return True
    if i <= 6 and counts[i + 1] and counts[i + 2]:
        for r in (i, i + 1, i + 2):
            counts[r] -= 1
        ok = _standard(counts, pairs)
        for r in (i, i + 1, i + 2):
            counts[r] += 1
        if ok:
            return True
    if pairs and counts[i] >= 2:
        counts[i] -= 2
        ok = _standard(counts, pairs - 1)
        counts[i] += 2
        return ok
    return False


def _one_suit_hands(size):
    for combo in itertools.product(range(5), repeat=9):
        if sum(combo) == size:
            yield list(combo)


def test_the_published_count_of_complete_one_suit_hands():
    table = suit_table()
    by_table = sum(1 for key in table if sum(key) == 14)
    by_recursion = sum(1 for counts in _one_suit_hands(14) if _standard(counts))
    assert by_table == by_recursion == 13259


def test_the_published_count_of_ready_one_suit_hands():
    ready = 0
    for counts in _one_suit_hands(13):
        for r in range(9):
            if counts[r] < 4:
                counts[r] += 1
                ok = _standard(counts)
                counts[r] -= 1
                if ok:
                    ready += 1
                    break
    assert ready == 40070
    # The engine's waits agree on a sample: every four-sets-plus-pair wait is found, and any other
    # wait it finds completes seven pairs.
    for counts in itertools.islice(_one_suit_hands(13), 0, 3000, 7):
        engine = {w.tile for w in waits_of(counts + [0] * 18)}
        expected = set()
        for r in range(9):
            if counts[r] < 4:
                counts[r] += 1
                if _standard(counts):
                    expected.add(f"{r + 1}m")
                elif f"{r + 1}m" in engine:
                    assert all(c % 2 == 0 for c in counts)
                counts[r] -= 1
        assert expected <= engine


def test_readings_are_identical_to_the_implementation_before_the_suit_cache():
    import random

    from scoring.hands import Meld

    from tests.hand_helpers import random_complete_hand
    from tests.reference_readings import readings as old_readings
    rng = random.Random(56000)
    compared = 0
    for _ in range(4000):
        counts = random_complete_hand(rng)
        melds = []
        for tile in range(27):  # set some pongs aside as melds, sometimes
            if counts[tile] >= 3 and rng.random() < 0.3:
                counts[tile] -= 3
                melds.append(Meld(tile, 3 + (counts[tile] == 1 and rng.random() < 0.5)))
                counts[tile] -= melds[-1].size - 3
        new = [(r.form, r.groups, r.pattern, r.roots) for r in readings(counts, melds)]
        assert new == [tuple(r) for r in old_readings(counts, melds)]
        compared += bool(new)
    assert compared > 3000  # setting melds aside can break a hand: both then find no reading
