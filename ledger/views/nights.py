"""Server-rendered pages: nights, the table page, hands, audit, end of night, rules."""
from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Exists, OuterRef, Q
from django.db.models.fields.json import KT
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_POST

from scoring import (FEE_MODES, FEE_WINS, MODIFIERS, PATTERNS, PRESETS, Rules, ScoringError, format_amount,
                     normalise_language, parse_rules)
from scoring.choices import EVENT_FLAGS

from ledger import bounds
from ledger.services import adjustments
from ledger.services import confirmations
from ledger.web import params
from ledger.services import nights as services
from ledger.presenters.audit import entry_change
from ledger.services import evenings as evening_services
from ledger.selectors.evenings import carry_preview, combined_nets, joinable_evenings, outstanding, writable_groups
from ledger.presenters.evenings import carry_rows
from ledger.forms.nights import (NEW_EVENING, PRESET_LABELS, PRESET_TEXT, RULE_FIELDS, SEAT_LABELS, AdjustmentForm, NightForm,
                    ReasonForm, SeatForm, form_field_for, preset_rule_sets,
                    rule_problem_message)
from ledger.views.sharing import join_panel
from ledger.live import fragments
from ledger.views import engine_files as offline_engine
from ledger.models import Evening, Group, GroupMember, Hand, Night, Player, night_day, page_of
from ledger.web.paging import keyset_page, page_size
from ledger.presenters.nights import (PAYMENT_REASONS, describe_adjustment, modifier_name, payment_reason, pattern_name,
                                      robbed_kong_reason)
from ledger.reports.context import transfers_to_pay
from ledger.reports.text import summary as report_summary
from ledger.selectors.nights import (last_table_names, night_for_page, night_next_dealer, night_outcome, night_seating,
                                     night_trail, same_as_before)
from ledger.web.users import signed_in
from ledger import rights


def _night(request: HttpRequest, pk: int, *, write: bool = False) -> Night:
    """The night for a page (selectors.night_for_page: one statement with the caller's rights), 404 if unseen."""
    night = night_for_page(pk, request.user)
    if night is None:
        raise Http404
    if write and not page_of(night).can_write:
        raise PermissionDenied
    return night


@login_required
def night_list(request: HttpRequest) -> HttpResponse:
    # A night shared on its own (a night-level grant) does not show its group's name to someone outside it.
    in_group = GroupMember.objects.filter(group=OuterRef("group_id"), user=signed_in(request))
    nights = (rights.visible_nights(request.user).with_seat_names().select_related("group")
              .only("title", "date", "venue", "is_closed", "group__name").annotate(in_my_group=Exists(in_group)))
    page = keyset_page(nights, ("date", "id"), request.GET.get("cursor"), page_size(request.GET.get("size"), 20))
    return render(request, "nights/night_list.html", {"nights": page.items, "page": page})


@login_required
def night_create(request: HttpRequest) -> HttpResponse:
    """The new-night form: the group (where the user may record), the evening and table, players, stake, rules and
    the table fee, prefilled from the group's defaults."""
    user = signed_in(request)
    groups = writable_groups(user)
    evenings = joinable_evenings(user, asked=request.GET.get("evening") or request.POST.get("evening"))
    asked = next((e for e in evenings if str(e.pk) == request.GET.get("evening")), None)
    # "+ 新建牌局" on a group's page names the group (?group=N): start from it (and its defaults).
    wanted = params.row_id(request.GET.get("group"))
    chosen_group = groups.filter(pk=wanted).first() if wanted is not None else None
    form = NightForm(request.POST or None, groups=groups, evenings=evenings,
                     initial=_night_initial(groups, asked, chosen_group))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        users = get_user_model().objects

        def usernames(text: str, field: str) -> list[Any]:
            names = [n.strip() for n in text.replace("，", ",").split(",") if n.strip()]
            if len(names) > bounds.MAX_USERNAMES:  # as the API: counted as typed, repeats included
                raise ValidationError({field: _("最多 %(n)d 个用户名") % {"n": bounds.MAX_USERNAMES}})
            found = list(users.filter(username__in=names))
            unknown = sorted(set(names) - {u.username for u in found})
            if unknown:  # an unknown username is an error, never silently dropped (issue 9)
                raise ValidationError({field: _("没有这些用户：%(names)s") % {"names": ", ".join(unknown)}})
            return found

        try:
            with transaction.atomic():
                night = _create_night(request, data, form, usernames)
        except ValidationError as exc:
            for field, errors in (exc.message_dict.items() if hasattr(exc, "error_dict") else [(None, exc.messages)]):
                field = form_field_for(field) or field
                form.add_error(field if field in form.fields else None, errors)
        except ScoringError as exc:
            language = normalise_language(get_language())
            for problem in exc.problems:
                field = form_field_for(problem.path)
                form.add_error(field if field in form.fields else None, rule_problem_message(problem, language))
        else:
            return redirect("night-table", pk=night.pk)
    presets = preset_rule_sets()
    names: dict[int, list[str]] = {}
    for group_id, name in Player.objects.filter(group__in=groups).active().order_by("name").values_list(
            "group_id", "name")[:2000]:
        names.setdefault(group_id, []).append(name)
    return render(request, "nights/night_form.html", {
        "form": form, "presets": presets, "group_names": names,
        "group_config": {"defaults": {g.pk: {**_fee_initial(night_defaults(g)), **_names_initial(g)} for g in groups},
                         "evenings": {e.pk: {"group": e.group_id, "date": e.date.isoformat(), "venue": e.venue}
                                      for e in evenings}}})


