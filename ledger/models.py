"""The ledger's records: players, nights, hands (with every revision), payments and the audit trail."""
from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q, Sum
from django.utils.translation import gettext_lazy as _

SEATS = (0, 1, 2, 3)


class Player(models.Model):
    """A person at the table, reusable across nights (names may be Chinese)."""

    name = models.CharField(_("名字"), max_length=40, unique=True)
    user = models.OneToOneField(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="player")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("玩家")
        verbose_name_plural = _("玩家")

    def __str__(self) -> str:
        return self.name


class NightQuerySet(models.QuerySet["Night"]):
    def visible_to(self, user: Any) -> "NightQuerySet":
        """Nights the user may see: owned, or a member or scorekeeper of."""
        if not user.is_authenticated:
            return self.none()
        # EXISTS rather than joins + DISTINCT: one row per night without comparing whole rows (issue 10).
        member = Night.members.through.objects.filter(night=OuterRef("pk"), user=user)
        keeper = Night.scorekeepers.through.objects.filter(night=OuterRef("pk"), user=user)
        return self.filter(Q(owner=user) | Exists(member) | Exists(keeper))


class Night(models.Model):
    """A session at one table (一场): its stake and house rules, frozen at creation."""

    class Stake(models.TextChoices):
        MONEY = "money", _("钱")
        POINTS = "points", _("积分")

    title = models.CharField(_("名称"), max_length=80)
    date = models.DateField(_("日期"))
    venue = models.CharField(_("地点/桌号"), max_length=80, blank=True)
    base = models.DecimalField(_("底金"), max_digits=12, decimal_places=2)
    stake = models.CharField(_("计分方式"), max_length=10, choices=Stake.choices, default=Stake.MONEY)
    currency = models.CharField(_("币种"), max_length=8, blank=True, default="CNY")
    preset = models.CharField(_("规则预设"), max_length=20, default="chengdu")
    rules = models.JSONField(_("规则"), help_text="Every option of RULES.md §8, frozen when the night is created.")
    totals_cache = models.JSONField(
        null=True, blank=True,
        help_text="The night's totals and settlement as computed after its audit entry `audit` (every change of a "
                  "night writes one, under the night's lock); see selectors.night_summary.")
    first_dealer = models.PositiveSmallIntegerField(_("首局庄家"), default=0)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_nights")
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="member_nights")
    scorekeepers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="scorekept_nights")
    is_closed = models.BooleanField(_("已结束"), default=False)
    closed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    #: Stable identity across databases: a restored backup is the same night, so importing twice changes nothing.
    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)

    objects = NightQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("牌局")
        verbose_name_plural = _("牌局")

    def __str__(self) -> str:
        return f"{self.title} ({self.date})"

    def can_write(self, user: Any) -> bool:
        """Return True if the user may record, correct or void hands (owner or scorekeeper)."""
        if not user.is_authenticated:
            return False
        return self.owner_id == user.id or self.scorekeepers.filter(pk=user.pk).exists()


