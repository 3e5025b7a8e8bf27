"""The night as plain text for the group chat: nets and transfers, one per line."""
from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _

from ..presenters import money, stake_amount
from .base import Rendered, file_stem, language
from .context import NightReport


def summary(report: NightReport) -> str:
    """The text itself, in the active language."""
    night = report.night
    head = f"{night.title} · {night.date:%Y-%m-%d}" + (f" · {night.venue}" if night.venue else "")
    lines = [head, _("共 %(n)d 局") % {"n": report.counted_hands}, "", _("每人输赢")]
    lines += [f"{t.player.name} {money(t.amount)}" for t in report.totals]
    lines += ["", _("最少转账")]
    lines += [f"{t.payer} → {t.payee} {stake_amount(t.amount, night)}" for t in report.transfers] or [_("无需转账。")]
    return "\n".join(lines) + "\n"


def render(report: NightReport, lang: str) -> Rendered:
    with translation.override(language(lang)):
        text = summary(report)
    return f"{file_stem(report.night)}.txt", "text/plain; charset=utf-8", text.encode("utf-8")
