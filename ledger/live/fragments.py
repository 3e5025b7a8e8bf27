"""The pieces of a night's pages (head, seats, hand cards, settlement): one template each, rendered the same
for the first load and for a live update."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Callable, Sequence

from django.db.models import Max, Q
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring import Plan, format_amount

from ..forms import SEAT_LABELS
from ..models import AuditEntry, Hand, Night
from ..evenings.presenters import fee_rule
from ..presenters import describe_hands, money, stake_amount
from ..selectors import (TABLE_FEE, Summary, Total, night_fee, night_hands_query, night_next_dealer, night_outcome,
                         night_seating, night_totals)

#: Hands per page of a hand list (newest first; older pages by `?before=N`).
HANDS_PER_PAGE = 20

TEMPLATES = {"head": "live/head.html", "seats": "live/seats.html", "settlement": "live/settlement.html"}


def head(night: Night, top: int | None = None) -> dict[str, Any]:
    """The night's title line; `top` is the last hand's number when the caller has read it already."""
    number = (night.hands.aggregate(top=Max("number"))["top"] or 0 if top is None else top) + 1
    fee = night_fee(night)
    # The seats' totals are after the table fee: say so, with its rule, where the table can see it.
    return {"night": night, "hand_number": number, "base": format_amount(night.base),
            "fee_rule": fee_rule(fee, night) if fee.mode != "none" else ""}


def seats(night: Night, dealer: int | None = None) -> list[dict[str, Any]]:
    """The four seats now: player, running total, dealer of the next hand (read here unless given)."""
    dealer = night_next_dealer(night) if dealer is None else dealer
    totals = {t.player.pk: t.amount for t in night_totals(night)}
    amounts = [(s, p, totals.get(p.pk, Decimal(0))) for s, p in enumerate(night_seating(night))]
    return [{"seat": s, "label": SEAT_LABELS[s], "player": p, "total": money(amount), "positive": amount > 0,
             "negative": amount < 0, "dealer": s == dealer} for s, p, amount in amounts]


def settlement(night: Night, outcome: tuple[Summary, Sequence[Total], Plan] | None = None) -> dict[str, Any]:
    """Each player's net and the fewest transfers that settle the night, and how they were found (read here
    unless given: `selectors.night_outcome`)."""
    summary, totals, plan = night_outcome(night) if outcome is None else outcome
    fee = summary.fee
    return {"night": night, "plan": plan, "fee": fee_line(night, fee),
            "totals": [{"name": t.player.name, "amount": money(t.amount), "positive": t.amount > 0,
                        "negative": t.amount < 0, "fee": stake_amount(t.fee, night) if t.fee else ""} for t in totals],
            "transfers": [{"from": t.payer.name, "to": t.payee.name, "amount": format_amount(t.amount),
                           "fee": t.payee is TABLE_FEE} for t in plan.transfers]}


def fee_line(night: Night, collected: Decimal) -> dict[str, Any] | None:
    """The 台费 line of a night's totals (None for a night without a fee): the rule in words and what it collected,
    so the players' nets plus this amount sum to zero."""
    fee = night_fee(night)
    if fee.mode == "none":
        return None
    return {"rule": fee_rule(fee, night), "amount": money(collected), "positive": collected > 0}


def hand_cards(hands: list[Hand]) -> list[dict[str, Any]]:
    """Hands in words, with their nets and dealers (the hands come from `night_hands_query`)."""
    revisions = [hand.current_list[0] for hand in hands]  # type: ignore[attr-defined]
    cards: list[dict[str, Any]] = []
    if not hands:
        return cards
    # Two reverse() per card add up on a page of twenty: reverse once with a placeholder number instead.
    correct = reverse("hand-correct", args=[hands[0].night_id, 999999999])
    void = reverse("hand-void", args=[hands[0].night_id, 999999999])
    for hand, revision, lines in zip(hands, revisions, describe_hands(revisions)):
        names = revision.names  # as recorded with the revision
        net = [{"name": names[s], "amount": money(a)} for s, a in enumerate(revision.result["net"])]
        number = str(hand.number)
        cards.append({"hand": hand, "revision": revision, "lines": lines, "net": net, "dealer": names[revision.dealer],
                      "correct_url": correct.replace("999999999", number),
                      "void_url": void.replace("999999999", number)})
    return cards


def hand_page(night: Night, before: int | None) -> tuple[list[dict[str, Any]], int | None]:
    """A page of hands, newest first, before hand number `before`; and the cursor of the next page, if any."""
    query = night_hands_query(night).order_by("-number")
    if before is not None:
        query = query.filter(number__lt=before)
    hands = list(query[:HANDS_PER_PAGE + 1])
    older = hands[HANDS_PER_PAGE - 1].number if len(hands) > HANDS_PER_PAGE else None
    return hand_cards(hands[:HANDS_PER_PAGE]), older


def newest_cards(night: Night, count: int) -> list[dict[str, Any]]:
    """The newest `count` hands as cards (the table page shows the last one)."""
    return hand_cards(list(night_hands_query(night).order_by("-number")[:count]))


def stamp(night: Night) -> int:
    """A cursor on the night's changes: its latest audit entry."""
    return night.audit.aggregate(top=Max("id"))["top"] or 0


def changes(request: HttpRequest, night: Night, *, after: int, since: int, pieces: set[str],
            can_write: bool) -> dict[str, Any]:
    """What a page needs to catch up: hands after number `after` or changed since `since`, and fresh pieces."""
    changed = set(AuditEntry.objects.filter(night=night, id__gt=since, hand__isnull=False)
                  .values_list("hand__number", flat=True))
    hands = night_hands_query(night).filter(Q(number__gt=after) | Q(number__in=changed))
    context = {"night": night, "can_write": can_write and not night.is_closed}
    # Bounded: a page that missed more than a page of hands gets the newest (the rest are on older pages).
    newest = list(hands.order_by("-number")[:HANDS_PER_PAGE])[::-1]
    cards = [{"number": card["hand"].number,
              "html": render_to_string("live/hand_card.html", {**context, "item": card}, request)}
             for card in hand_cards(newest)]
    rendered = {}
    for piece in pieces & set(TEMPLATES):
        readers: dict[str, Callable[[Night], Any]] = {"head": head, "seats": seats, "settlement": settlement}
        data = readers[piece](night)
        rendered[piece] = render_to_string(TEMPLATES[piece], {**context, piece: data, "writable": can_write}, request)
    last = night.hands.aggregate(top=Max("number"))["top"] or 0
    return {"hands": cards, "pieces": rendered, "last": last, "stamp": stamp(night), "hand_count": last,
            "next_dealer": night_next_dealer(night), "closed": night.is_closed}


def live_config(night: Night, *, socket: str, fragments: str, pieces: list[str], newest: bool,
                keep: int | None = None, last: int | None = None) -> dict[str, Any]:
    """What `live.js` needs: where to listen, where to fetch, and where the page stands (`last`: the last hand's
    number when the caller has read it already)."""
    if last is None:
        last = night.hands.aggregate(top=Max("number"))["top"] or 0
    return {"socket": socket, "fragments": fragments, "pieces": pieces, "newest": newest, "keep": keep,
            "last": last, "stamp": stamp(night),
            "strings": {"roleChanged": _("你的权限变了"), "reload": _("刷新页面")}}


def cursor(value: str | None) -> int | None:
    """A hand-number cursor from the query string (`?before=N`); None when absent or not a positive number."""
    return int(value) if value and value.isdigit() and int(value) > 0 else None
