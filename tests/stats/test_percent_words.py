"""How the statistics pages write a rate."""
from decimal import Decimal

from ledger.templatetags.stats_tags import percent


def test_a_rate_is_a_whole_percentage_with_halves_rounded_up_alike():
    """A walk: 点炮率 12.5% read 12% beside 胡牌率 37.5% read 38% (halves rounded to even)."""
    assert [percent(Decimal(n) / 8) for n in (1, 3, 5)] == ["13%", "38%", "63%"]
    assert percent(Decimal(1) / 3) == "33%" and percent(Decimal(0)) == "0%" and percent(Decimal(1)) == "100%"
    assert percent(None) == "—"
