"""API routes of stats, mounted under /api/ (filled in by its work)."""
from django.urls import URLPattern, URLResolver

urlpatterns: list[URLPattern | URLResolver] = []
