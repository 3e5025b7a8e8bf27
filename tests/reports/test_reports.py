"""The night report: hand lines, the one context, and the PDF, PNG, text and CSV built from it."""
import csv
import io
import re
import subprocess
import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from ledger.presenters import nights as presenters
from ledger.services import nights as services
from ledger.management.commands.demo import DEMO_HANDS
from ledger.presenters.nights import describe_hand, describe_hands
from ledger.reports import night_report, render
from ledger.reports.base import content_disposition, file_stem
from ledger.reports.pdf import template_context

from tests.hand_helpers import w, win
from tests.report_helpers import add_hands

DISCARD = {"events": [win(1, w(0, "qing_dui")), win(None, w(2)), win(3, w(1))]}


def text_of(pdf: bytes) -> str:
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()


def fonts_of(pdf: bytes) -> list[list[str]]:
    out = subprocess.run(["pdffonts", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    return [line.split() for line in out.splitlines()[2:]]


@pytest.fixture
def played(night, owner):
    """Eight of the demo's hands; hand 2 corrected, hand 3 voided."""
    for entry in DEMO_HANDS[:8]:
        services.hand_record(night=night, by=owner, entry=entry)
    second = night.hands.get(number=2)
    services.hand_correct(hand=second, by=owner, entry=DEMO_HANDS[1], reason="王五的补杠是 3p")
    services.hand_void(hand=night.hands.get(number=3), by=owner, reason="记错了桌")
    return night


def test_a_discard_win_reads_discarder_first_in_chinese_and_as_a_sentence_in_english(night, owner):
    hand = services.hand_record(night=night, by=owner, entry=DISCARD)
    assert describe_hand(hand.current)[0] == "李四 点炮 张三 清对 3番，李四付16"
    with translation.override("en"):
        assert describe_hand(hand.current)[0] == "张三 wins on 李四's discard: flush all pongs, 3 fan; 李四 pays 16"
        assert describe_hand(hand.current)[1] == "王五 self-draws: basic win, 0 fan; 李四 and 赵六 each pay 2"


def test_a_self_draw_line_names_who_actually_paid(night, owner):
    hand = services.hand_record(night=night, by=owner, entry=DEMO_HANDS[8])  # seat 3 self-draws last: only 张三 pays
    assert describe_hand(hand.current)[-1] == "赵六 自摸 龙七对 4番，张三付32"


def test_kong_lines_name_the_kong_and_who_paid(night, owner):
    hand = services.hand_record(night=night, by=owner, entry=DEMO_HANDS[0])
    assert describe_hand(hand.current)[0] == "张三 暗杠 5万，李四、王五、赵六 各付4"  # the tile in the page's words
    with translation.override("en"):
        assert describe_hand(hand.current)[0] == "张三 makes a concealed kong of 5m; 李四, 王五 and 赵六 each pay 4"


def test_the_undo_reason_is_shown_in_the_readers_language():
    with translation.override("zh-hans"):
        assert presenters.void_reason("undo") == "保存后撤销"
    with translation.override("en"):
        assert presenters.void_reason("undo") == "Undone after saving"
    assert presenters.void_reason("记错了") == "记错了"


def test_labels_are_translated_once_per_language_not_once_per_line(played, monkeypatch):
    revisions = [h.current for h in played.hands.all()] * 50
    presenters.hand_words.cache_clear()
    calls = []
    real = presenters._
    monkeypatch.setattr(presenters, "_", lambda text: calls.append(text) or real(text))
    describe_hands(revisions[:1])
    once = len(calls)
    describe_hands(revisions)
    describe_hand(revisions[0])
    assert once > 0 and len(calls) == once


def test_rule_options_read_in_words_with_the_rules_page_labels(night):
    options = dict(presenters.rule_options(night.rules))
    assert options["封顶番数"] == "不封顶" and options["查叫按"] == "查小" and options["退杠钱（退税）"] == "是"
    # 花猪 left at the cap's fan says what that is (a walk: "as the fan cap" beside "no cap", 5 fan paid).
    assert options["花猪赔几番"] == "5番（不封顶）"
    capped = dict(presenters.rule_options({**night.rules, "max_fan": 3}))
    assert capped["花猪赔几番"] == "按封顶番数（3番）"


def test_the_running_totals_end_at_each_net_and_the_statistics_agree(played):
    report = night_report(played)
    nets = {t.player.name: t.amount for t in report.totals}
    assert {s.name: s.points[-1] for s in report.running} == nets
    assert all(len(s.points) == len(report.hands) + 1 and s.points[0] == 0 for s in report.running)
    assert sum(nets.values()) == 0
    counted = [h for h in report.hands if h.counted]
    wins = [win for h in counted for win in h.result["wins"]]
    assert sum(s.wins for s in report.stats) == len(wins)
    assert sum(s.deal_ins for s in report.stats) == len({(h.number, x["event"]) for h in counted
                                                         for x in h.result["wins"] if x["from"] is not None})
    assert sum(s.self_draws for s in report.stats) == sum(1 for x in wins if x["from"] is None)
    assert sum(s.fan_total for s in report.stats) == sum(x["fan"] for x in wins)
    assert sum(s.cha_jiao_paid for s in report.stats) == sum(s.cha_jiao_received for s in report.stats) > 0
    robbed = sum(1 for h in counted for x in h.result["wins"] if "qiang_gang_hu" in x["flags"]
                 and h.record["events"][x["event"] - 1]["type"] == "kong")  # the demo robs a recorded kong
    kongs = sum(1 for h in counted for e in h.record["events"] if e["type"] == "kong") - robbed
    assert sum(s.kong_count for s in report.stats) == kongs
    biggest = max(x["fan"] for x in wins)
    assert max(s.biggest["fan"] for s in report.stats if s.biggest) == biggest


def test_a_players_biggest_hand_is_the_most_fan_then_the_most_won_as_on_the_player_page(night, owner):
    """A walk: of two 对对胡 at 1 fan, the report named the first (+2 on a discard), the player page the self-draw
    (+6): both rank by fan, then by what the win brought."""
    from ledger.models import Player
    from ledger.selectors.stats import player_history
    services.hand_record(night=night, by=owner, entry={"events": [win(2, w(1, "dui_dui_hu"))], "exhausted": True})
    services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1, "dui_dui_hu"))], "exhausted": True})
    li = next(s for s in night_report(night).stats if s.name == "李四")
    assert (li.biggest["fan"], li.biggest["number"]) == (1, 2)
    player = Player.objects.get(group=night.group, name="李四")
    [page_first, *_] = player_history(player).biggest
    assert page_first.number == li.biggest["number"] and page_first.won_amount == li.biggest["amount"]
    # The same again: of equal fan and amount, both name the later hand (a review).
    services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1, "dui_dui_hu"))], "exhausted": True})
    li = next(s for s in night_report(night).stats if s.name == "李四")
    player = Player.objects.get(pk=player.pk)  # as a request reads it (its group's generation moved)
    assert li.biggest["number"] == player_history(player).biggest[0].number == 3


