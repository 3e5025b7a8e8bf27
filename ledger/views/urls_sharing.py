"""Routes of joining: sign-up, invite links, members, the token endpoint of the API."""
from django.urls import path

from ledger.api import sharing as api
from ledger.views import sharing as views

urlpatterns = [
    path("signup/", views.sign_up, name="sign-up"),
    path("join/<str:token>/", views.join, name="join"),
    path("nights/<id:pk>/members/", views.members, name="night-members"),
    path("nights/<id:pk>/invite.svg", views.invite_qr, name="night-invite-qr"),
    path("nights/<id:pk>/view.svg", views.view_qr, name="night-view-qr"),
    path("api/token/", api.TokenView.as_view(), name="api-token"),
]
