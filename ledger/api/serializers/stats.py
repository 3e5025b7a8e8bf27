"""Output serializers of the statistics API: amounts are exact decimal strings, rates 0-1 with four places."""
from __future__ import annotations

from typing import Any

from rest_framework import serializers

from ledger.api.serializers.nights import GroupRefSerializer



def amount(help_text: str = "An exact signed amount as a decimal string, e.g. '-12.5'.") -> serializers.CharField:
    return serializers.CharField(help_text=help_text)


def rate(what: str = "") -> serializers.DecimalField:
    return serializers.DecimalField(max_digits=5, decimal_places=4, allow_null=True, help_text=(
        what + "A fraction from 0 to 1 as a decimal string, e.g. '0.3333'; null when there is nothing to count."))


WINS = "Wins, each counted (血流成河: several in one hand)."
WIN_RATE = "Hands won in (once each, however many wins) among hands. "


class StatsPlayerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    group = GroupRefSerializer()


class PlayerTotalsSerializer(serializers.Serializer[Any]):
    nights = serializers.IntegerField(help_text="Nights with at least one counted hand.")
    hands = serializers.IntegerField(help_text="Counted hands (current revision, not voided).")
    wins = serializers.IntegerField(help_text=WINS)
    self_draws = serializers.IntegerField()
    deal_in_hands = serializers.IntegerField(help_text="Hands in which the player dealt in (一炮多响: once).")
    win_rate = rate(WIN_RATE)
    self_draw_rate = rate()
    deal_in_rate = rate()
    hands_net = amount()
    fees = amount("Fee shares (台费) of those nights, as a decimal string.")
    adjustments = amount("What penalties and adjustments (罚分/调整) of those nights brought, as a decimal string.")
    net = amount("hands_net plus adjustments minus fees, as a decimal string.")


class NightPointSerializer(serializers.Serializer[Any]):
    night = serializers.IntegerField(source="night_id")
    date = serializers.DateField()
    title = serializers.CharField()
    hands = serializers.IntegerField()
    fee = serializers.CharField(help_text="The player's fee share of the night (0 until the night closes).")
    net = amount()
    cumulative = serializers.CharField(help_text="The player's net after this night, all earlier nights included.")


class BigHandSerializer(serializers.Serializer[Any]):
    night = serializers.IntegerField(source="night_id")
    night_title = serializers.CharField()
    night_date = serializers.DateField()
    number = serializers.IntegerField(help_text="The hand's number in its night.")
    pattern = serializers.CharField(help_text="The pattern's code (HAND_FORMAT.md).")
    pattern_name = serializers.CharField(help_text="The pattern's name in the request's language.")
    fan = serializers.IntegerField()
    won_amount = amount("What the win itself brought, as a decimal string.")
    self_drawn = serializers.BooleanField()


class PatternCountSerializer(serializers.Serializer[Any]):
    pattern = serializers.CharField()
    pattern_name = serializers.CharField()
    wins = serializers.IntegerField()


class PlayerStatsSerializer(serializers.Serializer[Any]):
    player = StatsPlayerSerializer()
    totals = PlayerTotalsSerializer()
    nights = NightPointSerializer(many=True, help_text="Oldest first: the latest nights (at most 200).")
    nights_truncated = serializers.BooleanField(help_text="True when older nights are left out of `nights`.")
    biggest_hands = BigHandSerializer(many=True)
    favourite_patterns = PatternCountSerializer(many=True)


class StandingSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    net = amount("Hands' nets minus fee shares over the range, as a decimal string.")
    fees = serializers.CharField()
    nights = serializers.IntegerField()
    hands = serializers.IntegerField()
    wins = serializers.IntegerField(help_text=WINS)
    win_rate = rate(WIN_RATE)


class LeaderboardSerializer(serializers.Serializer[Any]):
    group = GroupRefSerializer()
    date_from = serializers.DateField(allow_null=True, help_text="The first date counted; null: no bound.")
    date_to = serializers.DateField(allow_null=True, help_text="The last date counted; null: no bound.")
    standings = StandingSerializer(many=True, help_text="Every active player of the group, best net first.")
