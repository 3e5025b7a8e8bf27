"""Input and output serializers of the API: one per input and one per output.

Inputs are strict: an unknown field is an error (a typo must not be silently ignored), every text
is bounded and checked before the database, names refuse control and invisible characters, and
usernames must exist.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring import PRESETS, Problem, format_amount, normalise_language, parse_fee

from ledger import bounds
from ledger.models import Adjustment, AuditEntry, Hand, Night, Player
from ledger.presenters.nights import describe_hand


if TYPE_CHECKING:  # the stubs make DRF's classes generic; at run time they cannot be subscripted
    Serializer = serializers.Serializer[Any]
    ModelSerializer = serializers.ModelSerializer[Any]
    Field = serializers.Field[Any, Any, Any, Any]
else:
    Serializer, ModelSerializer, Field = serializers.Serializer, serializers.ModelSerializer, serializers.Field


class StrictSerializer(Serializer):
    """A serializer that refuses fields it does not know."""

    def to_internal_value(self, data: Any) -> Any:
        unknown = sorted(set(data) - set(self.fields)) if isinstance(data, dict) else []
        language = normalise_language(get_language())
        frozen = getattr(self, "frozen_fields", ())  # what the night fixes is named as such, not as a typo
        errors = {name: [Problem(name, "frozen_with_night" if name in frozen else "unknown_field",
                                 {"name": name}).message(language)] for name in unknown}
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            raise serializers.ValidationError({**exc.detail, **errors}) from exc  # type: ignore[dict-item]
        if errors:
            raise serializers.ValidationError(errors)
        return value


class StrictCharField(serializers.CharField):
    """Text only: a number is not silently turned into text (the schema says string)."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer only (not "3", 3.0 or true)."""

    def to_internal_value(self, data: Any) -> int:
        if not isinstance(data, int) or isinstance(data, bool):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """true or false only (not "yes" or 1)."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


@extend_schema_field({"oneOf": [{"type": "string", "pattern": r"^\d{1,6}(\.\d{1,2})?$"}, {"type": "integer", "minimum": 1, "maximum": 100000}],
                      "description": "A decimal string or an integer, 0.01 to 100000 (a JSON float is refused)."})
class BaseField(serializers.DecimalField):
    """A night's stake: exact (string or integer, never a float), within ledger.bounds."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_digits=8, decimal_places=2, min_value=bounds.MIN_BASE, max_value=bounds.MAX_BASE,
                         **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, bool) or not isinstance(data, (str, int)):
            self.fail("invalid")
        return super().to_internal_value(data)


class NameField(StrictCharField):
    """A display name: trimmed, at most 40 characters, no control or invisible characters."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=40, trim_whitespace=True, **kwargs)

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        try:
            return bounds.clean_name(value)
        except DjangoValidationError as exc:
            raise serializers.ValidationError([m for ms in exc.message_dict.values() for m in ms]) from exc


class TextField(StrictCharField):
    """A one-line text (title, venue, reason): bounded, none of the characters names refuse (bounds.invisible)."""

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        if bounds.invisible(value):
            raise serializers.ValidationError(_("不能含有控制字符或不可见字符"))
        return value


class UsernamesField(serializers.ListField):
    """Usernames of existing accounts (at most bounds.MAX_USERNAMES, counted as sent); an unknown one is an error."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=StrictCharField(max_length=150), max_length=bounds.MAX_USERNAMES, required=False,
                         **kwargs)

    def to_internal_value(self, data: Any) -> list[Any]:
        if isinstance(data, list) and len(data) > bounds.MAX_USERNAMES:  # before duplicates are dropped below
            self.fail("max_length", max_length=bounds.MAX_USERNAMES)
        names = super().to_internal_value(data)
        users = {u.username: u for u in get_user_model().objects.filter(username__in=names)}
        unknown = [n for n in names if n not in users]
        if unknown:
            raise serializers.ValidationError(_("没有这些用户：%(names)s") % {"names": ", ".join(unknown)})
        return [users[n] for n in dict.fromkeys(names)]


# ---- inputs -------------------------------------------------------------------------------------------

class PlayerInputSerializer(StrictSerializer):
    name = NameField()
    group = StrictIntegerField(min_value=1, required=False, help_text="The group (default: the caller's own).")


