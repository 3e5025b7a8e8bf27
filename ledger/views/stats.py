"""Pages of statistics: a player's history and a group's leaderboard (members of the group only; others 404)."""
from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from ledger.models import Night
from ledger.web.paging import cursor_param, keyset_page, page_size
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

    def compute() -> tuple[PlayerHistory, str, Any, list[tuple[Night, NightPlayed]]]:
        # What each night brought is summed once, by night, for the history and for the page of nights alike.
        nights = nights_played(player)
        history = compute_player_history(player, nights)
        chart = net_over_time_svg(player.name, history.series) if history.series else ""
        # The same nights as nights_played (those with a standing of counted hands), by a join, not a list of ids.
        played_nights = Night.objects.filter(standings__player=player, standings__hands__gt=0)
        page = keyset_page(played_nights.only("title", "date", "is_closed", "group_id"), ("date", "id"), cursor, size)
        played = {n.night_id: n for n in nights}
        # A night whose first counted hand of the player committed after `nights_played` read them is left out
        # of this page (its audit entry moved the group's generation, so the next view has it).
        rows = [(night, played[night.pk]) for night in page.items if night.pk in played]
        return history, chart, page, rows

    # The history, its chart (in the page's language) and this page of nights, once per change of the group.
    history, chart, page, rows = cached(player.group, ("player-page", player.pk, get_language(), cursor, size),
                                        compute)
    # The player's nights are their group's, which the viewer sees (a member of it: rights.visible_players); the
    # rights still decide the link of any night of another group.
    visible = rights.visible_night_ids(request.user, page.items, member_of=player.group_id)
    return render(request, "stats/player.html", {
        "player": player, "history": history, "totals": history.totals, "page": page,
        "nights": [(night, row, night.pk in visible) for night, row in rows],
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
