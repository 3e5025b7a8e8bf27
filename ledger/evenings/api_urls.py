"""API routes of evenings and paying up, mounted under /api/."""
from django.urls import URLPattern, URLResolver, path

from . import api

urlpatterns: list[URLPattern | URLResolver] = [
    path("groups/<int:pk>/evenings/", api.GroupEveningsView.as_view(), name="api-group-evenings"),
    path("groups/<int:pk>/balance/", api.GroupBalanceView.as_view(), name="api-group-balance"),
    path("evenings/<int:pk>/", api.EveningDetailView.as_view(), name="api-evening"),
    path("evenings/<int:pk>/settle/", api.EveningSettleView.as_view(), name="api-evening-settle"),
    path("nights/<int:pk>/settle/", api.NightSettleView.as_view(), name="api-night-settle"),
    path("settlements/<int:pk>/transfers/<int:position>/paid/", api.TransferPaidView.as_view(),
         name="api-transfer-paid"),
    path("settlements/<int:pk>/transfers/<int:position>/unpaid/", api.TransferUnpaidView.as_view(),
         name="api-transfer-unpaid"),
]
