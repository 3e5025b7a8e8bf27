"""Players: a person at the table of one group, reusable across its nights."""
from __future__ import annotations

from typing import Any

from django.conf import settings

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


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
