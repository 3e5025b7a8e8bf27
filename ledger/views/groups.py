"""Pages of groups (圈子): my groups, a new group, a group's home, its players, members, default rules, joining."""
from __future__ import annotations

import hashlib
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.cache import caches
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring import ScoringError, normalise_language

from ledger import rights
from ledger.web import params
from ledger.selectors.generations import page_generation_key
from ledger.forms.nights import form_field_for, preset_rule_sets, rule_error_words, rule_problem_message
from ledger.views.sharing import SignUpForm, _sign_up, qr_response
from ledger.web.lan import public_url
from ledger.models import AuditEntry, Confirmation, Night, Player
from ledger.web.paging import cursor_param, keyset_page, page_size
from ledger.selectors.house_rules import night_rules
from ledger.selectors.evenings import settlement_stakes
from ledger.web.users import signed_in
from ledger.services import groups as services
from ledger.presenters.groups import group_entry_line, role_label
from ledger.forms.groups import DefaultsForm, GroupForm, PlayerNameForm
from ledger.models import Group, GroupLink, GroupMember


def _group(request: HttpRequest, pk: int, *, write: bool = False) -> Group:
    """The group if the caller is a member (outsiders: 404); `write` also requires owner or scorekeeper (403)."""
    group = get_object_or_404(rights.visible_groups(request.user), pk=pk)
    if write:
        rights.require(rights.may_write_group(request.user, group))
    return group


def _errors(request: HttpRequest, exc: ValidationError) -> None:
    messages.error(request, " ".join(exc.messages))


def _invite_url(request: HttpRequest, link: GroupLink | None) -> str | None:
    return public_url(request, reverse("group-join", args=[link.token])) if link else None


def _invite(request: HttpRequest, group: Group, can_write: bool | None = None) -> dict[str, Any]:
    """The invite card's context: the link and QR code for owners and scorekeepers (`can_write`: the caller's
    rights, when already known)."""
    can_write = rights.may_write_group(request.user, group) if can_write is None else can_write
    link = services.group_link_active(group) if can_write else None
    return {"can_invite": can_write, "invite_url": _invite_url(request, link), "invite_on": link is not None}


@login_required
def group_list(request: HttpRequest) -> HttpResponse:
    memberships = (GroupMember.objects.filter(user=signed_in(request)).select_related("group")
                   .annotate(members=Count("group__memberships", distinct=True)).order_by("group__name", "group_id"))
    return render(request, "groups/list.html", {"memberships": list(memberships)})


@login_required
def group_create(request: HttpRequest) -> HttpResponse:
    form = GroupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            # A new group's next step is inviting: its link is on from the start.
            group = services.group_create(by=signed_in(request), name=form.cleaned_data["name"], invite=True)
        except ValidationError as exc:
            form.add_error("name", exc.message_dict.get("name", exc.messages))
        else:
            messages.success(request, _("圈子已创建：用二维码邀请朋友加入"))
            return redirect("group-home", pk=group.pk)
    return render(request, "groups/new.html", {"form": form}, status=400 if form.errors else 200)


#: The group page's body (in the "pieces" cache), without a form and without its leaderboard: the invite card's
#: form is rendered beside it per request (its buttons name it), with the viewer's CSRF token, and the leaderboard
#: (this year's best, summed from the hands) under the group's `generation` by the statistics' cache. Every other
#: change the body shows (nights, members and roles, players and claims, the invite link, evenings, settlements and
#: payments) writes an audit entry carrying the group, which bumps the group's `page_generation`
#: (ledger.services.audit; a hand's own change bumps only `generation`: the body does not show hands), so the key
#: holds the page generation; and the viewer (the page shows their role and whether they claimed a name), the
#: address the page was opened at (the invite link is built from it), the language and the page of nights.
@login_required
def group_home(request: HttpRequest, pk: int) -> HttpResponse:
    """The group's nights (newest first, a page at a time), its players and members, the invite QR code."""
    group = _group(request, pk)
    parts = (page_generation_key(group), request.user.pk, request.build_absolute_uri("/"), get_language(),
             cursor_param(request.GET.get("cursor")), page_size(request.GET.get("size"), 20))
    key = "group-home:" + hashlib.sha256(repr(parts).encode()).hexdigest()
    pieces = caches["pieces"]
    kept = pieces.get(key)
    if kept is None:
        context = _home_context(request, group)
        kept = {"body": render_to_string("groups/_home_body.html", context, request),
                "can_invite": context["can_invite"], "role": context["role"]}
        pieces.set(key, kept)
    return render(request, "groups/home.html", {"group": group, "body": mark_safe(kept["body"]),  # noqa: S308
                                                "can_invite": kept["can_invite"], "role": kept["role"]})


