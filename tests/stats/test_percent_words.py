"""How the statistics pages write a rate."""
from decimal import Decimal

from ledger.templatetags.stats_tags import percent


def test_a_rate_is_a_whole_percentage_with_halves_rounded_up_alike():
    """A walk: 点炮率 12.5% read 12% beside 胡牌率 37.5% read 38% (halves rounded to even)."""
    assert [percent(Decimal(n) / 8) for n in (1, 3, 5)] == ["13%", "38%", "63%"]
    assert percent(Decimal(1) / 3) == "33%" and percent(Decimal(0)) == "0%" and percent(Decimal(1)) == "100%"
    assert percent(None) == "—"


def test_a_rate_is_rounded_once_where_it_is_shown(owner):
    """A review: 51 hands won of 101 is 50.495%: rounded to four places first (0.5050), the page read 51%."""
    from ledger.selectors.stats import _ratio
    assert percent(_ratio(51, 101)) == "50%" and percent(_ratio(1, 8)) == "13%"
