"""API routes of evenings, mounted under /api/ (filled in by its work)."""
from django.urls import URLPattern, URLResolver

urlpatterns: list[URLPattern | URLResolver] = []
