"""The audit trail: who did what, when and why, with the before and after of every change."""
from __future__ import annotations


from django.conf import settings

from django.db import models
from django.utils.translation import gettext_lazy as _

from ledger.models.nights import Night
from ledger.models.hands import Hand


class AuditEntry(models.Model):
    """Who did what, when and why, with the before and after of every change."""

    class Action(models.TextChoices):
        NIGHT_CREATED = "night_created", _("创建牌局")
        HAND_RECORDED = "hand_recorded", _("记录一局")
        HAND_CORRECTED = "hand_corrected", _("更正一局")
        HAND_VOIDED = "hand_voided", _("作废一局")
        SEAT_CHANGED = "seat_changed", _("换人")
        NIGHT_CLOSED = "night_closed", _("结束牌局")
        NIGHT_REOPENED = "night_reopened", _("重新打开牌局")
        NIGHT_DELETED = "night_deleted", _("删除牌局")
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
