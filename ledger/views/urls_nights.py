"""Page routes."""
from django.contrib.auth import views as auth_views
from django.urls import path

from ledger.views import nights as views
from ledger.web.login_throttle import ThrottledAuthenticationForm

urlpatterns = [
    path("", views.night_list, name="night-list"),
    path("login/", auth_views.LoginView.as_view(template_name="registration/login.html",
                                                authentication_form=ThrottledAuthenticationForm), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("rules/", views.rules_page, name="rules"),
    path("nights/new/", views.night_create, name="night-create"),
    path("nights/<id:pk>/", views.night_table, name="night-table"),
    path("nights/<id:pk>/hands/", views.hand_list, name="hand-list"),
    path("nights/<id:pk>/hands/<id:number>/correct/", views.hand_correct, name="hand-correct"),
    path("nights/<id:pk>/hands/<id:number>/void/", views.hand_void, name="hand-void"),
    path("nights/<id:pk>/adjustments/new/", views.adjustment_create, name="adjustment-create"),
    path("nights/<id:pk>/adjustments/<id:number>/correct/", views.adjustment_correct, name="adjustment-correct"),
    path("nights/<id:pk>/adjustments/<id:number>/void/", views.adjustment_void, name="adjustment-void"),
    path("nights/<id:pk>/confirm/", views.night_confirm, name="night-confirm"),
    path("nights/<id:pk>/seat/", views.seat_change, name="seat-change"),
    path("nights/<id:pk>/audit/", views.audit, name="night-audit"),
    path("nights/<id:pk>/audit/<id:entry>/", views.audit_entry, name="night-audit-entry"),
    path("nights/<id:pk>/settle/", views.settle, name="night-settle"),
    path("nights/<id:pk>/reopen/", views.night_reopen, name="night-reopen"),
    path("nights/<id:pk>/delete/", views.night_delete, name="night-delete"),
]