def test_a_discard_won_by_two_is_one_deal_in_and_a_robbed_kong_is_no_kong(night, owner):
    """As the player page counts: 一炮多响 once per discard; the kong robbed by 抢杠胡 never happened."""
    two_on_one = {"events": [win(0, w(1), w(2))], "exhausted": True}
    robbed = {"events": [{"type": "kong", "player": 3, "kind": "added"},
                         win(3, w(1, flags=["qiang_gang_hu"]))], "exhausted": True}
    services.hand_record(night=night, by=owner, entry=two_on_one)
    services.hand_record(night=night, by=owner, entry=robbed)
    stats = {s.name: s for s in night_report(night).stats}
    assert (stats["张三"].deal_ins, stats["赵六"].deal_ins) == (1, 1)
    assert stats["赵六"].kong_count == 0


def test_the_report_is_read_in_the_same_number_of_queries_at_10_and_200_hands(night, owner):
    def queries():
        night_report(night)  # the totals and settlement are cached per change of the night: compare warm reads
        with CaptureQueriesContext(connection) as captured:
            report = night_report(night)
            render("txt", report, "zh")
            render("payments.csv", report, "en")
            render("hands.csv", report, "zh")
        return len(captured), len(report.hands)

    add_hands(night, 10, owner)
    at_10 = queries()
    add_hands(night, 190, owner)
    at_200 = queries()
    assert (at_10[1], at_200[1]) == (10, 200)
    assert at_10[0] == at_200[0]


