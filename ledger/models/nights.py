"""The ledger's records: players, nights, hands (with every revision), payments and the audit trail."""
from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

from django.conf import settings
from dataclasses import dataclass

from django.db import models
from django.db.models import Exists, OuterRef, Q, Subquery, Sum
from django.utils.translation import gettext_lazy as _

#: The seats a hand revision can hold (its columns player_0..3); a night uses the first `Night.seat_count`.
SEATS = (0, 1, 2, 3)


class PlayerQuerySet(models.QuerySet["Player"]):
    def visible_to(self, user: Any) -> "PlayerQuerySet":
        """Players of the user's groups (merged-away players included: their hands still name them)."""
        from ledger.models.groups import Group
        return self.filter(group__in=Group.objects.visible_to(user))

    def active(self) -> "PlayerQuerySet":
        """Players not merged into another."""
        return self.filter(merged_into__isnull=True)


class Player(models.Model):
    """A person at the table of one group, reusable across its nights (names are unique within the group)."""

    group = models.ForeignKey("ledger.Group", on_delete=models.PROTECT, related_name="players")
    name = models.CharField(_("名字"), max_length=40)
    #: The account of this person, if they claimed the name; a user may be a player in several groups.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="players")
    #: When the account claimed the name (这是我): a claim made after a settlement does not let its account mark
    #: that settlement's transfers paid (see rights.may_mark_transfer). None for older claims.
    claimed_at = models.DateTimeField(null=True, blank=True)
    #: Set when this player was merged into another: every hand now names the other, this row stays for the audit.
    merged_into = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("玩家")
        verbose_name_plural = _("玩家")
        constraints = [
            models.UniqueConstraint(fields=["group", "name"], condition=Q(merged_into__isnull=True),
                                    name="player_name_unique_in_group"),
            models.UniqueConstraint(fields=["group", "user"], name="one_player_per_user_in_group"),
        ]

    def __str__(self) -> str:
        return self.name


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
    #: Bumped by every audit entry of the night, in the change's transaction (ledger.services.audit): part of cache keys.
    generation = models.PositiveBigIntegerField(default=0, editable=False)

    objects = NightQuerySet.as_manager()

    #: What a night's pages show besides the night, read with it by selectors.night_for_page (absent otherwise).
    page: "NightPage"

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
    #: Empty at a table of fewer seats (RULES.md §9 `players`: 3 leaves player_3 empty, 2 both).
    player_2 = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    player_3 = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    record = models.JSONField(help_text="The hand record (HAND_FORMAT.md) as entered, with base, rules and dealer.")
    result = models.JSONField(help_text="The output document of scoring.score_hand for the record.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    reason = models.CharField(max_length=200, blank=True)
    player_names = models.JSONField(default=list, blank=True,
                                    help_text="The players' names as they were when this revision was recorded.")

    class Meta:
        ordering = ["hand", "version"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "version"], name="revision_version_unique"),
            models.UniqueConstraint(fields=["hand"], condition=Q(is_current=True), name="one_current_revision"),
        ]

    @property
    def players(self) -> list[Player]:
        """The players of the table's seats (two, three or four)."""
        return [p for p in (self.player_0, self.player_1, self.player_2, self.player_3) if p is not None]

    @property
    def names(self) -> list[str]:
        """The seats' names as recorded with this revision (a later rename does not rewrite past hands)."""
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
        GROUP_CREATED = "group_created", _("创建圈子")
        GROUP_CHANGED = "group_changed", _("修改圈子")
        MEMBER_CHANGED = "member_changed", _("成员变动")
        PLAYER_RENAMED = "player_renamed", _("玩家改名")
        PLAYER_MERGED = "player_merged", _("合并玩家")
        SETTLED = "settled", _("结算")
        TRANSFER_PAID = "transfer_paid", _("标记已付")
        TRANSFER_UNPAID = "transfer_unpaid", _("撤销已付")
        ADJUSTMENT_RECORDED = "adjustment_recorded", _("记录罚分/调整")
        ADJUSTMENT_CORRECTED = "adjustment_corrected", _("更正罚分/调整")
        ADJUSTMENT_VOIDED = "adjustment_voided", _("作废罚分/调整")
        NIGHT_CONFIRMED = "night_confirmed", _("确认结果")
        CONFIRMS_CLEARED = "confirms_cleared", _("确认已清除")

    #: The night changed, or None for a change of a group as a whole (players, members, settlements).
    night = models.ForeignKey(Night, null=True, blank=True, on_delete=models.PROTECT, related_name="audit")
    group = models.ForeignKey("ledger.Group", null=True, blank=True, on_delete=models.PROTECT, related_name="audit")
    hand = models.ForeignKey(Hand, null=True, blank=True, on_delete=models.PROTECT, related_name="audit")
    adjustment = models.ForeignKey("ledger.Adjustment", null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="audit")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=20, choices=Action.choices)
    reason = models.CharField(max_length=200, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["night", "at", "id"], name="audit_night_at_id"),  # pages, newest first
                   models.Index(fields=["group", "at", "id"], name="audit_group_at_id")]
        verbose_name = _("审计记录")
        verbose_name_plural = _("审计记录")


