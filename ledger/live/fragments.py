"""The pieces of a night's pages (head, seats, hand cards, settlement): one template each, rendered the same
for the first load and for a live update."""
from __future__ import annotations

import hashlib
from decimal import Decimal
from functools import cache
from typing import Any, Callable, Sequence

from django.core.cache import caches
from django.db.models import Max, OuterRef, Prefetch, Q, QuerySet, Subquery, prefetch_related_objects
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext as _

from scoring import Plan, format_amount

from ledger import rights
from ledger.web import params
from ledger.forms.nights import SEAT_LABELS
from ledger.models import Adjustment, AuditEntry, Hand, HandRevision, Night, Player, Seating, Settlement, page_of
from ledger.presenters.evenings import fee_rule, settlement_rows
from ledger.selectors.evenings import settlement_of
from ledger.presenters.nights import (base_words, describe_adjustment, describe_hands, hand_count, house_rules_words,
                                     money, stake_amount)
from ledger.selectors.nights import (TABLE_FEE, Party, Summary, Total, night_fee, night_hands_query, night_next_dealer,
                         night_outcome, night_seating, night_totals)

#: Hands per page of a hand list (newest first; older pages by `?before=N`).
HANDS_PER_PAGE = 20

TEMPLATES = {"head": "live/head.html", "seats": "live/seats.html", "settlement": "live/settlement.html",
             "paid": "live/paid.html", "confirmations": "live/confirmations.html",
             "not_confirmed": "live/not_confirmed.html"}


def head(night: Night, top: int | None = None) -> dict[str, Any]:
    """The night's title line; `top` is the last hand's number when the caller has read it already."""
    number = (night.hands.aggregate(top=Max("number"))["top"] or 0 if top is None else top) + 1
    fee = night_fee(night)
    # A closed night says how many hands it had, as its reports do (voided ones included, and how many).
    count = (hand_count(number - 1, night.hands.exclude(status=Hand.Status.RECORDED).count())
             if night.is_closed else "")
    # The seats' totals are after the table fee: say so, with its rule, where the table can see it.
    # What the table plays beyond the usual four-player 血战 (its shape, its house rules), as the reports say it.
    return {"night": night, "hand_number": number, "base": base_words(night), "hand_count": count,
            "fee_rule": fee_rule(fee, night) if fee.mode != "none" else "",
            "house_rules": house_rules_words(night.rules) if isinstance(night.rules, dict) else ""}


def seats(night: Night, dealer: int | None = None, totals: Sequence[Total] | None = None) -> list[dict[str, Any]]:
    """The four seats now: player, running total, dealer of the next hand (each read here unless given)."""
    dealer = night_next_dealer(night) if dealer is None else dealer
    of = {t.player.pk: t for t in (night_totals(night) if totals is None else totals)}
    none = Decimal(0)
    amounts = [(s, p, of[p.pk].amount if p.pk in of else none, of[p.pk].fee if p.pk in of else none)
               for s, p in enumerate(night_seating(night))]
    # A total after the table fee says so (a walk: a seat that had won +4 read -6 after a ¥10-a-head fee).
    return [{"seat": s, "label": SEAT_LABELS[s], "player": p, "total": money(amount), "positive": amount > 0,
             "negative": amount < 0, "dealer": s == dealer, "fee": stake_amount(fee, night) if fee else ""}
            for s, p, amount, fee in amounts]


def settlement(night: Night, outcome: tuple[Summary, Sequence[Total], Plan[Party]] | None = None) -> dict[str, Any]:
    """Each player's net and the fewest transfers that settle the night, and how they were found (read here
    unless given: `selectors.night_outcome`)."""
    summary, totals, plan = night_outcome(night) if outcome is None else outcome
    fee = summary.fee
    # A night of its own, settled (结算): what is paid is the fixed settlement's, shown beside; listing these too
    # (which differ when older debts were taken in) read as a second bill.
    settled = night.is_closed and night.evening_id is None and Settlement.objects.filter(night=night).exists()
    return {"night": night, "plan": plan, "fee": fee_line(night, fee), "settled": settled,
            "totals": [{"name": t.player.name, "amount": money(t.amount), "positive": t.amount > 0,
                        "negative": t.amount < 0, "fee": stake_amount(t.fee, night) if t.fee else ""} for t in totals],
            "transfers": [{"from": t.payer.name, "to": t.payee.name, "amount": stake_amount(t.amount, night),
                           "fee": t.payee is TABLE_FEE} for t in plan.transfers]}