def night_defaults(group: Any) -> dict[str, Any]:
    """What a new night of the group starts from (preset, rule overrides, base, stake, currency, fee): its saved
    defaults, else its last night's (ledger.services.groups.group_night_defaults)."""
    from ledger.services.groups import group_night_defaults
    return group_night_defaults(group)


def _names_initial(group: Group) -> dict[str, str]:
    """The group's last table's names as the form's seats (the rest blank), or nothing for a group without a night."""
    names = last_table_names(group)
    return {f"player_{seat}": names[seat] if seat < len(names) else "" for seat in range(4)} if names else {}


def _played_as(night: Night) -> dict[str, Any]:
    """A night's stake, rules and table fee, as a new night's starting point."""
    return {"preset": night.preset, "base": format_amount(night.base), "stake": night.stake,
            "currency": night.currency, "fee": night.fee or {"mode": "none"}, "rules": night.rules}


def _fee_initial(defaults: dict[str, Any]) -> dict[str, Any]:
    """A group's defaults as the form's initial values (the fee split into its three fields)."""
    initial = {k: defaults[k] for k in ("preset", "base", "stake", "currency") if defaults.get(k) not in (None, "")}
    fee = defaults.get("fee")
    if isinstance(fee, dict) and fee.get("mode") in FEE_MODES:
        initial["fee_mode"] = fee["mode"]
        if fee.get("amount") is not None:
            initial["fee_amount"] = str(fee["amount"])
        if fee.get("wins") in FEE_WINS:
            initial["fee_wins"] = fee["wins"]
    rules = defaults.get("rule_overrides", defaults.get("rules"))  # group_night_defaults / Group.defaults
    if isinstance(rules, dict):
        initial.update({f"rule_{k}": v for k, v in rules.items() if k in RULE_FIELDS})
    return initial


#: A new night's default title, by the day of the week (Monday first).
WEEKDAY_TITLES = [_lazy("周一夜"), _lazy("周二夜"), _lazy("周三夜"), _lazy("周四夜"), _lazy("周五夜"), _lazy("周六夜"),
                  _lazy("周日夜")]


def _night_initial(groups: Any, evening: Evening | None, group: Group | None = None) -> dict[str, Any]:
    group = evening.group if evening is not None else group or groups.first()
    initial: dict[str, Any] = _fee_initial(night_defaults(group)) if group is not None else {}
    initial["title"] = WEEKDAY_TITLES[night_day().weekday()]
    if group is not None:
        initial["group"] = group.pk
        if evening is None:  # 加一桌 at an evening seats other players than its first table's
            initial.update(_names_initial(group))
    if evening is not None:
        tables = evening.nights.count()
        initial.update({"evening": str(evening.pk), "date": evening.date, "venue": evening.venue,
                        "title": _("%(evening)s %(n)d 号桌") % {"evening": evening.title, "n": tables + 1}})
        # 加一桌: the evening's tables play alike: the stake, rules and table fee of its last table, not the group's
        # defaults (a walk: the second table started at 不收台费 while the first paid ¥5 a head).
        last = evening.nights.order_by("-table_no", "-id").first()
        if last is not None:
            initial.update(_fee_initial(_played_as(last)))
    return initial