class SeatResult(models.Model):
    """One seat of one hand revision: who sat there, their net, and how the hand went for them.

    Written with the revision (services._write_revision), so history, statistics and leaderboards are database
    aggregates over the revisions that count (current, hand not voided).
    """

    revision = models.ForeignKey(HandRevision, on_delete=models.CASCADE, related_name="seat_results")  # derived
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seat_results")
    net = models.DecimalField(max_digits=14, decimal_places=4)
    won = models.BooleanField(default=False)
    self_drawn = models.BooleanField(default=False)
    #: How many times this seat won in the hand (血流成河: any number; else 0 or 1), and how many of them by
    #: self-draw: wins are counted per win (statistics, a per-win table fee), the rows of each in WinResult.
    wins = models.PositiveSmallIntegerField(default=0)
    self_draws = models.PositiveSmallIntegerField(default=0)
    #: How many winners this seat's discards paid (一炮多响 counts each), 0 for none.
    dealt_in = models.PositiveSmallIntegerField(default=0)
    pattern = models.CharField(max_length=30, blank=True)  # the best win's pattern (most fan), "" if no win
    fan = models.PositiveSmallIntegerField(null=True, blank=True)  # the best win's fan
    won_amount = models.DecimalField(max_digits=14, decimal_places=4, default=0)  # what the wins themselves brought

    class Meta:
        ordering = ["revision", "seat"]
        constraints = [models.UniqueConstraint(fields=["revision", "seat"], name="one_result_per_seat")]
        indexes = [models.Index(fields=["player", "revision"], name="seat_result_player")]


class Adjustment(models.Model):
    """A penalty or a fixed transfer between seats (罚分/调整), made between hands; never deleted: corrected (its
    values change, the audit entry keeps the old ones) or voided.

    Adjustments have their own numbers per night (1, 2, 3…, gap-free, taken under the night's row lock), apart
    from the hands' (a penalty is not a 局); `after_hand` is the last hand's number when it was made (0 before the
    first), which places it between the hands.
    """

    class Kind(models.TextChoices):
        ZHA_HU = "zha_hu", _("诈胡")
        TRANSFER = "transfer", _("转账")

    night = models.ForeignKey(Night, on_delete=models.PROTECT, related_name="adjustments")
    number = models.PositiveIntegerField()
    after_hand = models.PositiveIntegerField(default=0)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Hand.Status.choices, default=Hand.Status.RECORDED)
    void_reason = models.CharField(max_length=200, blank=True)
    #: The seat that pays (诈胡: the false winner, who pays every other seat; a transfer: its payer).
    payer_seat = models.PositiveSmallIntegerField()
    #: The seat that receives a transfer; None for 诈胡 (every other seat receives).
    payee_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    fan = models.PositiveSmallIntegerField(null=True, blank=True)  # 诈胡 only
    #: What each receiving seat gets: base x 2^fan for 诈胡, the sum for a transfer.
    amount = models.DecimalField(max_digits=14, decimal_places=4)
    note = models.CharField(max_length=200, blank=True)  # a transfer's reason (迟到…)
    #: The four players' names at the time it was made (the seats it names); a later rename does not rewrite it.
    player_names = models.JSONField(default=list)
    version = models.PositiveIntegerField(default=1)  # 1, then +1 per correction
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["night", "number"]
        constraints = [models.UniqueConstraint(fields=["night", "number"], name="adjustment_number_unique_in_night")]
        verbose_name = _("罚分/调整")
        verbose_name_plural = _("罚分/调整")

    def __str__(self) -> str:
        return f"{self.night} adj #{self.number}"


