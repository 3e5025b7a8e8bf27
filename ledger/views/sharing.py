"""Pages of joining: sign-up, the invite link and its QR code, the members page."""
from __future__ import annotations

import io
from typing import Any

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from ledger import rights
from ledger.web import params
from ledger.web.lan import public_url
from ledger.models import Night, Player, page_of
from ledger.web import passwords
from ledger.web import ratelimit
from ledger.services import sharing as services
from ledger.models import NightLink
from ledger.web.users import signed_in


class SignUpForm(UserCreationForm):  # type: ignore[type-arg,unused-ignore]
    """Username and password, nothing else (no e-mail)."""

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined,misc,unused-ignore]
        model = get_user_model()

    def password_rule(self) -> str:
        """The rule, said before the first try (not only after a failure)."""
        return passwords.rule()


def _sign_up(request: HttpRequest) -> tuple[SignUpForm, int]:
    """Handle a sign-up form post: the form and 0 once the user is signed up and in, else the page's status."""
    form = SignUpForm(request.POST)
    if not ratelimit.allow(ratelimit.SIGN_UP, request):
        form.add_error(None, _("注册太频繁，请一小时后再试"))
        return form, 429
    if not form.is_valid():
        return form, 400
    user = form.save()
    login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])  # just signed up: no password check needed
    return form, 0


