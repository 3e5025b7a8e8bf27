"""Rate limits of sign-up and token requests, counted by the shared counters (ledger/web/counters.py: every worker
process counts in one store, each attempt one atomic step, so parallel attempts cannot pass the limit).

The rule: a client address may make at most ``limit`` attempts of one kind per ``window`` seconds
(fixed windows; every attempt counts, successful or not). Behind a reverse proxy, REMOTE_ADDR must be
the client's address (set by the proxy setup), or all clients share one budget.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from django.http import HttpRequest

from ledger.web import counters


@dataclass(frozen=True)
class Rule:
    name: str
    limit: int
    window: int  # seconds


#: 10 sign-up attempts per address per hour: a table of four signs up at once, a script cannot farm accounts.
SIGN_UP = Rule("sign-up", 10, 3600)
#: 20 token requests (username + password) per address per 10 minutes.
TOKEN = Rule("token", 20, 600)


def client_address(request: HttpRequest) -> str:
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def allow(rule: Rule, request: HttpRequest) -> bool:
    """Count one attempt; return False when the address has used up its attempts in this window."""
    window = int(time.time()) // rule.window
    return counters.hit(f"ratelimit:{rule.name}:{client_address(request)}:{window}", rule.window) <= rule.limit