class Seating(models.Model):
    """Who sits in each seat now; a player may be substituted between hands."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="seating")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["seat"]
        constraints = [models.UniqueConstraint(fields=["night", "seat"], name="one_player_per_seat"),
                       models.UniqueConstraint(fields=["night", "player"], name="one_seat_per_player")]


class Hand(models.Model):
    """One hand (一局) of a night; never deleted: corrected (new revision) or voided."""

    class Status(models.TextChoices):
        RECORDED = "recorded", _("已记录")
        VOIDED = "voided", _("已作废")

    night = models.ForeignKey(Night, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField(_("局数"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RECORDED)
    void_reason = models.CharField(max_length=200, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["night", "number"]
        constraints = [models.UniqueConstraint(fields=["night", "number"], name="hand_number_unique_in_night")]
        verbose_name = _("局")
        verbose_name_plural = _("局")

    def __str__(self) -> str:
        return f"{self.night} #{self.number}"

    @property
    def current(self) -> "HandRevision":
        return self.revisions.get(is_current=True)


class HandRevision(models.Model):
    """One version of a hand: the players, dealer, the record as entered and its computed result."""

    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="revisions")
    version = models.PositiveIntegerField()
    is_current = models.BooleanField(default=True)
    dealer = models.PositiveSmallIntegerField()
    player_0 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_2 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_3 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    record = models.JSONField(help_text="The hand record (HAND_FORMAT.md) as entered, with base, rules and dealer.")
    result = models.JSONField(help_text="The output document of scoring.score_hand for the record.")
    # Each seat's net (received minus paid) of this revision, written with it, so a night's totals are one
    # aggregate query over the current revisions (see selectors.night_nets).
    net_0 = models.DecimalField(max_digits=14, decimal_places=4, default=0)
    net_1 = models.DecimalField(max_digits=14, decimal_places=4, default=0)
    net_2 = models.DecimalField(max_digits=14, decimal_places=4, default=0)
    net_3 = models.DecimalField(max_digits=14, decimal_places=4, default=0)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    reason = models.CharField(max_length=200, blank=True)
    player_names = models.JSONField(default=list, blank=True,
                                    help_text="The four players' names as they were when this revision was recorded.")

    class Meta:
        ordering = ["hand", "version"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "version"], name="revision_version_unique"),
            models.UniqueConstraint(fields=["hand"], condition=Q(is_current=True), name="one_current_revision"),
        ]

    @property
    def players(self) -> list[Player]:
        return [self.player_0, self.player_1, self.player_2, self.player_3]

    @property
    def names(self) -> list[str]:
        """The four names as recorded with this revision (a later rename does not rewrite past hands)."""
        return list(self.player_names) if self.player_names else [p.name for p in self.players]


class PaymentQuerySet(models.QuerySet["Payment"]):
    def counted(self) -> "PaymentQuerySet":
        """Payments of the current revision of hands that are not voided."""
        return self.filter(revision__is_current=True, revision__hand__status=Hand.Status.RECORDED)

    def net_by_player(self) -> dict[int, Decimal]:
        """Return player id -> received minus paid, computed by the database."""
        net: dict[int, Decimal] = {}
        for row in self.values("payee_id").annotate(total=Sum("amount")):
            net[row["payee_id"]] = net.get(row["payee_id"], Decimal(0)) + row["total"]
        for row in self.values("payer_id").annotate(total=Sum("amount")):
            net[row["payer_id"]] = net.get(row["payer_id"], Decimal(0)) - row["total"]
        return net


class Payment(models.Model):
    """One payment of a hand revision, derived from its result (so totals are database sums)."""

    revision = models.ForeignKey(HandRevision, on_delete=models.PROTECT, related_name="payments")
    position = models.PositiveSmallIntegerField()
    event = models.PositiveSmallIntegerField(null=True, blank=True)
    payer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    payee = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    payer_seat = models.PositiveSmallIntegerField()
    payee_seat = models.PositiveSmallIntegerField()
    amount = models.DecimalField(max_digits=14, decimal_places=4)
    reason = models.CharField(max_length=20)

    objects = PaymentQuerySet.as_manager()

    class Meta:
        ordering = ["revision", "position"]


class AuditEntry(models.Model):
    """Who did what, when and why, with the before and after of every change."""

    class Action(models.TextChoices):
        NIGHT_CREATED = "night_created", _("创建牌局")
        HAND_RECORDED = "hand_recorded", _("记录一局")
        HAND_CORRECTED = "hand_corrected", _("更正一局")
        HAND_VOIDED = "hand_voided", _("作废一局")
        SEAT_CHANGED = "seat_changed", _("换人")
        NIGHT_CLOSED = "night_closed", _("结束牌局")

    night = models.ForeignKey(Night, on_delete=models.PROTECT, related_name="audit")
    hand = models.ForeignKey(Hand, null=True, blank=True, on_delete=models.PROTECT, related_name="audit")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=20, choices=Action.choices)
    reason = models.CharField(max_length=200, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["night", "at", "id"], name="audit_night_at_id")]  # pages, newest first
        verbose_name = _("审计记录")
        verbose_name_plural = _("审计记录")


from .idempotency import IdempotencyRecord  # noqa: E402  (exactly-once API writes, issue 9)
from .join.models import NightLink  # noqa: E402,F401  (invite and view links: their own module, this app)