def sign_up(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("night-list")
    form, status = SignUpForm(), 200
    if request.method == "POST":
        form, status = _sign_up(request)
        if not status:
            target = request.POST.get("next", "")
            if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
                target = reverse("night-list")
            return redirect(target)
    return render(request, "sharing/sign_up.html", {"form": form, "next": request.GET.get("next", "")}, status=status)


def join(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link: sign up (or sign in) and become a member of the night, then see its table."""
    night = services.night_for_link(token=token, kind=NightLink.Kind.INVITE)
    if night is None:
        raise Http404(_("邀请链接不存在或已失效"))
    form = SignUpForm()
    if request.method == "POST":
        if not request.user.is_authenticated:
            form, status = _sign_up(request)
            if status:
                return render(request, "sharing/join.html", {"night": night, "form": form, "token": token}, status=status)
        services.night_join(token=token, user=signed_in(request))
        messages.success(request, _("你已加入 %(title)s") % {"title": night.title})
        return redirect("night-table", pk=night.pk)
    if request.user.is_authenticated and rights.visible_nights(request.user).filter(pk=night.pk).exists():
        return redirect("night-table", pk=night.pk)
    return render(request, "sharing/join.html", {"night": night, "form": form, "token": token})


def _invite_url(request: HttpRequest, token: str) -> str:
    """The invite link phones open (see lan.public_url)."""
    return public_url(request, reverse("join", args=[token]))


def _view_url(request: HttpRequest, link: NightLink) -> str:
    """The view link (no account needed) phones open, as the invite link (see lan.public_url)."""
    return public_url(request, reverse("view-link", args=[link.token]))


def join_panel(request: HttpRequest, night: Night) -> dict[str, Any]:
    """What the table page shows about joining: the invite QR code (owner, scorekeepers) or the read-only hint.

    The night is the table page's (selectors.night_for_page): it carries the caller's rights, the links' tokens
    and the group's name, so the panel reads nothing more.
    """
    page = page_of(night)
    panel: dict[str, Any] = {"readonly": not page.can_write, "invite_url": None, "group_invite_url": None,
                             "is_owner": rights.may_manage_night(request.user, night)}
    if not page.can_write:
        # Who can make this viewer a scorekeeper, and where: the group's owners on its 成员 page for a member of the
        # group; the night's owner on its 成员与邀请 page for someone the night alone was shared with.
        if rights.may_view_group(request.user, night.group):
            panel.update(group_members_url=reverse("group-members", args=[night.group_id]), group_name=page.group_name)
        return panel
    # The group's writers invite to the group (whoever joins sees all its nights, this one included); the night's
    # own invite stays on its 成员与邀请 page for someone from outside the circle.
    if page.group_link is not None and page.group_writer:
        panel.update(group_invite_url=public_url(request, reverse("group-join", args=[page.group_link])),
                     group_name=page.group_name)
        return panel
    panel["invite_url"] = _invite_url(request, page.invite_link) if page.invite_link else None
    return panel


@login_required
def invite_qr(request: HttpRequest, pk: int) -> HttpResponse:
    """The invite link as a QR code (SVG), for the owner and scorekeepers."""
    night = get_object_or_404(rights.visible_nights(request.user), pk=pk)
    rights.require(rights.may_write_night(request.user, night))
    link = services.link_active(night=night, kind=NightLink.Kind.INVITE)
    if link is None:
        raise Http404(_("邀请链接已关闭"))
    return qr_response(_invite_url(request, link.token), title=night.title)


@login_required
def view_qr(request: HttpRequest, pk: int) -> HttpResponse:
    """The view link as a QR code (SVG), for the night's owner: who holds the link sees the night without signing
    up, so friends at the table scan it as they scan the invite."""
    night = get_object_or_404(rights.visible_nights(request.user), pk=pk)
    rights.require(rights.may_manage_night(request.user, night))
    link = services.link_active(night=night, kind=NightLink.Kind.VIEW)
    if link is None:
        raise Http404(_("查看链接已关闭"))
    return qr_response(_view_url(request, link), title=night.title)


def qr_response(url: str, *, title: str) -> HttpResponse:
    """An invite link as a QR code (SVG), never cached: a renewed link must not show the old one."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=6, border=2, xmldecl=False, title=title)
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
def members(request: HttpRequest, pk: int) -> HttpResponse:
    """Who is in the night and with which role; the owner manages roles and links; anyone claims their name."""
    night = get_object_or_404(rights.visible_nights(request.user).select_related("owner"), pk=pk)
    if request.method == "POST":
        try:
            _members_action(request, night)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        if not rights.visible_nights(request.user).filter(pk=pk).exists():
            return redirect("night-list")
        back = request.POST.get("next", "")
        if back and url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
            return redirect(back)
        return redirect("night-members", pk=pk)
    is_owner = rights.may_manage_night(request.user, night)
    keepers = set(night.scorekeepers.values_list("pk", flat=True))
    people: list[dict[str, Any]] = [{"user": night.owner, "role": _("创建人"), "owner": True}]
    users = get_user_model().objects.filter(pk__in=set(night.members.values_list("pk", flat=True)) | keepers)
    for user in users.exclude(pk=night.owner_id).order_by("username"):
        people.append({"user": user, "role": _("记分员") if user.pk in keepers else _("查看"),
                       "keeper": user.pk in keepers})
    claims = {p.user_id: p.name for p in Player.objects.filter(user__in=[p["user"] for p in people],
                                                                group_id=night.group_id)}
    for person in people:
        person["player"] = claims.get(person["user"].pk)
    invite = services.link_active(night=night, kind=NightLink.Kind.INVITE)
    view = services.link_active(night=night, kind=NightLink.Kind.VIEW)
    can_write = rights.may_write_night(request.user, night)
    return render(request, "sharing/members.html", {
        "night": night, "people": people, "is_owner": is_owner, "can_write": can_write,
        "players": (players := services.night_player_names(night)),
        "mine": (mine := Player.objects.filter(user=signed_in(request), group_id=night.group_id).first()),
        "mine_elsewhere": mine is not None and all(p.pk != mine.pk for p in players),
        "invite_url": _invite_url(request, invite.token) if invite and can_write else None,
        "view_url": _view_url(request, view) if view and is_owner else None,
        "invite_on": invite is not None, "view_on": view is not None,
    })


def _members_action(request: HttpRequest, night: Night) -> None:
    action = request.POST.get("action", "")
    if action == "claim":
        player = get_object_or_404(Player, pk=params.row_id(request.POST.get("player")) or 0)
        services.player_claim(night=night, user=signed_in(request), player=player)
        messages.success(request, _("已认领：%(name)s") % {"name": player.name})
    elif action == "unclaim":
        services.player_unclaim(user=signed_in(request), night=night)
    elif action in ("scorekeeper", "member", "remove"):
        user = get_object_or_404(get_user_model(), pk=params.row_id(request.POST.get("user")) or 0)
        if action == "remove":
            services.member_remove(night=night, by=signed_in(request), user=user)
        else:
            services.member_set_role(night=night, by=signed_in(request), user=user, role=action)
    elif action in ("invite-renew", "invite-off", "view-renew", "view-off"):
        kind, what = action.split("-")
        if what == "renew":
            services.link_renew(night=night, by=signed_in(request), kind=kind)
        else:
            services.link_turn_off(night=night, by=signed_in(request), kind=kind)
    else:
        raise ValidationError({"action": _("未知的操作")})
