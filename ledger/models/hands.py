"""Hands: each hand's revisions (the record and its result, payments included), seat results and wins."""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ledger.models.players import Player
from ledger.models.nights import Night


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


def win_amounts(result: dict[str, Any]) -> dict[tuple[int, int], Decimal]:
    """(event, seat) -> what that win itself brought (its self-draw or discard payments)."""
    amounts: dict[tuple[int, int], Decimal] = {}
    for payment in result["payments"]:
        if payment["reason"] in ("self_draw", "discard"):
            key = (payment["event"], payment["to"])
            amounts[key] = amounts.get(key, Decimal(0)) + Decimal(payment["amount"])
    return amounts


def seat_results(result: dict[str, Any], players: list[Player]) -> list[SeatResult]:
    """The seats' results of a hand result document (HAND_FORMAT.md output), unsaved: one per seat of the table."""
    amounts = win_amounts(result)
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
    amounts = win_amounts(result)
    return [WinResult(event=w["event"], seat=w["player"], player=players[w["player"]], self_drawn=w["from"] is None,
                      pattern=w["pattern"], fan=w["fan"], amount=amounts.get((w["event"], w["player"]), Decimal(0)))
            for w in result["wins"]]
