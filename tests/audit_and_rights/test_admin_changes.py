"""What the admin can still change, it changes for real, and what it must not change it cannot.

Every form the admin offers a superuser is enumerated (a newly editable field fails the first test until it has a
check here); each editable field is changed through the admin's own view and what shows it is looked at. The ledger's
records (fees, group, evening, seating, money, rules, totals, names) and an account's username cannot be changed:
posting them changes nothing.
"""
import datetime as dt
from types import SimpleNamespace

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group as PermissionGroup
from django.contrib.auth.models import Permission
from django.forms import BooleanField, ModelMultipleChoiceField, MultiWidget
from django.forms.models import model_to_dict
from django.test import Client, RequestFactory
from rest_framework.authtoken.models import Token

from ledger.services import adjustments
from ledger.services import confirmations
from ledger.services import nights as services
from ledger.services import groups
from ledger.models import AuditEntry

from tests.conftest import api_client
from tests.hand_helpers import w, win

User = get_user_model()


@pytest.fixture
def c(owner, viewer, group, players, night):
    """A superuser's admin, the group's owner (with an API token and a session) and a played, adjusted, closed and
    confirmed night: a row of every ledger model."""
    recorded = api_client(owner).post(f"/api/nights/{night.pk}/hands/", {"events": [win(None, w(1))], "exhausted": True},
                                      format="json", HTTP_IDEMPOTENCY_KEY="admin-1")
    assert recorded.status_code == 201
    adjustments.adjustment_record(night=night, by=owner, data={"kind": "transfer", "from": 0, "to": 3, "amount": "5",
                                                               "reason": "迟到"})
    groups.group_link_renew(group=group, by=owner)
    groups.player_claim(player=players[0], user=owner)
    services.night_close(night=night, by=owner)
    confirmations.night_confirm(night=night, user=owner)
    root_user = User.objects.create_superuser("root", password="x")
    root = Client()
    root.force_login(root_user)
    me = Client()
    me.force_login(owner)
    return SimpleNamespace(root=root, root_user=root_user, owner=owner, viewer=viewer, group=group, night=night,
                           players=players, token=Token.objects.create(user=owner), me=me)


def superuser_request(user):
    request = RequestFactory().get("/admin/")
    request.user = user
    return request


def offered_forms(c):
    """(model, form kind) -> the names of the fields the admin lets a superuser send."""
    request = superuser_request(c.root_user)
    forms = {}
    for model, model_admin in admin.site._registry.items():
        label = model._meta.label
        if model_admin.has_add_permission(request):
            forms[(label, "add")] = model_admin.get_form(request, None, change=False)
        obj = model._default_manager.first()
        if obj is not None and model_admin.has_change_permission(request, obj):
            forms[(label, "change")] = model_admin.get_form(request, obj, change=True)
        if obj is not None and getattr(model_admin, "change_password_form", None):
            forms[(label, "password")] = model_admin.change_password_form
    out = {}
    for key, form in forms.items():
        readonly = set()
        if key[1] == "change":
            readonly = set(admin.site._registry[key_model(key)].get_readonly_fields(request, obj_of(key)))
        out[key] = {n for n, f in form.base_fields.items() if not f.disabled and n not in readonly}
    return out


def key_model(key):
    return next(m for m in admin.site._registry if m._meta.label == key[0])


def obj_of(key):
    return key_model(key)._default_manager.first()


def change_data(c, obj):
    """The admin change form of `obj` as the browser would send it back unchanged."""
    model_admin = admin.site._registry[type(obj)]
    request = superuser_request(c.root_user)
    form = model_admin.get_form(request, obj, change=True)(instance=obj)
    data = {}
    for name, field in form.fields.items():
        if field.disabled:
            continue
        value = form[name].value()
        if isinstance(field.widget, MultiWidget):
            for i, part in enumerate(field.widget.decompress(value)):
                data[f"{name}_{i}"] = "" if part is None else part.isoformat()
        elif isinstance(field, BooleanField):
            if value:
                data[name] = "on"
        elif isinstance(field, ModelMultipleChoiceField):
            data[name] = [str(getattr(v, "pk", v)) for v in value or []]
        else:
            data[name] = "" if value is None else str(value)
    return data


def change_user(c, user, **changes):
    data = {**change_data(c, user), **changes}
    data = {k: v for k, v in data.items() if v is not None}  # None: a checkbox left unticked
    response = c.root.post(f"/admin/auth/user/{user.pk}/change/", data)
    assert response.status_code == 302, response.context["adminform"].form.errors if response.context else response
    user.refresh_from_db()
    return user


def staff(user):
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return user


def night_admin_list(user):
    client = Client()
    client.force_login(user)
    return client.get("/admin/ledger/night/").status_code


