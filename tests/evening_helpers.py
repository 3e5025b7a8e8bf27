"""Builders shared by the evening, fee and paying-up tests: a group of eight, tables with fees, simple hands."""
import datetime as dt
import itertools
from decimal import Decimal

from ledger.services import nights as services
from ledger.services import evenings
from ledger.services.groups import player_get_or_create

from tests.hand_helpers import win, w

DATE = dt.date(2026, 11, 27)
NAMES = ("张三", "李四", "王五", "赵六", "孙七", "周八", "吴九", "郑十")


def self_draw(seat, pattern="ping_hu", roots=0):
    """One winner self-draws, then the wall runs out (nobody else ready)."""
    return {"events": [win(None, w(seat, pattern, roots))], "exhausted": True}


def on_discard(winner, discarder, pattern="ping_hu"):
    return {"events": [win(discarder, w(winner, pattern))], "exhausted": True}


def people(group):
    return {n: player_get_or_create(name=n, group=group) for n in NAMES}


def table(owner, group, evening, names, *, fee=None, table_no=None, base="1", hands=(), title="桌"):
    """A night at one table of the evening, its hands recorded."""
    players = people(group)
    night = services.night_create(owner=owner, title=title, date=evening.date if evening else DATE, base=Decimal(base),
                                  players=[players[n] for n in names], first_dealer=0, evening=evening,
                                  table_no=table_no, fee=fee)
    for entry in hands:
        services.hand_record(night=night, by=owner, entry=entry)
    return night


def two_tables(owner, group, *, fee=None, close=True):
    """An evening of two tables with players moving: 张三 leaves table 1 for table 2 (孙七 takes his seat)."""
    evening = evenings.evening_create(by=owner, group=group, title="周五麻将局", date=DATE, venue="老茶馆")
    players = people(group)
    first = table(owner, group, evening, NAMES[:4], fee=fee,
                  hands=[self_draw(1, "qing_yi_se"), on_discard(0, 2), self_draw(3)])
    services.seat_change(night=first, by=owner, seat=0, player=players["孙七"])
    for entry in (on_discard(0, 1, "dui_dui_hu"), self_draw(2)):
        services.hand_record(night=first, by=owner, entry=entry)
    second = table(owner, group, evening, ("周八", "吴九", "郑十", "张三"), fee=fee, base="2",
                   hands=[self_draw(3, "dui_dui_hu"), on_discard(1, 0), self_draw(0, "qing_yi_se")])
    if close:
        first, second = (services.night_close(night=night, by=owner) for night in (first, second))
    return evening, first, second


def brute_minimum(amounts):
    """The fewest transfers that settle these nets, by brute force: n minus the most blocks of a partition of the
    non-zero nets into zero-sum blocks (every partition tried)."""
    values = [a for a in amounts if a != 0]

    def partitions(items):
        if not items:
            yield []
            return
        first, rest = items[0], items[1:]
        for smaller in partitions(rest):
            for i in range(len(smaller)):
                yield smaller[:i] + [[first] + smaller[i]] + smaller[i + 1:]
            yield [[first]] + smaller

    best = max(len(p) for p in partitions(values) if all(sum(b) == 0 for b in p)) if values else 0
    return len(values) - best


def apply(transfers, nets):
    """Nets after the transfers are paid: every one must be zero."""
    left = dict(nets)
    for payer, payee, amount in transfers:
        left[payer] += amount
        left[payee] -= amount
    return left


__all__ = ["DATE", "NAMES", "apply", "brute_minimum", "itertools", "on_discard", "people", "self_draw", "table",
           "two_tables"]