def paid(night: Night, user: Any, group_writer: bool | None = None) -> dict[str, Any] | None:
    """The night's fixed settlement (结算 of a night outside an evening) with who has paid, for this viewer (who
    may mark which transfer: nobody with `user` None and `group_writer` False); None when it has none."""
    fixed = settlement_of(night=night) if night.evening_id is None else None
    if fixed is None:
        return None
    if group_writer is None:
        group_writer = rights.may_write_group(user, night.group)
    return {**settlement_rows(fixed, user, group_writer, night), "next": reverse("night-settle", args=[night.pk])}


def confirmations(night: Night, user: Any) -> dict[str, Any]:
    """Who has confirmed the closed night (签字确认) and who not, the note when they were cleared, and whether this
    viewer may confirm (a player of the night whose name they claimed, not confirmed yet; None: nobody, e.g. a view
    link)."""
    from ledger.services.confirmations import clearing_note, in_use, night_signoffs, not_confirmed, players_of
    if not night.is_closed:
        return {"closed": False, "rows": [], "note": "", "can_confirm": False}
    rows = night_signoffs(night)
    mine = {pk for pk, _name, _seat in players_of(night, user)} if user is not None else set()
    pending = [r for r in rows if r.player_id in mine and not r.confirmed]
    # A signed-in viewer with no name in the group while some name here is unclaimed is shown where to claim it (a
    # walk: the card said nobody had claimed a name, and a friend reading it had no way on). One with a name in the
    # group claims no other (成员与邀请 says so): not led there (a review).
    claimable = (bool(getattr(user, "is_authenticated", False)) and not mine and any(not r.account for r in rows)
                 and not Player.objects.filter(group_id=night.group_id, user=user).exists())
    return {"closed": True, "rows": rows, "claimed": in_use(rows), "note": clearing_note(night),
            "can_confirm": bool(pending), "mine": "、".join(r.name for r in pending),
            "url": reverse("night-confirm", args=[night.pk]),
            "claim_url": f"{reverse('night-members', args=[night.pk])}#claim" if claimable else None,
            **not_confirmed(rows)}



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
    for hand, revision, lines in zip(hands, revisions, describe_hands(revisions)):
        names = revision.names  # as recorded with the revision
        net = [{"name": names[s], "amount": money(a)} for s, a in enumerate(revision.result["net"])]
        cards.append({"hand": hand, "revision": revision, "lines": lines, "net": net, "dealer": names[revision.dealer]})
    return cards


def _card_keys(hands: QuerySet[Hand]) -> list[dict[str, Any]]:
    """Number, status, void reason and current revision of each hand: what a card's key needs, in one light query."""
    current = HandRevision.objects.filter(hand=OuterRef("pk"), is_current=True).values("id")[:1]
    return [dict(row) for row in hands.values("number", "status", "void_reason", revision=Subquery(current))]


def _body_key(night: Night, revision: int, status: str, void_reason: str, language: str) -> str:
    """The "pieces" cache key of a card's words: all it is a function of (a revision never changes once written),
    and the night's UUID, since ids may be handed out again (a database restored under a running server)."""
    reason = hashlib.sha256(void_reason.encode()).hexdigest()[:16]  # any text: a key holds no spaces
    return f"hand-card:{night.uuid}:{revision}:{status}:{reason}:{language}"


def cards_html(request: HttpRequest, night: Night, rows: list[dict[str, Any]], *,
               editable: bool) -> list[tuple[int, str]]:
    """(number, HTML) of each hand's card, in the order of `rows` (from `_card_keys`); `editable`: the viewer may
    correct and void (and the night is open). A card's words come from the "pieces" cache, rendered only when not
    there; its form (the viewer's CSRF token) is rendered around them for this request, never kept."""
    language = get_language()
    pieces = caches["pieces"]
    keys = [_body_key(night, row["revision"], row["status"], row["void_reason"], language) for row in rows]
    found = pieces.get_many(keys)
    shown: dict[int, tuple[str, str | None]] = {row["number"]: (row["status"], found.get(key))
                                                 for row, key in zip(rows, keys)}
    missing = [number for number, (_status, words) in shown.items() if words is None]
    if missing:
        fresh: dict[str, str] = {}
        for card in hand_cards(list(night_hands_query(night).filter(number__in=missing))):
            hand = card["hand"]
            html = render_to_string("live/hand_card_body.html", {"item": card})
            # Under the key of what was rendered: a hand voided or corrected since `rows` were read is shown as it
            # is now.
            fresh[_body_key(night, card["revision"].pk, hand.status, hand.void_reason, language)] = html
            shown[hand.number] = (hand.status, html)
        pieces.set_many(fresh)
    # Two reverse() per card add up on a page of twenty: reverse once with a placeholder number instead.
    correct = reverse("hand-correct", args=[night.pk, 999999999])
    void = reverse("hand-void", args=[night.pk, 999999999])
    # The viewer's token, read once for the page's void forms (none when not `editable`: no cookie set for nothing);
    # the context processors would run once per card.
    token, shell = get_token(request) if editable else "", get_template("live/hand_card.html")
    cards: list[tuple[int, str]] = []
    for row in rows:
        number = row["number"]
        status, words = shown[number]
        cards.append((number, shell.render({
            "night": night, "can_write": editable, "number": number, "status": status,
            "body": mark_safe(words or ""),  # noqa: S308 (our template's output)
            "correct_url": correct.replace("999999999", str(number)),
            "void_url": void.replace("999999999", str(number)), "csrf_token": token})))
    return cards


