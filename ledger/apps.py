"""The ledger app: nights, hands, payments and the audit trail."""
from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = "成都麻将记账"

    def ready(self) -> None:
        from django.urls import register_converter

        from ledger.web import login_throttle  # noqa: F401  (connects the failed sign-in counters)
        from ledger.web.params import IdConverter
        register_converter(IdConverter, "id")  # before any URL pattern is read
