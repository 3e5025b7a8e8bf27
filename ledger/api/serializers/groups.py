"""Input and output serializers of the groups API: strict inputs (unknown fields refused), one per operation."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring import PRESETS

from ledger.api.serializers.nights import (BaseField, NameField, StrictBooleanField, StrictCharField, StrictIntegerField,
                                          StrictSerializer, TextField)
from ledger.models import Night
from ledger.models import Group, GroupMember

# ---- inputs -------------------------------------------------------------------------------------------


class GroupInputSerializer(StrictSerializer):
    name = TextField(max_length=60)


class DefaultsInputSerializer(StrictSerializer):
    """Default house rules of a group; a field left out keeps its current value."""

    preset = serializers.ChoiceField(choices=list(PRESETS), required=False)
    rules = serializers.DictField(required=False, help_text="Rule options overriding the preset (RULES.md §8).")
    base = BaseField(required=False)
    stake = serializers.ChoiceField(choices=Night.Stake.choices, required=False)
    currency = TextField(max_length=8, required=False, allow_blank=True)
    fee = serializers.DictField(required=False, help_text="The table fee a new night starts from: "
                                "{\"mode\": \"none\"|\"per_player\"|\"winners\"|\"per_win\", \"amount\", \"wins\"}.")

    def validate_rules(self, value: dict[str, Any]) -> dict[str, Any]:
        if len(value) > 40:
            raise serializers.ValidationError(_("规则选项太多"))
        return value


class GroupPatchSerializer(StrictSerializer):
    name = TextField(max_length=60, required=False, help_text="Owners only.")
    defaults = DefaultsInputSerializer(required=False, help_text="Owners and scorekeepers.")


class RoleInputSerializer(StrictSerializer):
    role = serializers.ChoiceField(choices=GroupMember.Role.choices)


class JoinInputSerializer(StrictSerializer):
    token = StrictCharField(max_length=64, help_text="The token of the group's invite link.")


class PlayerNameInputSerializer(StrictSerializer):
    name = NameField()


class MergeInputSerializer(StrictSerializer):
    into = StrictIntegerField(min_value=1, help_text="The player (same group) every hand of this one goes to.")
    same_person = StrictBooleanField(
        required=False, default=False,
        help_text="The two names played at two tables of one evening, and they are one person who changed tables: "
                  "without it such a merge is refused (400, at same_person), since two friends side by side are two.")


# ---- outputs ------------------------------------------------------------------------------------------


class DefaultsSerializer(serializers.Serializer[Any]):
    preset = serializers.CharField()
    rules = serializers.DictField(help_text="Overrides of the preset only.")
    base = serializers.CharField()
    stake = serializers.CharField()
    currency = serializers.CharField(allow_blank=True)


class GroupSerializer(serializers.ModelSerializer[Group]):
    role = serializers.ChoiceField(source="my_role", choices=GroupMember.Role.choices,
                                   help_text="The caller's role in the group.")
    defaults = serializers.SerializerMethodField()

    class Meta:
        model = Group
        fields = ["id", "name", "role", "defaults", "created_at"]

    @extend_schema_field(DefaultsSerializer)
    def get_defaults(self, group: Group) -> dict[str, Any]:
        from ledger.services.groups import group_night_defaults
        values = group_night_defaults(group)
        return DefaultsSerializer({"preset": values["preset"], "rules": values["rule_overrides"],
                                   "base": format(values["base"].normalize(), "f"), "stake": values["stake"],
                                   "currency": values["currency"]}).data


class InviteSerializer(serializers.Serializer[Any]):
    on = serializers.BooleanField(help_text="Whether the invite link works now.")
    url = serializers.CharField(allow_null=True, help_text="The invite address (what the QR code holds), or null.")


class UserRefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField()


class MemberSerializer(serializers.ModelSerializer[GroupMember]):
    user = UserRefSerializer()
    player = serializers.CharField(source="player_name", allow_null=True,
                                   help_text="The group's player name this member claimed, if any.")

    class Meta:
        model = GroupMember
        fields = ["user", "role", "joined_at", "player"]
