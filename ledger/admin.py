"""Django admin for every model of the ledger: to look, never to change.

Every page, total, cache and report is derived from records that the services write, each with its audit entry;
a change made in the admin would skip both (a fee or a title changed there stayed out of the cached totals and the
group page). So the ledger's records are read-only here: nights, players, seats, hands and their revisions,
payments, the audit trail, groups and their links. Accounts (Django's users) stay editable in the admin (turned off,
not deleted), all but the username, which the ledger's pages, audit trail and backups show and match accounts by (and which cached
pages hold); API tokens are added or deleted there, never moved to another account. tests/audit_and_rights/test_admin_changes.py
changes every field the admin can still change and checks what shows it.
"""
from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.http import HttpRequest
from rest_framework.authtoken.admin import TokenAdmin
from rest_framework.authtoken.models import TokenProxy

from ledger.models import (Adjustment, AdjustmentSeat, AuditEntry, Confirmation, Group, GroupLink, GroupMember, Hand,
                     HandRevision, IdempotencyRecord, Night,
                     Player, Seating)

if TYPE_CHECKING:  # the stubs make the admin's classes generic; at run time they cannot be subscripted
    ModelAdmin = admin.ModelAdmin[Any]
    TabularInline = admin.TabularInline[Any, Any]
    DjangoUserAdmin = UserAdmin[User]
else:
    ModelAdmin, TabularInline, DjangoUserAdmin = admin.ModelAdmin, admin.TabularInline, UserAdmin


class ReadOnlyAdmin(ModelAdmin):
    """Records are never edited or deleted behind the services' back."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    """Renamed, merged and claimed on the group's pages (ledger.services.groups)."""

    list_display = ["name", "group", "user", "created_at"]
    search_fields = ["name"]


class SeatingInline(TabularInline):
    model = Seating
    extra = 0
    can_delete = False
    readonly_fields = ["seat", "player"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Night)
class NightAdmin(ReadOnlyAdmin):
    """Created, seated, renamed and closed through the app (ledger.services), never here."""

    list_display = ["title", "date", "venue", "base", "stake", "owner", "group", "is_closed"]
    list_filter = ["is_closed", "stake"]
    inlines = [SeatingInline]


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ["night", "number", "status", "recorded_by", "recorded_at"]
    list_filter = ["status"]


@admin.register(HandRevision)
class HandRevisionAdmin(ReadOnlyAdmin):
    list_display = ["hand", "version", "is_current", "created_by", "created_at", "reason"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "night", "hand", "actor", "action", "reason"]
    list_filter = ["action"]


@admin.register(Adjustment)
class AdjustmentAdmin(ReadOnlyAdmin):
    list_display = ["night", "number", "after_hand", "kind", "status", "amount", "note", "recorded_by", "version"]
    list_filter = ["kind", "status"]


@admin.register(AdjustmentSeat)
class AdjustmentSeatAdmin(ReadOnlyAdmin):
    list_display = ["adjustment", "seat", "player", "net"]


@admin.register(Confirmation)
class ConfirmationAdmin(ReadOnlyAdmin):
    list_display = ["night", "player", "seat", "user", "at"]


@admin.register(Seating)
class SeatingAdmin(ReadOnlyAdmin):
    list_display = ["night", "seat", "player"]


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "user", "key", "endpoint", "status_code"]


# Groups (圈子) change only through ledger.services.groups, which write the audit trail: read-only here.
@admin.register(Group)
class GroupAdmin(ReadOnlyAdmin):
    list_display = ["name", "created_by", "created_at"]
    search_fields = ["name"]


@admin.register(GroupMember)
class GroupMemberAdmin(ReadOnlyAdmin):
    list_display = ["group", "user", "role", "joined_at"]
    list_filter = ["role"]


@admin.register(GroupLink)
class GroupLinkAdmin(ReadOnlyAdmin):
    list_display = ["group", "created_by", "created_at", "revoked_at"]
    exclude = ["token"]  # a working invite link is a key to the group


admin.site.unregister(User)


@admin.register(User)
class AccountAdmin(DjangoUserAdmin):
    """Django's account admin, but the username is set once, at sign-up or here when adding an account, and an
    account is turned off (is_active), never deleted: deleting one would take its group memberships, night grants and
    claimed names with it, unaudited, behind the generations the cached pages are keyed on."""

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str] | tuple[str, ...]:
        fields = super().get_readonly_fields(request, obj)
        return fields if obj is None else ("username", *fields)


admin.site.unregister(TokenProxy)


@admin.register(TokenProxy)
class AccountTokenAdmin(TokenAdmin):
    """DRF's token admin: a token is added for an account or deleted, never given to another account."""

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