def test_the_pdf_holds_names_patterns_every_net_and_transfer_with_every_font_embedded(played):
    report = night_report(played)
    filename, content_type, pdf = render("pdf", report, "zh")
    assert (filename, content_type) == ("2026-11-27-周五夜.pdf", "application/pdf")
    assert pdf.startswith(b"%PDF-")
    text = text_of(pdf)
    for name in ("张三", "李四", "王五", "赵六"):
        assert name in text
    for pattern in ("清一色", "对对胡", "平胡", "幺九"):
        assert pattern in text
    for total in report.totals:
        assert f"{total.player.name}" in text and presenters.money(total.amount) in text
    for transfer in report.transfers:
        assert f"{transfer.payer} → {transfer.payee} ¥{presenters.amount(transfer.amount)}" in text
    assert "已作废：记错了桌" in text and "已更正 1 次：王五的补杠是 3p" in text
    assert re.search(r"直杠（刮风）倍数：\s*2", text) and "成都麻将记账" in text
    pages = text.count("\f")
    assert pages >= 3 and all(re.search(rf"{n}\s*/\s*{pages}", text) for n in range(1, pages + 1))
    fonts = fonts_of(pdf)
    assert fonts and all(row[-5] == "yes" for row in fonts)  # the "emb" column
    assert any("CJK" in row[0] for row in fonts)


def test_the_pdf_reads_in_english_too(played):
    report = night_report(played)
    pdf = render("pdf", report, "en")[2]
    text = " ".join(text_of(pdf).split())
    assert "Fewest transfers" in text and "Player statistics" in text and "Running totals" in text
    assert "self-draws: full flush" in text or "wins on" in text
    assert "Voided: 记错了桌" in text and "corrected once: 王五的补杠是 3p" in text
    assert all(row[-5] == "yes" for row in fonts_of(pdf))


def test_the_png_is_page_one_1080_pixels_wide(played):
    from PIL import Image

    filename, content_type, png = render("png", night_report(played), "zh")
    assert (filename, content_type) == ("2026-11-27-周五夜.png", "image/png")
    image = Image.open(io.BytesIO(png))
    assert image.size[0] == 1080 and image.size[1] > 1400  # A4 portrait


def test_the_text_summary_has_each_net_and_transfer_one_per_line(played):
    report = night_report(played)
    text = render("txt", report, "zh")[2].decode()
    lines = text.splitlines()
    for t in report.totals:
        assert f"{t.player.name} {presenters.money(t.amount)}" in lines
    for t in report.transfers:
        assert f"{t.payer} → {t.payee} ¥{presenters.amount(t.amount)}" in lines
    assert "共 8 局 · 其中 1 局作废" in lines


def test_every_place_counts_the_hands_one_way_after_an_undo_and_a_void(played, owner):
    """Table, PDF, text summary and end-of-night page: every numbered hand, and how many of them are voided."""
    from django.test import Client
    services.hand_void(hand=played.hands.get(number=8), by=owner, reason="undo")  # the table page's 撤销
    services.night_close(night=played, by=owner)
    report = night_report(played)
    assert render("txt", report, "zh")[2].decode().splitlines()[1] == "共 8 局 · 其中 2 局作废"
    assert render("txt", report, "en")[2].decode().splitlines()[1] == "8 hands · 2 of them voided"
    assert "共 8 局 · 其中 2 局作废" in text_of(render("pdf", report, "zh")[2])
    assert max(len(series.points) for series in report.running) - 1 == 8  # the chart's hands
    client = Client()
    client.force_login(owner)
    assert "共 8 局 · 其中 2 局作废" in client.get(f"/nights/{played.pk}/").content.decode()
    assert "共 8 局 · 其中 2 局作废" in client.get(f"/nights/{played.pk}/settle/").content.decode()


