"""Page routes of evenings (filled in by its work)."""
from django.urls import URLPattern, URLResolver

urlpatterns: list[URLPattern | URLResolver] = []
