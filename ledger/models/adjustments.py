"""Penalties and adjustments between hands (罚分/调整), and sign-offs (签字确认) of a closed night."""
from __future__ import annotations


from django.conf import settings

from django.db import models
from django.utils.translation import gettext_lazy as _

from ledger.models.players import Player
from ledger.models.nights import Night
from ledger.models.hands import Hand


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
