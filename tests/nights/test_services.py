"""Services: recording, correcting and voiding hands; totals; gap-free numbers; rejected hands write nothing."""
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from ledger.services import nights as services
from ledger.models import AuditEntry, Hand, HandRevision, SeatResult
from ledger.presenters.nights import describe_hand
from ledger.selectors.nights import night_next_dealer, night_settlement, night_totals
from scoring import ScoringError

from tests.factories import stored_payments
from tests.hand_helpers import kong, w, win

SELF_DRAW = {"events": [win(None, w(1, "qing_yi_se", 1))], "exhausted": True}


def counts():
    return (Hand.objects.count(), HandRevision.objects.count(), SeatResult.objects.count(), AuditEntry.objects.count())


def totals_by_name(night):
    return {t.player.name: t.amount for t in night_totals(night)}


def test_recording_a_hand_stores_its_payments_and_moves_the_dealer(night, owner):
    hand = services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    assert hand.number == 1
    assert hand.current.result["net"] == ["-16", "48", "-16", "-16"]  # base 2 x 8 from each
    assert totals_by_name(night) == {"张三": -16, "李四": 48, "王五": -16, "赵六": -16}
    assert night_next_dealer(night) == 1
    assert AuditEntry.objects.filter(hand=hand, action="hand_recorded").count() == 1


def test_totals_equal_the_sum_of_payments(night, owner):
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    services.hand_record(night=night, by=owner, entry={"events": [kong(2, "concealed"), win(0, w(3, "dui_dui_hu"))], "exhausted": True})
    expected: dict[str, Decimal] = {}
    for payer, payee, amount in stored_payments():
        expected[payer.name] = expected.get(payer.name, 0) - amount
        expected[payee.name] = expected.get(payee.name, 0) + amount
    assert totals_by_name(night) == expected
    assert sum(totals_by_name(night).values()) == 0


def test_a_rejected_hand_writes_nothing(night, owner):
    before = counts()
    with pytest.raises(ScoringError) as exc:
        services.hand_record(night=night, by=owner, entry={"events": [win(1, w(1))]})
    assert exc.value.problems[0].path == "events[0].winners[0].player"
    assert counts() == before


def test_hand_numbers_stay_gap_free_through_voids_and_failures(night, owner):
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    second = services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    services.hand_void(hand=second, by=owner, reason="undo")
    with pytest.raises(ScoringError):
        services.hand_record(night=night, by=owner, entry={"events": [{"type": "chi"}]})
    third = services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    assert list(night.hands.values_list("number", flat=True)) == [1, 2, 3]
    assert third.number == 3


def test_correcting_a_hand_rescores_it_and_keeps_the_old_version(night, owner):
    hand = services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    services.hand_correct(hand=hand, by=owner, entry={"events": [win(3, w(1))], "exhausted": True}, reason="李四点的是赵六的炮")
    assert totals_by_name(night) == {"张三": 0, "李四": 2, "王五": 0, "赵六": -2}
    versions = list(hand.revisions.order_by("version").values_list("version", "is_current"))
    assert versions == [(1, False), (2, True)]
    entry = AuditEntry.objects.get(action="hand_corrected")
    assert entry.reason == "李四点的是赵六的炮"
    assert entry.before["result"]["net"] == ["-16", "48", "-16", "-16"] and entry.after["result"]["net"][1] == "2"


def test_a_correction_needs_a_reason_and_a_valid_record(night, owner):
    hand = services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    before = counts()
    with pytest.raises(ValidationError):
        services.hand_correct(hand=hand, by=owner, entry=SELF_DRAW, reason=" ")
    with pytest.raises(ScoringError):
        services.hand_correct(hand=hand, by=owner, entry={"events": [win(None, w(1), w(2))]}, reason="x")
    with pytest.raises(ScoringError, match="base"):  # the stake and rules belong to the night, not to a correction
        services.hand_correct(hand=hand, by=owner, entry={**SELF_DRAW, "base": "100"}, reason="x")
    assert counts() == before


