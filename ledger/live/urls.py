"""Routes of the live pages over HTTP (the sockets are in routing.py)."""
from django.urls import path

from ledger.live import views

urlpatterns = [
    path("nights/<id:pk>/fragments/", views.night_fragments, name="night-fragments"),
    path("v/<str:token>/", views.view_page, name="view-link"),
    path("v/<str:token>/fragments/", views.view_fragments, name="view-fragments"),
]
