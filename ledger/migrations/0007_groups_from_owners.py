"""Existing data into groups (issue 11): each owner's nights, and the players in them, become that owner's group.

- One group per user who owns a night, named after them, with that user as its owner. The night-level grants
  (members, scorekeepers) stay as they were: nobody sees more than before.
- A player who sat in the nights of several owners is copied into each of those groups (same name, same account);
  the seats, revisions and payments of each group's nights point to that group's copy. Names recorded with each
  revision are untouched.
- A player in no night goes to the group of the account that claimed it if that account owns one, else to a group
  "未归属的玩家" owned by the first superuser (or first user); with no user at all there can be no night either,
  and such bare names are removed (nothing refers to them).
- Every revision gets its four seat results (the statistics' rows) from its stored result, and every audit entry
  its night's group.
"""
from decimal import Decimal

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

SEATS = ("player_0", "player_1", "player_2", "player_3")


def forwards(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Group = apps.get_model("ledger", "Group")
    GroupMember = apps.get_model("ledger", "GroupMember")
    Night = apps.get_model("ledger", "Night")
    Player = apps.get_model("ledger", "Player")
    Seating = apps.get_model("ledger", "Seating")
    HandRevision = apps.get_model("ledger", "HandRevision")
    Payment = apps.get_model("ledger", "Payment")
    SeatResult = apps.get_model("ledger", "SeatResult")
    AuditEntry = apps.get_model("ledger", "AuditEntry")
    User = apps.get_model(*__import__("django.conf").conf.settings.AUTH_USER_MODEL.split("."))

    group_of_owner = {}
    for owner_id in Night.objects.order_by().values_list("owner_id", flat=True).distinct():
        owner = User.objects.get(pk=owner_id)
        group = Group.objects.create(name=f"{owner.username}的圈子"[:60], created_by=owner)
        GroupMember.objects.create(group=group, user=owner, role="owner")
        group_of_owner[owner_id] = group
        Night.objects.filter(owner_id=owner_id).update(group=group)
    for night in Night.objects.all().only("pk", "group_id"):
        AuditEntry.objects.filter(night_id=night.pk).update(group_id=night.group_id)

    # Which groups' nights each player appears in (seats, revisions, payments).
    groups_of_player: dict[int, set[int]] = {}
    night_group = dict(Night.objects.values_list("pk", "group_id"))

    def note(player_id: int, night_id: int) -> None:
        groups_of_player.setdefault(player_id, set()).add(night_group[night_id])

    for player_id, night_id in Seating.objects.values_list("player_id", "night_id"):
        note(player_id, night_id)
    for row in HandRevision.objects.values(*SEATS, "hand__night_id"):
        for field in SEATS:
            note(row[field], row["hand__night_id"])
    for payer, payee, night_id in Payment.objects.values_list("payer_id", "payee_id", "revision__hand__night_id"):
        note(payer, night_id)
        note(payee, night_id)

    for player in Player.objects.all().order_by("pk"):
        groups = sorted(groups_of_player.get(player.pk, ()))
        if not groups:
            continue
        player.group_id = groups[0]
        player.save(update_fields=["group"])
        for group_id in groups[1:]:
            copy = Player.objects.create(group_id=group_id, name=player.name, user_id=player.user_id)
            nights = [n for n, g in night_group.items() if g == group_id]
            Seating.objects.filter(night_id__in=nights, player_id=player.pk).update(player_id=copy.pk)
            revisions = HandRevision.objects.filter(hand__night_id__in=nights)
            for field in SEATS:
                revisions.filter(**{f"{field}_id": player.pk}).update(**{f"{field}_id": copy.pk})
            payments = Payment.objects.filter(revision__hand__night_id__in=nights)
            payments.filter(payer_id=player.pk).update(payer_id=copy.pk)
            payments.filter(payee_id=player.pk).update(payee_id=copy.pk)

    orphans = Player.objects.filter(group__isnull=True)
    if orphans.exists():
        fallback = None
        for player in orphans.order_by("pk"):
            if player.user_id in group_of_owner:
                player.group = group_of_owner[player.user_id]
                player.save(update_fields=["group"])
                continue
            if fallback is None:
                admin = (User.objects.filter(is_superuser=True).order_by("pk").first()
                         or User.objects.order_by("pk").first())
                if admin is None:
                    break
                fallback = Group.objects.create(name="未归属的玩家", created_by=admin)
                GroupMember.objects.create(group=fallback, user=admin, role="owner")
            player.group = fallback
            player.save(update_fields=["group"])
        Player.objects.filter(group__isnull=True).delete()  # only when no user exists: nothing refers to them

    rows = []
    for revision in HandRevision.objects.all().order_by("pk").iterator(chunk_size=500):
        result = revision.result
        won_amount = [Decimal(0)] * 4
        for payment in result["payments"]:
            if payment["reason"] in ("self_draw", "discard"):
                won_amount[payment["to"]] += Decimal(payment["amount"])
        for seat, field in enumerate(SEATS):
            win = next((w for w in result["wins"] if w["player"] == seat), None)
            rows.append(SeatResult(
                revision_id=revision.pk, seat=seat, player_id=getattr(revision, f"{field}_id"),
                net=Decimal(result["net"][seat]), won=win is not None,
                self_drawn=win is not None and win["from"] is None,
                dealt_in=sum(1 for w in result["wins"] if w["from"] == seat),
                pattern=win["pattern"] if win else "", fan=win["fan"] if win else None,
                won_amount=won_amount[seat]))
        if len(rows) >= 2000:
            SeatResult.objects.bulk_create(rows)
            rows = []
    SeatResult.objects.bulk_create(rows)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0006_groups_evenings_fees")]
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
