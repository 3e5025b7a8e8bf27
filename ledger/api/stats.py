"""API of the statistics: a player's history and a group's leaderboard (members of the group only; others 404).

Thin views like ledger.api.nights: fetch what the caller may see → selector → Response; a bad `from`/`to` is a
ValidationError that the one exception handler turns into the errors document naming the parameter.
"""
from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import PATTERNS, format_amount

from ledger.api.nights import READ_ERRORS
from ledger.presenters.nights import pattern_name
from ledger.selectors.periods import period_of
from ledger.selectors.stats import PlayerHistory, Standing, group_leaderboard, player_history
from ledger.api.serializers.stats import LeaderboardSerializer, PlayerStatsSerializer
from ledger import rights

#: A date or nothing: `?from=` (empty) means "no bound", so the parameter is a string that is empty or a date.
DATE_OR_EMPTY = {"type": "string", "pattern": r"^([0-9]{4}-[0-9]{2}-[0-9]{2})?$"}
RANGE = [
    OpenApiParameter("from", DATE_OR_EMPTY, description="First date counted (YYYY-MM-DD); empty: no bound. "
                     "Without `from` and `to` the range is the current year."),
    OpenApiParameter("to", DATE_OR_EMPTY, description="Last date counted (YYYY-MM-DD), not before `from`; "
                     "empty: no bound."),
]


def _name(code: str) -> str:
    return pattern_name(code) if code in PATTERNS else code


def history_data(history: PlayerHistory) -> dict[str, Any]:
    """The API's view of a player's history: amounts as exact strings, patterns with their names."""
    player, totals = history.player, history.totals
    return {
        "player": {"id": player.pk, "name": player.name, "group": {"id": player.group_id, "name": player.group.name}},
        "totals": {"nights": totals.nights, "hands": totals.hands, "wins": totals.wins,
                   "self_draws": totals.self_draws, "deal_in_hands": totals.deal_in_hands,
                   "win_rate": totals.win_rate, "self_draw_rate": totals.self_draw_rate,
                   "deal_in_rate": totals.deal_in_rate, "hands_net": format_amount(totals.hands_net),
                   "fees": format_amount(totals.fees), "adjustments": format_amount(totals.adjustments),
                   "net": format_amount(totals.net)},
        "nights": [{"night_id": p.night_id, "date": p.date, "title": p.title, "hands": p.hands,
                    "fee": format_amount(p.fee), "net": format_amount(p.net),
                    "cumulative": format_amount(p.cumulative)} for p in history.series],
        "nights_truncated": history.series_truncated,
        "biggest_hands": [{"night_id": b.night_id, "night_title": b.night_title, "night_date": b.night_date,
                           "number": b.number, "pattern": b.pattern, "pattern_name": _name(b.pattern), "fan": b.fan,
                           "won_amount": format_amount(b.won_amount), "self_drawn": b.self_drawn}
                          for b in history.biggest],
        "favourite_patterns": [{"pattern": f.pattern, "pattern_name": _name(f.pattern), "wins": f.wins}
                               for f in history.favourites],
    }


def standing_data(rank: int, standing: Standing) -> dict[str, Any]:
    return {"rank": rank, "player_id": standing.player_id, "name": standing.name,
            "net": format_amount(standing.net), "fees": format_amount(standing.fees), "nights": standing.nights,
            "hands": standing.hands, "wins": standing.wins, "win_rate": standing.win_rate}


class PlayerStatsView(APIView):
    """GET /api/players/{id}/stats/: totals and rates, the per-night series, biggest hands, favourite patterns."""

    @extend_schema(responses={200: PlayerStatsSerializer, **READ_ERRORS}, tags=["stats"],
                   summary="A player's history: totals, rates, nets night by night (after fee shares), "
                           "biggest hands, favourite patterns")
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(rights.visible_players(request.user).select_related("group"), pk=pk)
        return Response(PlayerStatsSerializer(history_data(player_history(player))).data)


class GroupLeaderboardView(APIView):
    """GET /api/groups/{id}/leaderboard/?from=&to=: the group's players by net over a date range."""

    @extend_schema(parameters=RANGE, responses={200: LeaderboardSerializer, **READ_ERRORS}, tags=["stats"],
                   summary="The group's active players by net (after fee shares) over a date range")
    def get(self, request: Request, pk: int) -> Response:
        group = get_object_or_404(rights.visible_groups(request.user), pk=pk)
        period = period_of(request.query_params, timezone.localdate())
        standings = group_leaderboard(group, period.date_from, period.date_to)
        return Response(LeaderboardSerializer({
            "group": group, "date_from": period.date_from, "date_to": period.date_to,
            "standings": [standing_data(rank, s) for rank, s in enumerate(standings, start=1)]}).data)
