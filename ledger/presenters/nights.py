"""Words for the ledger's numbers: hands described in sentences, amounts, pattern and modifier names.

Pages, the API and the reports all describe hands here, so a hand reads the same everywhere.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence

from django.utils.translation import get_language, ngettext, npgettext, pgettext, pgettext_lazy
from django.utils.translation import gettext as _

from scoring import MODIFIERS, PATTERNS, Rules, format_amount, parse_rules, tile_words
from scoring.house import uncapped_fan
from scoring.rules import OPTIONS

from ledger.presenters.rules import RULE_TEXT
from ledger.models import HandRevision, Night
from ledger.services.adjustments import MAX_FAN, zha_hu_amount, zha_hu_default_fan

#: Void reasons the app writes itself (the table page's undo), shown in the reader's language.
_APP_VOID_REASONS = {"undo"}


def hand_count(total: int, voided: int) -> str:
    """How many hands a night has, said one way everywhere (table, PDF, text): every numbered hand, voided ones
    included (they keep their numbers and their place on the chart), and how many of them are voided."""
    words = ngettext("共 %(n)s 局", "共 %(n)s 局", total) % {"n": total}
    if voided:
        words += " · " + ngettext("其中 %(n)s 局作废", "其中 %(n)s 局作废", voided) % {"n": voided}
    return words


def _english() -> bool:
    return (get_language() or "zh").startswith("en")


def pattern_name(code: str) -> str:
    """The pattern's name (番型) in the active language: 清一色 / Full flush."""
    pattern = PATTERNS[code]
    return pattern.en if _english() else pattern.zh


def modifier_name(code: str) -> str:
    """The modifier's name in the active language: 杠上花 / Win on a kong replacement."""
    modifier = MODIFIERS[code]
    return modifier.en if _english() else modifier.zh


def money(amount: Decimal | str | int) -> str:
    """Signed exact amount for display: +8, -19, 0."""
    value = Decimal(amount)
    text = format_amount(abs(value))
    return f"+{text}" if value > 0 else (f"-{text}" if value < 0 else "0")


def amount(value: Decimal | str | int) -> str:
    """Exact amount without sign or trailing zeros: 8, 0.5."""
    return format_amount(abs(Decimal(value)))


def stake_amount(value: Decimal | str | int, night: Night) -> str:
    """An unsigned amount in the night's stake: ¥24, 24 EUR, or 24 points."""
    text = amount(value)
    if night.stake == Night.Stake.POINTS:
        # "1 point", "0.5 points" in English (one form in Chinese).
        return ngettext("%(n)s 分", "%(n)s 分", 1 if Decimal(value) == 1 else 2) % {"n": text}
    if night.currency in ("", "CNY", "RMB"):
        return f"¥{text}"
    return f"{text} {night.currency}"


def base_words(night: Night) -> str:
    """The night's base in its stake: 底金 ¥2, 底金 2 EUR, or 底分 2 分 for points."""
    if night.stake == Night.Stake.POINTS:
        return _("底分 %(base)s") % {"base": stake_amount(night.base, night)}
    return _("底金 %(base)s") % {"base": stake_amount(night.base, night)}


def void_reason(reason: str) -> str:
    """A void's reason for display: the app's own reasons ("undo") in the reader's language."""
    if reason in _APP_VOID_REASONS:
        return _("保存后撤销")
    return reason


@dataclass(frozen=True)
class HandWords:
    """Every label a hand description needs, translated once per language (not once per line)."""

    english: bool
    patterns: dict[str, str]
    modifiers: dict[str, str]
    kong: dict[tuple[str, bool], str]
    discard_win: str
    self_draw_win: str
    what_and_payers: str
    fan: str
    roots: dict[int, str]
    feature_sep: str
    name_sep: str
    last_two_names: str
    payment_sep: str
    each_pays: str
    one_pays: str
    nobody_pays: str
    call_transfer: str
    end_payment: str
    end_labels: dict[str, str]
    exhausted_quiet: str
    exhausted_ready: str
    exhausted_nobody_ready: str
    ready_seat: str
    ready_waits: str
    no_payments: str

    fan_capped: str
    robbed_kong: str
    robbed_win: str

    def root_text(self, n: int) -> str:
        if n not in self.roots:
            return npgettext("roots of a win", "带%(n)d根", "带%(n)d根", n) % {"n": n}
        return self.roots[n]


