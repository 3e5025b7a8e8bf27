"""Builders the groups tests share: two finished hands, a membership with a role, a night of a group, an evening of two
tables."""
import datetime as dt
from decimal import Decimal

from ledger.models import GroupMember
from ledger.services import groups
from ledger.services import nights as services
from ledger.services.evenings import evening_create

from tests.hand_helpers import w, win

SELF_DRAW = {"events": [win(None, w(1, "qing_yi_se", 1)), win(None, w(2)), win(None, w(3))]}
DISCARD = {"events": [win(0, w(1)), win(2, w(3, "dui_dui_hu")), win(None, w(0))]}


def add(group, user, role):
    return GroupMember.objects.create(group=group, user=user, role=role)


def new_night(owner, names, group, title="周六夜"):
    players = [groups.player_get_or_create(name=n, group=group) for n in names]
    return services.night_create(owner=owner, title=title, date=dt.date(2026, 11, 28), base=Decimal("2"),
                                 players=players, first_dealer=0)


def evening_tables(owner, group):
    """Two tables of one evening: 1 号桌 with 老王, 2 号桌 with 小李, each with three friends of its own."""
    evening = evening_create(by=owner, group=group, title="周六", date=dt.date(2026, 11, 28))
    tables = []
    for no, names in ((1, ["老王", "甲", "乙", "丙"]), (2, ["小李", "丁", "戊", "己"])):
        seated = [groups.player_get_or_create(name=n, group=group) for n in names]
        tables.append(services.night_create(owner=owner, title=f"{no} 号桌", date=evening.date, base=Decimal("2"),
                                            players=seated, first_dealer=0, evening=evening, table_no=no))
    return tables
