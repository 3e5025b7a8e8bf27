"""Pages that stay small as a night grows (issue 10): the audit and night list in pages, newest first."""
import datetime as dt
import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger.services import nights as services
from ledger.models import AuditEntry
from ledger.web.paging import MAX_PAGE_SIZE

from tests.factories import page_client
from tests.hand_helpers import w, win

SELF_DRAW = {"events": [win(None, w(1, "qing_yi_se", 1))], "exhausted": True}


def record(night, owner, count):
    for i in range(count):
        services.hand_record(night=night, by=owner, entry={"events": [win(None, w(i % 4))], "exhausted": True})


@pytest.fixture
def client(owner):
    return page_client(owner)


def entry_ids(html):
    return [int(n) for n in re.findall(r'id="audit-(\d+)"', html)]


def next_link(html):
    found = re.search(r'rel="next" href="\?cursor=([^"]+)"', html)
    return found.group(1) if found else None


def test_the_audit_page_shows_the_newest_entries_first_a_page_at_a_time(client, night, owner):
    record(night, owner, 40)
    first = client.get(f"/nights/{night.pk}/audit/").content.decode()
    ids = entry_ids(first)
    assert len(ids) == 30 and ids == sorted(ids, reverse=True)
    assert ids[0] == AuditEntry.objects.latest("id").pk
    second = client.get(f"/nights/{night.pk}/audit/?cursor={next_link(first)}").content.decode()
    rest = entry_ids(second)
    assert len(rest) == 11 and max(rest) < min(ids)  # 40 hands + the night's creation
    assert next_link(second) is None


def test_audit_pages_do_not_shift_while_hands_are_being_added(client, night, owner):
    record(night, owner, 35)
    first = client.get(f"/nights/{night.pk}/audit/").content.decode()
    cursor = next_link(first)
    before = entry_ids(client.get(f"/nights/{night.pk}/audit/?cursor={cursor}").content.decode())
    record(night, owner, 7)
    after = entry_ids(client.get(f"/nights/{night.pk}/audit/?cursor={cursor}").content.decode())
    assert after == before
    assert set(entry_ids(client.get(f"/nights/{night.pk}/audit/").content.decode())).isdisjoint(before)


def test_the_audit_page_carries_no_dump_and_opens_each_change_on_demand(client, night, owner):
    hand = services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    services.hand_correct(hand=hand, by=owner, entry={"events": [win(2, w(0))], "exhausted": True}, reason="看错了")
    page = client.get(f"/nights/{night.pk}/audit/").content.decode()
    assert "qing_yi_se" not in page and "{&#x27;" not in page and "<pre>" not in page
    entry = AuditEntry.objects.get(action="hand_corrected")
    assert f'data-src="/nights/{night.pk}/audit/{entry.pk}/?fragment=1"' in page
    fragment = client.get(f"/nights/{night.pk}/audit/{entry.pk}/?fragment=1").content.decode()
    assert "<html" not in fragment
    before, after = fragment.split("之后")
    assert "李四 自摸 清一色 带1根" in before and "王五" in after and "王五 点炮 张三 平胡" in after
    assert "qing_yi_se" not in fragment and "{" not in fragment
    full = client.get(f"/nights/{night.pk}/audit/{entry.pk}/").content.decode()
    assert "<html" in full and "李四 自摸 清一色" in full


def test_seat_changes_voids_and_the_night_itself_read_as_words(client, night, owner):
    hand = services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    services.hand_void(hand=hand, by=owner, reason="undo")
    services.seat_change(night=night, by=owner, seat=2, player=services.player_get_or_create(name="孙七", group=night.group))
    texts = {e.action: client.get(f"/nights/{night.pk}/audit/{e.pk}/?fragment=1").content.decode()
             for e in AuditEntry.objects.all()}
    assert "西：王五" in texts["seat_changed"] and "西：孙七" in texts["seat_changed"]
    assert "已记录" in texts["hand_voided"] and "已作废" in texts["hand_voided"]
    # ... and which hand it took off, with the money (a walk saw only 状态：已记录 → 已作废).
    voided = texts["hand_voided"].split("作废的这一局")[1]
    assert "<del>李四 自摸 清一色 带1根 3番，张三、王五、赵六 各付16</del>" in voided
    assert "<del>张三 -16  李四 +48  王五 -16  赵六 -16</del>" in voided
    assert "作废的这一局" not in texts["seat_changed"]
    assert "张三 / 李四 / 王五 / 赵六" in texts["night_created"]


