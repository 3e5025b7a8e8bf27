"""API routes of groups, mounted under /api/."""
from django.urls import URLPattern, URLResolver, path

from ledger.api import groups as api

urlpatterns: list[URLPattern | URLResolver] = [
    path("groups/", api.GroupListView.as_view(), name="api-groups"),
    path("groups/join/", api.GroupJoinView.as_view(), name="api-group-join"),
    path("groups/<id:pk>/", api.GroupDetailView.as_view(), name="api-group"),
    path("groups/<id:pk>/invite/", api.GroupInviteView.as_view(), name="api-group-invite"),
    path("groups/<id:pk>/members/", api.GroupMembersView.as_view(), name="api-group-members"),
    path("groups/<id:pk>/members/<id:user_id>/role/", api.MemberRoleView.as_view(), name="api-group-member-role"),
    path("groups/<id:pk>/members/<id:user_id>/remove/", api.MemberRemoveView.as_view(),
         name="api-group-member-remove"),
    path("groups/<id:pk>/players/", api.GroupPlayersView.as_view(), name="api-group-players"),
    path("players/<id:pk>/", api.PlayerDetailView.as_view(), name="api-player"),
    path("players/<id:pk>/merge/", api.PlayerMergeView.as_view(), name="api-player-merge"),
]