class NightInputSerializer(StrictSerializer):
    title = TextField(max_length=80)
    date = serializers.DateField()
    venue = TextField(max_length=80, required=False, allow_blank=True, default="")
    base = BaseField()
    stake = serializers.ChoiceField(choices=Night.Stake.choices, default=Night.Stake.MONEY)
    currency = TextField(max_length=8, required=False, allow_blank=True, default="CNY")
    preset = serializers.ChoiceField(choices=list(PRESETS), default="chengdu")
    rules = serializers.DictField(required=False, default=dict, help_text="Rule options overriding the preset.")
    players = serializers.ListField(child=NameField(), min_length=2, max_length=4, help_text=(
        "The seats in play order: as many as the rules' `players` (4, 3 or 2; RULES.md §9)."))
    group = StrictIntegerField(min_value=1, required=False,
                               help_text="The group whose players sit at the table (default: the caller's own).")
    first_dealer = StrictIntegerField(min_value=0, max_value=3, default=0)
    evening = StrictIntegerField(min_value=1, required=False,
                                 help_text="The evening this night is a table of (its group is then the night's).")
    table_no = StrictIntegerField(min_value=1, max_value=99, required=False,
                                  help_text="The table number in the evening (default: the next free one).")
    fee = serializers.JSONField(required=False, default=None, help_text=(
        'The table fee (台费), frozen with the night: {"mode": "none"}, {"mode": "per_player", "amount": "5"}, '
        '{"mode": "winners", "amount": "30"} or {"mode": "per_win", "amount": "1", "wins": "all"|"self_draw"}.'))
    members = UsernamesField(default=list)
    scorekeepers = UsernamesField(default=list)

    def validate_rules(self, value: dict[str, Any]) -> dict[str, Any]:
        if len(value) > 40:
            raise serializers.ValidationError(_("规则选项太多"))
        return value


class HandEntrySerializer(StrictSerializer):
    """What the table enters for a hand (HAND_FORMAT.md); base, rules and the dealer come from the night.

    The engine checks the record itself; this bounds its size: at most ``bounds.MAX_EVENTS`` events.
    """

    #: The night's own (its rules, so its table shape: RULES.md §9), as services.FROZEN_FIELDS.
    frozen_fields = ("rules", "players", "mode", "suits")

    events = serializers.ListField(child=serializers.DictField(), required=False, max_length=bounds.MAX_EVENTS)
    exhausted = StrictBooleanField(required=False)
    ready = serializers.DictField(required=False)
    hua_zhu = serializers.ListField(child=StrictIntegerField(min_value=0, max_value=3), required=False,
                                    max_length=4)
    dealer = StrictIntegerField(required=False, min_value=0, max_value=3)


class PreviewInputSerializer(HandEntrySerializer):
    reason = TextField(max_length=200, required=False, allow_blank=True, help_text="Ignored (sent while correcting).")


class HandCorrectInputSerializer(HandEntrySerializer):
    reason = TextField(max_length=200)


class ReasonSerializer(StrictSerializer):
    reason = TextField(max_length=200)


@extend_schema_field({"oneOf": [{"type": "string", "pattern": r"^\d{1,6}(\.\d{1,2})?$"},
                                {"type": "integer", "minimum": 1, "maximum": 100000}],
                      "description": "A decimal string or an integer, more than 0, at most 2 decimals, up to 100000 "
                                     "(a JSON float is refused)."})