def _create_night(request: HttpRequest, data: dict[str, Any], form: NightForm, usernames: Any) -> Night:
    user = signed_in(request)
    chosen = form.chosen_evening()
    group = data.get("group") or (chosen.group if isinstance(chosen, Evening) else services.personal_group(user))
    evening = (evening_services.evening_create(by=user, group=group, title=data["title"], date=data["date"],
                                               venue=data["venue"])
               if chosen == NEW_EVENING else chosen if isinstance(chosen, Evening) else None)
    return services.night_create(
        owner=user, title=data["title"], date=data["date"], venue=data["venue"], base=data["base"],
        stake=data["stake"], currency=data["currency"] or "CNY", preset=data["preset"],
        rule_overrides=form.rule_values(),
        players=[services.player_get_or_create(name=name, group=group) for name in form.seated_names()],
        first_dealer=data["first_dealer"], members=usernames(data["members"], "members"),
        scorekeepers=usernames(data["scorekeepers"], "scorekeepers"),
        evening=evening, table_no=data.get("table_no"), fee=form.fee())


def _back_after_hand_change(request: HttpRequest, night: Night, hand: Hand | None = None) -> str:
    """Where a void or a correction returns: the table page when it was made from there (the scorekeeper goes on
    recording), else the hand list. Read from the Referer, sent by the browser for the site's own pages. Given the
    hand (a correction), the hand list opens at it: its card, on the page that holds it (a walk: after 更正第 4 局 the
    list came back at its top, hand 8, and the corrected hand had to be looked for)."""
    table = reverse("night-table", args=[night.pk])
    came_from = urlsplit(request.META.get("HTTP_REFERER", ""))
    if came_from.netloc == request.get_host() and came_from.path == table:
        return table
    hands = reverse("hand-list", args=[night.pk])
    if hand is None:
        return hands
    newer = night.hands.filter(number__gt=hand.number).count()
    page = "" if newer < fragments.HANDS_PER_PAGE else f"?before={hand.number + 1}"
    return f"{hands}{page}#hand-{hand.number}"


def _say_corrected(request: HttpRequest, night: Night) -> None:
    """After a correction saved by the table script (it comes back with ?corrected=N): say so, as a void is said."""
    number = params.whole_number(request.GET.get("corrected"), low=1)
    if number is not None and night.hands.filter(number=number, revisions__version__gt=1).exists():
        messages.success(request, _("第 %(n)d 局已更正") % {"n": number})


def _table_rules(night: Night) -> Rules:
    """The night's own rules (RULES.md §8–§10); a rule set the engine refuses falls back to the usual one."""
    try:
        return parse_rules(night.rules)
    except ScoringError:
        return Rules()


def _table_fans(night: Night) -> dict[str, int]:
    """The night's own fan table (RULES.md §10)."""
    return _table_rules(night).fans


def _table_config(night: Night, *, dealer: int, names: list[str],
                  initial: dict[str, Any] | None, hand: Hand | None, done_url: str = "") -> dict[str, Any]:
    """What the table page's script needs: seats, names of patterns and modifiers, URLs, words.

    No rule goes to the page: what may be chosen comes with every preview (the engine's `choices`).
    """
    save_url = (reverse("api-hand-correct", args=[night.pk, hand.number]) if hand
                else reverse("api-hands", args=[night.pk]))
    return {
        "night": night.pk,
        "players": names,
        "dealer": dealer,
        "patterns": {c: {"name": pattern_name(c), "fan": _table_fans(night).get(c, p.fan)} for c, p in PATTERNS.items()},
        "modifiers": {c: modifier_name(c) for c in MODIFIERS},
        "previewUrl": reverse("api-preview", args=[night.pk]),
        "analyseUrl": reverse("api-analyse"),
        "saveUrl": save_url,
        "voidUrl": reverse("api-hand-void", args=[night.pk, 0]).replace("/0/", "/{n}/"),
        "tableUrl": reverse("night-table", args=[night.pk]),
        "handsUrl": reverse("hand-list", args=[night.pk]),
        "doneUrl": done_url or reverse("hand-list", args=[night.pk]),  # where a saved correction goes
        "initial": initial,
        "correcting": hand.number if hand else None,
        "draftKey": f"hand-draft-{night.pk}-{hand.number if hand else 'new'}",
        "suits": [str(SUIT_LABELS[s]) for s in "mps"],
        "tableSuits": _table_rules(night).suits,  # the suits the table plays ("ps" at 两房: no 万 on the keypad)
        "eventFlags": list(EVENT_FLAGS),
        "base": format_amount(night.base),
        # Only to mark past winners on the seats in 血流成河 (RULES.md §9); who may be tapped still comes from `choices`.
        "mode": _table_rules(night).mode,
        # The example a 两房 table (筒 and 条 only, RULES.md §9) can type: it refuses 万.
        "strings": {**_table_strings(), **({"tilesHint": _("如 11223345678999s")} if _table_rules(night).two_suits
                                            else {})},
        # Offline (issue 20): what the engine in the phone needs to give the preview API's answers, the last hand's
        # number, when the page was rendered (the 离线 mark says it), the addresses the queue and links use.
        "engine": offline_engine.engine_setup(night),
        "top": page_of(night).top_number if hand is None else hand.number - 1,
        "renderedAt": timezone.now().isoformat(),
        "correctUrl": reverse("hand-correct", args=[night.pk, 0]).replace("/0/", "/{n}/"),
        "probeUrl": reverse("service-worker"),
    }


