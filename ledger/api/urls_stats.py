"""API routes of stats, mounted under /api/."""
from django.urls import URLPattern, URLResolver, path

from ledger.api import stats as api

urlpatterns: list[URLPattern | URLResolver] = [
    path("players/<id:pk>/stats/", api.PlayerStatsView.as_view(), name="api-player-stats"),
    path("groups/<id:pk>/leaderboard/", api.GroupLeaderboardView.as_view(), name="api-group-leaderboard"),
]