def where_the_ledger_shows_accounts(c):
    """The group page, its members page, the night's members page and the API's group, night and members."""
    pages = [c.me.get(f"/groups/{c.group.pk}/"), c.me.get(f"/groups/{c.group.pk}/members/"),
             c.me.get(f"/nights/{c.night.pk}/members/")]
    api = api_client(c.owner)
    endpoints = [api.get(f"/api/groups/{c.group.pk}/"), api.get(f"/api/nights/{c.night.pk}/"),
                 api.get(f"/api/groups/{c.group.pk}/members/")]
    for response in pages + endpoints:
        assert response.status_code == 200, response.request["PATH_INFO"]
    return "".join(r.content.decode() for r in pages + endpoints)


def shown_nowhere(field, value):
    def check(c):
        change_user(c, c.owner, **{field: value})
        assert getattr(c.owner, field) == value
        assert value not in where_the_ledger_shows_accounts(c)  # nothing of the ledger shows (or caches) it
    return check


def a_time(field):
    def check(c):
        change_user(c, c.owner, **{f"{field}_0": "2026-01-02", f"{field}_1": "03:04:05"})
        assert getattr(c.owner, field).astimezone(dt.timezone(dt.timedelta(hours=8))).replace(tzinfo=None) \
            == dt.datetime(2026, 1, 2, 3, 4, 5)
    return check


def check_is_active(c):
    assert api_client().get("/api/groups/", HTTP_AUTHORIZATION=f"Token {c.token.key}").status_code == 200
    change_user(c, c.owner, is_active=None)
    assert not c.owner.is_active
    assert api_client().get("/api/groups/", HTTP_AUTHORIZATION=f"Token {c.token.key}").status_code == 401
    assert c.me.get(f"/groups/{c.group.pk}/").status_code == 302  # signed out: to the login page
    assert not Client().login(username="owner", password="pw-owner")


def check_is_staff(c):
    assert c.me.get("/admin/").status_code == 302
    change_user(c, c.owner, is_staff="on")
    assert c.me.get("/admin/").status_code == 200


def check_is_superuser(c):
    staff(c.owner)
    assert night_admin_list(c.owner) == 403
    change_user(c, c.owner, is_staff="on", is_superuser="on")
    assert night_admin_list(c.owner) == 200


def view_night():
    return Permission.objects.get(codename="view_night", content_type__app_label="ledger")


def check_groups(c):
    staff(c.owner)
    readers = PermissionGroup.objects.create(name="readers")
    readers.permissions.add(view_night())
    assert night_admin_list(c.owner) == 403
    change_user(c, c.owner, is_staff="on", groups=[str(readers.pk)])
    assert night_admin_list(c.owner) == 200


def check_user_permissions(c):
    staff(c.owner)
    assert night_admin_list(c.owner) == 403
    change_user(c, c.owner, is_staff="on", user_permissions=[str(view_night().pk)])
    assert night_admin_list(c.owner) == 200


def check_add_account(c):
    response = c.root.post("/admin/auth/user/add/", {"username": "newcomer", "usable_password": "true",
                                                     "password1": "a-long-pass-42", "password2": "a-long-pass-42"})
    assert response.status_code == 302
    client = Client()
    assert client.post("/login/", {"username": "newcomer", "password": "a-long-pass-42"}).status_code == 302
    assert client.get("/api/groups/").status_code == 200  # signed in


def check_password(c):
    response = c.root.post(f"/admin/auth/user/{c.owner.pk}/password/", {
        "usable_password": "true", "password1": "another-pass-42", "password2": "another-pass-42"})
    assert response.status_code == 302
    assert not Client().login(username="owner", password="pw-owner")
    assert Client().login(username="owner", password="another-pass-42")


def check_add_permission_group(c):
    response = c.root.post("/admin/auth/group/add/", {"name": "记分员们", "permissions": [str(view_night().pk)]})
    assert response.status_code == 302
    made = PermissionGroup.objects.get(name="记分员们")
    assert list(made.permissions.all()) == [view_night()]
    staff(c.owner).groups.add(made)
    assert night_admin_list(c.owner) == 200


def check_change_permission_group(c):
    readers = PermissionGroup.objects.create(name="readers")
    staff(c.owner).groups.add(readers)
    assert night_admin_list(c.owner) == 403
    response = c.root.post(f"/admin/auth/group/{readers.pk}/change/", {"name": "看牌局的",
                                                                       "permissions": [str(view_night().pk)]})
    assert response.status_code == 302
    assert PermissionGroup.objects.get(pk=readers.pk).name == "看牌局的"
    assert night_admin_list(c.owner) == 200


def check_add_token(c):
    response = c.root.post("/admin/authtoken/tokenproxy/add/", {"user": str(c.viewer.pk)})
    assert response.status_code == 302
    key = Token.objects.get(user=c.viewer).key
    answer = api_client().get(f"/api/nights/{c.night.pk}/", HTTP_AUTHORIZATION=f"Token {key}")
    assert answer.status_code == 200 and answer.json()["id"] == c.night.pk  # the viewer is a member of the night