def test_voiding_keeps_the_hand_out_of_the_totals(night, owner):
    hand = services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    services.hand_void(hand=hand, by=owner, reason="记错了")
    hand.refresh_from_db()
    assert hand.status == "voided" and hand.void_reason == "记错了"
    assert all(v == 0 for v in totals_by_name(night).values())
    assert night_next_dealer(night) == 0
    with pytest.raises(ValidationError):
        services.hand_void(hand=hand, by=owner, reason="again")


def test_a_substitute_plays_from_the_next_hand(night, owner):
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    newcomer = services.player_get_or_create(name="孙七", group=night.group)
    services.seat_change(night=night, by=owner, seat=1, player=newcomer)
    services.hand_record(night=night, by=owner, entry={"events": [win(0, w(1))], "exhausted": True})
    totals = totals_by_name(night)
    assert totals["李四"] == 48 and totals["孙七"] == 2 and totals["张三"] == -18


def test_the_settlement_settles_the_totals(night, owner):
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    services.hand_record(night=night, by=owner, entry={"events": [win(0, w(2, "qi_dui"))], "exhausted": True})
    transfers = night_settlement(night)
    balance = totals_by_name(night)
    for t in transfers:
        balance[t.payer.name] += t.amount
        balance[t.payee.name] -= t.amount
    assert all(v == 0 for v in balance.values())
    assert len(transfers) <= 3


def test_a_closed_night_takes_no_more_hands(night, owner):
    services.night_close(night=night, by=owner)
    with pytest.raises(ValidationError):
        services.hand_record(night=night, by=owner, entry=SELF_DRAW)


def test_the_rules_are_frozen_with_the_night(owner, players):
    import datetime as dt
    night = services.night_create(owner=owner, title="t", date=dt.date(2026, 1, 1), base=Decimal(1), players=players,
                                  first_dealer=2, preset="club", rule_overrides={"kong_refund": False})
    assert night.rules["max_fan"] == 4 and night.rules["kong_refund"] is False and night.rules["cha_jiao"] == "max"
    with pytest.raises(ScoringError):
        services.night_create(owner=owner, title="t", date=dt.date(2026, 1, 1), base=Decimal(1), players=players,
                              first_dealer=0, rule_overrides={"max_fan": "lots"})


def test_hands_are_described_in_words(night, owner):
    hand = services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    assert describe_hand(hand.current) == ["李四 自摸 清一色 带1根 3番，张三、王五、赵六 各付16", "流局，无人查叫"]


@pytest.mark.parametrize("lang, ready_line, nobody", [
    ("zh-hans", "流局，下叫：王五 0番（叫 2万 5万 8万）、赵六 2番", "流局，没人下叫"),
    ("en", "Wall exhausted; ready: 王五 0 fan (waits 2m 5m 8m), 赵六 2 fan", "Wall exhausted; nobody ready"),
])
def test_a_cha_jiao_hand_says_who_was_ready_and_with_what(night, owner, lang, ready_line, nobody):
    """A walk: the card said only 查叫：王五 付 赵六 4, never 流局 nor who was ready with what, so a disputed 查叫
    could not be checked the next day. The ready seats come first (with their waits where given by tiles)."""
    from django.utils import translation
    entry = {"events": [win(None, w(1))], "exhausted": True,
             "ready": {"2": {"tiles": "2345678m123p555p"}, "3": {"fan": 2}}}
    hand = services.hand_record(night=night, by=owner, entry=entry)
    quiet = services.hand_record(night=night, by=owner, entry={"events": [kong(0, "concealed")], "exhausted": True,
                                                                 "hua_zhu": []})
    with translation.override(lang):
        lines = describe_hand(hand.current)
        assert lines[1] == ready_line, lines
        assert len(lines) == 2 + sum(1 for p in hand.current.result["payments"] if p["event"] is None)
        assert nobody in describe_hand(quiet.current)
        # A result made before the engine said who was ready says nothing of it (not "nobody was ready").
        from ledger.presenters.nights import describe
        old = {k: v for k, v in hand.current.result.items() if k != "ready"}
        assert not any(line.startswith(ready_line[:4]) for line in describe(hand.current.names, hand.current.record, old))