def _home_context(request: HttpRequest, group: Group) -> dict[str, Any]:
    nights = Night.objects.filter(group=group).with_seat_names().only("title", "date", "venue", "is_closed")
    page = keyset_page(nights, ("date", "id"), request.GET.get("cursor"), page_size(request.GET.get("size"), 20))
    # Who has confirmed each closed night of the page (签字确认): one query for the page.
    signed: dict[int, list[str]] = {}
    for night_id, name in (Confirmation.objects.filter(night_id__in=[n.pk for n in page.items])
                           .order_by("seat", "player__name").values_list("night_id", "player__name")):
        signed.setdefault(night_id, []).append(name)
    members = list(group.memberships.select_related("user").order_by("joined_at", "id"))
    role = next(m.role for m in members if m.user_id == request.user.pk)
    players = list(Player.objects.active().filter(group=group).order_by("name", "id"))
    can_write = rights.role_writes_group(role)  # the sections below take the role from here: no second read
    return {
        "group": group, "role": role, "role_label": role_label(role), "page": page,
        "nights": [(n, signed.get(n.pk, [])) for n in page.items],  # each with who has confirmed it
        "players": players, "members": members,
        # Nobody is told otherwise that their name at the table can be theirs (这是我): say it until they do.
        "unclaimed": bool(players) and not any(p.user_id == request.user.pk for p in players),
        "can_write": can_write, **_invite(request, group, can_write)}


@login_required
def invite_qr(request: HttpRequest, pk: int) -> HttpResponse:
    """The invite link as a QR code (SVG), for the group's owners and scorekeepers."""
    group = _group(request, pk, write=True)
    link = services.group_link_active(group)
    if link is None:
        raise Http404(_("邀请链接已关闭"))
    return qr_response(public_url(request, reverse("group-join", args=[link.token])), title=group.name)


@login_required
def group_players(request: HttpRequest, pk: int) -> HttpResponse:
    """The group's players: owners and scorekeepers add, rename and merge them; anyone says which one is them."""
    group = _group(request, pk)
    failed: dict[str, Any] | None = None
    if request.method == "POST":
        try:
            _players_action(request, group)
        except ValidationError as exc:
            # Sent back where it was typed: the error at its row (or at 添加玩家), the name as it was typed.
            failed = {"action": request.POST.get("action", ""), "player": params.row_id(request.POST.get("player")),
                      "name": request.POST.get("name", "")[:40], "message": " ".join(exc.messages),
                      # Two names at two tables of one evening: asked whether they are one person (a checkbox).
                      "same_person": "same_person" in getattr(exc, "error_dict", {}),
                      "into": params.row_id(request.POST.get("into"))}
        else:
            return redirect("group-players", pk=pk)
    players = list(Player.objects.active().filter(group=group).select_related("user").order_by("name", "id"))
    merged = Player.objects.filter(group=group, merged_into__isnull=False).select_related("merged_into")
    if failed is not None and failed["player"] not in {p.pk for p in players} and failed["action"] != "add":
        messages.error(request, str(failed["message"]))  # about no row on the page (a player merged meanwhile)
    return render(request, "groups/players.html", {
        "group": group, "players": players, "merged": merged, "can_write": rights.may_write_group(request.user, group),
        "mine": next((p for p in players if p.user_id == request.user.pk), None),
        "add_form": PlayerNameForm(), "failed": failed})  # sent back as a form is: 200, the error at its row


