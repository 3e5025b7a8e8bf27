"""API throttles (issue 9): the anonymous calculator per address, writes per user.

Rates come from settings.LEDGER_THROTTLE_RATES (read on each request, so tests and deployments can
change them); the counts live in Django's cache, which is the database (shared by every worker).
"""
from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle


class _SettingsRate:
    scope = ""

    def get_rate(self) -> str | None:
        return settings.LEDGER_THROTTLE_RATES.get(self.scope)


class CalculatorThrottle(_SettingsRate, AnonRateThrottle):
    """The calculator, analysis and preview: per client address (signed in or not)."""

    scope = "calculator"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class WriteThrottle(_SettingsRate, UserRateThrottle):
    """Recording, correcting, voiding, closing, creating: per user."""

    scope = "write"
