"""The data migration into groups (0006-0008) on a database built at 0005 with the demo command's kind of data:
two owners whose nights share a player name (one Player row before groups existed)."""
import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ledger.management.commands.demo import DEMO_HANDS
from scoring import PRESETS, parse_rules, score_hand

from tests.factories import migrate

BEFORE = [("ledger", "0005_merge_scale")]
SEATS = ("player_0", "player_1", "player_2", "player_3")


def latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def record(apps, night, players, by, number, entry, *, reason="", old=None):
    """A hand (or a new revision of one) as services._write_revision wrote it at 0005: revision, nets, payments."""
    Hand, HandRevision, Payment = (apps.get_model("ledger", m) for m in ("Hand", "HandRevision", "Payment"))
    doc = {"base": "2", "rules": night.rules, "dealer": 0, **entry}
    result = score_hand(doc)
    hand = old or Hand.objects.create(night=night, number=number, recorded_by=by)
    version = 1
    if old is not None:
        current = HandRevision.objects.get(hand=old, is_current=True)
        current.is_current, version = False, current.version + 1
        current.save()
    revision = HandRevision.objects.create(
        hand=hand, version=version, dealer=0, created_by=by, record=doc, result=result.as_dict(), reason=reason,
        player_names=[p.name for p in players], **{seat: p for seat, p in zip(SEATS, players)},
        **{f"net_{s}": result.net[s] for s in range(4)})
    Payment.objects.bulk_create(
        Payment(revision=revision, position=i, event=p.event, payer=players[p.payer], payee=players[p.payee],
                payer_seat=p.payer, payee_seat=p.payee, amount=p.amount, reason=p.reason)
        for i, p in enumerate(result.payments))
    return hand


def historical_night(apps, owner, title, names, hands, *, day):
    Night, Player, Seating, AuditEntry = (apps.get_model("ledger", m)
                                          for m in ("Night", "Player", "Seating", "AuditEntry"))
    players = [Player.objects.get_or_create(name=n)[0] for n in names]  # names were unique server-wide then
    rules = parse_rules(PRESETS["chengdu"]).as_dict()
    night = Night.objects.create(owner=owner, title=title, date=dt.date(2026, 11, day), base=Decimal("2"),
                                 rules=rules, preset="chengdu")
    Seating.objects.bulk_create(Seating(night=night, seat=s, player=p) for s, p in enumerate(players))
    AuditEntry.objects.create(night=night, actor=owner, action="night_created", after={"players": names})
    for number, entry in enumerate(hands, start=1):
        hand = record(apps, night, players, owner, number, entry)
        AuditEntry.objects.create(night=night, hand=hand, actor=owner, action="hand_recorded")
    return night


def totals_by_name(apps, night_id):
    """Each player's total of a night by name, from the stored nets of the revisions that count (any schema)."""
    HandRevision, Player = apps.get_model("ledger", "HandRevision"), apps.get_model("ledger", "Player")
    totals: dict[str, Decimal] = {}
    for revision in HandRevision.objects.filter(hand__night_id=night_id, is_current=True, hand__status="recorded"):
        for s, seat in enumerate(SEATS):
            name = Player.objects.get(pk=getattr(revision, f"{seat}_id")).name
            totals[name] = totals.get(name, Decimal(0)) + getattr(revision, f"net_{s}")
    return totals


