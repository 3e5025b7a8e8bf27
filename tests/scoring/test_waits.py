"""The waits of one suit (scoring.waits.suit_waits): the same as a table of every complete group less one
tile, worked out per shape and kept in a bounded cache instead (issue 17, memory)."""
import itertools

from scoring import analyse_ready
from scoring.hands import suit_table
from scoring.waits import SUIT_WAITS_CACHE, suit_waits


def _table_of_groups_one_tile_short():
    """The wait table the engine used to keep in every process: each complete one-suit group less
    one tile, with (rank, flags) of each tile that completes it, flags ORed as in the suit table."""
    short = {}
    for key, flags in suit_table().items():
        counts = list(key)
        for r in range(9):
            if counts[r]:
                counts[r] -= 1
                entry = short.setdefault(bytes(counts), {})
                entry[r] = entry.get(r, 0) | flags
                counts[r] += 1
    return {key: tuple(sorted(entry.items())) for key, entry in short.items()}


def test_suit_waits_give_what_the_table_of_groups_one_tile_short_gave():
    table = _table_of_groups_one_tile_short()
    assert len(table) == 66913
    compute = suit_waits.__wrapped__  # uncached, so the whole table is not kept by this test either
    for key, expected in table.items():
        assert compute(key) == expected, key
    # Shapes that are no group one tile short wait on nothing: a sample of every shape of 0-4 counts.
    for combo in itertools.islice(itertools.product(range(5), repeat=9), 0, None, 61):
        key = bytes(combo)
        if key not in table:
            assert compute(key) == (), key


def test_suit_waits_keep_at_most_their_cache_size_of_shapes():
    assert suit_waits.cache_info().maxsize == SUIT_WAITS_CACHE <= 10000
    suit_waits.cache_clear()
    shapes = itertools.product(range(4), repeat=9)
    for combo in itertools.islice(shapes, SUIT_WAITS_CACHE + 500):
        suit_waits(bytes(combo))
    assert suit_waits.cache_info().currsize == SUIT_WAITS_CACHE
    # Evicted shapes are worked out again, the same.
    assert analyse_ready("1112345678999m").waits == analyse_ready("1112345678999m").waits
    assert [w.tile for w in analyse_ready("1112345678999m").waits] == [f"{r}m" for r in range(1, 10)]


def test_the_splits_behind_a_hand_by_tiles_keep_at_most_their_cache_size_of_shapes():
    from scoring.hands import SUIT_SPLITS_CACHE, _suit_splits
    assert _suit_splits.cache_info().maxsize == SUIT_SPLITS_CACHE <= 10000
