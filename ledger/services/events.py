"""What happened to a night, told to everyone watching it once the write is committed.

The services call one function per kind of change, inside their transaction; the message goes to the
night's group with ``transaction.on_commit``, so a write that rolls back publishes nothing.
"""
from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction

from ledger.models import Hand, Night
from ledger.selectors.nights import night_next_dealer

log = logging.getLogger(__name__)

HAND_RECORDED, HAND_CORRECTED, HAND_VOIDED = "hand_recorded", "hand_corrected", "hand_voided"
SEAT_CHANGED, NIGHT_CLOSED, TRANSFER_MARKED = "seat_changed", "night_closed", "transfer_marked"
NIGHT_REOPENED = "night_reopened"
ADJUSTMENT_RECORDED, ADJUSTMENT_CORRECTED, ADJUSTMENT_VOIDED = ("adjustment_recorded", "adjustment_corrected",
                                                                "adjustment_voided")
CONFIRMATIONS_CHANGED = "confirmations_changed"
TABLE_ADDED, MONEY_CHANGED = "table_added", "money_changed"


def group_name(night_id: int) -> str:
    """The channel-layer group of the sockets following one night."""
    return f"night-{night_id}"


def members_name(group_id: int) -> str:
    """The channel-layer group of the members' sockets on any night of one group (圈子): told when membership
    changes, since a group's member sees its nights (view-link sockets do not listen here)."""
    return f"group-{group_id}"


def evening_name(evening_id: int) -> str:
    """The channel-layer group of the sockets following an evening's page. They also listen to each of its tables'
    night groups and to their group's money (`money_name`), so a hand costs no second message; only a table added
    is sent here."""
    return f"evening-{evening_id}"


def hand_recorded(hand: Hand, *, next_dealer: int) -> None:
    """A new hand: it is the night's newest, so its number is the count and its result names the next dealer."""
    _night_changed(hand.night, HAND_RECORDED, number=hand.number, next_dealer=next_dealer, hand_count=hand.number)


def hand_corrected(hand: Hand) -> None:
    _night_changed(hand.night, HAND_CORRECTED, number=hand.number)


def hand_voided(hand: Hand) -> None:
    _night_changed(hand.night, HAND_VOIDED, number=hand.number)


def adjustment_changed(adjustment: Any, kind: str) -> None:
    """A penalty or adjustment (罚分/调整) was recorded, corrected or voided: `adjustment` is its number (the hands'
    `number` stays None, so a page's hand count is not taken for it)."""
    _night_changed(adjustment.night, kind, adjustment=adjustment.number)


def confirmations_changed(night: Night) -> None:
    """A player confirmed the closed night (签字确认), or the confirmations were cleared."""
    _night_changed(night, CONFIRMATIONS_CHANGED)


def seat_changed(night: Night, seat: int) -> None:
    _night_changed(night, SEAT_CHANGED, seat=seat)


def night_closed(night: Night) -> None:
    _night_changed(night, NIGHT_CLOSED)


def night_reopened(night: Night) -> None:
    _night_changed(night, NIGHT_REOPENED)


def table_added(night: Night) -> None:
    """A table was added to an evening: the evening's open pages start following it and show it."""
    if night.evening_id is not None:
        _publish_to(evening_name(night.evening_id), {"type": "evening.table", "night": night.pk})


def money_name(group_id: int) -> str:
    """The channel-layer group of the evening pages of one group (圈子): told when its debts move, since an evening's
    carry-over (把之前没付的一起结) lists the group's unpaid transfers, whichever night or evening fixed them."""
    return f"money-{group_id}"


def money_changed(group_id: int) -> None:
    """A settlement was fixed, or one of its transfers marked paid or unpaid: the group's evening pages look again
    (a walk: one showed a carry-over of a transfer paid meanwhile, and 结算 fixed other amounts than it showed)."""
    _publish_to(money_name(group_id), {"type": "night.event", "event": {"kind": MONEY_CHANGED, "group": group_id}})


def transfer_marked(settlement: Any) -> None:
    """A transfer of a fixed settlement was marked paid or unpaid: the nights it settles show it (结账, view link),
    and so do the group's evening pages (money_changed)."""
    money_changed(settlement.group_id)
    nights = ([settlement.night_id] if settlement.night_id is not None
              else list(Night.objects.filter(evening_id=settlement.evening_id).values_list("pk", flat=True)))
    for night_id in nights:
        publish(night_id, {"type": "night.event", "event": {"kind": TRANSFER_MARKED, "night": night_id,
                                                            "number": None, "next_dealer": None, "hand_count": None}})


def access_revoked(night: Night, *, user_id: int | None = None, link_id: int | None = None) -> None:
    """A member was removed or a view link turned off: the sockets they hold are closed (never sent to pages)."""
    publish(night.pk, {"type": "access.revoked", "user_id": user_id, "link_id": link_id})


def role_changed(night: Night, *, user_id: int) -> None:
    """A member became a scorekeeper or the other way round: their open pages offer to reload."""
    publish(night.pk, {"type": "access.changed", "user_id": user_id})


def group_access_revoked(group_id: int, *, user_id: int) -> None:
    """Someone left (or was taken out of) a group: their sockets on its nights close, unless they still may see
    the night otherwise (its owner, a member of the night itself): each socket checks."""
    _publish_to(members_name(group_id), {"type": "access.revoked", "user_id": user_id})


def group_role_changed(group_id: int, *, user_id: int) -> None:
    """A group member's role changed: their open pages of its nights offer to reload (their rights changed)."""
    _publish_to(members_name(group_id), {"type": "access.changed", "user_id": user_id})


def _night_changed(night: Night, kind: str, **extra: Any) -> None:
    # Read inside the writer's transaction, after its write (unless the writer knows): what the pages will fetch.
    event = {"kind": kind, "night": night.pk, "number": extra.pop("number", None),
             "next_dealer": extra.pop("next_dealer", None), "hand_count": extra.pop("hand_count", None), **extra}
    if event["next_dealer"] is None:
        event["next_dealer"] = night_next_dealer(night)
    if event["hand_count"] is None:
        event["hand_count"] = night.hands.count()
    publish(night.pk, {"type": "night.event", "event": event})


def publish(night_id: int, message: dict[str, Any]) -> None:
    """Send a message to the night's group when the current transaction commits (at once outside one)."""
    _publish_to(group_name(night_id), message)


def _publish_to(name: str, message: dict[str, Any]) -> None:
    transaction.on_commit(lambda: _send(name, message))


def _send(name: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    if isinstance(layer, InMemoryChannelLayer) and not layer.groups.get(name):
        # In memory, only this process's sockets can listen; with none for this night there is nobody to tell,
        # and async_to_sync (a loop in a thread) would cost a write ~2.5 ms of CPU for nothing (issue 10).
        return
    try:
        async_to_sync(layer.group_send)(name, message)
    except Exception:  # the write is committed; a channel layer that is down must not turn it into an error
        log.exception("could not publish %s to %s", message.get("type"), name)
