"""The page language follows the account: kept a year on the phone (LANGUAGE_COOKIE_AGE) and with a signed-in user's account."""
from __future__ import annotations

from typing import Any, Callable

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils.translation import check_for_language
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from ledger.models import AccountLanguage


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switch, which also keeps the choice with a signed-in user's account."""
    response = django_set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and check_for_language(language) and language in dict(settings.LANGUAGES):
        AccountLanguage.objects.update_or_create(user=request.user, defaults={"language": language})
    return response


@receiver(user_logged_in)
def _language_of_the_account(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """On sign-in, bring back the language the account chose (on another phone, or before the cookie went)."""
    if request is None:
        return
    choice = AccountLanguage.objects.filter(user=user).values_list("language", flat=True).first()
    if choice:
        request.account_language = choice  # type: ignore[attr-defined]


class AccountLanguageMiddleware:
    """Set the language cookie a sign-in brought back from the account (the next page is then in that language)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        language = getattr(request, "account_language", None)
        if language:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE, httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE)
        return response
