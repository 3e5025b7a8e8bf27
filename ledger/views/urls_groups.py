"""Page routes of groups (圈子)."""
from django.urls import URLPattern, URLResolver, path

from ledger.views import groups as views

urlpatterns: list[URLPattern | URLResolver] = [
    path("groups/", views.group_list, name="group-list"),
    path("groups/new/", views.group_create, name="group-create"),
    path("groups/join/<str:token>/", views.group_join, name="group-join"),
    path("groups/<id:pk>/", views.group_home, name="group-home"),
    path("groups/<id:pk>/players/", views.group_players, name="group-players"),
    path("groups/<id:pk>/members/", views.group_members, name="group-members"),
    path("groups/<id:pk>/defaults/", views.group_defaults, name="group-defaults"),
    path("groups/<id:pk>/audit/", views.group_audit, name="group-audit"),
    path("groups/<id:pk>/invite.svg", views.invite_qr, name="group-invite-qr"),
]