class AmountField(Field):
    """Money as entered: a decimal string or an integer, never a float (checked by ledger.services.adjustments)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, bool) or not isinstance(data, (str, int)):
            raise serializers.ValidationError(_("金额应是一个数，如 5 或 2.5（用字符串）"))
        return data

    def to_representation(self, value: Any) -> Any:
        return value


class AdjustmentInputSerializer(StrictSerializer):
    """A penalty or adjustment (罚分/调整): {"kind": "zha_hu", "player": S, "fan": F} (S pays every other seat
    base x 2^F; F defaults to the night's cap, or 4) or {"kind": "transfer", "from": S, "to": T, "amount": "5",
    "reason": "迟到"}. Seats, amounts and reasons are checked by ledger.services.adjustments (errors name the field)."""

    kind = serializers.ChoiceField(choices=["zha_hu", "transfer"])
    player = StrictIntegerField(required=False, help_text="诈胡: the seat (0-3) that pays every other seat.")
    fan = StrictIntegerField(required=False, allow_null=True,
                             help_text="诈胡: 0-20; default the night's cap (max_fan), or 4 without one.")
    amount = AmountField(required=False, help_text="A transfer's amount.")
    reason = TextField(max_length=200, required=False, allow_blank=True,
                       help_text="Why (required for a transfer, e.g. 迟到).")

    def get_fields(self) -> dict[str, Field]:
        fields = super().get_fields()
        # "from" is a Python keyword
        fields["from"] = StrictIntegerField(required=False, help_text="A transfer's payer seat (0-3).")
        fields["to"] = StrictIntegerField(required=False, help_text="A transfer's payee seat (0-3).")
        return fields


class AdjustmentCorrectInputSerializer(StrictSerializer):
    reason = TextField(max_length=200, help_text="Why it is corrected.")
    adjustment = AdjustmentInputSerializer(help_text="The adjustment as it should be (as when recording one).")


class EmptyInputSerializer(StrictSerializer):
    """No fields."""


def entry_of(validated: dict[str, Any]) -> tuple[dict[str, Any], int | None]:
    """The hand entry as given (only the fields sent) and the dealer, if one was sent."""
    entry = {k: v for k, v in validated.items() if k in ("events", "exhausted", "ready", "hua_zhu")}
    return entry, validated.get("dealer")


# ---- outputs ------------------------------------------------------------------------------------------

class ErrorSerializer(Serializer):
    path = serializers.CharField(help_text="Where the problem is, e.g. 'events[0].winners[1].tiles'; '' for the whole.")
    message = serializers.CharField(help_text="In the request's language (Accept-Language).")
    code = serializers.CharField(required=False, help_text="The problem's code, in a night's preview only (e.g. "
                                 "'hand_wrong_count': a hand still being typed).")


class ErrorsSerializer(Serializer):
    """The errors document of HAND_FORMAT.md."""

    errors = ErrorSerializer(many=True)  # type: ignore[assignment]  # a field named as the document's key


class GroupRefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class PlayerSerializer(ModelSerializer):
    group = GroupRefSerializer()

    class Meta:
        model = Player
        fields = ["id", "name", "group"]


class NightSerializer(ModelSerializer):
    owner = serializers.CharField(source="owner.username")
    seats = serializers.SerializerMethodField()
    base = serializers.SerializerMethodField()
    fee = serializers.SerializerMethodField()

    class Meta:
        model = Night
        fields = ["id", "group", "evening", "table_no", "title", "date", "venue", "base", "stake", "currency",
                  "preset", "rules", "fee", "first_dealer", "owner", "seats", "is_closed", "closed_at"]

    @extend_schema_field({"type": "object", "description": "The table fee (台费) as frozen: mode, amount, wins."})
    def get_fee(self, night: Night) -> dict[str, str]:
        return parse_fee(night.fee or None).as_dict()

    def get_seats(self, night: Night) -> list[str]:
        return [s.player.name for s in night.seating.all()]

    def get_base(self, night: Night) -> str:
        return format(night.base.normalize(), "f")


class ConfirmationSerializer(Serializer):
    """A player's sign-off (签字确认) of the closed night."""

    player = serializers.CharField(help_text="The player's name.")
    seat = serializers.IntegerField(allow_null=True, help_text="Their seat (null: substituted out before the end).")
    account = serializers.CharField(help_text="The account that confirmed (it claimed the name).")
    at = serializers.CharField(help_text="When (ISO 8601).")


class NightDetailSerializer(NightSerializer):
    """A night with its next dealer and its sign-offs, given in the context (``next_dealer``, ``confirmations``:
    read by the view, not stored on the night)."""

    next_dealer = serializers.SerializerMethodField()
    confirmations = serializers.SerializerMethodField(help_text="Who has confirmed the closed night (签字确认).")

    @extend_schema_field(serializers.IntegerField())
    def get_next_dealer(self, night: Night) -> int:
        return int(self.context["next_dealer"])

    @extend_schema_field(ConfirmationSerializer(many=True))
    def get_confirmations(self, night: Night) -> Any:
        return ConfirmationSerializer(self.context["confirmations"], many=True).data

    class Meta(NightSerializer.Meta):
        fields = NightSerializer.Meta.fields + ["next_dealer", "confirmations"]


class HandSerializer(Serializer):
    """A hand with its current revision (the instance is ``hand_data(hand)``)."""

    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Hand.Status.choices)
    void_reason = serializers.CharField(allow_blank=True)
    version = serializers.IntegerField()
    dealer = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField(), help_text="Names as recorded with the revision.")
    record = serializers.JSONField(help_text="The hand record (HAND_FORMAT.md) with base, rules and dealer.")
    result = serializers.JSONField(help_text="The output document of the scoring engine.")
    lines = serializers.ListField(child=serializers.CharField())
    recorded_by = serializers.CharField()
    recorded_at = serializers.CharField()


def hand_data(hand: Hand) -> dict[str, Any]:
    """The API's view of a hand with its current revision."""
    revision = hand.current_list[0] if hasattr(hand, "current_list") else hand.current
    return {
        "number": hand.number,
        "status": hand.status,
        "void_reason": hand.void_reason,
        "version": revision.version,
        "dealer": revision.dealer,
        "players": revision.names,
        "record": revision.record,
        "result": revision.result,
        "lines": describe_hand(revision),
        "recorded_by": hand.recorded_by.username,
        "recorded_at": hand.recorded_at.isoformat(),
    }


