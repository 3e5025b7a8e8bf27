"""A single night's settlement (结算) is the group's entry (it moves the group's money) and shows on the night's
trail too: its page, its entry's words, the API. It stays out of the night's backup, so a backup made before
settling re-imports as before and a restored night shows no settlement it does not have."""
import datetime as dt
import re
from decimal import Decimal

from django.urls import reverse

from ledger.models import AuditEntry
from ledger.reports.backup import export_night, import_night
from ledger.services import nights as services

from tests.conftest import api_client
from tests.factories import page_client as signed_in
from tests.hand_helpers import w, win


def closed_night(owner, group, title="周六"):
    players = [services.player_get_or_create(name=n, group=group) for n in ("张三", "李四", "王五", "赵六")]
    night = services.night_create(owner=owner, title=title, date=dt.date(2026, 12, 5), base=Decimal(1),
                                  players=players, first_dealer=0)
    services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1))], "exhausted": True})
    return services.night_close(night=night, by=owner)


def test_the_settlement_shows_on_the_nights_trail_in_words(owner, group):
    night = closed_night(owner, group)
    other = closed_night(owner, group, title="另一场")
    before = export_night(night)
    client = signed_in(owner)
    client.post(reverse("night-settle-up", args=[night.pk]), {})
    entry = AuditEntry.objects.get(action=AuditEntry.Action.SETTLED)
    assert entry.night_id is None and entry.group_id == group.pk  # the group's entry, as before
    trail = client.get(reverse("night-audit", args=[night.pk])).content.decode()
    assert "结算" in trail.split("结束牌局")[0]  # newest first: above the close
    assert "结算" not in client.get(reverse("night-audit", args=[other.pk])).content.decode().split("结束牌局")[0]
    words = client.get(reverse("night-audit-entry", args=[night.pk, entry.pk])).content.decode()
    # In the night's stake, as its other pages say money (a walk: "赵六 → 李四 76", in what?).
    assert all(f"{payer} → 李四 ¥1<" in words for payer in ("张三", "王五", "赵六")), words
    assert "transfers" not in words and "1.0000" not in words  # words, not a dump
    api = api_client(owner).get(f"/api/nights/{night.pk}/audit/").json()
    assert api["results"][0]["action"] == "settled"
    assert "结算" in client.get(reverse("group-audit", args=[group.pk])).content.decode()
    assert export_night(night) == before  # the night's backup does not carry it
    assert re.search(r"已经在数据库里", str(_reimport(before, owner))) is None


def _reimport(doc, owner):
    try:
        import_night(doc, by=owner)
    except Exception as exc:  # noqa: BLE001: the words of a refusal, if any
        return exc
    return None


def test_an_evenings_settlement_and_its_paid_marks_show_on_each_tables_trail(owner, group):
    from ledger.services import evenings
    from tests.evening_helpers import table, two_tables

    evening, first, second = two_tables(owner, group)
    elsewhere = services.night_close(night=table(owner, group, None, ("张三", "李四", "王五", "赵六"),
                                                 hands=[{"events": [win(None, w(2))], "exhausted": True}],
                                                 title="别处"), by=owner)
    mine = evenings.settle_night(by=owner, night=elsewhere)
    evenings.transfer_mark_paid(by=owner, transfer=mine.transfers.get(position=1))
    settlement = evenings.settle_evening(by=owner, evening=evening)
    transfer = settlement.transfers.get(position=1)
    evenings.transfer_mark_paid(by=owner, transfer=transfer)
    evenings.transfer_mark_unpaid(by=owner, transfer=transfer)
    client = signed_in(owner)
    Action = AuditEntry.Action
    for night in (first, second):
        actions = [a["action"] for a in api_client(owner).get(f"/api/nights/{night.pk}/audit/").json()["results"]]
        assert actions[:3] == [Action.TRANSFER_UNPAID, Action.TRANSFER_PAID, Action.SETTLED], actions
        assert actions.count(Action.TRANSFER_PAID) == 1  # the other night's mark is not this night's
        page = client.get(reverse("night-audit", args=[night.pk])).content.decode()
        assert page.count("标记已付") == 1 and "撤销已付" in page
        # The list names each mark's transfer, without opening the entry.
        line = f"{transfer.payer.name} → {transfer.payee.name} ¥{transfer.amount.normalize():f}"
        assert page.count(f'<span class="marked-transfer">{line}</span>') == 2, page
    paid = AuditEntry.objects.get(action=Action.TRANSFER_PAID, after__settlement=settlement.pk)
    words = client.get(reverse("night-audit-entry", args=[first.pk, paid.pk])).content.decode()
    payer, payee = transfer.payer.name, transfer.payee.name
    assert f"{payer} → {payee} ¥{transfer.amount.normalize():f}" in words and "已付：" in words
    assert "（owner 标记）" in words and "未付" in words and "paid_at" not in words and "position" not in words
    theirs = [a["action"] for a in api_client(owner).get(f"/api/nights/{elsewhere.pk}/audit/").json()["results"]]
    assert theirs[:2] == [Action.TRANSFER_PAID, Action.SETTLED]
    assert Action.TRANSFER_UNPAID not in theirs
    assert all(e["action"] not in (Action.SETTLED, Action.TRANSFER_PAID) for e in export_night(first)["audit"])
    # The list reads no entry's `after` one by one: as many statements with one more mark.
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    with CaptureQueriesContext(connection) as before:
        client.get(reverse("night-audit", args=[first.pk]))
    evenings.transfer_mark_paid(by=owner, transfer=settlement.transfers.get(position=2))
    with CaptureQueriesContext(connection) as after:
        page = client.get(reverse("night-audit", args=[first.pk])).content.decode()
    assert page.count('class="marked-transfer"') == 3 and len(after) == len(before)