def _player(group: Group, pk: Any) -> Player:
    return get_object_or_404(Player.objects.filter(group=group), pk=params.row_id(pk) or 0)


def _players_action(request: HttpRequest, group: Group) -> None:
    action, user = request.POST.get("action", ""), signed_in(request)
    if action == "claim":
        services.player_claim(player=_player(group, request.POST.get("player")), user=user)
        return
    if action == "unclaim":
        services.player_unclaim(group=group, user=user)
        return
    rights.require(rights.may_write_group(user, group))
    form = PlayerNameForm(request.POST)
    if action in ("add", "rename") and not form.is_valid():
        raise ValidationError({"name": _("名字不能为空，最多 40 个字")})
    if action == "add":
        player = services.player_create(group=group, by=user, name=form.cleaned_data["name"])
        messages.success(request, _("已添加：%(name)s") % {"name": player.name})
    elif action == "rename":
        player = _player(group, request.POST.get("player"))
        before = player.name
        player = services.player_rename(player=player, by=user, name=form.cleaned_data["name"])
        messages.success(request, _("%(before)s 已改名为 %(after)s") % {"before": before, "after": player.name})
    elif action == "merge":
        source = _player(group, request.POST.get("player"))
        into = _player(group, request.POST.get("into"))
        services.player_merge(source=source, into=into, by=user, same_person=request.POST.get("same_person") == "on")
        messages.success(request, _("%(a)s 已合并到 %(b)s，所有牌局都算在 %(b)s 名下") % {"a": source.name, "b": into.name})
    else:
        raise ValidationError({"action": _("未知的操作")})


@login_required
def group_members(request: HttpRequest, pk: int) -> HttpResponse:
    """Who is in the group with which role; owners change roles and remove people; anyone may leave."""
    group = _group(request, pk)
    if request.method == "POST":
        try:
            _members_action(request, group)
        except ValidationError as exc:
            _errors(request, exc)
        if not rights.visible_groups(request.user).filter(pk=pk).exists():
            messages.success(request, _("你已退出 %(name)s") % {"name": group.name})
            return redirect("group-list")
        return redirect("group-home" if request.POST.get("back") == "home" else "group-members", pk=pk)
    members = list(group.memberships.with_claimed_name().select_related("user").order_by("joined_at", "id"))
    return render(request, "groups/members.html", {
        "group": group, "members": members, "is_owner": rights.may_manage_group(request.user, group),
        "roles": [(value, role_label(value)) for value in GroupMember.Role.values], **_invite(request, group)})


def _members_action(request: HttpRequest, group: Group) -> None:
    action, by = request.POST.get("action", ""), signed_in(request)
    if action == "invite-renew":
        services.group_link_renew(group=group, by=by)
    elif action == "invite-off":
        services.group_link_turn_off(group=group, by=by)
    elif action == "leave":
        services.group_leave(group=group, user=by)
    elif action in ("role", "remove"):
        user = get_object_or_404(get_user_model(), pk=params.row_id(request.POST.get("user")) or 0)
        if action == "remove":
            services.membership_remove(group=group, by=by, user=user)
            messages.success(request, _("已移除 %(name)s") % {"name": user.get_username()})
        else:
            membership = services.membership_set_role(group=group, by=by, user=user, role=request.POST.get("role", ""))
            messages.success(request, _("%(name)s 现在是%(role)s") % {"name": user.get_username(),
                                                                     "role": role_label(membership.role)})
    else:
        raise ValidationError({"action": _("未知的操作")})


@login_required
def group_audit(request: HttpRequest, pk: int) -> HttpResponse:
    """The group's own changes (members, roles, links, players, default rules), newest first, a page at a time."""
    group = _group(request, pk)
    entries = AuditEntry.objects.filter(group=group, night__isnull=True).select_related("actor")
    page = keyset_page(entries, ("at", "id"), request.GET.get("cursor"), page_size(request.GET.get("size"), 30))
    # A settlement's amounts in its stake (标记已付：胖子 → 老王 ¥27): the group's nights need not share one.
    settled = {entry.pk: entry.after["settlement"] for entry in page.items
               if isinstance(entry.after, dict) and isinstance(entry.after.get("settlement"), int)}
    stakes = settlement_stakes(set(settled.values()))
    lines = [(entry, group_entry_line(entry, stakes.get(settled.get(entry.pk, 0)))) for entry in page.items]
    return render(request, "groups/audit.html", {"group": group, "lines": lines, "page": page})


