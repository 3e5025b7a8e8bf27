"""Forms of the group pages: a group's name, a player's name, a merge, the default house rules."""
from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring import PRESETS
from scoring.rules import OPTIONS

from ..forms import FeeFields, PRESET_LABELS, RULE_FIELDS, rule_field, rule_values
from ..models import Night


class GroupForm(forms.Form):
    name = forms.CharField(label=_("圈子名称"), max_length=60)


class PlayerNameForm(forms.Form):
    name = forms.CharField(label=_("名字"), max_length=40)


class DefaultsForm(FeeFields):
    """A group's default house rules: the night form's stake and rule fields, prefilled from the group."""

    preset = forms.ChoiceField(label=_("规则预设"), choices=[(k, PRESET_LABELS[k]) for k in PRESETS])
    base = forms.DecimalField(label=_("底金"), max_digits=12, decimal_places=2, min_value=0.01)
    stake = forms.ChoiceField(label=_("计分方式"), choices=Night.Stake.choices)
    currency = forms.CharField(label=_("币种"), max_length=8, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, option in OPTIONS.items():
            self.fields[f"rule_{name}"] = rule_field(option)

    def rule_values(self) -> dict[str, Any]:
        return rule_values(self.cleaned_data)

    def rule_fields(self) -> list[forms.BoundField]:
        return [self[f"rule_{name}"] for name in RULE_FIELDS]
