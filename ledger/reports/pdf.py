"""The night as a PDF (WeasyPrint, A4 portrait) and its first page as a PNG for the group chat.

One template, templates/reports/night.html: page 1 is the outcome (nets, transfers, chart), so the
PNG is simply page 1 rasterised by pypdfium2, rendered alone (the later pages are left out) so it
costs the same for a 10-hand night as for a 1,000-hand one.
"""
from __future__ import annotations

import dataclasses
import io
import re
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from ledger.presenters.evenings import fee_rule
from ledger.forms.nights import SEAT_LABELS
from ledger.models import Night
from ledger.presenters.nights import hand_count, house_rules_words, money, rule_options, stake_amount, void_reason, win_features
from ledger.reports.base import Rendered, file_stem, language
from ledger.reports.chart import running_totals_svg
from ledger.reports.palette import colour
from ledger.reports.context import KONG_KINDS, NightReport
from ledger.reports.text import nothing_to_pay, paid_mark, transfers_note
from ledger.services.confirmations import in_use

#: The PNG's width in pixels (phone-legible in a chat), whatever the page size.
PNG_WIDTH = 1080
#: The chart's heights (drawn 800 wide), tallest first: where adjustments or sign-offs follow it, the tallest with
#: which page one holds them all (`_chart_height`).
CHART_HEIGHTS = (420, 320, 230, 160)


def _sign(amount: Any) -> str:
    return "pos" if amount > 0 else ("neg" if amount < 0 else "")


def _base(night: Night) -> str:
    if night.stake == Night.Stake.POINTS:
        return _("底分 %(base)s（积分）") % {"base": stake_amount(night.base, night)}
    return _("底金 %(base)s") % {"base": stake_amount(night.base, night)}


def _biggest_words(biggest: dict[str, Any] | None) -> str:
    """A player's biggest win of the night with what made its fan, as the hand list says it: 平胡 带1根 杠上花 2番（第
    5 局） (平胡 3番 read wrong for a 0-fan pattern: a walk)."""
    if biggest is None:
        return "—"
    what = win_features(biggest["pattern"], biggest["roots"], biggest["flags"])
    return _("%(pattern)s %(fan)d番（第 %(n)d 局）") % {"pattern": what, "fan": biggest["fan"], "n": biggest["number"]}


def _adjustment_cell(a: Any, night: Night) -> dict[str, Any]:
    return {"adjustment": a.number, "lines": [a.line()], "counted": a.counted, "dealer": "",
            "void_reason": a.void_reason, "revisions": a.version,
            "payments": [f"{payer}→{payee} {stake_amount(value, night)}" for payer, payee, value in a.payments()],
            "net": [{"name": n, "amount": money(v), "sign": _sign(v)} for n, v in zip(a.players, a.net) if v]}


def template_context(report: NightReport, *, first_page_only: bool = False,
                     chart_height: int = CHART_HEIGHTS[0]) -> dict[str, Any]:
    """What templates/reports/night.html shows, in the active language."""
    night = report.night
    hands = []
    if not first_page_only:
        for hand, lines in zip(report.hands, report.lines()):
            hands.append({
                "number": hand.number, "dealer": hand.dealer, "lines": lines, "counted": hand.counted,
                "void_reason": void_reason(hand.void_reason), "revisions": hand.revision_count,
                "correction_reason": hand.correction_reason,
                "payments": [f"{p.payer}→{p.payee} {stake_amount(p.amount, night)}" for p in hand.payments],
                "net": [{"name": n, "amount": money(a), "sign": _sign(a)} for n, a in zip(hand.players, hand.net)],
            })
    if not first_page_only:  # 罚分/调整 rows among the hands, each after the hand it followed
        rows: list[dict[str, Any]] = [_adjustment_cell(a, night) for a in report.adjustments if a.after_hand == 0]
        for cell in hands:
            rows.append(cell)
            rows += [_adjustment_cell(a, night) for a in report.adjustments if a.after_hand == cell["number"]]
        hands = rows
    stats = [{
        "name": s.name, "net": money(s.net), "sign": _sign(s.net), "wins": s.wins, "self_draws": s.self_draws,
        "deal_ins": s.deal_ins, "kongs": [s.kongs[k] for k in KONG_KINDS],
        "cha_jiao_paid": stake_amount(s.cha_jiao_paid, night), "cha_jiao_received": stake_amount(s.cha_jiao_received, night),
        "biggest": _biggest_words(s.biggest),
        "average_fan": s.average_fan if s.average_fan is not None else "—",
    } for s in report.stats]
    return {
        "night": night,
        "lang": translation.get_language(),
        "app_name": _("成都麻将记账"),
        "made_at": timezone.localtime(report.made_at).strftime("%Y-%m-%d %H:%M"),
        "seats": [{"wind": SEAT_LABELS[s], "name": p.name} for s, p in enumerate(report.seating)],
        "base": _base(night),
        "hand_count": hand_count(len(report.hands), len(report.hands) - report.counted_hands),
        "totals": [{"name": t.player.name, "amount": money(t.amount), "sign": _sign(t.amount),
                    "colour": colour(i), "fee": stake_amount(t.fee, night) if t.fee else ""}
                   for i, t in enumerate(report.totals)],
        "transfers": [{"from": t.payer.name, "to": t.payee.name, "amount": stake_amount(t.amount, night)}
                      for t in report.transfers],
        "paid": [{"from": t.payer.name, "to": t.payee.name, "amount": stake_amount(t.amount, night)}
                 for t in report.to_pay.paid], "paid_mark": paid_mark(),
        "transfers_many": len(report.transfers) + len(report.to_pay.paid) > 4,  # in two columns
        "transfers_note": transfers_note(report.to_pay, night), "nothing_to_pay": nothing_to_pay(report.to_pay),
        "fee": ({"rule": fee_rule(report.fee_rule, night), "amount": money(report.fee)}
                if report.fee_rule.mode != "none" else None),
        "chart": mark_safe(running_totals_svg(report.running, height=chart_height)) if report.hands else "",
        "rules": rule_options(night.rules, in_play=True),
        "house_rules": house_rules_words(night.rules),
        "stats": stats,
        "hands": hands,
        "adjustments": [a.line() for a in report.adjustments if a.counted],
        "signoffs": report.signoffs,
        "first_page_only": first_page_only,
    }


