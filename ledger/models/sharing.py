"""The links of a night: an invite link that makes whoever opens it a member, a view link needing no account."""
from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

#: Bytes of randomness in a link token: 24 bytes = 192 bits (at least 128 are required), 32 URL-safe characters.
TOKEN_BYTES = 24


def new_token() -> str:
    """A fresh unguessable token for a link."""
    return secrets.token_urlsafe(TOKEN_BYTES)


class NightLinkQuerySet(models.QuerySet["NightLink"]):
    def active(self) -> "NightLinkQuerySet":
        """Links that still work (not revoked)."""
        return self.filter(revoked_at__isnull=True)


class NightLink(models.Model):
    """A shareable link to a night; never deleted: turning it off or renewing it revokes it."""

    class Kind(models.TextChoices):
        INVITE = "invite", _("邀请链接")
        VIEW = "view", _("查看链接")

    night = models.ForeignKey("ledger.Night", on_delete=models.CASCADE, related_name="links")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    token = models.CharField(max_length=64, unique=True, default=new_token)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = NightLinkQuerySet.as_manager()

    class Meta:
        ordering = ["night", "kind", "-created_at"]
        constraints = [models.UniqueConstraint(fields=["night", "kind"], condition=Q(revoked_at__isnull=True),
                                               name="one_active_link_per_kind")]
        verbose_name = _("链接")
        verbose_name_plural = _("链接")

    def __str__(self) -> str:
        return f"{self.night_id} {self.kind}"


class AccountLanguage(models.Model):
    """The language a signed-in user chose with the header's switch, so it follows the account to a new phone."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="language_choice")
    language = models.CharField(max_length=10, choices=settings.LANGUAGES)
    updated_at = models.DateTimeField(auto_now=True)
