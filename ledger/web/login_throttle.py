"""Failed sign-ins throttled per username and per address, with the shared counters (issues 9, 16).

Why not django-axes: it needs a request in every ``authenticate()`` call (``Client.login`` in tests and
other callers would break), its own middleware, tables and settings; the rule here is a few lines.

The rule: each failed sign-in (any path that calls ``authenticate()``: the sign-in page, the admin,
tokens) counts against its username and its client address.  After ``LOGIN_FAILURES_PER_USER`` (5)
failures for a username, or ``LOGIN_FAILURES_PER_ADDRESS`` (20) from an address, every attempt for
that username / from that address is refused — even with the right password — until
``LOGIN_LOCKOUT_SECONDS`` (15 minutes) pass without a new failure.  A successful sign-in clears its
username's count.  Counts live in the shared counters (ledger/web/counters.py: Redis or a database table, each
step atomic), and an attempt counts before its password is checked, so parallel attempts cannot pass the limit.
"""
from __future__ import annotations

import hashlib
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.signals import user_logged_in
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _

from ledger.web import counters


def _address(request: Any) -> str | None:
    return getattr(request, "META", {}).get("REMOTE_ADDR") if request is not None else None


def _keys(request: Any, username: str | None) -> list[tuple[str, int]]:
    keys = []
    if username:
        digest = hashlib.sha256(username.casefold().encode("utf-8", "replace")).hexdigest()[:32]
        keys.append((f"login-fail:user:{digest}", settings.LOGIN_FAILURES_PER_USER))
    address = _address(request)
    if address:
        keys.append((f"login-fail:addr:{address}", settings.LOGIN_FAILURES_PER_ADDRESS))
    return keys


def locked(request: Any, username: str | None) -> bool:
    """True if this username or this address has failed too often lately."""
    return any(counters.get(key) >= limit for key, limit in _keys(request, username))


@receiver(user_logged_in)
def clear_user_failures(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    for key, _limit in _keys(None, user.get_username()):
        counters.reset(key)


class ThrottledModelBackend(ModelBackend):
    """Django's ModelBackend that refuses every attempt while the username or address is locked out.

    Each attempt is counted as a failure before its password is checked (one atomic step of the shared counters,
    which answers the count), and taken back when it succeeds: of attempts made at the same moment only the first
    `limit` are checked, where counting after the check let them all through.
    """

    def authenticate(self, request: Any, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> Any:
        keys = _keys(request, username)
        over = [counters.hit(key, settings.LOGIN_LOCKOUT_SECONDS, sliding=True) > limit for key, limit in keys]
        if any(over):
            raise PermissionDenied("too many failed sign-ins")
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None:
            for key, _limit in keys:
                counters.take_back(key)
        return user


class ThrottledAuthenticationForm(AuthenticationForm):
    """The sign-in form, saying so when sign-in is locked out rather than 'wrong password'."""

    locked = False

    def clean(self) -> dict[str, Any]:
        if locked(self.request, self.cleaned_data.get("username")):
            self.locked = True
            raise forms.ValidationError(_("登录失败次数太多，请 15 分钟后再试"), code="locked")
        return super().clean()
