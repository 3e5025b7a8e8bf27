"""The signed-in user of a request that required one (pages with login_required, API views with IsAuthenticated)."""
from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from rest_framework.request import Request


def signed_in(request: HttpRequest | Request) -> User:
    """Return the request's user, typed as a real account; anonymous callers never get this far."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied
    return user
