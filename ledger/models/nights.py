"""The ledger's records: players, nights, hands (with every revision), payments and the audit trail."""
from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from django.conf import settings
from dataclasses import dataclass

from django.db import models
from django.db.models import Exists, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

#: The seats a hand revision can hold (its columns player_0..3); a night uses the first `Night.seat_count`.
SEATS = (0, 1, 2, 3)

from ledger.models.players import Player

#: Until this hour a table still belongs to the day before: Friday's second table, begun at 00:30, is 周五夜 on
#: Friday's date, beside the first (a walk began a night at 05:09 on Tuesday and was offered 周二夜 on Tuesday's date).
NIGHT_DAY_STARTS_AT = 6


def night_day(now: dt.datetime | None = None) -> dt.date:
    """The day a night begun now is played on, in the site's time zone (``NIGHT_DAY_STARTS_AT``): what the night
    and evening forms offer as its date and its title's weekday."""
    return (timezone.localtime(now) - dt.timedelta(hours=NIGHT_DAY_STARTS_AT)).date()


class NightQuerySet(models.QuerySet["Night"]):
    def visible_to(self, user: Any) -> "NightQuerySet":
        """Nights the user may see: those of the user's groups, plus nights owned, or a member or scorekeeper of
        (the night-level grants stay as a finer grant for people outside the group)."""
        if not user.is_authenticated:
            return self.none()
        from ledger.models.groups import GroupMember
        # EXISTS rather than joins + DISTINCT: one row per night without comparing whole rows (issue 10).
        member = Night.members.through.objects.filter(night=OuterRef("pk"), user=user)
        keeper = Night.scorekeepers.through.objects.filter(night=OuterRef("pk"), user=user)
        in_group = GroupMember.objects.filter(group=OuterRef("group_id"), user=user)
        return self.filter(Q(owner=user) | Exists(member) | Exists(keeper) | Exists(in_group))

    def first_tables_last_first(self) -> "NightQuerySet":
        """Newest day first and, within a day, its first table: the lowest table number (a night outside an evening
        has none and counts as a first table), then the one made first. ``.first()`` of a group's nights is "the
        group's last table", which a new night's defaults and names come from (services.groups.group_night_defaults,
        selectors.nights.last_table_names): an evening's second table, a three-player 两房 beside the usual four, is
        not what next week's first table is (a walk)."""
        return self.order_by("-date", Coalesce("table_no", 1), "id")

    def with_seat_names(self) -> "NightQuerySet":
        """Annotate the names of the players in seats 0-3 now, for lists of nights (`Night.seat_names`)."""
        return self.annotate(**{f"seat_{s}_name": Subquery(Seating.objects.filter(night=OuterRef("pk"), seat=s)
                                                           .values("player__name")[:1]) for s in SEATS})


@dataclass(frozen=True)
class NightPage:
    """What a night's pages show besides the night itself, read with it in one statement (selectors.night_for_page).

    `top_number` is the last hand's number (0 before the first), `counted_number` the last one that counts (the one
    更正 offers); `newest` is the last hand's (current revision id, status, void reason); `latest_audit` the
    night's change cursor; `seats` (player id, name) of seats 0-3; the invite links' tokens, if on.
    """

    can_write: bool
    group_writer: bool
    top_number: int
    counted_number: int | None
    next_dealer: int
    newest: tuple[int, str, str] | None
    latest_audit: int
    group_name: str
    group_link: str | None
    invite_link: str | None
    seats: tuple[tuple[int, str], ...]


def page_of(night: "Night") -> NightPage:
    """The page facts of a night read by selectors.night_for_page (the night pages' and their fragments' one read)."""
    if night.page is None:
        raise ValueError(f"night {night.pk} was not read by night_for_page")
    return night.page


class Night(models.Model):
    """A session at one table (一场): its stake and house rules, frozen at creation."""

    class Stake(models.TextChoices):
        MONEY = "money", _("钱")
        POINTS = "points", _("积分")

    group = models.ForeignKey("ledger.Group", on_delete=models.PROTECT, related_name="nights")
    #: The evening this night is a table of (tables 1, 2, 3… of one date and venue), if any.
    evening = models.ForeignKey("ledger.Evening", null=True, blank=True, on_delete=models.PROTECT,
                                related_name="nights")
    table_no = models.PositiveSmallIntegerField(_("桌号"), null=True, blank=True)
    #: The table fee (台费), chosen at creation and frozen: see scoring.fees.
    fee = models.JSONField(_("台费"), default=dict, blank=True)
    title = models.CharField(_("名称"), max_length=80)
    date = models.DateField(_("日期"))
    venue = models.CharField(_("地点/桌号"), max_length=80, blank=True)
    base = models.DecimalField(_("底金"), max_digits=12, decimal_places=2)
    stake = models.CharField(_("计分方式"), max_length=10, choices=Stake.choices, default=Stake.MONEY)
    currency = models.CharField(_("币种"), max_length=8, blank=True, default="CNY")
    preset = models.CharField(_("规则预设"), max_length=20, default="chengdu")
    rules = models.JSONField(_("规则"), help_text="Every option of RULES.md §8, frozen when the night is created.")
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

    #: What a night's pages show besides the night, read with it by selectors.night_for_page; None for a night
    #: read otherwise (a plain attribute, not a column). `page_of(night)` gives it where a page must have it.
    page: "NightPage | None" = None

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("牌局")
        verbose_name_plural = _("牌局")

    def __str__(self) -> str:
        return f"{self.title} ({self.date})"

    @property
    def seat_names(self) -> list[str]:
        """The names of the players in the night's seats now (annotated by NightQuerySet.with_seat_names, else
        read)."""
        if hasattr(self, "seat_0_name"):
            # A smaller table's missing seats read as None (the rules may not be loaded: lists defer them).
            return [name for s in SEATS if (name := getattr(self, f"seat_{s}_name")) is not None]
        return [s.player.name for s in self.seating.select_related("player").order_by("seat")]

    @property
    def seat_count(self) -> int:
        """How many seats this night's table (RULES.md §9 `players`, frozen with its rules; 4 for older nights)."""
        return int((self.rules or {}).get("players", len(SEATS)))

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats of this night's table: 0 … seat_count − 1."""
        return SEATS[:self.seat_count]


class Seating(models.Model):
    """Who sits in each seat now; a player may be substituted between hands."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="seating")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["seat"]
        constraints = [models.UniqueConstraint(fields=["night", "seat"], name="one_player_per_seat"),
                       models.UniqueConstraint(fields=["night", "player"], name="one_seat_per_player")]
