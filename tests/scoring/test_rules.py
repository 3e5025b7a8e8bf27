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