class AdjustmentSeat(models.Model):
    """One seat's net of an adjustment (derived: rewritten on correction), so totals, history and leaderboards
    add adjustments with one aggregate, as they do the hands' seat results."""

    adjustment = models.ForeignKey(Adjustment, on_delete=models.CASCADE, related_name="seats")  # derived
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="adjustment_seats")
    net = models.DecimalField(max_digits=14, decimal_places=4)

    class Meta:
        ordering = ["adjustment", "seat"]
        constraints = [models.UniqueConstraint(fields=["adjustment", "seat"], name="one_adjustment_net_per_seat")]


class Confirmation(models.Model):
    """A player's sign-off (签字确认) of a closed night, by the account that claimed the player's name."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="confirmations")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)  # None: a player substituted out before the close
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["night", "seat"]
        constraints = [models.UniqueConstraint(fields=["night", "player"], name="one_confirmation_per_player")]


class WinResult(models.Model):
    """One win of one hand revision (a 血流成河 hand holds many, several by one player): who won, how, and what
    the win itself brought. Written with the revision, so a player's biggest wins and favourite patterns count
    each win."""

    revision = models.ForeignKey(HandRevision, on_delete=models.CASCADE, related_name="win_results")  # derived
    event = models.PositiveSmallIntegerField()  # the win event's index in the record
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="win_results")
    self_drawn = models.BooleanField(default=False)
    pattern = models.CharField(max_length=30)
    fan = models.PositiveSmallIntegerField()
    amount = models.DecimalField(max_digits=14, decimal_places=4, default=0)

    class Meta:
        ordering = ["revision", "event", "seat"]
        constraints = [models.UniqueConstraint(fields=["revision", "event", "seat"], name="one_result_per_win")]
        indexes = [models.Index(fields=["player", "revision"], name="win_result_player")]


def _win_amounts(result: dict[str, Any]) -> dict[tuple[int, int], Decimal]:
    """(event, seat) -> what that win itself brought (its self-draw or discard payments)."""
    amounts: dict[tuple[int, int], Decimal] = {}
    for payment in result["payments"]:
        if payment["reason"] in ("self_draw", "discard"):
            key = (payment["event"], payment["to"])
            amounts[key] = amounts.get(key, Decimal(0)) + Decimal(payment["amount"])
    return amounts


def seat_results(result: dict[str, Any], players: list[Player]) -> list[SeatResult]:
    """The seats' results of a hand result document (HAND_FORMAT.md output), unsaved: one per seat of the table."""
    amounts = _win_amounts(result)
    rows = []
    for seat, player in enumerate(players):
        wins = [w for w in result["wins"] if w["player"] == seat]
        # The best win shows for the hand (most fan; the first of equals), as a single hand of 血战 shows its win.
        best = max(wins, key=lambda w: w["fan"]) if wins else None
        rows.append(SeatResult(
            seat=seat, player=player, net=Decimal(result["net"][seat]), won=bool(wins),
            self_drawn=any(w["from"] is None for w in wins), wins=len(wins),
            self_draws=sum(1 for w in wins if w["from"] is None),
            dealt_in=sum(1 for w in result["wins"] if w["from"] == seat),
            pattern=best["pattern"] if best else "", fan=best["fan"] if best else None,
            won_amount=sum((a for (_e, s), a in amounts.items() if s == seat), Decimal(0))))
    return rows


def win_results(result: dict[str, Any], players: list[Player]) -> list[WinResult]:
    """Every win of a hand result document, one row each, unsaved."""
    amounts = _win_amounts(result)
    return [WinResult(event=w["event"], seat=w["player"], player=players[w["player"]], self_drawn=w["from"] is None,
                      pattern=w["pattern"], fan=w["fan"], amount=amounts.get((w["event"], w["player"]), Decimal(0)))
            for w in result["wins"]]


# Every model of the app, importable from ledger.models (`X as X`: an explicit re-export).
from ledger.models.groups import Evening as Evening, FeeShare as FeeShare, Group as Group  # noqa: E402
from ledger.models.groups import GroupLink as GroupLink, GroupMember as GroupMember  # noqa: E402
from ledger.models.groups import Settlement as Settlement, SettlementTransfer as SettlementTransfer  # noqa: E402
from ledger.web.idempotency import IdempotencyRecord as IdempotencyRecord  # noqa: E402  (exactly-once API writes)
from ledger.web.counters import RateCounter as RateCounter  # noqa: E402  (the rate limits' counters)
from ledger.models.sharing import AccountLanguage as AccountLanguage, NightLink as NightLink  # noqa: E402
