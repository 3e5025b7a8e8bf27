"""Sign-in (issue 9, hole 5): failed attempts throttled per user and per address; Django's password validators."""
import pytest
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.test import Client


@pytest.fixture
def alice(db):
    return get_user_model().objects.create_user("alice", password="correct horse battery")


def sign_in(username, password, address="10.0.0.1"):
    client = Client(REMOTE_ADDR=address)
    response = client.post("/login/", {"username": username, "password": password})
    return response, client


def test_the_right_password_signs_in(alice):
    response, _client = sign_in("alice", "correct horse battery")
    assert response.status_code == 302


def test_a_hundred_wrong_passwords_then_the_right_one_does_not_sign_in(alice):
    for _ in range(100):
        sign_in("alice", "wrong")
    response, client = sign_in("alice", "correct horse battery")
    assert response.status_code == 200 and "_auth_user_id" not in client.session
    assert "15" in response.content.decode()  # "try again in 15 minutes"


def test_five_failures_lock_the_username_from_every_address(alice):
    for i in range(5):
        sign_in("alice", "wrong", address=f"10.0.1.{i}")
    response, client = sign_in("alice", "correct horse battery", address="10.0.2.1")
    assert response.status_code == 200 and "_auth_user_id" not in client.session


def test_four_failures_do_not_lock_and_a_success_clears_them(alice):
    for _ in range(4):
        sign_in("alice", "wrong")
    assert sign_in("alice", "correct horse battery")[0].status_code == 302
    for _ in range(4):
        sign_in("alice", "wrong")
    assert sign_in("alice", "correct horse battery")[0].status_code == 302


def test_twenty_failures_from_an_address_lock_it_for_every_username(alice):
    for i in range(20):
        sign_in(f"user{i}", "wrong", address="10.9.9.9")
    assert sign_in("alice", "correct horse battery", address="10.9.9.9")[0].status_code == 200
    assert sign_in("alice", "correct horse battery", address="10.9.9.8")[0].status_code == 302


def test_the_lock_applies_to_every_sign_in_path(alice, rf):
    for _ in range(5):
        sign_in("alice", "wrong")
    assert authenticate(rf.post("/"), username="alice", password="correct horse battery") is None
    admin = Client().post("/admin/login/", {"username": "alice", "password": "correct horse battery"})
    assert admin.status_code == 200


def test_the_lock_expires(alice, settings):
    from ledger.web import counters
    for _ in range(5):
        sign_in("alice", "wrong")
    counters.reset_all()  # what LOGIN_LOCKOUT_SECONDS without failures does
    assert sign_in("alice", "correct horse battery")[0].status_code == 302


@pytest.mark.parametrize("password", ["demo", "12345678", "password123", "alice2026"])
def test_weak_passwords_are_refused_by_django_validators(alice, password):
    with pytest.raises(ValidationError):
        validate_password(password, user=alice)


def test_a_long_unusual_password_passes(alice):
    validate_password("麻将 blue kettle 97", user=alice)