def test_an_audit_entry_of_another_night_is_not_found(client, night, owner, players):
    other = services.night_create(owner=owner, title="别的", date=dt.date(2026, 11, 28), base=Decimal(1),
                                  players=players, first_dealer=0)
    entry = AuditEntry.objects.get(night=other)
    assert client.get(f"/nights/{night.pk}/audit/{entry.pk}/").status_code == 404


def test_an_unreadable_cursor_gives_the_first_page(client, night, owner):
    record(night, owner, 3)
    assert entry_ids(client.get(f"/nights/{night.pk}/audit/?cursor=%%%").content.decode()) == \
        entry_ids(client.get(f"/nights/{night.pk}/audit/").content.decode())


def test_the_night_list_is_paged_newest_first_and_the_page_size_is_bounded(client, owner, players):
    for day in range(25):
        services.night_create(owner=owner, title=f"第{day}夜", date=dt.date(2026, 1, 1) + dt.timedelta(days=day),
                              base=Decimal(1), players=players, first_dealer=0)
    first = client.get("/").content.decode()
    titles = re.findall(r"<strong>(第\d+夜)</strong>", first)
    assert titles[:2] == ["第24夜", "第23夜"] and len(titles) == 20
    second = client.get(f"/?cursor={next_link(first)}").content.decode()
    assert re.findall(r"<strong>(第\d+夜)</strong>", second) == [f"第{d}夜" for d in range(4, -1, -1)]
    big = client.get("/?size=100000").content.decode()
    assert len(re.findall(r"<strong>(第\d+夜)</strong>", big)) == 25 <= MAX_PAGE_SIZE


def queries_of(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def test_the_audit_and_night_list_cost_the_same_queries_at_10_and_200_hands(client, night, owner):
    record(night, owner, 10)
    entry = AuditEntry.objects.filter(action="hand_recorded").latest("id").pk
    urls = [f"/nights/{night.pk}/audit/", f"/nights/{night.pk}/audit/{entry}/", "/"]
    small = [queries_of(client, u) for u in urls]
    cursor = next_link(client.get(urls[0]).content.decode())
    assert cursor is None
    record(night, owner, 190)
    large = [queries_of(client, u) for u in urls]
    assert large == small
    cursor = next_link(client.get(urls[0]).content.decode())
    assert queries_of(client, f"{urls[0]}?cursor={cursor}") == small[0]


def test_a_dealer_override_reads_as_words_in_the_audit(client, night, owner):
    services.hand_record(night=night, by=owner, entry=SELF_DRAW, dealer=2)
    entry = AuditEntry.objects.get(action="hand_recorded")
    fragment = client.get(f"/nights/{night.pk}/audit/{entry.pk}/?fragment=1").content.decode()
    assert "庄家由 张三 改为 王五" in fragment
    # The hand a void took off is said as its recording left it, the dealer the table chose included.
    services.hand_void(hand=entry.hand, by=owner, reason="undo")
    void = AuditEntry.objects.get(action="hand_voided")
    voided = client.get(f"/nights/{night.pk}/audit/{void.pk}/?fragment=1").content.decode().split("作废的这一局")[1]
    assert "<del>庄家由 张三 改为 王五</del>" in voided


def test_a_correction_in_the_audit_marks_the_lines_that_changed(client, night, owner):
    """The hand before and after, each line that differs marked (a walk found the one changed line by eye)."""
    hand = services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    corrected = {"events": [win(None, w(1, "qing_yi_se", 2))], "exhausted": True}
    services.hand_correct(hand=hand, by=owner, entry=corrected, reason="两根")
    entry = AuditEntry.objects.get(action="hand_corrected")
    fragment = client.get(f"/nights/{night.pk}/audit/{entry.pk}/?fragment=1").content.decode()
    gone = re.findall(r"<del>(.*?)</del>", fragment)
    new = re.findall(r"<ins>(.*?)</ins>", fragment)
    assert any("带1根" in line for line in gone) and any("带2根" in line for line in new), fragment
    assert not any("庄" in line for line in gone + new)  # the dealer did not change: not marked
    assert "改过的行标了底色" in fragment
    recorded = AuditEntry.objects.get(action="hand_recorded")  # nothing before: nothing marked
    fragment = client.get(f"/nights/{night.pk}/audit/{recorded.pk}/?fragment=1").content.decode()
    assert "<ins>" not in fragment and "改过的行" not in fragment


def test_a_line_twice_on_one_side_and_once_on_the_other_is_marked_once():
    from ledger.presenters.audit import _unmatched
    assert _unmatched(["张三 → 李四 2", "张三 → 李四 2", "王五 +4"], ["张三 → 李四 2", "王五 +8"]) == {1, 2}
    assert _unmatched(["张三 → 李四 2", "王五 +8"], ["张三 → 李四 2", "张三 → 李四 2", "王五 +4"]) == {1}
