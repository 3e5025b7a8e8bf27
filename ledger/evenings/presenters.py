"""Words for the table fee (台费) and settlements: the fee's rule in a line, a transfer's parties."""
from __future__ import annotations

from django.utils.translation import gettext as _

from scoring import Fee

from ..models import Night
from ..presenters import stake_amount


def fee_rule(fee: Fee, night: Night) -> str:
    """The fee's rule in words, in the night's stake: 每人 ¥5 / 赢家按赢的比例分 ¥30 / 每次自摸 ¥1."""
    amount = stake_amount(fee.amount, night)
    if fee.mode == "per_player":
        return _("每人 %(amount)s") % {"amount": amount}
    if fee.mode == "winners":
        return _("赢家按赢的比例分摊 %(amount)s") % {"amount": amount}
    if fee.mode == "per_win":
        if fee.wins == "self_draw":
            return _("每次自摸 %(amount)s") % {"amount": amount}
        return _("每次胡牌 %(amount)s") % {"amount": amount}
    return _("不收台费")