def _defaults_initial(group: Group) -> dict[str, Any]:
    defaults = services.group_night_defaults(group)
    rules = night_rules(preset=defaults["preset"], overrides=defaults["rule_overrides"])
    fee = defaults["fee"] or {"mode": "none"}
    return {"preset": defaults["preset"], "base": defaults["base"], "stake": defaults["stake"],
            "currency": defaults["currency"], "fee_mode": fee["mode"], "fee_amount": fee.get("amount"),
            "fee_wins": fee.get("wins", "all"), **{f"rule_{name}": value for name, value in rules.items()}}


def _rules_chosen(group: Group, preset: str, posted: dict[str, Any], shown_for: str = "") -> dict[str, Any]:
    """The rule values the page asks for. After a change of preset, only the fields changed on the page override
    the new preset (the page shows the old preset's values; without a script they do not follow the choice) —
    unless night_form.js filled them from the new preset (`shown_for`): then they say exactly what the page showed."""
    current = services.group_night_defaults(group)
    if preset == current["preset"] or shown_for == preset:
        return posted
    shown = night_rules(preset=current["preset"], overrides=current["rule_overrides"])
    return {name: value for name, value in posted.items() if value != shown.get(name)}


@login_required
def group_defaults(request: HttpRequest, pk: int) -> HttpResponse:
    """The house rules a new night of the group starts from; owners and scorekeepers change them."""
    group = _group(request, pk)
    can_write = rights.may_write_group(request.user, group)
    form = DefaultsForm(request.POST if request.method == "POST" else None, initial=_defaults_initial(group))
    if request.method == "POST":
        if not can_write:
            raise PermissionDenied
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.group_set_defaults(group=group, by=signed_in(request), preset=data["preset"],
                                            rules=_rules_chosen(group, data["preset"], form.rule_values(),
                                                                  data.get("rules_shown_for") or ""),
                                            base=Decimal(data["base"]),
                                            stake=data["stake"], currency=data["currency"] or "", fee=form.fee())
            except ValidationError as exc:
                for path, errors in exc.error_dict.items():
                    field = form_field_for(path) or path
                    form.add_error(field if field in form.fields else None, [rule_error_words(e) for e in errors])
            except ScoringError as exc:
                language = normalise_language(get_language())
                for problem in exc.problems:
                    field = form_field_for(problem.path) or problem.path
                    form.add_error(field if field in form.fields else None, rule_problem_message(problem, language))
            else:
                messages.success(request, _("默认规则已保存：新开的牌局从这些规则开始"))
                return redirect("group-home", pk=pk)
    # Never saved: the values shown are the last night's (services.group_night_defaults); the page says so.
    from_last = not group.defaults and group.nights.exists()
    return render(request, "groups/defaults.html", {"group": group, "form": form, "can_write": can_write,
                                                    "presets": preset_rule_sets(), "from_last": from_last},
                  status=400 if form.errors else 200)


def group_join(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link: sign up (or sign in) and become a member of the group, then see its home."""
    group = services.group_for_link(token)
    if group is None:
        raise Http404(_("邀请链接不存在或已失效"))
    form = SignUpForm()
    if request.method == "POST":
        if not request.user.is_authenticated:
            form, status = _sign_up(request)
            if status:
                return render(request, "groups/join.html", {"group": group, "form": form, "token": token},
                              status=status)
        services.group_join(token=token, user=signed_in(request))
        messages.success(request, _("你已加入 %(name)s") % {"name": group.name})
        return redirect("group-home", pk=group.pk)
    if request.user.is_authenticated and rights.visible_groups(request.user).filter(pk=group.pk).exists():
        return redirect("group-home", pk=group.pk)
    return render(request, "groups/join.html", {"group": group, "form": form, "token": token})
