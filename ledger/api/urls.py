"""API routes."""
from django.urls import include, path

from ledger.api import nights as views
from ledger.api import reports

urlpatterns = [
    path("score/", views.ScoreView.as_view(), name="api-score"),
    path("analyse/", views.AnalyseView.as_view(), name="api-analyse"),
    path("players/", views.PlayerListView.as_view(), name="api-players"),
    path("nights/", views.NightListView.as_view(), name="api-nights"),
    path("nights/<id:pk>/", views.NightDetailView.as_view(), name="api-night"),
    path("nights/<id:pk>/hands/", views.HandListView.as_view(), name="api-hands"),
    path("nights/<id:pk>/preview/", views.PreviewView.as_view(), name="api-preview"),
    path("nights/<id:pk>/hands/<id:number>/", views.HandDetailView.as_view(), name="api-hand"),
    path("nights/<id:pk>/hands/<id:number>/correct/", views.HandCorrectView.as_view(), name="api-hand-correct"),
    path("nights/<id:pk>/hands/<id:number>/void/", views.HandVoidView.as_view(), name="api-hand-void"),
    path("nights/<id:pk>/adjustments/", views.AdjustmentListView.as_view(), name="api-adjustments"),
    path("nights/<id:pk>/adjustments/<id:number>/", views.AdjustmentDetailView.as_view(), name="api-adjustment"),
    path("nights/<id:pk>/adjustments/<id:number>/correct/", views.AdjustmentCorrectView.as_view(),
         name="api-adjustment-correct"),
    path("nights/<id:pk>/adjustments/<id:number>/void/", views.AdjustmentVoidView.as_view(),
         name="api-adjustment-void"),
    path("nights/<id:pk>/confirm/", views.ConfirmView.as_view(), name="api-confirm"),
    path("nights/<id:pk>/totals/", views.TotalsView.as_view(), name="api-totals"),
    path("nights/<id:pk>/settlement/", views.SettlementView.as_view(), name="api-settlement"),
    path("nights/<id:pk>/audit/", views.AuditView.as_view(), name="api-audit"),
    path("nights/<id:pk>/close/", views.CloseView.as_view(), name="api-close"),
    path("nights/<id:pk>/reopen/", views.ReopenView.as_view(), name="api-reopen"),
    path("nights/<id:pk>/report.pdf", reports.ReportPdfView.as_view(), name="api-report-pdf"),
    path("nights/<id:pk>/report.png", reports.ReportPngView.as_view(), name="api-report-png"),
    path("nights/<id:pk>/report.txt", reports.ReportTextView.as_view(), name="api-report-txt"),
    path("nights/<id:pk>/hands.csv", reports.HandsCsvView.as_view(), name="api-hands-csv"),
    path("nights/<id:pk>/payments.csv", reports.PaymentsCsvView.as_view(), name="api-payments-csv"),
    path("nights/<id:pk>/backup.json", reports.BackupView.as_view(), name="api-backup"),
    path("nights/import/", reports.ImportView.as_view(), name="api-import"),
    path("", include("ledger.api.urls_groups")),
    path("", include("ledger.api.urls_evenings")),
    path("", include("ledger.api.urls_stats")),
]
