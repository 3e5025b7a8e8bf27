"""One hand recorded on two phones at once lands twice (both saves are good hands): the page that saved the second
says it is exactly like the hand before, with the way to void one; nothing is voided by itself (an offline walk: the
money was doubled and nothing pointed it out)."""
import datetime as dt
import json
import re
from decimal import Decimal

from django.urls import reverse

from ledger.models import Hand
from ledger.selectors.nights import same_as_before
from ledger.services import nights as services

from tests.factories import page_client as signed_in
from tests.hand_helpers import w, win

def a_night(owner, group):
    players = [services.player_get_or_create(name=n, group=group) for n in ("张三", "李四", "王五", "赵六")]
    return services.night_create(owner=owner, title="周六", date=dt.date(2026, 12, 5), base=Decimal(1),
                                 players=players, first_dealer=0)


SELF_DRAW = {"events": [win(None, w(2, "dui_dui_hu"))], "exhausted": True}


def test_the_same_entry_moments_apart_is_pointed_out_and_nothing_else_is(owner, group):
    night = a_night(owner, group)
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    services.hand_record(night=night, by=owner, entry=dict(SELF_DRAW))
    assert same_as_before(night, 2) == 1 and same_as_before(night, 1) is None
    services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1))], "exhausted": True})
    assert same_as_before(night, 3) is None                     # another hand
    services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1))], "exhausted": True})
    Hand.objects.filter(night=night, number=4).update(recorded_at=Hand.objects.get(night=night, number=3).recorded_at
                                                      + dt.timedelta(minutes=5))
    assert same_as_before(night, 4) is None                     # the same way again, minutes later: played twice
    services.hand_void(hand=Hand.objects.get(night=night, number=1), by=owner, reason="两部手机")
    assert same_as_before(night, 2) is None                     # put right already


def test_the_table_page_after_the_second_save_says_so(owner, group):
    night = a_night(owner, group)
    for _ in range(2):
        services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    page = signed_in(owner).get(reverse("night-table", args=[night.pk]) + "?saved=2").content.decode()
    config = json.loads(re.search(r'<script id="table-config" type="application/json">(.*?)</script>', page, re.S)[1])
    assert config["sameAs"] == 1 and "两部手机" in config["strings"]["sameAs"]
    page = signed_in(owner).get(reverse("night-table", args=[night.pk]) + "?saved=1").content.decode()
    config = json.loads(re.search(r'<script id="table-config" type="application/json">(.*?)</script>', page, re.S)[1])
    assert config["sameAs"] is None