SUIT_LABELS = {"m": _lazy("万"), "p": _lazy("筒"), "s": _lazy("条")}


def _table_strings() -> dict[str, Any]:
    """The words of the table page's script, in the page's language."""
    return {
        "pickWinner": _("点胡牌的人"), "pickFrom": _("谁放的炮？（或点“自摸”）"), "pickMore": _("一炮多响：再点其他胡牌的人，或点“完成”"),
        "pickKonger": _("谁杠的？点他的座位"), "pickKind": _("哪种杠？"), "pickKongFrom": _("谁打出的那张？"),
        "selfDraw": pgettext("button", "自摸"), "selfDraws": pgettext("table", "自摸"), "dealsIn": pgettext("table", "点炮"), "done": _("完成"), "direct": _("直杠"), "added": _("补杠"),
        "concealed": _("暗杠"),
        "kindButton": {"direct": pgettext("button", "直杠"), "added": pgettext("button", "补杠"),
                       "concealed": pgettext("button", "暗杠")},  # capitalised in English, unlike in a sentence
        "roots": pgettext("a stepper's label", "根"), "rootsFromKongs": _("已算上自己的 %(n)s 个杠"), "winFan": _("这一胡算 %(n)s番"), "fan": pgettext("a stepper's label", "番"), "fanN": _("%(n)s番"), "fanCapped": _("%(raw)s番（封顶 %(fan)s番）"), "rootsN": _("+%(n)s根"), "rootsOne": _("+1根"), "colon": _("："),
        "comma": pgettext("between items of a list", "，"), "semicolon": pgettext("between sentences", "；"),
        "inParens": _("（%(what)s）"), "tiles": _("输入牌"), "quick": _("选番型"), "quickFan": _("按番数"),
        "hand": _("手牌"), "melds": _("碰/杠"), "toHand": _("加到手牌"), "toPong": _("加碰"), "toKong": _("加杠"), "typing": _("键盘输入"),
        "tilesHint": _("如 11223345678999m"), "meldsHint": _("如 555p 7777s"), "remove": _("删除"),
        "exhausted": _("流局查叫"), "markReady": _("标记下叫"), "isReady": _("已下叫"),
        "wonTimes": _("已胡×%(n)s"), "won": pgettext("a seat", "已胡"),
        "seatRole": {"winner": pgettext("a seat in the win being entered", "胡牌"),
                     "from": pgettext("a seat in the win being entered", "点炮"),
                     "kong": pgettext("a seat in the kong being entered", "杠")},
        "huaZhu": _("花猪"), "saved": _("已保存"), "savedHand": _("已保存第 %(n)s 局"),
        "undo": _("撤销"), "undoneHand": _("已撤销第 %(n)s 局：它的内容放回了下面，改好保存后记为第 %(next)s 局"), "notUndone": _("没有撤销，第 %(n)s 局仍然记着："), "noNetwork": _("网络不通，联网后再点撤销"), "cancel": _("取消"), "noPayments": _("无输赢"),
        "reasonNeeded": _("请写更正原因"), "waits": _("叫"), "winsOn": pgettext("table", "胡"),
        "reasons": {reason: payment_reason(reason) for reason in PAYMENT_REASONS}, "checking": _("计算中…"),
        "robbedKong": robbed_kong_reason(), "kongRobbed": _("%(name)s 被抢杠"),
        "kongNotCounted": _("被抢杠胡，不算杠"),
        "offline": _("网络不通：草稿在本机，稍后再点保存（不会重复记录）"), "soFar": _("本局到目前为止"),
        "fixFirst": _("先改正上面的问题才能保存"),
        "typeTiles": _("点下面的牌输入手牌"), "byTiles": _("由手牌决定"), "tilesShort": _("还差 %(n)s 张"),
        "oneSuit": _("全是一种花色？那是{name}"),
        "savedElsewhere": _("另一台手机刚保存了第 %(n)s 局。你这里正在记的如果就是这一局，清空它，别再保存一次"),
        "dropDraft": _("是同一局，清空"), "keepDraft": _("不是，接着记"),
        "keysElsewhere": _("{tiles} 已经记满 4 张（算上别家的手牌），键变灰了"),
        "kongNotRecorded": _("副露里有 {melds} 个杠，这一局只记了 {recorded} 个：没记的杠没人付钱，先用“+ 杠”记上"),
        "notFinished": _("这一局还没结束：记下其余的胡牌，或点“流局/查叫”"),
        "startHint": _("点“+ 胡牌”“+ 杠”或“流局/查叫”记这一局"),
        "maybeSaved": _("这一局可能已经保存过了（上次保存时没收到回答）：先看看每局明细；要重记就点“清空重来”"),
        "clearConfirm": _("清空这一局已经输入的内容？"),
        "offlineMark": _("离线"), "lastUpdate": _("最后更新"),
        "offlineHint": _("照常记账：本机计算，保存的局存在本机，网络恢复后自动发送"),
        "needsNetwork": _("这个需要网络：注册、邀请、报告、结账、更正和罚分/调整要等网络恢复"),
        "queueCount": _("待发送 %(n)s 局"), "pendingNet": _("未发送 %(amount)s"), "queueCountOne": _("待发送 1 局"), "handNo": _("第 %(n)s 局"), "dealer": _("庄"),
        "refused": _("服务器拒绝了这一局"), "queueEdit": _("改正"), "queueDiscard": _("放弃这一局"),
        "queueBehind": _("等前面那局处理好再发送"), "sent": _("已发送"), "gotIt": _("知道了"),
        "renumbered": _("另一部手机在此期间也记了局：你发送的局记成了别的局号，看一下"), "showMe": _("去看"),
        "queueFixing": _("正在下面改正：改好保存后按原来的顺序发送"),
        "sentAs": _("你在第 %(entered)s 局记的这一局已发送，记为第 %(n)s 局：另一部手机在此期间也记了局"),
        "correct": pgettext("queue", "更正"), "voidOrLook": _("查看或作废"),
        "queuedToast": _("已存在本机：网络恢复后自动发送"),
        "replaceDraft": _("表单里正在输入的这一局会被替换，继续？"),
        "discardConfirm": _("放弃这一局？它不会被发送，也不能恢复。"),
        "correctLast": _("更正第 %(n)s 局"),
        "engineStarting": _("离线计算引擎启动中…（第一次要几秒）"),
        "nextHand": _("接下来第 %(n)s 局，%(name)s 坐庄"),
        "sameAs": _("和第 %(n)s 局一模一样：如果是两部手机记了同一局，作废其中一局"), "voidOne": _("去作废"),
    }


