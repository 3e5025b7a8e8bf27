"""Django admin for every model; hands, revisions, payments and audit entries are read-only there."""
from django.contrib import admin

from .models import AuditEntry, Hand, HandRevision, Night, Payment, Player, Seating


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records are never edited or deleted behind the services' back."""

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "created_at"]
    search_fields = ["name"]


class SeatingInline(admin.TabularInline):
    model = Seating
    extra = 0


@admin.register(Night)
class NightAdmin(admin.ModelAdmin):
    list_display = ["title", "date", "venue", "base", "stake", "owner", "is_closed"]
    list_filter = ["is_closed", "stake"]
    inlines = [SeatingInline]
    readonly_fields = ["rules"]


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ["night", "number", "status", "recorded_by", "recorded_at"]
    list_filter = ["status"]


@admin.register(HandRevision)
class HandRevisionAdmin(ReadOnlyAdmin):
    list_display = ["hand", "version", "is_current", "created_by", "created_at", "reason"]


@admin.register(Payment)
class PaymentAdmin(ReadOnlyAdmin):
    list_display = ["revision", "position", "payer", "payee", "amount", "reason"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "night", "hand", "actor", "action", "reason"]
    list_filter = ["action"]


@admin.register(Seating)
class SeatingAdmin(admin.ModelAdmin):
    list_display = ["night", "seat", "player"]
