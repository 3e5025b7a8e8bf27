"""URLs: pages, the REST API, its schema and documentation, admin."""
from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView, TemplateView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from ledger.views.language import set_language

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("ledger.views.urls_sharing")),
    path("", include("ledger.live.urls")),
    path("", include("ledger.views.urls_groups")),
    path("", include("ledger.views.urls_evenings")),
    path("", include("ledger.views.urls_stats")),
    path("", include("ledger.views.urls_offline")),
    path("favicon.ico", RedirectView.as_view(url=static("ledger/icon.svg"))),
    path("manifest.webmanifest", TemplateView.as_view(template_name="manifest.webmanifest",
                                                      content_type="application/manifest+json"), name="manifest"),
    path("api/", include("ledger.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("i18n/setlang/", set_language, name="set_language"),  # Django's, and kept with the account
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("ledger.views.urls_nights")),
]

handler500 = "ledger.api.errors.server_error"  # JSON errors document under /api/
handler404 = "ledger.api.errors.not_found"  # JSON errors document under /api/; pages keep the 404 page