@lru_cache(maxsize=8)
def hand_words(language: str) -> HandWords:
    english = language.startswith("en")

    def inline(name: str) -> str:  # a name used mid-sentence: "full flush", not "Full flush"
        return name[:1].lower() + name[1:] if english else name

    return HandWords(
        english=english,
        patterns={c: inline(p.en if english else p.zh) for c, p in PATTERNS.items()},
        modifiers={c: inline(m.en if english else m.zh) for c, m in MODIFIERS.items()},
        kong={("direct", True): _("%(who)s 直杠 %(tile)s"), ("direct", False): _("%(who)s 直杠"),
              ("added", True): _("%(who)s 补杠 %(tile)s"), ("added", False): _("%(who)s 补杠"),
              ("concealed", True): _("%(who)s 暗杠 %(tile)s"), ("concealed", False): _("%(who)s 暗杠")},
        discard_win=_("%(from)s 点炮 %(winner)s %(hand)s"),
        self_draw_win=_("%(winner)s 自摸 %(hand)s"),
        what_and_payers=_("%(what)s，%(payers)s"),
        fan=_("%(fan)d番"),
        fan_capped=_("%(raw)d番（封顶 %(fan)d番）"),
        robbed_kong=_("%(what)s，被抢杠胡，不算杠"),
        robbed_win=_("%(from)s 被 %(winner)s 抢杠胡 %(hand)s"),
        roots={n: npgettext("roots of a win", "带%(n)d根", "带%(n)d根", n) % {"n": n} for n in range(1, 5)},
        feature_sep=pgettext("between the features of a win", " "),
        name_sep=pgettext("between names", "、"),
        last_two_names=pgettext("the last two names of a list", "%(names)s、%(last)s"),
        payment_sep=pgettext("between payments", "、"),
        each_pays=_("%(names)s 各付%(amount)s"),
        one_pays=_("%(name)s付%(amount)s"),
        nobody_pays=_("无人付"),
        call_transfer=_("呼叫转移：%(a)s 把杠钱 %(amount)s 转给 %(b)s"),
        end_payment=_("%(label)s：%(a)s 付 %(b)s %(amount)s"),
        end_labels={"cha_jiao": _("查叫"), "hua_zhu": _("查花猪"), "kong_refund": _("退杠钱")},
        exhausted_quiet=_("流局，无人查叫"),
        exhausted_ready=_("流局，下叫：%(ready)s"),
        exhausted_nobody_ready=_("流局，没人下叫"),
        ready_seat=_("%(name)s %(fan)s"),
        ready_waits=_("（叫 %(tiles)s）"),
        no_payments=_("无输赢"),
    )


