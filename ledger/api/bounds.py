"""Bounds on the anonymous calculator's input (issue 9), checked before the engine runs.

ENGINE's ``scoring.parse_base`` will be the one check of a stake (exact decimal context, no overflow);
until it lands on main, ``/api/score/`` refuses here a base beyond ``MAX_BASE_DIGITS`` significant
digits or outside 10^-6..10^12 (``"1e999999"`` overflowed, ``"1e-999999"`` made a 7 MB answer) and a
record with more than ``bounds.MAX_EVENTS`` events.  Valid inputs are answered exactly as before.
"""
from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError

from scoring import Problem, ScoringError

from .. import bounds

MAX_BASE_DIGITS = 15
MIN_BASE_EXPONENT = -6
MAX_BASE_EXPONENT = 12


def check_calculator_input(body: Any) -> None:
    if not isinstance(body, dict):
        return  # the engine says what is wrong
    base = body.get("base")
    if isinstance(base, (str, int)) and not isinstance(base, bool):
        try:
            value = Decimal(base.strip() if isinstance(base, str) else base)
        except (InvalidOperation, ValueError):
            value = None
        if value is not None and value.is_finite() and value > 0:
            digits = len(value.normalize().as_tuple().digits)
            if digits > MAX_BASE_DIGITS or not MIN_BASE_EXPONENT <= value.adjusted() <= MAX_BASE_EXPONENT:
                raise ScoringError([Problem("base", "bad_base")])
    events = body.get("events")
    if isinstance(events, list) and len(events) > bounds.MAX_EVENTS:
        raise ValidationError({"events": [_("一局最多 %(n)d 个事件") % {"n": bounds.MAX_EVENTS}]})