@login_required
def night_table(request: HttpRequest, pk: int) -> HttpResponse:
    # One read (selectors.night_for_page) brings the seats, the next dealer, the last hand and the last one that
    # counts (the one 更正 offers: hand numbers run without gaps, voided hands keep theirs), the newest card's key,
    # the change cursor, the caller's rights and the invite links.
    night = _night(request, pk)
    _say_corrected(request, night)
    saved = params.whole_number(request.GET.get("saved"), low=1)
    undone = params.whole_number(request.GET.get("undone"), low=1)
    seating = night_seating(night)
    dealer = night_next_dealer(night)
    top = page_of(night).top_number
    can_write = page_of(night).can_write
    return render(request, "nights/table.html", {
        "night": night, "seats": fragments.seats(night, dealer=dealer), "hand_number": top + 1,
        "can_write": can_write, "last_hand": page_of(night).counted_number,
        "head": fragments.head(night, top=top),
        "last_cards": fragments.newest_card(request, night, editable=can_write and not night.is_closed),
        "panel": join_panel(request, night),
        "adjust_forms": _adjustment_forms(night, [p.name for p in seating]) if can_write else None,
        "confirmations": fragments.confirmations(night, request.user),
        "live": fragments.live_config(night, socket=f"/ws/nights/{night.pk}/", pieces=["head", "seats", "confirmations"],
                                      newest=True,
                                      fragments=reverse("night-fragments", args=[night.pk]), keep=1, last=top,
                                      since=page_of(night).latest_audit),
        "config": {**_table_config(night, dealer=dealer, names=[p.name for p in seating], initial=None, hand=None),
                   "saved": saved, "undone": undone, "sameAs": same_as_before(night, saved) if saved else None},
    })


