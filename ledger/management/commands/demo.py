"""`manage.py demo`: load a realistic group so a newcomer sees a full table at once.

The group 老茶馆牌友 (owner demo, member guest) has tonight's night at the table (twenty hands, open, no table
fee) and last week's evening at two tables with a table fee of ¥5 a player, closed and settled, one transfer
marked paid: so the table page, the evening page, the running balance, each player's history and the
leaderboard all have something to show. Three days ago an evening mixed two table shapes (RULES.md §9): a
三人两房 table of three and a 血流成河 table of four, closed and settled together.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from ledger.services import nights as services
from ledger.services import evenings
from ledger.services import groups
from ledger.models import GroupMember
from ledger.models import Night

P, S = "pattern", "player"


def win(discarder: int | None, *winners: dict[str, Any]) -> dict[str, Any]:
    return {"type": "win", "from": discarder, "winners": list(winners)}


def kong(player: int, kind: str, tile: str, discarder: int | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "kong", "player": player, "kind": kind, "tile": tile}
    if discarder is not None:
        event["from"] = discarder
    return event


def w(player: int, pattern: str = "ping_hu", roots: int = 0, *flags: str) -> dict[str, Any]:
    return {"player": player, "pattern": pattern, "roots": roots, "flags": list(flags)}


#: About twenty finished hands: self-draws, 一炮多响, every kong kind, a robbed 补杠 (抢杠胡), 杠上花, 杠上炮, 查叫 endings.
DEMO_HANDS: list[dict[str, Any]] = [
    {"events": [kong(0, "concealed", "5m"), win(2, w(0, "qing_yi_se", 1)), win(None, w(3, "dui_dui_hu")),
                win(2, w(1))]},
    {"events": [win(None, {"player": 0, "tiles": "11223345678999m"}), kong(2, "added", "3p"),
                win(1, w(2, "ping_hu", 1), w(3))]},
    {"events": [kong(3, "direct", "7s", 1), win(None, {"player": 3, "tiles": "11122233355m", "melds": ["7777s"],
                                                       "flags": ["gang_shang_hua"]}),
                win(1, w(0, "qi_dui")), win(2, w(1))]},
    {"events": [win(3, w(2, "yao_jiu"))], "exhausted": True,
     "ready": {"0": {"tiles": "1112345678999m"}, "1": {"fan": 1}}},
    {"events": [kong(0, "added", "4s"), win(0, w(1, "dui_dui_hu", 0, "qiang_gang_hu")), win(None, w(2)),
                win(3, w(0))]},
    {"events": [kong(1, "concealed", "9p"), win(1, w(2, "jiang_dui")), win(None, w(1, "ping_hu", 1)),
                win(3, w(0))]},
    {"events": [win(None, w(2, "qing_dui")), win(0, w(3)), win(None, w(0, "qi_dui"))]},
    {"events": [kong(0, "added", "2s"), kong(3, "concealed", "8m")], "exhausted": True,
     "ready": {"3": {"fan": 2}}},
    {"events": [kong(0, "concealed", "6s"), win(0, w(1, "ping_hu", 0, "gang_shang_pao"), w(2, "dui_dui_hu", 0, "gang_shang_pao")),
                win(None, w(3, "long_qi_dui"))]},
    {"events": [win(2, w(1)), win(None, w(0, "qing_yi_se")), win(3, w(2, "dui_dui_hu"))]},
    {"events": [kong(1, "direct", "4m", 3), win(None, w(1, "dui_dui_hu", 1, "gang_shang_hua")),
                win(0, w(2, "qing_yi_se")), win(None, w(3))]},
    {"events": [win(1, w(0, "qing_qi_dui"), w(2), w(3))]},
    {"events": [win(None, w(1, "ping_hu", 1)), kong(2, "added", "9p"), win(3, w(2, "yao_jiu", 1)),
                win(None, w(0))]},
    {"events": [win(0, w(3))], "exhausted": True,
     "ready": {"1": {"tiles": "2345677m345789p"}, "2": {"fan": 0}}},
    {"events": [kong(2, "concealed", "1p"), win(None, w(2, "qing_dui", 1)), win(3, w(1)), win(None, w(0))]},
    {"events": [win(None, w(0, "dui_dui_hu")), win(2, w(1, "qing_yi_se", 0, "qiang_gang_hu")), win(2, w(3))]},
    {"events": [kong(3, "added", "9s"), win(1, w(0)), win(None, w(3, "ping_hu", 1)), win(2, w(1, "qi_dui"))]},
    {"events": [win(3, w(1, "jiang_dui"), w(2, "ping_hu")), win(None, w(0, "qing_yi_se", 1))]},
    {"events": [kong(0, "direct", "6s", 2), win(None, w(3)), win(1, w(0, "dui_dui_hu", 1))], "exhausted": True,
     "ready": {"2": {"tiles": "1112345678m555p"}}},
    {"events": [win(2, w(0)), win(None, w(1, "qing_long_qi_dui")), win(3, w(2))]},
]

#: A 三人两房 table (3 players, 筒 and 条 only): a self-draw and a discard win, 查叫, a wall out with one ready.
THREE_HANDS: list[dict[str, Any]] = [
    {"events": [win(None, w(0, "qing_yi_se")), win(2, w(1))]},
    {"events": [kong(1, "concealed", "5p"), win(0, w(2, "dui_dui_hu"))], "exhausted": True, "ready": {"1": {"fan": 1}}},
    {"events": [win(1, w(0)), win(None, w(2, "qi_dui"))]},
    {"events": [], "exhausted": True, "ready": {"0": {"tiles": "1112345678999p"}}},
]
#: A 血流成河 table: winners stay in; seat 0 (周八) wins three times in the first hand, past winners deal in.
RIVER_HANDS: list[dict[str, Any]] = [
    {"events": [win(None, w(0)), kong(0, "concealed", "3m"), win(None, w(0, "dui_dui_hu", 1, "gang_shang_hua")),
                win(0, w(1, "qing_yi_se")), win(1, w(0, "ping_hu", 1)), win(None, w(2))],
     "exhausted": True, "ready": {"0": {"fan": 1}, "1": {"fan": 2}, "2": {"fan": 0}}},
    {"events": [win(3, w(1)), win(None, w(1, "qing_yi_se")), win(1, w(2))], "exhausted": True,
     "ready": {"1": {"fan": 0}, "2": {"fan": 0}}},
]


class Command(BaseCommand):
    help = ("Load a demo group: tonight's night (20 hands), last week's settled evening at two tables and an "
            "evening of a 三人两房 and a 血流成河 table; users "
            "demo/demo (owner) and guest/guest (member).")

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model().objects
        owner, created = users.get_or_create(username="demo")
        if created:
            owner.set_password("demo")
            owner.save()
        guest, created = users.get_or_create(username="guest")
        if created:
            guest.set_password("guest")
            guest.save()
        if Night.objects.filter(owner=owner, title="周五夜 · 演示").exists():
            self.stdout.write("demo night already loaded")
            return
        group = groups.group_create(by=owner, name="老茶馆牌友")
        GroupMember.objects.create(group=group, user=guest, role=GroupMember.Role.MEMBER)
        self._last_week(owner, group)
        self._shapes(owner, group)
        players = [services.player_get_or_create(name=n, group=group) for n in ("张三", "李四", "王五", "赵六")]
        night = services.night_create(owner=owner, title="周五夜 · 演示", date=dt.date.today(), venue="老茶馆 3 号桌",
                                      base=Decimal("2"), players=players, first_dealer=0, members=[guest])
        for entry in DEMO_HANDS:
            services.hand_record(night=night, by=owner, entry=entry)
        first = night.hands.get(number=2)
        record = first.current.record
        services.hand_correct(hand=first, by=owner, entry={k: record[k] for k in services.ENTRY_FIELDS if k in record},
                              reason="补记：王五的补杠是 3p")
        self.stdout.write(self.style.SUCCESS(
            f"demo night #{night.pk} with {night.hands.count()} hands; sign in as demo / demo (or guest / guest)"))

    def _shapes(self, owner: Any, group: Any) -> None:
        """Three days ago: a 三人两房 table and a 血流成河 table in one evening, closed and settled together."""
        day = dt.date.today() - dt.timedelta(days=3)
        evening = evenings.evening_create(by=owner, group=group, title="周二", date=day, venue="老茶馆")
        tables = ((1, "san_ren_liang_fang", ("王五", "赵六", "孙七"), THREE_HANDS),
                  (2, "xue_liu", ("周八", "钱九", "吴十", "李四"), RIVER_HANDS))
        for table, preset, names, hands in tables:
            seated = [services.player_get_or_create(name=n, group=group) for n in names]
            night = services.night_create(owner=owner, title=f"周二 {table} 号桌", date=day, venue="老茶馆",
                                          base=Decimal("2"), players=seated, first_dealer=0, evening=evening,
                                          table_no=table, preset=preset)
            for entry in hands:
                services.hand_record(night=night, by=owner, entry=entry)
            services.night_close(night=night, by=owner)
        evenings.settle_evening(by=owner, evening=evening)

    def _last_week(self, owner: Any, group: Any) -> None:
        """Last week's evening: two tables (孙七 and 周八 at table 2), ¥5 a player, closed, settled, one paid."""
        day = dt.date.today() - dt.timedelta(days=7)
        evening = evenings.evening_create(by=owner, group=group, title="上周五", date=day, venue="老茶馆")
        fee = {"mode": "per_player", "amount": "5"}
        for table, names in ((1, ("张三", "李四", "王五", "赵六")), (2, ("孙七", "周八", "钱九", "吴十"))):
            seated = [services.player_get_or_create(name=n, group=group) for n in names]
            night = services.night_create(owner=owner, title=f"上周五 {table} 号桌", date=day, venue="老茶馆",
                                          base=Decimal("2"), players=seated, first_dealer=0, evening=evening,
                                          table_no=table, fee=fee)
            for entry in DEMO_HANDS[table * 5:table * 5 + 6]:
                services.hand_record(night=night, by=owner, entry=entry)
            services.night_close(night=night, by=owner)
        settlement = evenings.settle_evening(by=owner, evening=evening)
        first = settlement.transfers.exclude(payee=None).order_by("position").first()
        if first is not None:
            evenings.transfer_mark_paid(by=owner, transfer=first)
