"""Rule options: one typed spec (scoring.rules.OPTIONS) gives the defaults and the bounds."""
import pytest

from scoring import OPTIONS, Rules, ScoringError, parse_rules


def test_the_rule_options_spec_gives_the_defaults_and_the_bounds_parse_rules_checks():
    assert {name: option.default for name, option in OPTIONS.items()} == Rules().as_dict()
    for option in OPTIONS.values():
        if option.kind in ("int", "optional_int"):
            assert getattr(parse_rules({option.name: option.high}), option.name) == option.high
            with pytest.raises(ScoringError):
                parse_rules({option.name: option.high + 1})
        elif option.kind == "choice":
            assert getattr(parse_rules({option.name: option.choices[-1]}), option.name) == option.choices[-1]
            with pytest.raises(ScoringError):
                parse_rules({option.name: option.choices[0] + "x"})


def test_the_combined_patterns_are_made_of_the_patterns_rules_md_names():
    """RULES.md §3: 清对 = 清一色 + 对对胡, 将对 = 对对胡 (2/5/8), 龙七对 = 七对 + a quad, 清七对 = 清一色 + 七对, 清幺九 =
    清一色 + 幺九, 清龙七对 = 清一色 + 龙七对. The night form offers the patterns made of a changed one the same step."""
    from scoring.patterns import PARTS, PATTERNS, containing
    assert containing("dui_dui_hu") == ("qing_dui", "jiang_dui")
    assert containing("qi_dui") == ("long_qi_dui", "qing_qi_dui", "qing_long_qi_dui")  # through 龙七对 too
    assert containing("qing_yi_se") == ("qing_dui", "qing_qi_dui", "qing_yao_jiu", "qing_long_qi_dui")
    assert containing("ping_hu") == () and containing("qing_long_qi_dui") == ()
    for whole, parts in PARTS.items():   # a whole is worth more than each of its parts at the usual fans
        assert all(PATTERNS[whole].fan > PATTERNS[part].fan for part in parts), whole
