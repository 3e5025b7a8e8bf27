"""Tile notation: parsing, Chinese suits, canonical output and errors."""
import pytest

from scoring import ScoringError, format_tiles, normalise_tiles, parse_tiles


def test_it_parses_letters_and_formats_canonically():
    assert normalise_tiles("11s456p321m") == "123m456p11s"


def test_it_accepts_chinese_suits():
    assert normalise_tiles("23445677万345789筒") == "23445677m345789p"
    assert normalise_tiles("1萬2餅3饼4條5条") == "1m23p45s"


def test_it_ignores_spaces():
    assert normalise_tiles("123m 456p") == "123m456p"


@pytest.mark.parametrize("text, fragment", [
    ("", "no tiles"),
    ("123", "not followed by a suit"),
    ("120m", "'0' is not a rank"),
    ("12x", "unknown character 'x'"),
    ("m12m", "has no ranks"),
    ("11111m", "1m appears 5 times"),
])
def test_it_rejects_bad_notation_with_a_clear_message(text, fragment):
    with pytest.raises(ScoringError) as exc:
        parse_tiles(text, "events[0].winners[0].tiles")
    problem = exc.value.problems[0]
    assert problem.path == "events[0].winners[0].tiles"
    assert fragment in problem.message("en")
    assert problem.message("zh") != problem.message("en")


def test_formatting_gives_back_the_canonical_notation():
    counts = parse_tiles("19m19p19s5m")
    assert format_tiles(counts) == "159m19p19s"

