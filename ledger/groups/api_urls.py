"""API routes of groups, mounted under /api/."""
from django.urls import URLPattern, URLResolver, path

from . import api

urlpatterns: list[URLPattern | URLResolver] = [
    path("groups/", api.GroupListView.as_view(), name="api-groups"),
    path("groups/join/", api.GroupJoinView.as_view(), name="api-group-join"),
    path("groups/<int:pk>/", api.GroupDetailView.as_view(), name="api-group"),
    path("groups/<int:pk>/members/", api.GroupMembersView.as_view(), name="api-group-members"),
    path("groups/<int:pk>/members/<int:user_id>/role/", api.MemberRoleView.as_view(), name="api-group-member-role"),
    path("groups/<int:pk>/members/<int:user_id>/remove/", api.MemberRemoveView.as_view(),
         name="api-group-member-remove"),
    path("groups/<int:pk>/players/", api.GroupPlayersView.as_view(), name="api-group-players"),
    path("players/<int:pk>/", api.PlayerDetailView.as_view(), name="api-player"),
    path("players/<int:pk>/merge/", api.PlayerMergeView.as_view(), name="api-player-merge"),
]