def _names(words: HandWords, names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return words.last_two_names % {"names": words.name_sep.join(names[:-1]), "last": names[-1]}


def _payers(words: HandWords, paid: list[Mapping[str, Any]], names: Sequence[str]) -> str:
    """Who actually paid and how much: "李四、王五 各付8", or each payment when the amounts differ."""
    if not paid:
        return words.nobody_pays
    amounts = {p["amount"] for p in paid}
    if len(paid) > 1 and len(amounts) == 1:
        return words.each_pays % {"names": _names(words, [names[p["from"]] for p in paid]), "amount": amounts.pop()}
    return words.payment_sep.join(words.one_pays % {"name": names[p["from"]], "amount": p["amount"]} for p in paid)


def _features(words: HandWords, pattern: str, roots: int, flags: Iterable[str]) -> list[str]:
    """A win's pattern, roots and modifiers, each in words: [平胡, 带1根, 杠上花]."""
    return ([words.patterns.get(pattern, pattern)] + ([words.root_text(roots)] if roots else [])
            + [words.modifiers.get(f, f) for f in flags])


def win_features(pattern: str, roots: int, flags: Sequence[str]) -> str:
    """A win's pattern, roots and modifiers in words, as `describe` says them: 平胡 带1根 杠上花."""
    words = hand_words(get_language() or "zh-hans")
    said = words.feature_sep.join(_features(words, pattern, roots, flags))
    return said[:1].upper() + said[1:] if words.english else said


def robbed_kongs(events: Sequence[Mapping[str, Any]], result: Mapping[str, Any]) -> set[int]:
    """The events that are robbed kongs (抢杠胡, RULES.md §5): a kong right before a qiang_gang_hu win from its
    player, which never happened (no payment, no root): not said nor counted as a kong."""
    robbed = set()
    for win in result["wins"]:
        before = win["event"] - 1
        if "qiang_gang_hu" in win["flags"] and before >= 0 and events[before]["type"] == "kong" \
                and events[before]["player"] == win["from"]:
            robbed.add(before)
    return robbed


@lru_cache(maxsize=64)
def _cap_rules(rules_json: str) -> Rules | None:
    """A hand record's rules, parsed once for all its hands (None when the engine refuses them)."""
    try:
        return parse_rules(json.loads(rules_json))
    except ValueError:
        return None


def _uncapped(record: Mapping[str, Any], win: Mapping[str, Any], payments: Sequence[Mapping[str, Any]]) -> int:
    """A win's fan before the table's cap (封顶), for "5番（封顶 3番）"; its scored fan when nothing was capped. A
    self-draw paid as a discard (点杠花算点炮) has no self-draw bonus, as the engine scores it."""
    rules = record.get("rules")
    if not isinstance(rules, Mapping) or rules.get("max_fan") is None or win["fan"] < rules["max_fan"]:
        return int(win["fan"])
    parsed = _cap_rules(json.dumps(rules, sort_keys=True))
    if parsed is None or win.get("pattern") not in PATTERNS:
        return int(win["fan"])
    fed = any(p["event"] == win["event"] and p["reason"] == "discard" for p in payments)
    return uncapped_fan(win["pattern"], win["roots"], win["flags"], parsed, self_draw=win["from"] is None and not fed)


def describe(names: Sequence[str], record: Mapping[str, Any], result: Mapping[str, Any],
             words: HandWords | None = None) -> list[str]:
    """One hand in words, one line per win, kong and end-of-hand settlement.

    e.g. "李四 点炮 张三 清对 3番，李四付8" / "张三 wins on 李四's discard: flush all pungs, 3 fan; 李四 pays 8".
    """
    w = words or hand_words(get_language() or "zh-hans")
    payments = result["payments"]
    robbed = robbed_kongs(record.get("events", []), result)
    lines = []
    for index, event in enumerate(record.get("events", [])):
        paid = [p for p in payments if p["event"] == index and p["reason"] != "call_transfer"]
        if event["type"] == "kong":
            tile = event.get("tile")
            what = w.kong[(event["kind"], bool(tile))] % {"who": names[event["player"]], "tile": tile_words(tile, "en" if w.english else "zh")}
            if index in robbed:  # 抢杠胡: the kong never happened (RULES.md §5), nobody pays for it
                lines.append(w.robbed_kong % {"what": what})
                continue
            lines.append(w.what_and_payers % {"what": what, "payers": _payers(w, paid, names)})
            continue
        for win in (x for x in result["wins"] if x["event"] == index):
            # 抢杠胡 is paid as a discard (RULES.md §5) and said as what it was: 王五 被 李四 抢杠胡, not 王五 点炮.
            robbing = win["from"] is not None and "qiang_gang_hu" in win["flags"]
            features = _features(w, win["pattern"], win["roots"],
                                 (f for f in win["flags"] if not (robbing and f == "qiang_gang_hu")))
            raw = _uncapped(record, win, payments)
            features.append(w.fan_capped % {"raw": raw, "fan": win["fan"]} if raw > win["fan"]
                            else w.fan % {"fan": win["fan"]})
            hand = w.feature_sep.join(features)
            if win["from"] is None:
                what = w.self_draw_win % {"winner": names[win["player"]], "hand": hand}
            else:
                said = w.robbed_win if robbing else w.discard_win
                what = said % {"winner": names[win["player"]], "from": names[win["from"]], "hand": hand}
            mine = [p for p in paid if p["to"] == win["player"]]
            lines.append(w.what_and_payers % {"what": what, "payers": _payers(w, mine, names)})
        for p in (p for p in payments if p["event"] == index and p["reason"] == "call_transfer"):
            lines.append(w.call_transfer % {"a": names[p["from"]], "b": names[p["to"]], "amount": p["amount"]})
    end = [p for p in payments if p["event"] is None]
    # Who was ready, with what: a disputed 查叫 can be checked the next day (a result made before the engine said
    # who was ready says nothing of it rather than "nobody").
    if record.get("exhausted") and end and isinstance(result.get("ready"), Mapping):
        lines.append(_ready_line(w, result["ready"], names))
    for reason in ("cha_jiao", "hua_zhu", "kong_refund"):
        for p in (p for p in end if p["reason"] == reason):
            lines.append(w.end_payment % {"label": w.end_labels[reason], "a": names[p["from"]], "b": names[p["to"]],
                                          "amount": p["amount"]})
    if record.get("exhausted") and not end:
        lines.append(w.exhausted_quiet)
    if not lines:
        lines.append(w.no_payments)
    return lines


def _ready_line(w: HandWords, ready: Mapping[str, Any], names: Sequence[str]) -> str:
    """流局，下叫：李四 1番（叫 3万 6万）、赵六 3番: each ready seat with the fan 查叫 charged (and its waits, where the
    hand was given by tiles), by seat; 流局，没人下叫 when none was."""
    said = []
    for seat in sorted(ready, key=int):
        entry = ready[seat]
        words = w.ready_seat % {"name": names[int(seat)], "fan": w.fan % {"fan": entry["fan"]}}
        if entry.get("waits"):
            tiles = " ".join(str(tile_words(t, "en" if w.english else "zh")) for t in entry["waits"])
            words += w.ready_waits % {"tiles": tiles}
        said.append(words)
    return w.exhausted_ready % {"ready": w.name_sep.join(said)} if said else w.exhausted_nobody_ready


def describe_hand(revision: HandRevision) -> list[str]:
    """The hand of a revision in words, in the active language (see `describe`)."""
    return describe(revision.names, revision.record, revision.result)


def describe_hands(revisions: Iterable[HandRevision]) -> list[list[str]]:
    """Many hands in words; the labels are translated once for all of them."""
    words = hand_words(get_language() or "zh-hans")
    return [describe(r.names, r.record, r.result, words) for r in revisions]


PAYMENT_REASONS = ("discard", "self_draw", "kong", "call_transfer", "cha_jiao", "hua_zhu", "kong_refund")


def payment_reason(reason: str) -> str:
    """A payment's reason in words: 点炮, 自摸, 杠, 呼叫转移, 查叫, 查花猪, 退杠钱 (in English all in lower case, as
    they stand in brackets after a payment: "(self-draw)", "(ready check)")."""
    labels = {"discard": pgettext("payment", "点炮"), "self_draw": pgettext("payment", "自摸"),
              "kong": pgettext("payment", "杠"), "call_transfer": pgettext("payment", "呼叫转移"),
              "cha_jiao": pgettext("payment", "查叫"), "hua_zhu": pgettext("payment", "查花猪"),
              "kong_refund": pgettext("payment", "退杠钱")}
    return labels.get(reason, reason)


def robbed_kong_reason() -> str:
    """A robbed kong's payment (抢杠胡, paid as a discard by the robbed player: RULES.md §5) in words."""
    return pgettext("payment", "抢杠胡")


def payment_words(reason: str, event: int | None, record: Mapping[str, Any]) -> str:
    """A payment's reason in words, a robbed kong's named as such (its reason in the result is `discard`)."""
    events = record.get("events") or []
    if reason == "discard" and event is not None and 0 <= event < len(events):
        winners = events[event].get("winners") or []
        if winners and all("qiang_gang_hu" in (w.get("flags") or []) for w in winners):
            return robbed_kong_reason()
    return payment_reason(reason)


#: Options that cannot come into play at a table of two suits: a 花猪 holds three (RULES.md §9).
THREE_SUIT_OPTIONS = ("hua_zhu", "hua_zhu_fan", "hua_zhu_pays_winners")


def rule_options(rules: Mapping[str, Any], *, in_play: bool = False) -> list[tuple[str, str]]:
    """The night's rule options in words, labelled as on the rules page: [("封顶番数", "不封顶"), ...]; `in_play`
    leaves out those that cannot come into play at its table (a report said 花猪 5番 at a table of two suits)."""
    options = []
    moot = THREE_SUIT_OPTIONS if in_play and len(str(rules.get("suits", "mps"))) < 3 else ()
    for name in OPTIONS:
        if name in rules and name not in moot:
            value = rules[name]
            if name == "hua_zhu_fan" and value is None:  # the cap's, and 5 without one (RULES.md §6)
                cap = rules.get("max_fan")
                words = _("按封顶番数（%(fan)d番）") % {"fan": cap} if cap is not None else _("5番（不封顶）")
            else:
                words = _rule_value(name, value, RULE_TEXT[name][2])
            options.append((str(RULE_TEXT[name][0]), words))
    return options + [(name, str(value)) for name, value in rules.items() if name not in OPTIONS]


def _rule_value(name: str, value: Any, choice_labels: Mapping[str, Any]) -> str:
    if isinstance(value, Mapping):  # a fan table
        return fan_table_words(value) or _("按成都标准")
    if isinstance(value, bool):
        return _("是") if value else _("否")
    if value is None:
        return _("不封顶") if name == "max_fan" else _("按封顶番数")
    if isinstance(value, str) and choice_labels:
        return str(choice_labels.get(value, value))
    return str(value)


def fan_table_words(table: Mapping[str, Any]) -> str:
    """A table's own fans in words, in the order of RULES.md §3: "对对胡 2番 · 清对 4番"."""
    return " · ".join(_("%(pattern)s %(fan)d番") % {"pattern": pattern_name(code), "fan": table[code]}
                      for code in PATTERNS if code in table)


#: RULES.md §8's options (the standard alternatives), in the order of the rules page.
STANDARD_OPTIONS = ("max_fan", "self_draw_bonus", "cha_jiao", "kong_direct", "kong_added", "kong_concealed",
                    "finished_players_pay_kongs", "gang_shang_hua_fan", "qiang_gang_hu_fan", "robbable_kongs",
                    "kong_refund", "call_transfer", "hua_zhu", "hua_zhu_fan", "hai_di_fan", "jin_gou_diao_fan",
                    "dealer_when_no_winner")

#: §8 choices whose label would not say what they are about on their own ("+1 base", "next seat deals").
_STANDARD_CHOICE_WORDS = {("self_draw_bonus", "base"): pgettext_lazy("house rules", "自摸加底"),
                          ("self_draw_bonus", "fan"): pgettext_lazy("house rules", "自摸加番"),
                          ("dealer_when_no_winner", "next"): pgettext_lazy("house rules", "流局下家坐庄"),
                          ("dealer_when_no_winner", "stay"): pgettext_lazy("house rules", "流局连庄"),
                          ("kong_refund", False): pgettext_lazy("house rules", "不退杠钱（退税）")}


def _standard_words(chosen: Rules, default: Rules) -> list[str]:
    """Each §8 option that differs from the usual rules, shortly: 封顶 4番 · 自摸加底 · 查大 · 查花猪 · 不退杠钱（退税）."""
    words = []
    kongs = ("kong_direct", "kong_added", "kong_concealed")
    free_kongs = all(getattr(chosen, name) == 0 for name in kongs)
    if free_kongs:  # 标准 without 刮风下雨: one word, not three multiples of 0
        words.append(_("杠不收钱"))
    for name in STANDARD_OPTIONS:
        value = getattr(chosen, name)
        if value == getattr(default, name) or (free_kongs and name in kongs):
            continue
        label, _help, choices = RULE_TEXT[name]
        if name == "max_fan":
            words.append(_("封顶 %(fan)d番") % {"fan": value} if value is not None else _("不封顶"))
        elif name == "hua_zhu_fan":
            words.append(_("花猪赔 %(fan)d番") % {"fan": value} if value is not None else "")
        elif (name, value) in _STANDARD_CHOICE_WORDS:
            words.append(str(_STANDARD_CHOICE_WORDS[(name, value)]))
        elif choices:
            words.append(f"{label}{_('：')}{choices.get(value, value)}")
        elif isinstance(value, bool):  # an option turned on says its name (查花猪, not 查花猪：是: a walk)
            words.append(str(label) if value else f"{label}{_('：')}{_('否')}")
        else:
            words.append(f"{label} {value if value is not None else _('按封顶番数')}")
    return words


def house_rules_words(rules: Mapping[str, Any]) -> str:
    """What this table plays that differs from the usual four-player 血战 (scoring.Rules()) in words, "" when
    nothing: its shape (§9: mode, players, suits), the standard alternatives of §8 it chose (封顶 4番 · 自摸加底),
    then its §10 house rules: "血流成河 · 3 人 · 两房（筒条） · 对对胡 2番"."""
    try:
        chosen = parse_rules({k: v for k, v in rules.items() if k in OPTIONS})
    except ValueError:
        return ""  # a rule set the engine refuses says nothing (never for a night's frozen rules)
    default = Rules()
    words = [str(RULE_TEXT["mode"][2][chosen.mode]) if chosen.mode != default.mode else "",
             _("%(n)d 人") % {"n": chosen.players} if chosen.players != default.players else "",
             str(RULE_TEXT["suits"][2][chosen.suits]) if chosen.suits != default.suits else ""]
    words += _standard_words(chosen, default)
    words.append(fan_table_words({c: f for c, f in chosen.pattern_fan.items() if f != PATTERNS[c].fan}))
    if not chosen.yao_jiu_jiang_dui:
        words.append(_("不算幺九将对"))
    if chosen.jiang_qi_dui_fan:
        words.append(_("%(pattern)s %(fan)d番") % {"pattern": pattern_name("jiang_qi_dui"), "fan": chosen.jiang_qi_dui_fan})
    if chosen.dian_gang_hua == "dian_pao":
        words.append(_("点杠花算点炮"))
    if chosen.men_qing_fan and chosen.men_qing_fan == chosen.zhong_zhang_fan:
        words.append(_("门清中张各加 %(fan)d番") % {"fan": chosen.men_qing_fan})
    else:
        words += [_("%(flag)s加 %(fan)d番") % {"flag": modifier_name(code), "fan": fan}
                  for code, fan in (("men_qing", chosen.men_qing_fan), ("zhong_zhang", chosen.zhong_zhang_fan)) if fan]
    words += [_("%(flag)s加 %(fan)d番") % {"flag": modifier_name(code), "fan": fan}
              for code, fan in (("jia_xin_wu", chosen.jia_xin_wu_fan), ("hai_di_pao", chosen.hai_di_pao_fan)) if fan]
    words += [_("%(flag)s %(fan)d番") % {"flag": modifier_name(code), "fan": fan}
              for code, fan, usual in (("tian_hu", chosen.tian_hu_fan, default.tian_hu_fan),
                                       ("di_hu", chosen.di_hu_fan, default.di_hu_fan)) if fan != usual]
    if chosen.min_fan_on_discard:
        words.append(_("点炮至少 %(fan)d番（不够只能自摸）") % {"fan": chosen.min_fan_on_discard})
    if chosen.hua_zhu and chosen.hua_zhu_pays_winners:
        words.append(_("花猪也赔已胡的人"))
    if chosen.call_transfer and chosen.call_transfer_scope == "all_kongs":
        words.append(_("呼叫转移转走所有杠钱"))
    said = [w for w in words if w]
    if _english():  # one list, one case, after a colon: "blood river (xue liu) · call transfer: yes" (it mixed them)
        said = [w[:1].lower() + w[1:] for w in said]
    return " · ".join(said)


def adjustment_line(kind: str, names: Sequence[str], payer: int, payee: int | None, fan: int | None,
                    amount: Decimal | str, note: str = "") -> str:
    """A penalty or adjustment (罚分/调整) in words: "诈胡：张三 赔每家 16（4番）" / "调整：张三 付 李四 5（迟到）"."""
    def name(seat: int | None) -> str:
        return names[seat] if seat is not None and 0 <= seat < len(names) else "?"
    value = format_amount(Decimal(amount))
    if kind == "zha_hu":
        line = _("诈胡：%(who)s 赔每家 %(amount)s（%(fan)s番）") % {"who": name(payer), "amount": value, "fan": fan}
        return f"{line} · {note}" if note else line
    return _("调整：%(a)s 付 %(b)s %(amount)s（%(reason)s）") % {"a": name(payer), "b": name(payee), "amount": value,
                                                           "reason": note}


def zha_hu_amounts(night: Night) -> dict[str, str]:
    """What a 诈胡 costs at each fan the form takes (key "default" for a blank fan: the night's cap), in the night's
    stake: {"3": "赔每家 ¥8，共 ¥24（3番）", …}. The form shows the one its fan field names."""
    others = night.seat_count - 1

    def words(fan: int) -> str:
        each = zha_hu_amount(night.base, fan)
        return _("赔每家 %(each)s，共 %(all)s（%(fan)d番）") % {
            "each": stake_amount(each, night), "all": stake_amount(each * others, night), "fan": fan}

    amounts = {str(fan): words(fan) for fan in range(MAX_FAN + 1)}
    amounts["default"] = amounts[str(zha_hu_default_fan(night))]
    return amounts


def describe_adjustment(adjustment: Any) -> str:
    """An Adjustment in words, in the active language (see `adjustment_line`)."""
    return adjustment_line(adjustment.kind, adjustment.player_names, adjustment.payer_seat, adjustment.payee_seat,
                           adjustment.fan, adjustment.amount, adjustment.note)
