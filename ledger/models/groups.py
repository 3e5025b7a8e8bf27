"""Circles of friends (圈子): members with roles, invite links, evenings across tables, settlements and who has paid."""
from __future__ import annotations

import uuid
from typing import Any

from django.apps import apps
from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q, Subquery
from django.utils.translation import gettext_lazy as _

from ledger.models.sharing import new_token


class GroupQuerySet(models.QuerySet["Group"]):
    def visible_to(self, user: Any) -> "GroupQuerySet":
        """The groups the user is a member of (any role); outsiders see none."""
        if not getattr(user, "is_authenticated", False):
            return self.none()
        return self.filter(Exists(GroupMember.objects.filter(group=OuterRef("pk"), user=user)))


class Group(models.Model):
    """A circle of friends who play together: its players, nights, evenings, default house rules and debts."""

    name = models.CharField(_("圈子名称"), max_length=60)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    #: A new night of the group starts from these (then freezes its own): preset name, rule overrides, base,
    #: stake, currency and table fee (scoring.fees), all optional.
    defaults = models.JSONField(default=dict, blank=True)
    #: Bumped by every audit entry of the group or of one of its nights, in the change's transaction
    #: (ledger.services.audit): the statistics' cache keys carry it.
    generation = models.PositiveBigIntegerField(default=0, editable=False)
    #: Bumped with `generation` by every change except a hand's own (recorded, corrected, voided: audit.HAND_ONLY),
    #: which moves only what is summed from the hands (the statistics): the group page keeps its body under this
    #: one and draws its leaderboard under `generation`.
    page_generation = models.PositiveBigIntegerField(default=0, editable=False)

    objects = GroupQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("圈子")
        verbose_name_plural = _("圈子")

    def __str__(self) -> str:
        return self.name

    def role_of(self, user: Any) -> str | None:
        """The user's role in the group, or None for an outsider."""
        if not getattr(user, "is_authenticated", False):
            return None
        return GroupMember.objects.filter(group=self, user=user).values_list("role", flat=True).first()


class GroupMemberQuerySet(models.QuerySet["GroupMember"]):
    def with_claimed_name(self) -> "GroupMemberQuerySet":
        """Each membership with ``player_name``: the name the member claimed in the group (这是我), or None."""
        players = apps.get_model("ledger", "Player")  # by name: models.players imports this module
        claimed = players.objects.active().filter(group=OuterRef("group"), user=OuterRef("user")).values("name")[:1]
        return self.annotate(player_name=Subquery(claimed))


class GroupMember(models.Model):
    """A user's membership of a group, with a role."""

    class Role(models.TextChoices):
        OWNER = "owner", _("圈主")
        SCOREKEEPER = "scorekeeper", _("记分员")
        MEMBER = "member", _("成员")

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="group_memberships")
    role = models.CharField(max_length=12, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    objects = GroupMemberQuerySet.as_manager()

    class Meta:
        ordering = ["group", "joined_at", "id"]
        constraints = [models.UniqueConstraint(fields=["group", "user"], name="one_membership_per_user")]


class GroupLink(models.Model):
    """An invite link (and QR code) to a group: whoever opens it while it works becomes a member."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="links")
    token = models.CharField(max_length=64, unique=True, default=new_token)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["group", "-created_at"]
        constraints = [models.UniqueConstraint(fields=["group"], condition=Q(revoked_at__isnull=True),
                                               name="one_active_group_link")]


class EveningQuerySet(models.QuerySet["Evening"]):
    def visible_to(self, user: Any) -> "EveningQuerySet":
        """Evenings of the user's groups."""
        return self.filter(group__in=Group.objects.visible_to(user))


class Evening(models.Model):
    """The nights of one date and venue (tables 1, 2, 3…), settled together."""

    group = models.ForeignKey(Group, on_delete=models.PROTECT, related_name="evenings")
    title = models.CharField(_("名称"), max_length=80)
    date = models.DateField(_("日期"))
    venue = models.CharField(_("地点"), max_length=80, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = EveningQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("活动")
        verbose_name_plural = _("活动")

    def __str__(self) -> str:
        return f"{self.title} ({self.date})"


class Settlement(models.Model):
    """The transfers that settle a night or an evening, fixed once its nights are closed, so they can be paid.

    With ``include_carry`` the group's unpaid transfers from earlier settlements are folded in (each of those is
    then marked ``carried_into`` this one, so it is carried exactly once).
    """

    group = models.ForeignKey(Group, on_delete=models.PROTECT, related_name="settlements")
    evening = models.OneToOneField(Evening, null=True, blank=True, on_delete=models.PROTECT, related_name="settlement")
    night = models.OneToOneField("ledger.Night", null=True, blank=True, on_delete=models.PROTECT,
                                 related_name="settlement")
    include_carry = models.BooleanField(default=False)
    method = models.CharField(max_length=10, default="exact")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.CheckConstraint(condition=Q(evening__isnull=True) ^ Q(night__isnull=True),
                                              name="settlement_of_evening_or_night")]


class SettlementTransfer(models.Model):
    """One transfer of a settlement; a null payer or payee is the table fee (台费)."""

    settlement = models.ForeignKey(Settlement, on_delete=models.PROTECT, related_name="transfers")
    position = models.PositiveSmallIntegerField()
    payer = models.ForeignKey("ledger.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    payee = models.ForeignKey("ledger.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    amount = models.DecimalField(max_digits=16, decimal_places=4)
    paid_at = models.DateTimeField(null=True, blank=True)
    paid_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                related_name="+")
    carried_into = models.ForeignKey(Settlement, null=True, blank=True, on_delete=models.PROTECT,
                                     related_name="carried")

    class Meta:
        ordering = ["settlement", "position"]
        constraints = [models.UniqueConstraint(fields=["settlement", "position"], name="transfer_position_unique"),
                       models.CheckConstraint(condition=Q(amount__gt=0), name="transfer_amount_positive")]


class FeeShare(models.Model):
    """What one player paid towards a closed night's table fee (written when the night closes), so history and
    leaderboards subtract the fee with database sums."""

    night = models.ForeignKey("ledger.Night", on_delete=models.PROTECT, related_name="fee_shares")
    player = models.ForeignKey("ledger.Player", on_delete=models.PROTECT, related_name="fee_shares")
    amount = models.DecimalField(max_digits=16, decimal_places=4)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["night", "player"], name="one_fee_share_per_player")]
