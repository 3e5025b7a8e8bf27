"""API throttles (issues 9, 16): the anonymous calculator per address, writes per user.

Rates come from settings.LEDGER_THROTTLE_RATES (read on each request, so tests and deployments can
change them). DRF's own throttles keep a list of times in the cache, read and written back by each
request, so parallel requests all read the same list and all pass; these count in fixed windows (a
rate of "1200/min": at most 1,200 requests in each clock minute) with the shared counters
(ledger/web/counters.py), each request one atomic increment.
"""
from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from ledger.web import counters


class _CountedRate(SimpleRateThrottle):
    scope = ""

    def get_rate(self) -> str | None:
        return settings.LEDGER_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        limit, seconds = self.parse_rate(self.rate)
        assert limit is not None and seconds is not None  # a rate was given
        self.now = self.timer()
        window = int(self.now) // seconds
        self.window_end = float((window + 1) * seconds)
        return counters.hit(f"{key}:{window}", seconds) <= limit

    def wait(self) -> float | None:
        """Seconds until the window ends (Retry-After)."""
        return max(self.window_end - self.now, 1.0)


class CalculatorThrottle(_CountedRate, AnonRateThrottle):
    """The calculator, analysis and preview: per client address (signed in or not)."""

    scope = "calculator"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class WriteThrottle(_CountedRate, UserRateThrottle):
    """Recording, correcting, voiding, closing, creating: per user."""

    scope = "write"
