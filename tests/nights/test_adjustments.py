"""Penalties and adjustments (罚分/调整): 诈胡 and fixed transfers, their money, numbers, totals, settlement, void,
correction, bad inputs and audit entries (issue 21 §1)."""
import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from ledger.services import nights as services
from ledger.services.adjustments import (adjustment_correct, adjustment_nets, adjustment_record, adjustment_void,
                                zha_hu_amount)
from ledger.models import Adjustment, AuditEntry
from ledger.selectors.nights import night_settlement, night_summary, night_totals

from tests.hand_helpers import w, win

SELF_DRAW = {"events": [win(None, w(1, "qing_yi_se", 1))], "exhausted": True}


def totals(night):
    return {t.player.name: t.amount for t in night_totals(night)}


def test_zha_hu_at_a_table_of_four_pays_every_other_seat_base_times_two_to_the_fan():
    assert zha_hu_amount(Decimal("2"), 4) == Decimal("32")
    assert adjustment_nets("zha_hu", 1, None, Decimal("32"), seats=4) == [32, -96, 32, 32]


def test_zha_hu_at_a_table_of_three_pays_the_two_others():
    assert adjustment_nets("zha_hu", 0, None, Decimal("8"), seats=3) == [-16, 8, 8]


def test_a_transfer_moves_its_amount_between_two_seats_exactly():
    assert adjustment_nets("transfer", 2, 0, Decimal("5.5"), seats=4) == [Decimal("5.5"), 0, Decimal("-5.5"), 0]


def test_zha_hu_without_a_cap_defaults_to_four_fan(night, owner):
    made = adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": 1})
    assert (made.fan, made.amount, made.number, made.after_hand) == (4, Decimal("32"), 1, 0)
    assert totals(night) == {"张三": 32, "李四": -96, "王五": 32, "赵六": 32}


def test_zha_hu_defaults_to_the_nights_cap(owner, players):
    capped = services.night_create(owner=owner, title="封顶", date=dt.date(2026, 11, 27), base=Decimal("0.5"),
                                   players=players, first_dealer=0, rule_overrides={"max_fan": 3})
    made = adjustment_record(night=capped, by=owner, data={"kind": "zha_hu", "player": 0})
    assert (made.fan, made.amount) == (3, Decimal("4"))
    assert totals(capped) == {"张三": -12, "李四": 4, "王五": 4, "赵六": 4}
    # An explicit fan is the table's choice, not clipped by the cap.
    assert adjustment_record(night=capped, by=owner, data={"kind": "zha_hu", "player": 0, "fan": 5}).amount == 16


def test_totals_and_settlement_include_adjustments_after_hands(night, owner):
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    before = totals(night)
    made = adjustment_record(night=night, by=owner,
                             data={"kind": "transfer", "from": 0, "to": 3, "amount": "5.25", "reason": "迟到"})
    assert (made.number, made.after_hand) == (1, 1)
    after = totals(night)
    assert after["张三"] == before["张三"] - Decimal("5.25") and after["赵六"] == before["赵六"] + Decimal("5.25")
    assert sum(after.values()) == 0
    paid = {}
    for t in night_settlement(night):
        paid[t.payer.name] = paid.get(t.payer.name, 0) - t.amount
        paid[t.payee.name] = paid.get(t.payee.name, 0) + t.amount
    assert {k: v for k, v in paid.items() if v} == {k: v for k, v in after.items() if v}


def test_numbers_are_their_own_sequence_and_hands_keep_theirs(night, owner):
    adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": 2, "fan": 0})
    hand = services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    second = adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": 3, "fan": 1})
    assert hand.number == 1
    assert (second.number, second.after_hand) == (2, 1)


def test_void_takes_it_out_of_the_totals_and_keeps_it(night, owner):
    made = adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": 1, "fan": 2})
    adjustment_void(adjustment=made, by=owner, reason="记错了")
    made.refresh_from_db()
    assert made.status == "voided" and made.void_reason == "记错了"
    assert set(totals(night).values()) == {0}
    entry = AuditEntry.objects.get(action=AuditEntry.Action.ADJUSTMENT_VOIDED)
    assert entry.adjustment == made and entry.reason == "记错了"
    with pytest.raises(ValidationError):
        adjustment_void(adjustment=made, by=owner, reason="again")
    with pytest.raises(ValidationError):
        adjustment_correct(adjustment=made, by=owner, reason="x", data={"kind": "zha_hu", "player": 1})


def test_correct_changes_the_values_keeps_the_players_and_audits_both_sides(night, owner, players):
    made = adjustment_record(night=night, by=owner,
                             data={"kind": "transfer", "from": 0, "to": 1, "amount": "5", "reason": "迟到"})
    services.seat_change(night=night, by=owner, seat=0, player=services.player_get_or_create(name="钱七",
                                                                                            group=night.group))
    adjustment_correct(adjustment=made, by=owner, reason="是十块",
                       data={"kind": "transfer", "from": 0, "to": 1, "amount": "10", "reason": "迟到"})
    made.refresh_from_db()
    assert (made.version, made.amount) == (2, Decimal("10"))
    assert totals(night)["张三"] == -10 and totals(night)["李四"] == 10  # still 张三, who sat there then
    entry = AuditEntry.objects.get(action=AuditEntry.Action.ADJUSTMENT_CORRECTED)
    assert entry.reason == "是十块" and entry.before["amount"] == "5" and entry.after["amount"] == "10"
    assert entry.after["net"] == ["-10", "10", "0", "0"]
    assert AuditEntry.objects.filter(action=AuditEntry.Action.ADJUSTMENT_RECORDED, adjustment=made).count() == 1
    with pytest.raises(ValidationError) as caught:
        adjustment_correct(adjustment=made, by=owner, reason=" ", data={"kind": "zha_hu", "player": 1})
    assert "reason" in caught.value.message_dict


