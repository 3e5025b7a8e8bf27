"""Forms of the group pages: a group's name, a player's name, a merge, the default house rules."""
from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring import PRESETS

from ledger.forms.nights import PRESET_LABELS, FeeFields, RuleFields, base_field
from ledger.models import Night


class GroupForm(forms.Form):
    name = forms.CharField(label=_("圈子名称"), max_length=60)


class PlayerNameForm(forms.Form):
    name = forms.CharField(label=_("名字"), max_length=40)


class DefaultsForm(RuleFields, FeeFields):
    """A group's default house rules: the night form's stake and rule fields (forms.RuleFields), prefilled from the
    group."""

    preset = forms.ChoiceField(label=_("规则预设"), choices=[(k, PRESET_LABELS[k]) for k in PRESETS])
    base = base_field()
    stake = forms.ChoiceField(label=_("计分方式"), choices=Night.Stake.choices)
    currency = forms.CharField(label=_("币种"), max_length=8, required=False)
    # The preset whose values the rule fields show: the stored one, or the one night_form.js filled them from.
    rules_shown_for = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rules_shown_for"].initial = self.initial.get("preset")
