"""Page routes of evenings and paying up."""
from django.urls import URLPattern, URLResolver, path

from ledger.views import evenings as views

urlpatterns: list[URLPattern | URLResolver] = [
    path("evenings/new/", views.evening_create, name="evening-create"),
    path("evenings/<id:pk>/", views.evening_page, name="evening"),
    path("evenings/<id:pk>/close/", views.evening_close_tables, name="evening-close"),
    path("evenings/<id:pk>/settle/", views.evening_settle, name="evening-settle"),
    path("nights/<id:pk>/settle-up/", views.night_settle, name="night-settle-up"),
    path("settlements/<id:settlement>/transfers/<id:position>/paid/", views.transfer_paid, name="transfer-paid"),
    path("settlements/<id:settlement>/transfers/<id:position>/unpaid/", views.transfer_unpaid,
         name="transfer-unpaid"),
]
