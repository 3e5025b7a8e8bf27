"""API routes of evenings and paying up, mounted under /api/."""
from django.urls import URLPattern, URLResolver, path

from ledger.api import evenings as api

urlpatterns: list[URLPattern | URLResolver] = [
    path("groups/<id:pk>/evenings/", api.GroupEveningsView.as_view(), name="api-group-evenings"),
    path("groups/<id:pk>/balance/", api.GroupBalanceView.as_view(), name="api-group-balance"),
    path("evenings/<id:pk>/", api.EveningDetailView.as_view(), name="api-evening"),
    path("evenings/<id:pk>/settle/", api.EveningSettleView.as_view(), name="api-evening-settle"),
    path("nights/<id:pk>/settle/", api.NightSettleView.as_view(), name="api-night-settle"),
    path("settlements/<id:pk>/transfers/<id:position>/paid/", api.TransferPaidView.as_view(),
         name="api-transfer-paid"),
    path("settlements/<id:pk>/transfers/<id:position>/unpaid/", api.TransferUnpaidView.as_view(),
         name="api-transfer-unpaid"),
]