#: (model, form kind, field) -> the check that changes it through the admin and looks where it shows.
CHECKS = {
    ("auth.User", "change", "first_name"): shown_nowhere("first_name", "Sanfeng"),
    ("auth.User", "change", "last_name"): shown_nowhere("last_name", "Zhangsan"),
    ("auth.User", "change", "email"): shown_nowhere("email", "owner-mail@example.org"),
    ("auth.User", "change", "is_active"): check_is_active,
    ("auth.User", "change", "is_staff"): check_is_staff,
    ("auth.User", "change", "is_superuser"): check_is_superuser,
    ("auth.User", "change", "groups"): check_groups,
    ("auth.User", "change", "user_permissions"): check_user_permissions,
    ("auth.User", "change", "last_login"): a_time("last_login"),
    ("auth.User", "change", "date_joined"): a_time("date_joined"),
    **{("auth.User", "add", f): check_add_account for f in ("username", "usable_password", "password1", "password2")},
    **{("auth.User", "password", f): check_password for f in ("password1", "password2")},
    ("auth.Group", "add", "name"): check_add_permission_group,
    ("auth.Group", "add", "permissions"): check_add_permission_group,
    ("auth.Group", "change", "name"): check_change_permission_group,
    ("auth.Group", "change", "permissions"): check_change_permission_group,
    ("authtoken.TokenProxy", "add", "user"): check_add_token,
}


def test_every_field_the_admin_offers_has_a_check_here(c):
    PermissionGroup.objects.create(name="any")  # so that a group's change form is offered too
    offered = {(label, kind, field) for (label, kind), fields in offered_forms(c).items() for field in fields}
    assert offered == set(CHECKS)


@pytest.mark.parametrize("key", CHECKS, ids=lambda k: "-".join(k))
def test_a_field_changed_in_the_admin_shows_where_the_ledger_shows_it(key, c):
    CHECKS[key](c)


def test_a_username_cannot_be_changed_in_the_admin(c):
    before = where_the_ledger_shows_accounts(c)
    assert "owner" in before
    change_user(c, c.owner, username="owner2")  # sent anyway: the form does not take it
    assert c.owner.username == "owner"
    assert "owner2" not in where_the_ledger_shows_accounts(c)


def test_an_account_cannot_be_deleted_in_the_admin_but_turned_off(c):
    """Deleting would take the viewer's night grant with it (and, for others, group memberships and claimed names)."""
    assert c.viewer in c.night.members.all()
    assert c.root.post(f"/admin/auth/user/{c.viewer.pk}/delete/", {"post": "yes"}).status_code == 403
    response = c.root.post("/admin/auth/user/", {"action": "delete_selected", "_selected_action": [str(c.viewer.pk)],
                                                 "post": "yes"})
    assert response.status_code in (200, 302)  # no such action: the list again, nothing deleted
    assert User.objects.filter(pk=c.viewer.pk).exists() and c.viewer in c.night.members.all()


def test_a_token_cannot_be_given_to_another_account_in_the_admin(c):
    response = c.root.post(f"/admin/authtoken/tokenproxy/{c.owner.pk}/change/", {"user": str(c.viewer.pk)})
    assert response.status_code == 403
    assert Token.objects.get(key=c.token.key).user_id == c.owner.pk


def ledger_models():
    return [m for m in admin.site._registry if m._meta.app_label == "ledger"]


@pytest.mark.parametrize("model", ledger_models(), ids=lambda m: m.__name__)
def test_no_ledger_record_changes_through_the_admin_whatever_is_posted(model, c):
    """Fees, group, evening, seating, money, rules, totals: every field of every row, posted changed."""
    obj = model._default_manager.first()
    assert obj is not None, f"no {model.__name__} to try"
    url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
    before = model_to_dict(obj)
    audit = AuditEntry.objects.count()
    posted = {f.name: "1" if f.get_internal_type() in ("IntegerField", "PositiveSmallIntegerField",
                                                       "PositiveBigIntegerField", "ForeignKey", "BooleanField")
              else "{}" if f.get_internal_type() == "JSONField" else "99" if f.get_internal_type() == "DecimalField"
              else "改了" for f in model._meta.concrete_fields if not f.primary_key}
    assert c.root.post(f"{url}{obj.pk}/change/", posted).status_code == 403
    assert c.root.post(f"{url}add/", posted).status_code == 403
    assert c.root.post(f"{url}{obj.pk}/delete/", {"post": "yes"}).status_code == 403
    obj.refresh_from_db()
    assert model_to_dict(obj) == before
    assert model._default_manager.filter(pk=obj.pk).exists() and AuditEntry.objects.count() == audit
