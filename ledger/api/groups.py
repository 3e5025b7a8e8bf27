"""The groups API: thin views, each fetch → service → Response, as ledger.api.nights.

Outsiders of a group get 404 for it and everything in it; members who may not do a write get 403. Writes are
atomic and honour the Idempotency-Key header.
"""
from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import OuterRef, QuerySet, Subquery
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledger.api.pagination import NewestFirst, PlayersNewestFirst, paginated
from ledger.api.serializers.nights import EmptyInputSerializer, PlayerSerializer
from ledger.api.throttles import WriteThrottle
from ledger.api.nights import KEY, READ_ERRORS, WRITE_ERRORS, validated
from ledger.web.idempotency import idempotent
from ledger.web.lan import public_url
from ledger.models import Player
from ledger.web.users import signed_in
from ledger.services import groups as services
from ledger.models import Group, GroupMember
from ledger import rights
from ledger.api.serializers.groups import (GroupInputSerializer, GroupPatchSerializer, GroupSerializer, InviteSerializer, JoinInputSerializer,
                          MemberSerializer, MergeInputSerializer, PlayerNameInputSerializer, RoleInputSerializer)


class GroupsNewestFirst(NewestFirst):
    ordering = ("-id",)


class Throttled:
    """Writes (POST, PATCH, DELETE) are throttled per user; reads are not."""

    def get_throttles(self) -> list[Any]:
        request = getattr(self, "request", None)
        return [WriteThrottle()] if request is not None and request.method in ("POST", "PATCH", "DELETE") else []


def my_groups(request: Request) -> QuerySet[Group]:
    """The caller's groups, each with the caller's role (``my_role``)."""
    role = GroupMember.objects.filter(group=OuterRef("pk"), user=signed_in(request)).values("role")[:1]
    return rights.visible_groups(request.user).annotate(my_role=Subquery(role))


def my_group(request: Request, pk: int) -> Group:
    """A group of the caller's (outsiders: 404)."""
    return get_object_or_404(my_groups(request), pk=pk)


def my_player(request: Request, pk: int) -> Player:
    """A player of one of the caller's groups (others: 404)."""
    return get_object_or_404(rights.visible_players(request.user).select_related("group"), pk=pk)


def member_of(group: Group, user_id: int) -> Any:
    """The user of a membership of the group (a user who is not in it: 404)."""
    return get_object_or_404(GroupMember.objects.select_related("user"), group=group, user_id=user_id).user


class GroupListView(Throttled, APIView):
    pagination_class = GroupsNewestFirst

    @extend_schema(responses={200: GroupSerializer(many=True), **READ_ERRORS}, summary="The caller's groups")
    def get(self, request: Request) -> Response:
        return paginated(self, request, my_groups(request), lambda page: GroupSerializer(page, many=True).data)

    @extend_schema(request=GroupInputSerializer, responses={201: GroupSerializer, **WRITE_ERRORS}, parameters=[KEY],
                   summary="Create a group (the caller is its owner)")
    @idempotent
    def post(self, request: Request) -> Response:
        data = validated(GroupInputSerializer, request)
        group = services.group_create(by=signed_in(request), name=data["name"], invite=True)  # as the page does
        return Response(GroupSerializer(my_group(request, group.pk)).data, status=status.HTTP_201_CREATED)


def invite(request: Request, group: Group) -> dict[str, Any]:
    link = services.group_link_active(group)
    return {"on": link is not None,
            "url": public_url(request, reverse("group-join", args=[link.token])) if link is not None else None}


class GroupInviteView(Throttled, APIView):
    """The group's invite link (and what its QR code holds), for its owners and scorekeepers: see it, renew it (a
    fresh address; the old one stops working), turn it off."""

    def writable(self, request: Request, pk: int) -> Group:
        group = my_group(request, pk)
        rights.require(rights.may_write_group(request.user, group))
        return group

    @extend_schema(responses={200: InviteSerializer, **READ_ERRORS}, summary="The group's invite link")
    def get(self, request: Request, pk: int) -> Response:
        return Response(InviteSerializer(invite(request, self.writable(request, pk))).data)

    @extend_schema(request=EmptyInputSerializer, responses={201: InviteSerializer, **WRITE_ERRORS}, parameters=[KEY],
                   summary="Turn the invite link on with a fresh address (the previous one stops working)")
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        validated(EmptyInputSerializer, request)
        group = self.writable(request, pk)
        services.group_link_renew(group=group, by=signed_in(request))
        return Response(InviteSerializer(invite(request, group)).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=EmptyInputSerializer, responses={200: InviteSerializer, **WRITE_ERRORS}, parameters=[KEY],
                   summary="Turn the invite link off")
    @idempotent
    def delete(self, request: Request, pk: int) -> Response:
        validated(EmptyInputSerializer, request)
        group = self.writable(request, pk)
        services.group_link_turn_off(group=group, by=signed_in(request))
        return Response(InviteSerializer(invite(request, group)).data)