@login_required
def hand_correct(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    night = _night(request, pk, write=True)
    hand = get_object_or_404(night.hands, number=number)
    revision = hand.current
    initial = {k: revision.record.get(k) for k in services.ENTRY_FIELDS if k in revision.record}
    names = revision.names  # the hand's players as recorded, even if a seat has changed since
    seats = [{"seat": s, "label": SEAT_LABELS[s], "player": {"name": name}, "dealer": s == revision.dealer}
             for s, name in enumerate(names)]
    return render(request, "nights/table.html", {
        "night": night, "seats": seats, "hand_number": hand.number, "can_write": True, "correcting": hand,
        "head": fragments.head(night),
        "config": _table_config(night, dealer=revision.dealer, names=names, initial=initial, hand=hand,
                                done_url=_back_after_hand_change(request, night, hand)),
    })


@login_required
def hand_list(request: HttpRequest, pk: int) -> HttpResponse:
    """The night's hands, newest first, a page at a time (`?before=N`: the hands numbered below N)."""
    night = _night(request, pk)
    _say_corrected(request, night)
    before = fragments.cursor(request.GET.get("before"))
    editable = page_of(night).can_write and not night.is_closed
    hands, older = fragments.hand_page(request, night, before, editable=editable)
    return render(request, "nights/hand_list.html", {
        "night": night, "hands": hands, "can_write": editable, "older": older, "before": before,
        "live": fragments.live_config(night, socket=f"/ws/nights/{night.pk}/", pieces=[], newest=before is None,
                                      fragments=reverse("night-fragments", args=[night.pk]), last=page_of(night).top_number,
                                      since=page_of(night).latest_audit),
        "reason_form": ReasonForm(), "seat_form": SeatForm(names=[p.name for p in night_seating(night)])})


@login_required
@require_POST
def hand_void(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    night = _night(request, pk, write=True)
    hand = get_object_or_404(night.hands, number=number)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("第 %(n)d 局：作废需要写明原因") % {"n": number})
    else:
        try:
            services.hand_void(hand=hand, by=signed_in(request), reason=form.cleaned_data["reason"])
            messages.success(request, _("第 %(n)d 局已作废") % {"n": number})
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
    return redirect(_back_after_hand_change(request, night))


@login_required
@require_POST
def seat_change(request: HttpRequest, pk: int) -> HttpResponse:
    night = _night(request, pk, write=True)
    form = SeatForm(request.POST, names=[p.name for p in night_seating(night)])
    if form.is_valid():
        try:
            with transaction.atomic():  # a refused change leaves no new player behind (nor one the audit never saw)
                player = services.player_get_or_create(name=form.cleaned_data["player"], group=night.group)
                services.seat_change(night=night, by=signed_in(request), seat=form.cleaned_data["seat"],
                                     player=player)
            messages.success(request, _("已换人，下一局起生效"))
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
    else:
        messages.error(request, _("请选择座位并填写玩家"))
    return redirect("hand-list", pk=pk)


@login_required
def audit(request: HttpRequest, pk: int) -> HttpResponse:
    """The audit trail, newest first, a page at a time; each entry's before/after opens on demand."""
    night = _night(request, pk)
    entries = (night_trail(night, request.user).select_related("actor", "hand", "adjustment").defer("before", "after")
               .annotate(marked=KT("after__transfer"),  # a 标记已付's transfer, named in the list
                         link_kind=KT("after__link"), link_state=KT("after__state")))  # a link on or off, its title
    page = keyset_page(entries, ("at", "id"), request.GET.get("cursor"), page_size(request.GET.get("size"), 30))
    return render(request, "nights/audit.html", {"night": night, "entries": page.items, "page": page})


@login_required
def audit_entry(request: HttpRequest, pk: int, entry: int) -> HttpResponse:
    """One audit entry's before and after in words: a page, or the fragment alone with ?fragment=1."""
    night = _night(request, pk)
    item = get_object_or_404(night_trail(night, request.user).select_related("actor", "hand", "adjustment"), pk=entry)
    template = "nights/audit_change.html" if request.GET.get("fragment") else "nights/audit_entry.html"
    return render(request, template, {"night": night, "e": item, "change": entry_change(item, night)})


@login_required
@require_POST
def night_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    """重新打开牌局: a night closed too early takes hands again, while nothing is settled on it."""
    night = _night(request, pk, write=True)
    try:
        services.night_reopen(night=night, by=signed_in(request))
        messages.success(request, _("牌局已重新打开：可以接着记分"))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("night-settle", pk=pk)
    return redirect("night-table", pk=pk)


@login_required
@require_POST
def night_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """删除这一场: a night made by mistake, with nothing recorded on it, goes (its group's trail says so)."""
    night = _night(request, pk)
    if not rights.may_manage_night(request.user, night):
        raise PermissionDenied
    title = night.title
    try:
        services.night_delete(night=night, by=signed_in(request))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("night-settle", pk=pk)
    messages.success(request, _("已删除“%(title)s”") % {"title": title})
    return redirect("group-home", pk=night.group_id) if rights.may_view_group(request.user, night.group) \
        else redirect("night-list")


@login_required
def settle(request: HttpRequest, pk: int) -> HttpResponse:
    night = _night(request, pk)
    if request.method == "POST":
        night = _night(request, pk, write=True)
        try:
            services.night_close(night=night, by=signed_in(request))
            messages.success(request, _("牌局已结束"))
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        return redirect("night-settle", pk=pk)
    summary, totals, plan = night_outcome(night)
    counts = night.hands.aggregate(total=Count("pk"), voided=Count("pk", filter=~Q(status=Hand.Status.RECORDED)))
    can_write = page_of(night).can_write
    group_writer = page_of(night).group_writer  # settling moves the group's money: its writers only
    fixed = fragments.paid(night, request.user, group_writer)
    # 删除这一场 is asked only where nothing counts on the night (its hands, if any, all voided).
    looks_empty = counts["total"] == counts["voided"] and rights.may_manage_night(request.user, night)
    refusal = services.delete_refusal(night) if looks_empty else None
    signed = fragments.confirmations(night, request.user)
    evening_visible = rights.may_view_evening_of(request.user, night)
    can_settle = group_writer and night.is_closed and night.evening_id is None and fixed is None
    # Who has not confirmed, by the settle form: a live piece where that form is (a confirmation takes a name off).
    pieces = ["settlement", "paid", "confirmations"] + (["not_confirmed"] if can_settle else [])
    return render(request, "nights/settle.html", {
        "night": night, "settlement": fragments.settlement(night, (summary, totals, plan)),
        "summary": report_summary(night, totals, transfers_to_pay(
                                      night, summary, totals, evening_visible=evening_visible), counts["total"],
                                  counts["voided"], summary.fee,
                                  [describe_adjustment(a) for a in adjustments.night_adjustments(night)
                                   .filter(status=Hand.Status.RECORDED)], signed["rows"]),
        "live": fragments.live_config(night, socket=f"/ws/nights/{night.pk}/",
                                      pieces=pieces,
                                      newest=False, fragments=reverse("night-fragments", args=[night.pk]),
                                      since=page_of(night).latest_audit),
        "confirmations": signed, "evening_visible": evening_visible, "group_writer": group_writer,
        "can_close": can_write and not night.is_closed,
        # 重新打开: offered exactly when the service would allow it (services.reopen_refusal).
        "can_reopen": can_write and night.is_closed and services.reopen_refusal(night) is None,
        # 删除这一场: a night made by mistake, nothing recorded on it, by its owner (services.delete_refusal).
        "can_delete": looks_empty and refusal is None,
        # …and where it looks empty but is not deletable (all voided), why not (a walk found no button and no word).
        "delete_refused": refusal,
        # Paying up (结算): a standalone closed night is settled here; a table of an evening on the evening's page.
        "fixed": fixed,
        "can_settle": can_settle,
        "outstanding": (unpaid := outstanding(night.group).count() if group_writer and fixed is None else 0),
        "carry": carry_rows(carry_preview(night.group, combined_nets([summary])), night) if unpaid and can_settle else None,
        "next": request.get_full_path()})


def rules_page(request: HttpRequest) -> HttpResponse:
    defaults = Rules().as_dict()
    options = [{"name": name, "label": label, "help": help_text, "default": defaults[name]}
               for name, (label, help_text, _field) in RULE_FIELDS.items()]
    # The fan table of RULES.md §3 (将七对 exists only where a night's rules give it fan: an option below).
    patterns = [{"code": c, "name": pattern_name(c), "fan": fan} for c, fan in Rules().fans.items()]
    presets = [{"name": name, "label": PRESET_LABELS[name], "text": PRESET_TEXT[name]} for name in PRESETS]
    return render(request, "nights/rules.html", {"options": options, "patterns": patterns, "presets": presets})


# ---- penalties and adjustments (罚分/调整), sign-off (签字确认) ----------------------------------------------------

def _adjustment_forms(night: Night, names: list[str], data: Any = None, kind: str | None = None,
                      **extra: Any) -> dict[str, AdjustmentForm]:
    """The 诈胡 and transfer forms; the one of `kind` bound to `data` (the other blank)."""
    return {k: AdjustmentForm(data if k == kind else None, kind=k, names=names, **extra)
            for k in ("zha_hu", "transfer")}


@login_required
def adjustment_create(request: HttpRequest, pk: int) -> HttpResponse:
    """罚分/调整: the table page's small form posts here; back to the table with a message, or the form again with
    each field's error."""
    night = _night(request, pk, write=True)
    names = [p.name for p in night_seating(night)]
    kind = request.POST.get("kind") if request.method == "POST" else None
    forms = _adjustment_forms(night, names, request.POST, kind)
    if kind in forms:
        form = forms[kind]
        if form.is_valid():
            try:
                made = adjustments.adjustment_record(night=night, by=signed_in(request), data=form.data_for_service())
            except ValidationError as exc:
                if hasattr(exc, "error_dict"):
                    form.add_service_errors(exc.message_dict)
                else:
                    form.add_error(None, exc.messages)
            else:
                messages.success(request, _("已记下罚分/调整 %(n)d：%(line)s") % {
                    "n": made.number, "line": describe_adjustment(made)})
                return redirect("night-table", pk=pk)
    # After a refusal only the form that was sent, with its errors, at the top of the phone's screen.
    shown = {kind: forms[kind]} if kind in forms else forms
    return render(request, "nights/adjustment_form.html", {"night": night, "forms": shown, "kind": kind})


@login_required
def adjustment_correct(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    night = _night(request, pk, write=True)
    found = get_object_or_404(night.adjustments, number=number)
    initial: dict[str, Any] = {"reason": found.note}
    if found.kind == "zha_hu":
        initial.update(player=found.payer_seat, fan=found.fan)
    else:
        initial.update({"from": found.payer_seat, "to": found.payee_seat, "amount": format_amount(found.amount)})
    form = AdjustmentForm(request.POST if request.method == "POST" else None, kind=found.kind,
                          names=list(found.player_names), correcting=True, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            adjustments.adjustment_correct(adjustment=found, by=signed_in(request), data=form.data_for_service(),
                                           reason=form.cleaned_data["why"])
        except ValidationError as exc:
            if hasattr(exc, "error_dict"):
                form.add_service_errors({"why" if k == "reason" else k: v for k, v in exc.message_dict.items()})
            else:
                form.add_error(None, exc.messages)
        else:
            messages.success(request, _("罚分/调整 %(n)d 已更正") % {"n": number})
            return redirect("hand-list", pk=pk)
    return render(request, "nights/adjustment_form.html", {"night": night, "forms": {found.kind: form},
                                                           "kind": found.kind, "correcting": found})


@login_required
@require_POST
def adjustment_void(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    night = _night(request, pk, write=True)
    found = get_object_or_404(night.adjustments, number=number)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("罚分/调整 %(n)d：作废需要写明原因") % {"n": number})
    else:
        try:
            adjustments.adjustment_void(adjustment=found, by=signed_in(request), reason=form.cleaned_data["reason"])
            messages.success(request, _("罚分/调整 %(n)d 已作废") % {"n": number})
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
    return redirect(_back_after_hand_change(request, night))


@login_required
@require_POST
def night_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """确认 on a night's pages: the signed-in player confirms the closed night; back where they came from."""
    night = _night(request, pk)
    try:
        confirmations.night_confirm(night=night, user=signed_in(request))
        messages.success(request, _("已确认这一场的结果"))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    back = urlsplit(request.META.get("HTTP_REFERER", ""))
    if back.netloc == request.get_host() and back.path.startswith(f"/nights/{pk}/"):
        return redirect(back.path)
    return redirect("night-settle", pk=pk)
