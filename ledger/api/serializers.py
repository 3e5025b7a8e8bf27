"""Small input and output serializers of the API, one per operation."""
from __future__ import annotations

from typing import Any

from rest_framework import serializers

from scoring import PRESETS

from ..models import AuditEntry, Hand, Night, Player
from ..presenters import describe_hand


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name"]


class NightInputSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=80)
    date = serializers.DateField()
    venue = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")
    base = serializers.DecimalField(max_digits=12, decimal_places=2, min_value=0)
    stake = serializers.ChoiceField(choices=Night.Stake.choices, default=Night.Stake.MONEY)
    currency = serializers.CharField(max_length=8, required=False, allow_blank=True, default="CNY")
    preset = serializers.ChoiceField(choices=list(PRESETS), default="chengdu")
    rules = serializers.DictField(required=False, default=dict)
    players = serializers.ListField(child=serializers.CharField(max_length=40), min_length=4, max_length=4)
    first_dealer = serializers.IntegerField(min_value=0, max_value=3, default=0)
    members = serializers.ListField(child=serializers.CharField(), required=False, default=list)
    scorekeepers = serializers.ListField(child=serializers.CharField(), required=False, default=list)


class NightSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username")
    seats = serializers.SerializerMethodField()
    base = serializers.SerializerMethodField()

    class Meta:
        model = Night
        fields = ["id", "title", "date", "venue", "base", "stake", "currency", "preset", "rules", "first_dealer",
                  "owner", "seats", "is_closed", "closed_at"]

    def get_seats(self, night: Night) -> list[str]:
        return [s.player.name for s in night.seating.all()]

    def get_base(self, night: Night) -> str:
        return format(night.base.normalize(), "f")


class HandEntrySerializer(serializers.Serializer):
    """What the table enters for a hand; base, rules and the dealer come from the night."""

    events = serializers.ListField(child=serializers.DictField(), required=False, default=list)
    exhausted = serializers.BooleanField(required=False, default=False)
    ready = serializers.DictField(required=False, default=dict)
    hua_zhu = serializers.ListField(required=False, default=list)
    dealer = serializers.IntegerField(required=False, min_value=0, max_value=3)


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=200)


def hand_data(hand: Hand) -> dict[str, Any]:
    """The API's view of a hand with its current revision."""
    revision = hand.current_list[0] if hasattr(hand, "current_list") else hand.current
    return {
        "number": hand.number,
        "status": hand.status,
        "void_reason": hand.void_reason,
        "version": revision.version,
        "dealer": revision.dealer,
        "players": [p.name for p in revision.players],
        "record": revision.record,
        "result": revision.result,
        "lines": describe_hand(revision),
        "recorded_by": hand.recorded_by.username,
        "recorded_at": hand.recorded_at.isoformat(),
    }


class AuditEntrySerializer(serializers.ModelSerializer):
    actor = serializers.CharField(source="actor.username")
    hand = serializers.IntegerField(source="hand.number", allow_null=True, default=None)

    class Meta:
        model = AuditEntry
        fields = ["id", "at", "actor", "action", "hand", "reason", "before", "after"]
