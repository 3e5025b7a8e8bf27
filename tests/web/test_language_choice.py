"""The page language chosen with the header's switch lasts a year on the phone and follows a signed-in account."""
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from ledger.models import AccountLanguage


@pytest.fixture
def user(db):
    return get_user_model().objects.create_user("xiaoming", password="pw-xiaoming-2026")


def test_the_language_cookie_is_kept_for_a_year(db):
    response = Client().post("/i18n/setlang/", {"language": "en", "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME]["max-age"] == 365 * 24 * 60 * 60


def test_a_signed_in_users_choice_follows_the_account_to_another_phone(user):
    phone = Client()
    phone.force_login(user)
    phone.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert AccountLanguage.objects.get(user=user).language == "en"

    other_phone = Client()  # no language cookie: Chinese until the account signs in
    assert '<html lang="zh-hans">' in other_phone.get("/rules/").content.decode()
    response = other_phone.post("/login/", {"username": "xiaoming", "password": "pw-xiaoming-2026"})
    assert response.status_code == 302 and response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert '<html lang="en">' in other_phone.get("/rules/").content.decode()


def test_an_anonymous_choice_is_not_stored_and_an_unknown_language_changes_nothing(user):
    Client().post("/i18n/setlang/", {"language": "en"})
    phone = Client()
    phone.force_login(user)
    phone.post("/i18n/setlang/", {"language": "xx"})
    assert not AccountLanguage.objects.exists()
