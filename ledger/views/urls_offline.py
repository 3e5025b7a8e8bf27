"""Routes of the app offline: the service worker must live at the root to control every page."""
from django.urls import path

from ledger.views import offline as views

urlpatterns = [
    path("sw.js", views.service_worker, name="service-worker"),
    path("engine/scoring-<str:digest>.zip", views.engine_zip, name="engine-zip"),
    path("offline/", views.offline_page, name="offline-page"),
]