@pytest.mark.parametrize("lang, undone", [("zh", "保存后撤销"), ("en", "Undone after saving")])
def test_the_hands_csv_gives_an_undo_in_the_readers_words(played, owner, lang, undone):
    """The table page's 撤销 voids with the app's reason "undo": the CSV says it as the pages and the PDF do."""
    services.hand_void(hand=played.hands.get(number=8), by=owner, reason="undo")
    services.hand_void(hand=played.hands.get(number=7), by=owner, reason="算错了")
    rows = list(csv.reader(io.StringIO(render("hands.csv", night_report(played), lang)[2].decode("utf-8-sig"))))
    reasons = {row[0]: row[3] for row in rows[1:]}
    assert reasons["8"] == undone and reasons["7"] == "算错了"


def test_the_payments_csv_parses_back_to_the_same_amounts(played):
    report = night_report(played)
    filename, content_type, data = render("payments.csv", report, "zh")
    assert filename.endswith("-payments.csv") and data.startswith("\ufeff".encode())
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert set(rows[0]) == {"局数", "状态", "原因", "付款人", "收款人", "金额"}
    net: dict[str, Decimal] = {}
    for row in rows:
        if row["状态"] == "已记录":
            net[row["收款人"]] = net.get(row["收款人"], Decimal(0)) + Decimal(row["金额"])
            net[row["付款人"]] = net.get(row["付款人"], Decimal(0)) - Decimal(row["金额"])
    assert net == {t.player.name: t.amount for t in report.totals}
    assert sum(len(h.payments) for h in report.hands) == len(rows)


def test_the_hands_csv_has_one_row_per_hand_with_its_nets(played):
    report = night_report(played)
    rows = list(csv.reader(io.StringIO(render("hands.csv", report, "en")[2].decode("utf-8-sig"))))
    assert rows[0][:3] == ["Hand number", "Status", "Revision"] and len(rows) == 1 + len(report.hands)
    assert rows[3][1] == "Voided" and rows[2][2] == "2"
    for row, hand in zip(rows[1:], report.hands):
        assert [Decimal(x) for x in row[9:13]] == list(hand.net) if hand.counted else row[9:13] == ["", "", "", ""]


@pytest.mark.parametrize("lang, reason", [("zh", "更正原因"), ("en", "Reason for the correction")])
def test_the_csv_columns_sum_to_the_totals_and_say_why_a_hand_was_corrected(played, lang, reason):
    """A voided hand's nets and payments are left empty (its words and status remain): summing a column in a
    spreadsheet gives each player's result, not one that counts a hand nobody paid. The last column gives why a
    corrected hand was changed."""
    report = night_report(played)
    hands = list(csv.reader(io.StringIO(render("hands.csv", report, lang)[2].decode("utf-8-sig"))))
    assert hands[0][-1] == reason
    assert hands[2][-1] == "王五的补杠是 3p" and hands[1][-1] == hands[3][-1] == ""  # hand 2 corrected; 3 voided
    assert hands[3][3] == "记错了桌" and hands[3][-2]  # the voided hand still says why and what it was
    sums = [sum(Decimal(row[9 + s] or 0) for row in hands[1:]) for s in range(4)]
    assert sums == [t.amount for t in sorted(report.totals, key=lambda t: t.seat)]
    payments = list(csv.reader(io.StringIO(render("payments.csv", report, lang)[2].decode("utf-8-sig"))))
    voided = [row for row in payments[1:] if row[0] == "3"]
    assert voided and all(row[5] == "" for row in voided) and all(row[3] and row[4] for row in voided)
    paid: dict[str, Decimal] = {}
    for _, _, _, payer, payee, value in payments[1:]:
        paid[payee] = paid.get(payee, Decimal(0)) + Decimal(value or 0)
        paid[payer] = paid.get(payer, Decimal(0)) - Decimal(value or 0)
    assert paid == {t.player.name: t.amount for t in report.totals}