@pytest.mark.django_db(transaction=True)
def test_each_owners_nights_and_their_players_become_a_group():
    apps = migrate(BEFORE)
    User, Player = apps.get_model("auth", "User"), apps.get_model("ledger", "Player")
    demo, rival, guest = (User.objects.create(username=n) for n in ("demo", "rival", "guest"))
    friday = historical_night(apps, demo, "周五夜 · 演示", ["张三", "李四", "王五", "赵六"], DEMO_HANDS[:8], day=27)
    friday.members.add(guest)
    saturday = historical_night(apps, demo, "周六夜", ["李四", "张三", "赵六", "王五"], DEMO_HANDS[8:12], day=28)
    rivals = historical_night(apps, rival, "对手的局", ["张三", "钱七", "孙八", "周九"], DEMO_HANDS[12:18], day=29)
    hand = apps.get_model("ledger", "Hand").objects.get(night=friday, number=2)
    players = [Player.objects.get(name=n) for n in ("张三", "李四", "王五", "赵六")]
    record(apps, friday, players, demo, 2, DEMO_HANDS[5], reason="更正", old=hand)  # a corrected hand
    zhang = Player.objects.get(name="张三")
    zhang.user = guest
    zhang.save()
    Player.objects.create(name="没打过的人")  # in no night, claimed by nobody
    nights = [friday, saturday, rivals]
    before = {n.pk: totals_by_name(apps, n.pk) for n in nights}
    revisions = apps.get_model("ledger", "HandRevision").objects.count()

    migrate(latest())

    from django.contrib.auth import get_user_model

    from ledger.models import AuditEntry, Group, GroupMember, HandRevision, Night, Player, SeatResult, Seating
    from ledger.selectors.nights import night_totals
    users = {u.username: u for u in get_user_model().objects.all()}
    owned = GroupMember.objects.filter(role=GroupMember.Role.OWNER, group__nights__isnull=False).distinct()
    by_owner = {m.user.username: m.group for m in owned.select_related("group", "user")}
    assert set(by_owner) == {"demo", "rival"} and by_owner["demo"] != by_owner["rival"]
    assert Group.objects.filter(nights__isnull=False).distinct().count() == 2
    assert all(g.memberships.count() == 1 for g in by_owner.values())  # nobody sees more than before
    for username, group in by_owner.items():
        assert group.name == f"{username}的圈子" and group.role_of(users[username]) == GroupMember.Role.OWNER
        assert set(group.nights.values_list("owner__username", flat=True)) == {username}
    assert Night.objects.get(pk=friday.pk).group == by_owner["demo"]
    assert Night.objects.get(pk=rivals.pk).group == by_owner["rival"]
    names = {u: set(g.players.values_list("name", flat=True)) for u, g in by_owner.items()}
    assert names == {"demo": {"张三", "李四", "王五", "赵六"}, "rival": {"张三", "钱七", "孙八", "周九"}}
    zhangs = Player.objects.filter(name="张三")
    assert zhangs.count() == 2 and {p.group_id for p in zhangs} == {g.pk for g in by_owner.values()}
    assert {p.user_id for p in zhangs} == {users["guest"].pk}  # the claim follows each copy
    # Every reference to a player stays inside its night's group.
    for night in Night.objects.all():
        assert {s.player.group_id for s in Seating.objects.filter(night=night)} == {night.group_id}
        for revision in HandRevision.objects.filter(hand__night=night):
            assert {p.group_id for p in revision.players} == {night.group_id}
    # Totals of every night unchanged, by name, also as the app computes them.
    for night in Night.objects.all():
        assert {t.player.name: t.amount for t in night_totals(night) if t.amount or t.seat is not None} == {
            name: amount for name, amount in before[night.pk].items()}, night.title
    assert HandRevision.objects.count() == revisions
    assert SeatResult.objects.count() == 4 * revisions
    for result in SeatResult.objects.select_related("revision"):
        assert result.player_id == getattr(result.revision, f"player_{result.seat}_id")
        assert format(result.net.normalize(), "f") == result.revision.result["net"][result.seat]
    assert not AuditEntry.objects.filter(group__isnull=True).exists()
    for entry in AuditEntry.objects.select_related("night"):
        assert entry.group_id == entry.night.group_id
    # The night-level grants stay: the guest still sees Friday, and only it.
    guest_nights = Night.objects.visible_to(users["guest"])
    assert list(guest_nights.values_list("pk", flat=True)) == [friday.pk]
    # A name in no night and claimed by nobody goes to a group of the first user's, apart from the nights.
    stray = Player.objects.get(name="没打过的人").group
    assert stray.name == "未归属的玩家" and not stray.nights.exists() and stray not in by_owner.values()