class AdjustmentSerializer(Serializer):
    """A penalty or adjustment (罚分/调整) as it stands (the instance is ``adjustment_data(adjustment)``)."""

    number = serializers.IntegerField(help_text="Its number among the night's adjustments (1, 2, 3…).")
    after_hand = serializers.IntegerField(help_text="The last hand's number when it was made (0: before any).")
    kind = serializers.ChoiceField(choices=["zha_hu", "transfer"])
    status = serializers.ChoiceField(choices=Hand.Status.choices)
    void_reason = serializers.CharField(allow_blank=True)
    version = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField(), help_text="Names by seat as recorded.")
    payer = serializers.IntegerField(help_text="The seat that pays.")
    payee = serializers.IntegerField(allow_null=True, help_text="A transfer's payee seat; null for 诈胡 (all others).")
    fan = serializers.IntegerField(allow_null=True)
    amount = serializers.CharField(help_text="What each receiving seat gets (exact decimal).")
    reason = serializers.CharField(allow_blank=True, help_text="A transfer's reason.")
    net = serializers.ListField(child=serializers.CharField(), help_text="Each seat's net (exact decimals).")
    line = serializers.CharField(help_text="In words, in the request's language.")
    recorded_by = serializers.CharField()
    recorded_at = serializers.CharField()


def adjustment_data(adjustment: Adjustment) -> dict[str, Any]:
    """The API's view of an adjustment."""
    from ledger.services.adjustments import adjustment_nets_of
    from ledger.presenters.nights import describe_adjustment
    return {
        "number": adjustment.number, "after_hand": adjustment.after_hand, "kind": adjustment.kind,
        "status": adjustment.status, "void_reason": adjustment.void_reason, "version": adjustment.version,
        "players": list(adjustment.player_names), "payer": adjustment.payer_seat, "payee": adjustment.payee_seat,
        "fan": adjustment.fan, "amount": format_amount(adjustment.amount), "reason": adjustment.note,
        "net": [format_amount(n) for n in adjustment_nets_of(adjustment)],
        "line": describe_adjustment(adjustment),
        "recorded_by": adjustment.recorded_by.username, "recorded_at": adjustment.recorded_at.isoformat(),
    }


class TotalSerializer(Serializer):
    player = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    amount = serializers.CharField(help_text="The player's net after their share of the table fee.")
    fee = serializers.CharField(help_text="The player's share of the table fee (0 without one).")


class TableFeeSerializer(Serializer):
    """The table fee (台费) line: player nets plus `amount` sum to zero."""

    rule = serializers.JSONField(help_text="The fee as frozen with the night (mode, amount, wins).")
    amount = serializers.CharField(help_text="What the fee collects over the night's counted hands.")


class TotalsSerializer(Serializer):
    totals = TotalSerializer(many=True)
    table_fee = TableFeeSerializer()
    next_dealer = serializers.IntegerField()


class TransferSerializer(Serializer):
    to = serializers.CharField(help_text="A player's name, or the table fee's (台费) when `fee` is true.")
    amount = serializers.CharField()
    fee = serializers.BooleanField(help_text="True when the payee is the table fee (台费), not a player.")

    def get_fields(self) -> dict[str, Field]:
        fields = super().get_fields()
        fields["from"] = serializers.CharField()  # "from" is a Python keyword
        return {"from": fields.pop("from"), **fields}


class SettlementSerializer(Serializer):
    transfers = TransferSerializer(many=True)
    method = serializers.ChoiceField(choices=["exact", "greedy"], help_text=(
        "exact: the fewest transfers possible (proven); greedy: many players, the largest debtor pays the largest "
        "creditor (see lower_bound)."))
    lower_bound = serializers.IntegerField(help_text="The fewest transfers any settlement can have.")
    table_fee = serializers.CharField(help_text="What the table fee (台费) collects (0 without one).")


class AuditEntrySerializer(ModelSerializer):
    actor = serializers.CharField(source="actor.username")
    hand = serializers.IntegerField(source="hand.number", allow_null=True, default=None)
    adjustment = serializers.IntegerField(source="adjustment.number", allow_null=True, default=None,
                                          help_text="The adjustment's number (罚分/调整), if the entry is about one.")

    class Meta:
        model = AuditEntry
        fields = ["id", "at", "actor", "action", "hand", "adjustment", "reason", "before", "after"]