def test_file_names_say_what_they_are_and_survive_old_clients(night):
    night.title = "周五夜场 / 3 号桌"
    assert file_stem(night) == "2026-11-27-周五夜场-3-号桌"
    header = content_disposition("2026-11-27-周五夜场.pdf")
    assert header.startswith('attachment; filename="2026-11-27-night.pdf"; filename*=UTF-8\'\'2026-11-27-%E5%91%A8')
    # A CSV's too: the title's place is kept (it read 2026-11-27---payments.csv).
    for suffix in ("hands", "payments"):
        assert f'filename="2026-11-27-night-{suffix}.csv"' in content_disposition(f"2026-11-27-周五夜场-{suffix}.csv")
    assert 'filename="2026-11-27-Friday-3-payments.csv"' in content_disposition("2026-11-27-Friday-周五-3-payments.csv")


def test_a_capped_win_says_its_fan_before_the_cap_and_a_robbed_kong_says_it_does_not_count(owner, group):
    """封顶 3: 清龙七对 is 5 fan, paid as 3, and says both (it read "清龙七对 3番", as if the pattern were worth 3);
    a kong robbed by 抢杠胡 never happened (RULES.md §5): said so, not "补杠，无人付"; the table's cap is in its
    house rules."""
    import datetime as dt
    from ledger.presenters.nights import house_rules_words
    players = [services.player_get_or_create(name=n, group=group) for n in ("张三", "李四", "王五", "赵六")]
    night = services.night_create(owner=owner, title="封顶", date=dt.date(2026, 12, 6), base=Decimal(1),
                                  players=players, first_dealer=0, rule_overrides={"max_fan": 3})
    capped = services.hand_record(night=night, by=owner, entry={
        "events": [win(None, w(0, "qing_long_qi_dui")), win(2, w(1, "qing_yi_se"))], "exhausted": True})
    robbed = services.hand_record(night=night, by=owner, entry={
        "events": [{"type": "kong", "player": 3, "kind": "added"}, win(3, w(1, flags=["qiang_gang_hu"]))],
        "exhausted": True})
    assert describe_hand(capped.current)[:2] == ["张三 自摸 清龙七对 5番（封顶 3番），李四、王五、赵六 各付8",
                                                 "王五 点炮 李四 清一色 2番，王五付4"]  # not capped: as before
    assert describe_hand(robbed.current)[0] == "赵六 补杠，被抢杠胡，不算杠"
    # The robbing win is said as what it was, not as 赵六 点炮 李四 … 抢杠胡 (a walk: the cards, CSV and PDF said so).
    assert describe_hand(robbed.current)[1] == "赵六 被 李四 抢杠胡 平胡 0番，赵六付1"
    with translation.override("en"):
        assert describe_hand(robbed.current)[1] == "李四 robs 赵六's kong: basic win, 0 fan; 赵六 pays 1"
        assert "flush dragon seven pairs, 5 fan, capped at 3;" in describe_hand(capped.current)[0]
        assert describe_hand(robbed.current)[0].endswith("robbed by a win on its tile: the kong does not count")
        assert "capped at 3 fan" in house_rules_words(night.rules)
    assert "封顶 3番" in house_rules_words(night.rules)
    assert "封顶" not in house_rules_words({})
    # The payments CSV names the robbed kong's payment (a discard's by the rules) as what it was (a walk).
    rows = list(csv.reader(io.StringIO(render("payments.csv", night_report(night), "zh")[2].decode("utf-8-sig"))))
    assert ["2", "已记录", "抢杠胡", "赵六", "李四", "1"] in rows
    assert ["1", "已记录", "点炮", "王五", "李四", "4"] in rows
    english = list(csv.reader(io.StringIO(render("payments.csv", night_report(night), "en")[2].decode("utf-8-sig"))))
    assert any(row[0] == "2" and row[2] == "robbed kong" for row in english)


