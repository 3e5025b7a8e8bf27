"""Live pieces over HTTP: the fragments a page fetches after an event, and the read-only view-link page."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ledger.models import NightLink
from ledger import rights
from ledger.models import Night
from ledger.live import fragments


def _changes(request: HttpRequest, night: Night, *, can_write: bool, marks: bool = True) -> JsonResponse:
    pieces = set(request.GET.get("pieces", "").split(","))
    data = fragments.changes(request, night, after=fragments.cursor(request.GET.get("after")) or 0,
                             since=fragments.cursor(request.GET.get("since")) or 0, pieces=pieces,
                             can_write=can_write, marks=marks)
    response = JsonResponse(data)
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_GET
def night_fragments(request: HttpRequest, pk: int) -> JsonResponse:
    """`?after=N&since=S&pieces=head,seats,settlement`: hands after number N or changed since S, fresh pieces."""
    night = get_object_or_404(rights.visible_nights(request.user), pk=pk)
    return _changes(request, night, can_write=rights.may_write_night(request.user, night))


def _view_link(token: str) -> NightLink:
    link = NightLink.objects.active().filter(kind=NightLink.Kind.VIEW, token=token).select_related("night").first()
    if link is None:
        raise Http404(_("这个链接不存在或已失效"))
    return link


@require_GET
def view_fragments(request: HttpRequest, token: str) -> JsonResponse:
    return _changes(request, _view_link(token).night, can_write=False, marks=False)


@require_GET
def view_page(request: HttpRequest, token: str) -> HttpResponse:
    """The view link: the table, hands and settlement of one night, live, read-only, no account needed."""
    night = _view_link(token).night
    before = fragments.cursor(request.GET.get("before"))
    hands, older = fragments.hand_page(request, night, before, editable=False)
    response = render(request, "live/view.html", {
        "night": night, "head": fragments.head(night), "seats": fragments.seats(night), "hands": hands,
        "older": older, "before": before, "settlement": fragments.settlement(night), "can_write": False,
        "paid": fragments.paid(night, None, group_writer=False),
        "confirmations": fragments.confirmations(night, None),
        "live": fragments.live_config(night, socket=f"/ws/view/{token}/",
                                      pieces=["head", "seats", "settlement", "paid", "confirmations"],
                                      fragments=reverse("view-fragments", args=[token]), newest=before is None),
    })
    # The token is in the address: never pass it to another site. Not "no-referrer": that makes the browser
    # send `Origin: null` with the page's own forms (the language switch), which the CSRF check refuses.
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex"
    return response
