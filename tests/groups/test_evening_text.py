"""The evening's text for the group chat (on the evening page, with a copy button): each player's net over the tables
and the transfers everyone pays, the evening's, which no table's own text or picture can say (a walk: at two tables the
only thing to share listed one table's transfers, which nobody pays)."""
import html
import re
import subprocess
from decimal import Decimal

import pytest
from django.urls import reverse

from ledger.selectors.evenings import evening_view
from ledger.services import evenings

from tests.evening_helpers import two_tables
from tests.factories import page_client as signed_in


def text_on_page(client, evening):
    page = client.get(reverse("evening", args=[evening.pk])).content.decode()
    return html.unescape(re.search(r'<textarea id="evening-summary"[^>]*>(.*?)</textarea>', page, re.S)[1])


def test_the_evenings_text_gives_the_nets_over_the_tables_and_the_evenings_transfers(owner, group):
    evening, first, second = two_tables(owner, group, fee={"mode": "per_player", "amount": "1"})
    client = signed_in(owner)
    text = text_on_page(client, evening)
    view = evening_view(evening)
    assert text.startswith("周五麻将局 · 2026-11-27 · 老茶馆\n2 桌\n")
    nets = dict(re.findall(r"^(\S+) ([+-]?\d+(?:\.\d+)?)$", text.split("每人输赢（所有牌桌一起）")[1].split("\n\n")[0], re.M))
    assert {name: Decimal(v) for name, v in nets.items() if name != "台费"} == \
        {p.name: view.nets[p.pk] for p in view.players}
    assert Decimal(nets["台费"]) == view.fee == 9  # five seated at table 1 (孙七 took a seat), four at table 2, ¥1 each
    assert sum(Decimal(v) for v in nets.values()) == 0
    planned = [f"{t.payer.name} → {t.payee.name} ¥{t.amount.normalize():f}" for t in view.plan.transfers]
    assert "最少转账（还没结算）" in text and all(line in text for line in planned), (planned, text)

    settlement = evenings.settle_evening(by=owner, evening=evening)
    paid = settlement.transfers.get(position=1)
    evenings.transfer_mark_paid(by=owner, transfer=paid)
    text = text_on_page(client, evening)
    assert "最少转账（还没结算）" not in text and "\n结算\n" in text
    assert text.count("✓已付") == 1 and len(text.split("\n结算\n")[1].strip().splitlines()) == settlement.transfers.count()