def hand_page(request: HttpRequest, night: Night, before: int | None, *,
              editable: bool) -> tuple[list[tuple[int, str]], int | None]:
    """A page of hand cards (number, HTML), newest first, before hand number `before`; and the cursor of the next
    page, if any."""
    query = night.hands.order_by("-number")
    if before is not None:
        query = query.filter(number__lt=before)
    rows = _card_keys(query[:HANDS_PER_PAGE + 1])
    older = rows[HANDS_PER_PAGE - 1]["number"] if len(rows) > HANDS_PER_PAGE else None
    cards = cards_html(request, night, rows[:HANDS_PER_PAGE], editable=editable)
    return with_adjustments(request, night, cards, newest=before is None, oldest=older is None,
                            editable=editable), older


def newest_card(request: HttpRequest, night: Night, *, editable: bool) -> list[tuple[int, str]]:
    """The newest hand's card (the table page shows it), keyed by what `selectors.night_for_page` read, with the
    adjustments made since that hand (罚分/调整) above it. A closed night's page shows none where its newest hand was
    voided: the void was said when it was made, and the night's end is no hand (a walk: the closed table showed
    第 7 局 已作废 alone)."""
    page = page_of(night)
    if page.newest is None:
        return with_adjustments(request, night, [], newest=True, oldest=True, editable=editable)
    revision, status, void_reason = page.newest
    row = {"number": page.top_number, "status": status, "void_reason": void_reason, "revision": revision}
    cards = cards_html(request, night, [row], editable=editable)
    shown = with_adjustments(request, night, cards, newest=True, oldest=False, editable=editable)
    if night.is_closed and status == Hand.Status.VOIDED:  # the adjustments made since it still show (a review)
        return [item for item in shown if item != cards[0]]
    return shown


def adjustment_card(request: HttpRequest, night: Night, adjustment: Adjustment, *, editable: bool) -> str:
    """An adjustment's card (罚分/调整), shown between the hands it was made between."""
    from ledger.services.adjustments import adjustment_nets_of
    names = list(adjustment.player_names)
    nets = adjustment_nets_of(adjustment)
    item = {"adjustment": adjustment, "line": describe_adjustment(adjustment),
            "net": [{"name": names[s], "amount": money(a)} for s, a in enumerate(nets) if s < len(names)],
            "correct_url": reverse("adjustment-correct", args=[night.pk, adjustment.number]),
            "void_url": reverse("adjustment-void", args=[night.pk, adjustment.number])}
    return mark_safe(render_to_string("live/adjustment_card.html", {  # noqa: S308 (our template's output)
        "night": night, "can_write": editable, "item": item}, request))


def with_adjustments(request: HttpRequest, night: Night, hands: list[tuple[int, str]], *, newest: bool, oldest: bool,
                     editable: bool) -> list[tuple[int, str]]:
    """A page of hand cards (newest first) with the adjustments made between them, each right above the hand it
    followed; the newest page also shows those after its last hand, the oldest those before its first."""
    query = night.adjustments.all()
    if hands:
        low, high = hands[-1][0], hands[0][0]
        if not oldest:
            query = query.filter(after_hand__gte=low)
        if not newest:  # the page above shows those after its own lowest hand (high + 1) and later
            query = query.filter(after_hand__lte=high)
    elif not (newest and oldest):
        return hands
    items: list[tuple[tuple[int, int, int], tuple[int, str]]] = [((n, 0, 0), (n, html)) for n, html in hands]
    items += [((a.after_hand, 1, a.number), (a.number, adjustment_card(request, night, a, editable=editable)))
              for a in query]
    return [item for _key, item in sorted(items, key=lambda pair: pair[0], reverse=True)]