class GroupDetailView(Throttled, APIView):
    @extend_schema(responses={200: GroupSerializer, **READ_ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        return Response(GroupSerializer(my_group(request, pk)).data)

    @extend_schema(request=GroupPatchSerializer, responses={200: GroupSerializer, **WRITE_ERRORS}, parameters=[KEY],
                   summary="Rename the group (owners) or change its default house rules (owners, scorekeepers)")
    @idempotent
    def patch(self, request: Request, pk: int) -> Response:
        group = my_group(request, pk)
        data = validated(GroupPatchSerializer, request)
        by = signed_in(request)
        if "name" in data:
            group = services.group_rename(group=group, by=by, name=data["name"])
        if "defaults" in data:
            set_defaults(group, by, data["defaults"])
        return Response(GroupSerializer(my_group(request, pk)).data)


def set_defaults(group: Group, by: Any, given: dict[str, Any]) -> None:
    """Change the fields of the defaults that were sent; errors name their place in the body ("defaults.base")."""
    current = services.group_night_defaults(group)
    try:
        services.group_set_defaults(
            group=group, by=by, preset=given.get("preset", current["preset"]),
            rules=given.get("rules", current["rule_overrides"]), base=given.get("base", current["base"]),
            stake=given.get("stake", current["stake"]), currency=given.get("currency", current["currency"]),
            fee=given.get("fee", current["fee"]))
    except ValidationError as exc:
        raise ValidationError({f"defaults.{field}": messages for field, messages in exc.message_dict.items()}) from exc


class MembersNewestFirst(NewestFirst):
    ordering = ("-id",)


class GroupMembersView(Throttled, APIView):
    pagination_class = MembersNewestFirst

    @extend_schema(responses={200: MemberSerializer(many=True), **READ_ERRORS}, summary="Members and their roles")
    def get(self, request: Request, pk: int) -> Response:
        group = my_group(request, pk)
        members = group.memberships.with_claimed_name().select_related("user")
        return paginated(self, request, members, lambda page: MemberSerializer(page, many=True).data)


class MemberRoleView(Throttled, APIView):
    @extend_schema(request=RoleInputSerializer, responses={200: MemberSerializer, **WRITE_ERRORS}, parameters=[KEY],
                   summary="Give a member a role (owners only; a group keeps at least one owner)")
    @idempotent
    def post(self, request: Request, pk: int, user_id: int) -> Response:
        group = my_group(request, pk)
        user = member_of(group, user_id)
        data = validated(RoleInputSerializer, request)
        membership = services.membership_set_role(group=group, by=signed_in(request), user=user, role=data["role"])
        return Response(MemberSerializer(group.memberships.with_claimed_name().get(pk=membership.pk)).data)


class MemberRemoveView(Throttled, APIView):
    @extend_schema(request=EmptyInputSerializer, responses={204: None, **WRITE_ERRORS}, parameters=[KEY],
                   summary="Take a member out (owners), or leave the group (one's own id)")
    @idempotent
    def post(self, request: Request, pk: int, user_id: int) -> Response:
        group = my_group(request, pk)
        user = member_of(group, user_id)
        validated(EmptyInputSerializer, request)
        services.membership_remove(group=group, by=signed_in(request), user=user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class GroupJoinView(Throttled, APIView):
    @extend_schema(request=JoinInputSerializer, responses={200: GroupSerializer, **WRITE_ERRORS}, parameters=[KEY],
                   summary="Join the group of an invite link (a no-op for members)")
    @idempotent
    def post(self, request: Request) -> Response:
        data = validated(JoinInputSerializer, request)
        group = services.group_join(token=data["token"], user=signed_in(request))
        return Response(GroupSerializer(my_group(request, group.pk)).data)


class GroupPlayersView(Throttled, APIView):
    pagination_class = PlayersNewestFirst

    @extend_schema(responses={200: PlayerSerializer(many=True), **READ_ERRORS}, summary="The group's players")
    def get(self, request: Request, pk: int) -> Response:
        players = Player.objects.active().filter(group=my_group(request, pk)).select_related("group")
        return paginated(self, request, players, lambda page: PlayerSerializer(page, many=True).data)

    @extend_schema(request=PlayerNameInputSerializer, responses={201: PlayerSerializer, **WRITE_ERRORS},
                   parameters=[KEY], summary="Add a player (owners, scorekeepers); names are unique in the group")
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        group = my_group(request, pk)
        data = validated(PlayerNameInputSerializer, request)
        player = services.player_create(group=group, by=signed_in(request), name=data["name"])
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailView(Throttled, APIView):
    @extend_schema(responses={200: PlayerSerializer, **READ_ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        return Response(PlayerSerializer(my_player(request, pk)).data)

    @extend_schema(request=PlayerNameInputSerializer, responses={200: PlayerSerializer, **WRITE_ERRORS},
                   parameters=[KEY], summary="Rename a player (owners, scorekeepers); past hands keep their names")
    @idempotent
    def patch(self, request: Request, pk: int) -> Response:
        player = my_player(request, pk)
        data = validated(PlayerNameInputSerializer, request)
        player = services.player_rename(player=player, by=signed_in(request), name=data["name"])
        return Response(PlayerSerializer(player).data)


class PlayerMergeView(Throttled, APIView):
    @extend_schema(request=MergeInputSerializer, responses={200: PlayerSerializer, **WRITE_ERRORS},
                   parameters=[KEY], summary="Merge this player into another of the group: every hand moves over")
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        source = my_player(request, pk)
        data = validated(MergeInputSerializer, request)
        into = rights.visible_players(request.user).select_related("group").filter(pk=data["into"]).first()
        if into is None:
            raise ValidationError({"into": _("没有这位玩家")})
        into = services.player_merge(source=source, into=into, by=signed_in(request), same_person=data["same_person"])
        return Response(PlayerSerializer(into).data)