def html(report: NightReport, lang: str, *, first_page_only: bool = False,
         chart_height: int = CHART_HEIGHTS[0]) -> str:
    with translation.override(language(lang)):
        page = render_to_string("reports/night.html", template_context(report, first_page_only=first_page_only,
                                                                       chart_height=chart_height))
    return page if language(lang).startswith("zh") else chinese_in_english(page)


_MARKUP = re.compile(r"(<svg\b.*?</svg>|<style\b.*?</style>|<title\b.*?</title>|<[^>]*>)", re.S)
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def chinese_in_english(page: str) -> str:
    """An English report's Chinese words (花猪, 查叫, a player's name) marked as Chinese, each its own run of text.
    Pango broke "A three-suit hand (花猪) also pays those who have won" after its first word when the Chinese sat in
    the English run (a walk); a short term (four characters at most) is also kept on one line (a heading broke as
    "(查 / 叫)"). Text only: tags, the chart's SVG, the style sheet and the title (the PDF's metadata, where markup
    is text) are left as they are; the report's style sheet selects its own spans as children (`.hand-net > span`)."""
    def mark(found: re.Match[str]) -> str:
        words = found.group(0)
        keep = ' class="term"' if len(words) <= 4 else ""
        return f'<span lang="zh-Hans"{keep}>{words}</span>'

    return "".join(part if i % 2 else _HAN.sub(mark, part) for i, part in enumerate(_MARKUP.split(page)))


def _chart_height(report: NightReport, lang: str) -> int:
    """The tallest of CHART_HEIGHTS with which page one (the picture shared to the group chat) holds the outcome,
    the chart, the adjustments and the sign-offs. A height is tried by laying out page one alone (cheap: no hands)
    and seeing whether its last element, #page-one-end, lands on it; the middle one first, so a night takes two or
    three layouts. Where even the lowest does not fit (a table fee's lines at four players), the chart stays tall
    and what does not fit goes on to page two: a smaller chart would buy nothing."""
    import weasyprint

    if not report.hands or not (report.adjustments or report.signoffs):
        return CHART_HEIGHTS[0]  # no chart, or nothing after it: the tallest always fits

    def fits(height: int) -> bool:
        page_one = weasyprint.HTML(string=html(report, lang, first_page_only=True, chart_height=height),
                                   base_url=str(settings.BASE_DIR)).render()
        return "page-one-end" in page_one.pages[0].anchors

    tall, medium, low, small = CHART_HEIGHTS
    if fits(low):
        return low if not fits(medium) else tall if fits(tall) else medium
    return small if fits(small) else tall


def pdf_bytes(report: NightReport, lang: str, *, first_page_only: bool = False) -> bytes:
    import weasyprint  # imported on use: it loads Pango, which pages and the API never need

    height = _chart_height(report, lang)
    document = weasyprint.HTML(string=html(report, lang, first_page_only=first_page_only, chart_height=height),
                               base_url=str(settings.BASE_DIR))
    data: bytes = document.write_pdf()
    return data


def render(report: NightReport, lang: str) -> Rendered:
    """The whole report: outcome, chart, rules, statistics and every hand."""
    return f"{file_stem(report.night)}.pdf", "application/pdf", pdf_bytes(report, lang)


def render_png(report: NightReport, lang: str) -> Rendered:
    """Page 1 of the report (the outcome) as a PNG 1,080 px wide, the picture for the group chat: as the text for
    the chat, no sign-off where no name of the night is claimed (nobody could confirm; a walk saw three lines of
    未确认（名字没人认领） in the picture). The PDF, a record, still lists each name."""
    import pypdfium2

    if not in_use(report.signoffs):
        report = dataclasses.replace(report, signoffs=[])

    document = pypdfium2.PdfDocument(pdf_bytes(report, lang, first_page_only=True))
    try:
        page = document[0]
        image = page.render(scale=PNG_WIDTH / page.get_width()).to_pil()
        out = io.BytesIO()
        image.save(out, format="PNG", optimize=True)
    finally:
        document.close()
    return f"{file_stem(report.night)}.png", "image/png", out.getvalue()
