"""API routes."""
from django.urls import include, path

from . import views
from ..reports import api as reports

urlpatterns = [
    path("score/", views.ScoreView.as_view(), name="api-score"),
    path("analyse/", views.AnalyseView.as_view(), name="api-analyse"),
    path("players/", views.PlayerListView.as_view(), name="api-players"),
    path("nights/", views.NightListView.as_view(), name="api-nights"),
    path("nights/<int:pk>/", views.NightDetailView.as_view(), name="api-night"),
    path("nights/<int:pk>/hands/", views.HandListView.as_view(), name="api-hands"),
    path("nights/<int:pk>/preview/", views.PreviewView.as_view(), name="api-preview"),
    path("nights/<int:pk>/hands/<int:number>/", views.HandDetailView.as_view(), name="api-hand"),
    path("nights/<int:pk>/hands/<int:number>/correct/", views.HandCorrectView.as_view(), name="api-hand-correct"),
    path("nights/<int:pk>/hands/<int:number>/void/", views.HandVoidView.as_view(), name="api-hand-void"),
    path("nights/<int:pk>/adjustments/", views.AdjustmentListView.as_view(), name="api-adjustments"),
    path("nights/<int:pk>/adjustments/<int:number>/", views.AdjustmentDetailView.as_view(), name="api-adjustment"),
    path("nights/<int:pk>/adjustments/<int:number>/correct/", views.AdjustmentCorrectView.as_view(),
         name="api-adjustment-correct"),
    path("nights/<int:pk>/adjustments/<int:number>/void/", views.AdjustmentVoidView.as_view(),
         name="api-adjustment-void"),
    path("nights/<int:pk>/confirm/", views.ConfirmView.as_view(), name="api-confirm"),
    path("nights/<int:pk>/totals/", views.TotalsView.as_view(), name="api-totals"),
    path("nights/<int:pk>/settlement/", views.SettlementView.as_view(), name="api-settlement"),
    path("nights/<int:pk>/audit/", views.AuditView.as_view(), name="api-audit"),
    path("nights/<int:pk>/close/", views.CloseView.as_view(), name="api-close"),
    path("nights/<int:pk>/report.pdf", reports.ReportPdfView.as_view(), name="api-report-pdf"),
    path("nights/<int:pk>/report.png", reports.ReportPngView.as_view(), name="api-report-png"),
    path("nights/<int:pk>/report.txt", reports.ReportTextView.as_view(), name="api-report-txt"),
    path("nights/<int:pk>/hands.csv", reports.HandsCsvView.as_view(), name="api-hands-csv"),
    path("nights/<int:pk>/payments.csv", reports.PaymentsCsvView.as_view(), name="api-payments-csv"),
    path("nights/<int:pk>/backup.json", reports.BackupView.as_view(), name="api-backup"),
    path("nights/import/", reports.ImportView.as_view(), name="api-import"),
    path("", include("ledger.groups.api_urls")),
    path("", include("ledger.evenings.api_urls")),
    path("", include("ledger.stats.api_urls")),
]