@pytest.mark.parametrize("data, field", [
    ({"kind": "zha_hu", "player": 4}, "player"),
    ({"kind": "zha_hu", "player": -1}, "player"),
    ({"kind": "zha_hu"}, "player"),
    ({"kind": "zha_hu", "player": 0, "fan": 21}, "fan"),
    ({"kind": "zha_hu", "player": 0, "fan": -1}, "fan"),
    ({"kind": "zha_hu", "player": 0, "amount": "5"}, "amount"),
    ({"kind": "transfer", "from": 1, "to": 1, "amount": "5", "reason": "x"}, "to"),
    ({"kind": "transfer", "from": 1, "to": 9, "amount": "5", "reason": "x"}, "to"),
    ({"kind": "transfer", "from": 7, "to": 1, "amount": "5", "reason": "x"}, "from"),
    ({"kind": "transfer", "from": 0, "to": 1, "amount": "0", "reason": "x"}, "amount"),
    ({"kind": "transfer", "from": 0, "to": 1, "amount": "-5", "reason": "x"}, "amount"),
    ({"kind": "transfer", "from": 0, "to": 1, "amount": "1.005", "reason": "x"}, "amount"),
    ({"kind": "transfer", "from": 0, "to": 1, "amount": "abc", "reason": "x"}, "amount"),
    ({"kind": "transfer", "from": 0, "to": 1, "amount": "NaN", "reason": "x"}, "amount"),
    ({"kind": "transfer", "from": 0, "to": 1, "amount": "1e9", "reason": "x"}, "amount"),
    ({"kind": "transfer", "from": 0, "to": 1, "amount": "5"}, "reason"),
    ({"kind": "transfer", "from": 0, "to": 1, "amount": "5", "reason": "  "}, "reason"),
    ({"kind": "penalty", "player": 0}, "kind"),
])
def test_bad_input_names_the_field_and_writes_nothing(night, owner, data, field):
    with pytest.raises(ValidationError) as caught:
        adjustment_record(night=night, by=owner, data=data)
    assert field in caught.value.message_dict
    assert not Adjustment.objects.exists() and not AuditEntry.objects.filter(adjustment__isnull=False).exists()


def test_a_huge_zha_hu_is_refused_on_its_fan(owner, players):
    rich = services.night_create(owner=owner, title="大", date=dt.date(2026, 11, 27), base=Decimal("100000"),
                                 players=players, first_dealer=0)
    with pytest.raises(ValidationError) as caught:
        adjustment_record(night=rich, by=owner, data={"kind": "zha_hu", "player": 0, "fan": 20})
    assert "fan" in caught.value.message_dict


def test_a_closed_night_takes_no_adjustment(night, owner):
    services.night_close(night=night, by=owner)
    with pytest.raises(ValidationError, match="已经结束"):
        adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": 0})
    assert not Adjustment.objects.exists()


def test_a_table_fee_is_not_shared_on_adjustments(owner, players):
    """The winners' split of the fee follows the play: a player who is up only by a penalty pays no fee."""
    fee = services.night_create(owner=owner, title="台费", date=dt.date(2026, 11, 27), base=Decimal("1"),
                                players=players, first_dealer=0, fee={"mode": "winners", "amount": "10"})
    services.hand_record(night=fee, by=owner, entry=SELF_DRAW)  # 李四 wins
    adjustment_record(night=fee, by=owner, data={"kind": "zha_hu", "player": 1, "fan": 0})
    summary = night_summary(fee)
    assert summary.fee == 10
    assert {players[i].pk for i, _p in enumerate(players) if summary.fee_shares.get(players[i].pk)} == {players[1].pk}
    assert sum(summary.nets.values()) + summary.fee == 0


def test_audit_entry_of_a_record_holds_the_values(night, owner):
    made = adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": 1, "fan": 1})
    entry = AuditEntry.objects.get(action=AuditEntry.Action.ADJUSTMENT_RECORDED)
    assert entry.adjustment == made and entry.group_id == night.group_id
    assert entry.after == {"adjustment": 1, "version": 1, "kind": "zha_hu", "players": ["张三", "李四", "王五", "赵六"],
                           "payer": 1, "payee": None, "fan": 1, "amount": "4", "note": "",
                           "net": ["4", "-12", "4", "4"]}


def test_check_ledger_finds_an_adjustment_whose_stored_nets_were_changed(night, owner):
    from ledger.management.commands.check_ledger import check
    from ledger.models import AdjustmentSeat, Night
    made = adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": 1, "fan": 0})
    assert check(Night.objects.all())[0] == []
    AdjustmentSeat.objects.filter(adjustment=made, seat=0).update(net=Decimal("3"))
    found = check(Night.objects.all())[0]
    assert found[0] == f"night {night.pk} adjustment 1: seat nets differ from its values"
    # and the night's standings (kept from the values as recorded) no longer equal what the changed rows sum
    assert found[1:] == [line for line in found[1:] if line.startswith(f"night {night.pk} player ")] != []
