"""Page routes of stats: a player's history and a group's leaderboard."""
from django.urls import URLPattern, URLResolver, path

from ledger.views import stats as views

urlpatterns: list[URLPattern | URLResolver] = [
    path("players/<id:pk>/", views.player_page, name="player-history"),
    path("groups/<id:pk>/leaderboard/", views.leaderboard_page, name="group-leaderboard"),
]
