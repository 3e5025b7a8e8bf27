"""What each night brought each of its players, kept with every change of the night, so that statistics add up
one row per night and player instead of one per hand (ledger.services.standings writes them; ledger.selectors.stats
reads them)."""
from __future__ import annotations

from django.db import models

from ledger.models.nights import Night
from ledger.models.players import Player


class NightStanding(models.Model):
    """One player's line of one night: the hands that count (current revisions of hands not voided), the player's
    fee share and the penalties and adjustments (罚分/调整) that count. Derived: `ledger.services.standings` keeps
    it in the transaction of every change that moves it, and can recompute it from the rows it sums
    (`manage.py check_ledger` compares the two)."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="standings")  # derived
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="standings")
    hands = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)  # each win (血流成河: several a hand)
    won_hands = models.PositiveIntegerField(default=0)  # hands the player won in, once each (the win rate's count)
    self_draws = models.PositiveIntegerField(default=0)
    deal_in_hands = models.PositiveIntegerField(default=0)  # hands in which the player's discard paid a winner
    hands_net = models.DecimalField(max_digits=16, decimal_places=4, default=0)
    fee = models.DecimalField(max_digits=16, decimal_places=4, default=0)  # the fee share (FeeShare), 0 while open
    adjusted = models.DecimalField(max_digits=16, decimal_places=4, default=0)

    class Meta:
        ordering = ["night", "player"]
        constraints = [models.UniqueConstraint(fields=["night", "player"], name="one_standing_per_night_player")]
        indexes = [models.Index(fields=["player", "night"], name="standing_player")]

    def __str__(self) -> str:
        return f"{self.night_id}/{self.player_id}"
