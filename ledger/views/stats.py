"""Pages of statistics: a player's history and a group's leaderboard (members of the group only; others 404)."""
from __future__ import annotations


from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from ledger.models import Night
from ledger.web.paging import KeysetPage, cursor_param, keyset_slice, page_size
from ledger.selectors.stats_cache import cached
from ledger.reports.stats_chart import net_over_time_svg
from ledger.selectors.periods import ALL_TIME, iso, period_of, this_month, this_year
from ledger.selectors.stats import CHART_NIGHTS, NightPlayed, PlayerHistory, compute_player_history, group_leaderboard, nights_played
from ledger import rights


@login_required
def player_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's history: totals and rates, net over time, biggest hands, favourite patterns, nights played."""
    player = get_object_or_404(rights.visible_players(request.user).select_related("group"), pk=pk)
    if player.merged_into_id is not None:  # their hands now name the player they were merged into
        return redirect("player-history", pk=player.merged_into_id)
    cursor, size = cursor_param(request.GET.get("cursor")), page_size(request.GET.get("size"), 20)

    def compute() -> tuple[PlayerHistory, str, KeysetPage[NightPlayed]]:
        # The nights played are read once (one row each, newest first) for the history, its chart and the page
        # of nights alike: the page is a slice of them, with the cursors of keyset_page over the nights.
        nights = nights_played(player)
        history = compute_player_history(player, nights)
        chart = net_over_time_svg(player.name, history.series) if history.series else ""
        page = keyset_slice(nights, Night, ("date", "id"), lambda n: (n.date, n.night_id), cursor, size)
        return history, chart, page

    # The history, its chart (in the page's language) and this page of nights, once per change of the group.
    history, chart, page = cached(player.group, ("player-page", player.pk, get_language(), cursor, size), compute)
    # The player's nights are their group's, which the viewer sees (a member of it: rights.visible_players).
    visible = rights.visible_night_ids(request.user, [(n.night_id, n.group_id) for n in page.items],
                                       member_of=player.group_id)
    return render(request, "stats/player.html", {
        "player": player, "history": history, "totals": history.totals, "page": page,
        "nights": [(played, played.night_id in visible) for played in page.items],
        "chart": mark_safe(chart),
        "chart_nights": CHART_NIGHTS,
    })


@login_required
def leaderboard_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The group's players by net over a date range (this year unless the query says otherwise)."""
    group = get_object_or_404(rights.visible_groups(request.user), pk=pk)
    today = timezone.localdate()
    quick = [("month", this_month(today)), ("year", this_year(today)), ("all", ALL_TIME)]
    context = {"group": group, "quick": quick, "from_value": request.GET.get("from", ""),
               "to_value": request.GET.get("to", "")}
    try:
        period = period_of(request.GET, today)
    except ValidationError as exc:
        return render(request, "stats/leaderboard.html", {**context, "errors": exc.message_dict}, status=400)
    standings = group_leaderboard(group, period.date_from, period.date_to)
    return render(request, "stats/leaderboard.html", {
        **context, "period": period, "from_value": iso(period.date_from), "to_value": iso(period.date_to),
        "played": [s for s in standings if s.nights], "idle": [s for s in standings if not s.nights],
        "current": next((key for key, p in quick if p == period), None)})
