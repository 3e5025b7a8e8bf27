"""A table's house rules as the ledger stores them: a preset with overrides, checked by the engine.

Nights (ledger.services) and a group's default rules (ledger.services.groups) both start here, so neither
service module needs the other for it.
"""
from __future__ import annotations

from typing import Any, Mapping

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from scoring import PRESETS, parse_rules


def night_rules(*, preset: str, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Return the full rule set of a preset with overrides, checked by the scoring engine."""
    if preset not in PRESETS:
        raise ValidationError({"preset": _("未知的规则预设")})
    return parse_rules({**PRESETS[preset], **(overrides or {})}).as_dict()
