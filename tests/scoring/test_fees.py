"""The table fee (台费) in the engine: its modes checked, each player's share exact and summing to the fee."""
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import MAX_FEE, Fee, ScoringError, fee_shares, parse_fee

D = Decimal


def problems(doc):
    with pytest.raises(ScoringError) as caught:
        parse_fee(doc)
    return {p.path: p for p in caught.value.problems}


@pytest.mark.parametrize("doc, canonical", [
    (None, {"mode": "none"}),
    ({"mode": "none"}, {"mode": "none"}),
    ({"mode": "per_player", "amount": "5.00"}, {"mode": "per_player", "amount": "5"}),
    ({"mode": "winners", "amount": 30}, {"mode": "winners", "amount": "30"}),
    ({"mode": "per_win", "amount": "0.5"}, {"mode": "per_win", "amount": "0.5", "wins": "all"}),
    ({"mode": "per_win", "amount": "1", "wins": "self_draw"}, {"mode": "per_win", "amount": "1", "wins": "self_draw"}),
])
def test_each_mode_parses_to_its_canonical_document(doc, canonical):
    assert parse_fee(doc).as_dict() == canonical
    assert parse_fee(canonical) == parse_fee(doc)


@pytest.mark.parametrize("amount", [0, -1, "0", "abc", 1.5, "0.001", str(MAX_FEE + 1), "NaN", "1e9", True, None])
def test_a_bad_amount_is_refused_naming_the_field_in_both_languages(amount):
    found = problems({"mode": "per_player", "amount": amount})
    assert set(found) == {"fee.amount"}
    assert "台费金额" in found["fee.amount"].message("zh")
    assert "fee amount" in found["fee.amount"].message("en")


def test_every_problem_is_reported_with_its_path():
    assert set(problems({"mode": "per_win", "wins": "some", "colour": "red"})) == {
        "fee.amount", "fee.wins", "fee.colour"}
    assert set(problems({"amount": "5"})) == {"fee.mode"}
    assert "none, per_player" in problems({"mode": "cut"})["fee.mode"].message("en")
    assert set(problems("5")) == {"fee"}


def test_a_field_the_mode_does_not_take_is_refused():
    found = problems({"mode": "none", "amount": "5"})
    assert found["fee.amount"].message("en") == "fee mode 'none' takes no 'amount'"
    assert set(problems({"mode": "winners", "amount": "5", "wins": "all"})) == {"fee.wins"}


def test_per_player_charges_everyone_who_played():
    shares = fee_shares(parse_fee({"mode": "per_player", "amount": "5"}), nets={"a": D(10), "b": D(-10), "c": D(0)},
                        played=["a", "b", "c"])
    assert shares == {"a": D(5), "b": D(5), "c": D(5)}


def test_winners_share_in_proportion_to_their_winnings_rounded_by_largest_remainder():
    fee = parse_fee({"mode": "winners", "amount": "10"})
    shares = fee_shares(fee, nets={"a": D(20), "b": D(10), "c": D(-30)}, played=["a", "b", "c"])
    assert shares == {"a": D("6.67"), "b": D("3.33")}
    shares = fee_shares(fee, nets={"a": D(1), "b": D(1), "c": D(1), "d": D(-3)}, played="abcd")
    assert shares == {"a": D("3.34"), "b": D("3.33"), "c": D("3.33")}  # the odd cent to the first on a tie


def test_when_nobody_is_up_the_fee_is_split_equally_among_those_who_played():
    fee = parse_fee({"mode": "winners", "amount": "10"})
    assert fee_shares(fee, nets={"a": D(0), "b": D(0), "c": D(0)}, played="abc") == {
        "a": D("3.34"), "b": D("3.33"), "c": D("3.33")}


def test_per_win_charges_each_win_or_each_self_draw():
    wins, draws = {"a": 3, "b": 1}, {"a": 1}
    every = fee_shares(parse_fee({"mode": "per_win", "amount": "2"}), nets={}, played="abc", wins=wins,
                       self_draws=draws)
    assert every == {"a": D(6), "b": D(2)}
    drawn = fee_shares(parse_fee({"mode": "per_win", "amount": "1", "wins": "self_draw"}), nets={}, played="abc",
                       wins=wins, self_draws=draws)
    assert drawn == {"a": D(1)}


def test_no_fee_and_nobody_playing_cost_nothing():
    assert fee_shares(Fee(), nets={"a": D(5), "b": D(-5)}, played="ab") == {}
    assert fee_shares(parse_fee({"mode": "per_player", "amount": "5"}), nets={}, played=[]) == {}


amounts = st.decimals(min_value=D("0.01"), max_value=D(1000), places=2)
nets = st.lists(st.decimals(min_value=D(-500), max_value=D(500), places=2), min_size=1, max_size=8)


@given(amount=amounts, values=nets, mode=st.sampled_from(["per_player", "winners", "per_win"]),
       counts=st.lists(st.integers(0, 5), min_size=8, max_size=8))
def test_shares_sum_to_the_fee_and_nets_plus_the_fee_still_sum_to_zero(amount, values, mode, counts):
    values = values + [-sum(values)]  # a night's nets sum to zero
    players = list(range(len(values)))
    net = dict(zip(players, values))
    wins = dict(zip(players, counts))
    fee = parse_fee({"mode": mode, "amount": str(amount)})
    shares = fee_shares(fee, nets=net, played=players, wins=wins, self_draws={})
    expected = {"per_player": amount * len(players), "winners": amount,
                "per_win": amount * sum(wins.get(p, 0) for p in players)}[mode]
    assert sum(shares.values(), D(0)) == expected
    assert all(s > 0 and s == s.quantize(D("0.01")) for s in shares.values())
    after = {p: net[p] - shares.get(p, D(0)) for p in players}
    assert sum(after.values(), D(0)) + sum(shares.values(), D(0)) == 0
    if mode == "winners" and any(v > 0 for v in values):
        assert set(shares) <= {p for p in players if net[p] > 0}
        # Nobody is more than a cent away from their exact proportional share.
        up = sum(v for v in values if v > 0)
        for p, share in shares.items():
            assert abs(share - amount * net[p] / up) < D("0.01")