def stamp(night: Night) -> int:
    """A cursor on the night's changes: its latest audit entry."""
    return night.audit.aggregate(top=Max("id"))["top"] or 0


def changes(request: HttpRequest, night: Night, *, after: int, since: int, pieces: set[str],
            can_write: bool, marks: bool = True) -> dict[str, Any]:
    """What a page needs to catch up: hands after number `after` or changed since `since`, and fresh pieces
    (`marks`: whether the settlement's 已付 buttons may be offered to this viewer; never on a view link).

    The stamp it gives back is read first, before the data: a change that commits while the data is read is then
    at least newer than the stamp, so the page's next fetch (since that stamp) brings it. Read last, the stamp could
    name a hand the data did not hold, and the page would never be told of it (its 更正第 N 局 stayed one behind).
    """
    current = stamp(night)
    # Every piece reads the seats, and the seats and the settlement the same totals: each read once here.
    if night.page is None:
        prefetch_related_objects([night], Prefetch("seating", queryset=Seating.objects.select_related("player")))
    changed = set(AuditEntry.objects.filter(night=night, id__gt=since, hand__isnull=False)
                  .values_list("hand__number", flat=True))
    hands = night.hands.filter(Q(number__gt=after) | Q(number__in=changed))
    context = {"night": night, "can_write": can_write and not night.is_closed}
    # Bounded: a page that missed more than a page of hands gets the newest (the rest are on older pages).
    rows = _card_keys(hands.order_by("-number")[:HANDS_PER_PAGE])[::-1]
    cards = [{"number": number, "html": html}
             for number, html in cards_html(request, night, rows, editable=can_write and not night.is_closed)]
    # Read after the cards, as the pieces are: the last hand and the next dealer are at least as new as any card.
    top = night.hands.aggregate(last=Max("number"), counted=Max("number", filter=Q(status=Hand.Status.RECORDED)))
    last = top["last"] or 0
    dealer = night_next_dealer(night)
    outcome = night_outcome(night) if pieces & {"seats", "settlement"} else None
    # Who has confirmed, read once for the card and for the line by the settle form (还没确认：…; a walk: it stayed).
    signed = cache(lambda: confirmations(night, request.user if marks else None))
    readers: dict[str, Callable[[Night], Any]] = {
        "head": lambda n: head(n, last), "seats": lambda n: seats(n, dealer, outcome and outcome[1]),
        "settlement": lambda n: settlement(n, outcome),
        "paid": lambda n: paid(n, request.user if marks else None, None if marks else False),
        "confirmations": lambda n: signed(), "not_confirmed": lambda n: signed()}
    rendered = {}
    for piece in pieces & set(TEMPLATES):
        data = readers[piece](night)
        rendered[piece] = render_to_string(TEMPLATES[piece], {**context, piece: data, "writable": can_write}, request)
    touched = AuditEntry.objects.filter(night=night, id__gt=since, adjustment__isnull=False).values("adjustment_id")
    adjusted = [{"number": a.number, "after_hand": a.after_hand,
                 "html": adjustment_card(request, night, a, editable=can_write and not night.is_closed)}
                for a in night.adjustments.filter(pk__in=touched).order_by("after_hand", "number")]
    # `counted`: the last hand that counts (not voided), the one the table page's 更正第 N 局 opens.
    return {"hands": cards, "adjustments": adjusted, "pieces": rendered, "last": last, "stamp": current,
            "hand_count": last, "counted": top["counted"] or 0, "next_dealer": dealer,
            "closed": night.is_closed}


def live_config(night: Night, *, socket: str, fragments: str, pieces: list[str], newest: bool,
                keep: int | None = None, last: int | None = None, since: int | None = None) -> dict[str, Any]:
    """What `live.js` needs: where to listen, where to fetch, and where the page stands (`last`: the last hand's
    number, `since`: the night's `stamp`, when the caller has read them already)."""
    if last is None:
        last = night.hands.aggregate(top=Max("number"))["top"] or 0
    return {"socket": socket, "fragments": fragments, "pieces": pieces, "newest": newest, "keep": keep,
            "last": last, "stamp": stamp(night) if since is None else since, "closed": night.is_closed,
            "strings": {"roleChanged": _("你的权限变了"), "reopened": _("牌局重新打开了"), "reload": _("刷新页面")}}


def cursor(value: str | None) -> int | None:
    """A hand-number cursor from the query string (`?before=N`); None when absent or not a positive number."""
    return params.whole_number(value, low=1)