def test_the_evenings_text_in_english(owner, group):
    evening, _first, _second = two_tables(owner, group)
    client = signed_in(owner)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("evening", args=[evening.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "2 tables" in page and "Each player&#x27;s net (all tables together)" in page
    assert "Fewest transfers (not settled yet)" in page


def test_a_tables_text_and_picture_give_the_evenings_transfers(owner, group):
    """At a table of an evening the transfers to pay are the evening's: the table's text (end-of-night page, its
    .txt) and its PDF's page one (the picture shared) give them, not the table's own with a note not to pay them."""
    import subprocess

    from ledger.reports import night_report, render

    evening, first, _second = two_tables(owner, group)
    view = evening_view(evening)
    expected = [f"{t.payer.name} → {t.payee.name} ¥{t.amount.normalize():f}" for t in view.plan.transfers]
    text = render("txt", night_report(first), "zh")[2].decode()
    assert "这一桌是活动“周五麻将局”的一部分" in text and all(line in text for line in expected), (expected, text)
    page = html.unescape(signed_in(owner).get(reverse("night-settle", args=[first.pk])).content.decode())
    assert all(line in page.split('id="report-summary"')[1] for line in expected)
    pdf = render("pdf", night_report(first), "zh")[2]
    first_page = subprocess.run(["pdftotext", "-layout", "-l", "1", "-", "-"], input=pdf, capture_output=True,
                                check=True).stdout.decode()
    assert all(" ".join(line.split()) in " ".join(first_page.split()) for line in expected), first_page


def test_who_may_see_one_table_only_gets_its_own_transfers_and_trail(owner, group):
    """A member of one table (not of the group) may not see the evening: its transfers name the other tables'
    players, and its settlement may carry the group's older debts. Its text, report and trail stay the table's."""
    from django.contrib.auth import get_user_model

    from ledger.reports import night_report, render

    evening, first, _second = two_tables(owner, group)
    evenings.settle_evening(by=owner, evening=evening)
    guest = get_user_model().objects.create_user("tableonly", password="pw-tableonly-2026")
    first.members.add(guest)
    client = signed_in(guest)
    others = {"周八", "吴九", "郑十"}  # table 2's players who never sat at table 1
    text = client.get(f"/api/nights/{first.pk}/report.txt").content.decode()
    assert "不要按下面这张单桌的" in text and not any(name in text for name in others), (others, text)
    actions = [e["action"] for e in client.get(f"/api/nights/{first.pk}/audit/").json()["results"]]
    assert "settled" not in actions
    page = html.unescape(client.get(reverse("night-settle", args=[first.pk])).content.decode())
    assert not any(name in page.split('id="report-summary"')[1] for name in others)
    owners = render("txt", night_report(first), "zh")[2].decode()  # the group's members get the evening's
    assert any(name in owners for name in others)


def test_a_settled_evenings_table_gives_what_is_still_to_pay_then_what_was_paid_marked_paid(owner, group):
    """A walk: once a transfer was marked paid the text, the PDF and the picture for the group chat left it out, and
    its payer's net had no transfer beside it. It now comes after those still to pay, with ✓ 已付."""
    from ledger.reports import night_report, render

    evening, first, _second = two_tables(owner, group)
    settlement = evenings.settle_evening(by=owner, evening=evening)
    paid = settlement.transfers.get(position=1)
    evenings.transfer_mark_paid(by=owner, transfer=paid)
    text = render("txt", night_report(first), "zh")[2].decode()
    assert "活动已结算。付过的标着“✓ 已付”。" in text
    due = text.split("最少转账")[1].split("\n")
    line = f"{paid.payer.name} → {paid.payee.name} ¥{paid.amount.normalize():f}"
    assert due[-2] == f"{line} ✓ 已付", due  # the last line (签字确认 is not in use: no name claimed)
    for t in settlement.transfers.exclude(pk=paid.pk):
        assert f"{t.payer.name} → {t.payee.name} ¥{t.amount.normalize():f}" in due[:-2]
    english = render("txt", night_report(first), "en")[2].decode()
    assert "which is settled. Those paid are marked “✓ paid”." in english and f"{line} ✓ paid" in english
    # A reader who may see this table only gets its own transfers, not to be paid: nothing of the evening's is paid.
    outside = render("txt", night_report(first, evening_visible=False), "zh")[2].decode()
    assert "✓ 已付" not in outside and "付过的标着" not in outside


def test_a_settlement_that_took_in_older_debts_lists_them_with_where_they_came_from(owner, group):
    """Settled with 把之前没付的一起结, the page and the text said only 含之前没付的: the chat saw transfers that did not
    match the nets, with nothing to explain them (a walk)."""
    import datetime as dt

    from tests.evening_helpers import NAMES, self_draw, table

    from ledger.services import nights as night_services

    last = night_services.night_close(night=table(owner, group, None, NAMES[:4], hands=[self_draw(1)],
                                                  title="上周"), by=owner)
    old = evenings.settle_night(by=owner, night=last)
    evening, _first, _second = two_tables(owner, group)
    evenings.settle_evening(by=owner, evening=evening, include_carry=True)
    client = signed_in(owner)
    page = html.unescape(client.get(reverse("evening", args=[evening.pk])).content.decode())
    text = text_on_page(client, evening)
    for t in old.transfers.all():
        line = f"{t.payer.name} → {t.payee.name} ¥{t.amount.normalize():f} · 上周（{dt.date(2026, 11, 27):%m-%d}）"
        assert line in page.split('id="fixed-settlement"')[1] and line in text, (line, text)
    # A table's report (PDF, picture, text) named them nowhere: 胖子 +14 beside 胖子 → 老王 ¥96 (a walk).
    from ledger.reports import night_report, render
    report = render("txt", night_report(_first), "zh")[2].decode()
    # After the transfers to pay, each on a line of its own under words that say not to pay them again (a walk:
    # nine of them in one sentence before the transfers, read in the chat as more to pay).
    listed = report.split("\n\n上面的转账已包含以下之前没付的欠款，不要另外再付：\n")[1]
    assert "结算时把之前没付的一起结了：转账里含之前的欠款。" in report.split("上面的转账已包含")[0]
    for t in old.transfers.all():
        assert f"{t.payer.name} → {t.payee.name} ¥{t.amount.normalize():f} · 上周（11-27）\n" in listed, report
    # In the report's own language, words and brackets (gathered once, said when rendered).
    english = render("txt", night_report(_first), "en")[2].decode()
    assert "The transfers above already include these earlier unpaid debts (do not pay them again):\n" in english, english
    assert "上周 (11-27)" in english and "（" not in english.split("earlier unpaid debts")[1], english


def test_a_tables_settle_page_lists_no_transfers_of_its_own(owner, group):
    """The card listed the table's own transfers ("do not pay these") above a text giving the evening's."""
    _evening, first, _second = two_tables(owner, group)
    page = html.unescape(signed_in(owner).get(reverse("night-settle", args=[first.pk])).content.decode())
    card = page.split('data-live="settlement"')[1].split("</div>")[0]
    assert "转账在活动页面" in card and '<ul class="transfers">' not in card


def test_the_carry_preview_is_what_settling_fixes_with_debts_from_two_earlier_settlements(owner, group):
    """The preview read the older debts oldest first, the service newest first: with players not at this table the
    two could pair them differently (a review). One order now, whatever the reading order."""
    from ledger.selectors.evenings import carry_preview, combined_nets
    from ledger.selectors.nights import night_summary
    from ledger.services import nights as night_services

    from tests.evening_helpers import NAMES, on_discard, self_draw, table

    def closed(names, hands, title):
        return night_services.night_close(night=table(owner, group, None, names, hands=hands, title=title), by=owner)

    evenings.settle_night(by=owner, night=closed(NAMES[4:8], [on_discard(2, 0)], "一"))  # 孙七 owes 吴九
    evenings.settle_night(by=owner, night=closed((NAMES[5], NAMES[0], NAMES[6], NAMES[7]), [on_discard(1, 0)], "二"))
    now = closed(NAMES[:4], [on_discard(2, 3)], "三")
    preview = carry_preview(group, combined_nets([night_summary(now)]))
    fixed = evenings.settle_night(by=owner, night=now, include_carry=True)
    assert preview.transfers == [(t.payer.name if t.payer else "台费", t.payee.name if t.payee else "台费", t.amount)
                                 for t in fixed.transfers.order_by("position")]
    assert len(preview.carried) == 2


def test_a_settled_night_of_its_own_gives_what_is_still_to_pay_then_what_was_paid(owner, group):
    from ledger.reports import night_report, render
    from ledger.services import nights as night_services

    from tests.evening_helpers import NAMES, self_draw, table

    night = night_services.night_close(night=table(owner, group, None, NAMES[:4], hands=[self_draw(1)]), by=owner)
    settlement = evenings.settle_night(by=owner, night=night)
    paid = settlement.transfers.get(position=1)
    evenings.transfer_mark_paid(by=owner, transfer=paid)
    text = render("txt", night_report(night), "zh")[2].decode()
    due = text.split("最少转账")[1]
    assert "已结算。付过的标着“✓ 已付”。" in due
    assert f"{paid.payer.name} → {paid.payee.name} ¥{paid.amount.normalize():f} ✓ 已付" in due
    assert all(f"{t.payer.name} → {t.payee.name} ¥{t.amount.normalize():f}\n" in due
               for t in settlement.transfers.exclude(pk=paid.pk))
    for t in settlement.transfers.exclude(pk=paid.pk):
        evenings.transfer_mark_paid(by=owner, transfer=t)
    due = render("txt", night_report(night), "zh")[2].decode().split("最少转账")[1]
    assert "都付清了，或已并入之后的结算。" in due and due.count("✓ 已付") == settlement.transfers.count() + 1


def test_the_older_debts_a_settlement_took_in_show_to_the_groups_members_only(owner, group):
    from django.contrib.auth import get_user_model

    from ledger.services import nights as night_services

    from tests.evening_helpers import NAMES, self_draw, table

    old = night_services.night_close(night=table(owner, group, None, NAMES[4:8], hands=[self_draw(1)], title="秘密的上周"),
                                     by=owner)
    evenings.settle_night(by=owner, night=old)
    now = night_services.night_close(night=table(owner, group, None, NAMES[:4], hands=[self_draw(2)], title="本周"),
                                     by=owner)
    evenings.settle_night(by=owner, night=now, include_carry=True)
    outsider = get_user_model().objects.create_user("nightonly", password="pw-nightonly-2026")
    now.members.add(outsider)
    mine = html.unescape(signed_in(owner).get(reverse("night-settle", args=[now.pk])).content.decode())
    theirs = html.unescape(signed_in(outsider).get(reverse("night-settle", args=[now.pk])).content.decode())
    assert "秘密的上周" in mine
    assert "秘密的上周" not in theirs
    # The outsider is told the transfers hold older debts, not shown a heading over nothing (a walk, the view link).
    assert "下面的转账含之前没付的。" in theirs and "下面的转账含之前没付的。" not in mine
    # The reports too: the group's members see the older debts named, anyone else that there are some.
    from ledger.reports import night_report, render
    members = render("txt", night_report(now), "zh")[2].decode()
    others = render("txt", night_report(now, evening_visible=False), "zh")[2].decode()
    assert "上面的转账已包含以下之前没付的欠款，不要另外再付：" in members and "秘密的上周" in members
    assert "转账里含之前的欠款" in others and "秘密的上周" not in others


@pytest.mark.parametrize("lang, words", [("zh", "都付清了，或已并入之后的结算。"),
                                         ("en", "All paid, or carried into a later settlement.")])
def test_a_settled_night_all_paid_says_so_not_that_no_transfer_was_needed(owner, group, lang, words):
    """Once every fixed transfer is paid, the reports said 无需转账, as if nobody had ever owed anything (a walk)."""
    from ledger.reports import night_report, render
    from ledger.services import nights as night_services

    from tests.evening_helpers import NAMES, self_draw, table

    night = night_services.night_close(night=table(owner, group, None, NAMES[:4], hands=[self_draw(1)]), by=owner)
    settlement = evenings.settle_night(by=owner, night=night)
    for transfer in settlement.transfers.all():
        evenings.transfer_mark_paid(by=owner, transfer=transfer)
    report = night_report(night)
    text = render("txt", report, lang)[2].decode()
    assert words in text and ("无需转账" not in text and "No transfers needed" not in text)
    pdf = subprocess.run(["pdftotext", "-layout", "-", "-"], input=render("pdf", report, lang)[2],
                         capture_output=True, check=True).stdout.decode()
    assert words.split("，")[0].split(",")[0] in pdf


def test_a_settled_nights_page_lists_one_set_of_transfers_the_fixed_ones(owner, group):
    """Settled with older debts taken in, the page listed the night's own fewest transfers above the settlement's,
    different ones: two bills, with nothing to say which to pay (a walk)."""
    from ledger.services import nights as night_services

    from tests.evening_helpers import NAMES, self_draw, table

    last = night_services.night_close(night=table(owner, group, None, NAMES[4:8], hands=[self_draw(1)], title="上周"),
                                      by=owner)
    evenings.settle_night(by=owner, night=last)
    now = night_services.night_close(night=table(owner, group, None, NAMES[:4], hands=[self_draw(2)], title="本周"),
                                     by=owner)
    client = signed_in(owner)
    before = html.unescape(client.get(reverse("night-settle", args=[now.pk])).content.decode())
    assert '<ul class="transfers">' in before.split('data-live="settlement"')[1].split('data-live="paid"')[0]
    evenings.settle_night(by=owner, night=now, include_carry=True)
    page = html.unescape(client.get(reverse("night-settle", args=[now.pk])).content.decode())
    card = page.split('data-live="settlement"')[1].split("</div>")[0]
    assert '<ul class="transfers">' not in card and "已结算：转账和谁付了见下面。" in card


def test_the_pdf_and_the_picture_list_a_transfer_marked_paid_after_those_still_to_pay(owner, group):
    """A walk: 王五 → 张三 ¥32 marked paid was gone from the picture for the group chat, and 王五's -32 stood alone."""
    import subprocess

    from ledger.reports import night_report, render
    from ledger.services import nights as night_services

    from tests.evening_helpers import NAMES, self_draw, table

    night = night_services.night_close(night=table(owner, group, None, NAMES[:4], hands=[self_draw(1), self_draw(2)]),
                                       by=owner)
    settlement = evenings.settle_night(by=owner, night=night)
    paid, due = settlement.transfers.get(position=1), settlement.transfers.get(position=2)
    evenings.transfer_mark_paid(by=owner, transfer=paid)
    pdf = render("pdf", night_report(night), "zh")[2]
    text = subprocess.run(["pdftotext", "-l", "1", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    lines = [line.strip() for line in text.splitlines() if "→" in line]
    assert lines == [f"{due.payer.name} → {due.payee.name} ¥{due.amount.normalize():f}",
                     f"{paid.payer.name} → {paid.payee.name} ¥{paid.amount.normalize():f} ✓ 已付"], text
    assert "付过的标着“✓ 已付”" in text