def test_the_hand_list_heading_never_stands_alone_at_a_pages_foot(owner, group):
    """A 血流 night whose first hand is a tall row (the walk's): the heading 每局明细 and the column titles go to the
    page of the first hand, not left alone at the foot of the statistics' page."""
    import datetime as dt
    players = [services.player_get_or_create(name=n, group=group) for n in ("张三", "李四", "王五", "赵六")]
    night = services.night_create(owner=owner, title="血流测试", date=dt.date(2026, 12, 6), base=Decimal(1),
                                  players=players, first_dealer=0, preset="xue_liu")
    for entry in (
        {"events": [win(None, w(1)), {"type": "kong", "player": 1, "kind": "concealed"}, win(2, w(1, "dui_dui_hu", 1)),
                    win(None, w(0, "qing_yi_se")), {"type": "kong", "player": 2, "kind": "added"},
                    win(None, w(1, "ping_hu", 1))],
         "exhausted": True, "ready": {"0": {"fan": 2}, "1": {"fan": 1}, "3": {"fan": 0}}, "hua_zhu": []},
        {"events": [win(3, w(2)), {"type": "kong", "player": 3, "kind": "direct", "from": 2},
                    win(2, w(3, "ping_hu", 1), w(0))],
         "exhausted": True, "ready": {"0": {"fan": 0}, "2": {"fan": 0}, "3": {"fan": 1}}, "hua_zhu": []}):
        services.hand_record(night=night, by=owner, entry=entry)
    closed = services.night_close(night=night, by=owner)
    pdf = render("pdf", night_report(closed), "zh")[2]
    pages = text_of(pdf).split("\f")
    (heading,) = [page for page in pages if "每局明细" in page]
    assert "李四 自摸 平胡 0番" in heading, heading


def test_the_pdfs_biggest_hand_says_what_made_its_fan(night, owner):
    """A walk: the PDF's 最大的一手 read "平胡 3番" for a 0-fan pattern; it says the root and the 杠上花 as the hand list
    does."""
    from tests.hand_helpers import kong
    entry = {"events": [kong(0, "concealed"), win(None, w(0, "ping_hu", 1, ["gang_shang_hua"]))], "exhausted": True}
    services.hand_record(night=night, by=owner, entry=entry)
    text = re.sub(r"\s+", " ", text_of(render("pdf", night_report(night), "zh")[2]))
    assert "平胡 带1根 杠上花 2番（第 1 局）" in text, text


def test_an_english_report_marks_its_chinese_words_so_lines_break_between_english_words(played):
    """Pango broke "A three-suit hand (花猪) also pays those who have won" after "A" while the Chinese sat in the
    English run, and a heading as "(查 / 叫)" (a walk). Marked as Chinese, short terms kept whole; the chart's SVG
    and the style sheet untouched."""
    from ledger.reports.pdf import chinese_in_english, html

    assert chinese_in_english('<p title="花猪">A (花猪) hand of 欧阳娜娜娜娜娜</p><style>p{content:"花"}</style>') == (
        '<p title="花猪">A (<span lang="zh-Hans" class="term">花猪</span>) hand of '
        '<span lang="zh-Hans">欧阳娜娜娜娜娜</span></p><style>p{content:"花"}</style>')
    page = html(night_report(played), "en")
    assert '(<span lang="zh-Hans" class="term">查叫</span>)' in page
    assert '<span lang="zh-Hans"' not in html(night_report(played), "zh")
    assert "<title>周五夜 · " in page  # the PDF's title is text: no markup in it
    pdf = render("pdf", night_report(played), "en")[2]
    lines = text_of(pdf).splitlines()
    assert not any(line.strip() == "A" for line in lines)
    # A hand's nets stay "张三 +28" on one line (the spans took the report's own span rules: name and amount apart).
    assert any(re.search(r"张三 [+-]\d", line) for line in lines) and not any(line.strip() == "张三" for line in lines)
    assert not any(re.search(r"\(查$", line.strip()) for line in lines)


def test_a_two_suit_tables_report_leaves_out_the_three_suit_rules(owner, group):
    players = [services.player_get_or_create(name=n, group=group) for n in ("甲", "乙", "丙")]
    night = services.night_create(owner=owner, title="三人两房", date=dt.date(2026, 12, 5), base=Decimal(1),
                                  players=players, first_dealer=0, preset="san_ren_liang_fang")
    labels = [label for label, _words in template_context(night_report(night))["rules"]]
    assert "几房" in labels and not any("花猪" in label for label in labels)
    four = [label for label, _words in presenters.rule_options(night.rules)]  # all of them elsewhere (the audit)
    assert any("花猪" in label for label in four)
