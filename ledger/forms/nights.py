"""Forms of the pages: creating a night (group, evening and table, players, seats, stake, rules, table fee),
reasons, seat changes."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping, Sequence

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from scoring import FEE_MODES, FEE_WINS, MAX_FEE, PRESETS, Rules
from scoring.rules import DEFAULT_FANS, OPTIONS, TABLE_PATTERNS, RuleOption
from scoring.patterns import containing

from ledger import bounds
from ledger.models import Evening, Group, Night, night_day
from ledger.presenters.nights import pattern_name
# The words live with the presenters; the forms' own names for them stay importable from here.
from ledger.presenters.rules import PRESET_LABELS as PRESET_LABELS, PRESET_TEXT as PRESET_TEXT
from ledger.presenters.rules import RULE_TEXT as RULE_TEXT, SEAT_LABELS as SEAT_LABELS

#: The house rules of RULES.md §10 (and any option after them): a form posted without them (a client from before
#: they existed) takes their defaults, so they are never required.
OPTIONAL_RULES = frozenset(tuple(OPTIONS)[tuple(OPTIONS).index("dian_gang_hua"):])


def _yes(value: str) -> bool:
    return value == "True"


class YesNoField(forms.TypedChoiceField):
    """A rule that is on by default, as a 算/不算 select; a ticked box's "on" (or "true", "1") reads as yes."""

    def to_python(self, value: Any) -> str:
        text = str(super().to_python(value))
        return {"on": "True", "true": "True", "1": "True", "off": "False", "false": "False", "0": "False"}.get(
            text.lower(), text)


def rule_field(option: RuleOption) -> forms.Field:
    """The form field of one rule option, with the engine's bounds and choices. One that may be left empty to keep
    the preset's value (posted_rules) says so to night_form.js (`data-keep-preset`): left empty, it changes nothing
    of the preset (a walk: a group's first form said 在这个预设上改了：人数 with nothing changed)."""
    field = _rule_field(option)
    if option.kind == "choice" or option.name in KEEP_PRESET_WHEN_EMPTY or option.name in OPTIONAL_RULES:
        field.widget.attrs["data-keep-preset"] = ""
    return field


def _rule_field(option: RuleOption) -> forms.Field:
    label, help_text, choice_labels = RULE_TEXT[option.name]
    # An option that may be left empty starts empty: the preset chosen says it (三人两房 seats three).
    initial = None if option.name in KEEP_PRESET_WHEN_EMPTY else option.default
    common: dict[str, Any] = {"label": label, "help_text": help_text, "initial": initial}
    if option.kind == "bool" and option.default is True and option.name in OPTIONAL_RULES:
        # On by default: a select, so that a form posted without it keeps the default (an unticked box says off).
        return YesNoField(choices=[("True", _("算")), ("False", _("不算"))], coerce=_yes, empty_value=None,
                          required=False, **common)
    if option.kind == "bool":
        return forms.BooleanField(required=False, **common)
    if option.kind == "choice":
        # Not required: a form posted without it (one made before the option existed) keeps the preset's value.
        return forms.ChoiceField(choices=[(c, choice_labels.get(c, c)) for c in option.choices], required=False, **common)
    assert option.kind != "fan_table", "a fan table is one field per pattern: pattern_fan_fields()"
    required = option.kind == "int" and option.name not in KEEP_PRESET_WHEN_EMPTY and option.name not in OPTIONAL_RULES
    return forms.IntegerField(min_value=option.low, max_value=option.high, required=required, **common)


#: Integer options that a form may leave out (added after the first forms): empty keeps the preset's value.
KEEP_PRESET_WHEN_EMPTY = ("players",)


def posted_rules(cleaned: Mapping[str, Any]) -> dict[str, Any]:
    """The rule overrides a form gives: every option's field, except one left empty that may be (a choice, a
    house rule of §10, KEEP_PRESET_WHEN_EMPTY), which keeps the preset's value (a client from before it existed).
    The fan table comes from its pattern fields (posted_pattern_fan)."""
    values: dict[str, Any] = {}
    for name, option in OPTIONS.items():
        if option.kind == "fan_table":
            table = posted_pattern_fan(cleaned)
            if table is not None:
                values[name] = table
            continue
        value = cleaned.get(f"rule_{name}")
        if value in ("", None) and (option.kind == "choice" or name in KEEP_PRESET_WHEN_EMPTY
                                    or name in OPTIONAL_RULES):
            continue
        values[name] = value
    return values


# ---- the fan table (RULES.md §10 `pattern_fan`): one number per pattern ------------------------------------

def pattern_field_name(code: str) -> str:
    """The form field of one pattern's fan: rule_pattern_fan__qing_yi_se."""
    return f"rule_pattern_fan__{code}"


def _pattern_label(code: str) -> str:
    return pattern_name(code)


def pattern_fan_fields() -> dict[str, forms.IntegerField]:
    """One integer field per pattern whose fan a table may set (scoring.rules.TABLE_PATTERNS), labelled with the
    pattern's name, bounded as OPTIONS["pattern_fan"] says; an error names the pattern. Built per form, so that
    the names are in the language of the request."""
    option = OPTIONS["pattern_fan"]
    low, high = option.low or 0, option.high or 0
    fields = {}
    for code in TABLE_PATTERNS:
        name = _pattern_label(code)
        out_of_range = _("%(pattern)s：番数应在 %(low)d 到 %(high)d 之间") % {"pattern": name, "low": low, "high": high}
        fields[pattern_field_name(code)] = forms.IntegerField(
            label=name, min_value=low, max_value=high, required=False, initial=DEFAULT_FANS[code],
            error_messages={"min_value": out_of_range, "max_value": out_of_range,
                            "invalid": _("%(pattern)s：番数应是整数") % {"pattern": name}},
            widget=forms.NumberInput(attrs={"inputmode": "numeric", "data-pattern": code,
                                            "data-default-fan": str(DEFAULT_FANS[code]),
                                            "data-contains": " ".join(containing(code))}))
    return fields


def posted_pattern_fan(cleaned: Mapping[str, Any]) -> dict[str, int] | None:
    """The fan table the pattern fields give: only the patterns whose fan differs from RULES.md §3 (so the usual
    table is {}). A field left empty keeps the preset's fan; with none of them posted (a client from before they
    existed), None: the preset's table stands."""
    posted = {code: cleaned.get(pattern_field_name(code)) for code in TABLE_PATTERNS}
    if all(fan is None for fan in posted.values()):
        return None
    preset_table = PRESETS.get(str(cleaned.get("preset") or ""), {}).get("pattern_fan", {})
    table = {}
    for code, fan in posted.items():
        fan = preset_table.get(code, DEFAULT_FANS[code]) if fan is None else fan
        if fan != DEFAULT_FANS[code]:
            table[code] = fan
    return table


def pattern_fan_initial(initial: Mapping[str, Any]) -> dict[str, int]:
    """The pattern fields' initial values from a form's initial: its `rule_pattern_fan` table (a group's
    defaults), else its preset's, over the fans of RULES.md §3."""
    table = initial.get("rule_pattern_fan")
    if not isinstance(table, Mapping):
        table = PRESETS.get(str(initial.get("preset") or "chengdu"), {}).get("pattern_fan", {})
    return {pattern_field_name(code): table.get(code, fan) for code, fan in DEFAULT_FANS.items()}


# ---- the rule fields as players group them, shared by the night form and a group's defaults ------------------

#: The rule options in groups as players name them (key, heading, options), in the order of the form; every
#: option of scoring.rules.OPTIONS is in exactly one. `pattern_fan` is the fan-table editor (its pattern fields).
RULE_GROUPS: tuple[tuple[str, Any, tuple[str, ...]], ...] = (
    ("table", _("牌桌"), ("mode", "players", "suits", "dealer_when_no_winner")),
    ("kong", _("杠（刮风下雨）"), ("kong_direct", "kong_added", "kong_concealed", "finished_players_pay_kongs")),
    ("gang_shang", _("杠上花、杠上炮、抢杠"), ("gang_shang_hua_fan", "qiang_gang_hu_fan", "robbable_kongs",
                                            "call_transfer", "call_transfer_scope")),
    ("dian_gang_hua", _("点杠花"), ("dian_gang_hua",)),
    ("fan_table", _("番数表"), ("pattern_fan",)),
    ("yao_jiu_jiang_dui", _("幺九将对"), ("yao_jiu_jiang_dui", "jiang_qi_dui_fan")),
    ("men_qing_zhong_zhang", _("门清中张"), ("men_qing_fan", "zhong_zhang_fan")),
    ("tian_di_hu", _("天地胡"), ("tian_hu_fan", "di_hu_fan")),
    ("zi_mo_feng_ding", _("自摸、封顶"), ("self_draw_bonus", "max_fan")),
    ("more_fan", _("海底、金钩钓、夹心五"), ("hai_di_fan", "hai_di_pao_fan", "jin_gou_diao_fan", "jia_xin_wu_fan")),
    ("min_fan", _("点炮可平胡"), ("min_fan_on_discard",)),
    ("cha_jiao", _("查叫/花猪"), ("cha_jiao", "kong_refund", "hua_zhu", "hua_zhu_fan", "hua_zhu_pays_winners")),
)
_grouped = [name for _key, _heading, names in RULE_GROUPS for name in names]
assert sorted(_grouped) == sorted(OPTIONS), "every rule option in exactly one group"


#: Where the engine's fee problems show on a form.
FEE_FIELDS = {"fee": "fee_mode", "fee.mode": "fee_mode", "fee.amount": "fee_amount", "fee.wins": "fee_wins"}


def form_field_for(path: str | None) -> str | None:
    """A rule form's field (the new-night form, a group's default rules) for an error's path: the fee's fields, a
    rule option's own field, a pattern's field of the fan table."""
    if path and path.startswith("rules.pattern_fan."):  # one pattern of the fan table: its own field
        return pattern_field_name(path[len("rules.pattern_fan."):])
    if path and path.startswith("rules."):
        return f"rule_{path[len('rules.'):]}"
    return FEE_FIELDS.get(path or "")


#: The engine's problems with a combination of rule options, in the form's words (its own name a field by its
#: label, not by its option's code: the API's message names `suits`, `hua_zhu`, `false`).
RULE_PROBLEM_WORDS = {
    "hua_zhu_two_suits": _("两房（只打筒、条）每手牌都缺一门，没有花猪：请不要勾“查花猪”。"),
    "jiang_qi_dui_without_yao_jiu_jiang_dui": _("不算幺九将对时没有将七对：请把“将七对番数”设为 0，或者算幺九将对。"),
}


def rule_error_words(error: ValidationError) -> str:
    """One field error of a service that checked rules (its code the engine's, where it came from the engine), in the
    form's words."""
    words = RULE_PROBLEM_WORDS.get(error.code or "")
    return str(words) if words is not None else " ".join(error.messages)


def rule_problem_message(problem: Any, language: str) -> str:
    """What the rule form says of one of the engine's problems (scoring.Problem): its own words where it has them,
    else the engine's message in the page's language."""
    words = RULE_PROBLEM_WORDS.get(problem.code)
    return str(words) if words is not None else str(problem.message(language))


class RuleFields(forms.Form):
    """The rule fields of a form: one field per rule option, the fan table as one field per pattern, prefilled from
    the form's initial (its preset's fan table where it gives none), and their groups (RULE_GROUPS) for
    templates/nights/_rule_fields.html. The night form and a group's default rules both take them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, option in OPTIONS.items():
            if option.kind == "fan_table":
                self.fields.update(pattern_fan_fields())
            else:
                self.fields[f"rule_{name}"] = rule_field(option)
        for name, fan in pattern_fan_initial(self.initial).items():
            self.fields[name].initial = fan

    def rule_values(self) -> dict[str, Any]:
        return posted_rules(self.cleaned_data)

    def pattern_fields(self) -> list[forms.BoundField]:
        return [self[pattern_field_name(code)] for code in TABLE_PATTERNS]

    def rule_fieldsets(self) -> list[dict[str, Any]]:
        """The rule fields by group: [{"key", "legend", "fields", "patterns", "help"}]: `patterns` says the fan
        table (its pattern fields in a grid, under its explanation, `help`)."""
        sets = []
        for key, legend, names in RULE_GROUPS:
            patterns = names == ("pattern_fan",)
            sets.append({"key": key, "legend": legend, "patterns": patterns,
                         "help": RULE_TEXT["pattern_fan"][1] if patterns else "",
                         "fields": [f for name in names for f in self._option_fields(name)]})
        return sets

    def rule_errors(self) -> bool:
        """Whether a rule field is in error: the rules open by themselves only then (a wrong seat's name opened every
        rule, 7,400 px of them, above the field to fix)."""
        return any(f.errors for group in self.rule_fieldsets() for f in group["fields"])

    def _option_fields(self, name: str) -> list[forms.BoundField]:
        return self.pattern_fields() if name == "pattern_fan" else [self[f"rule_{name}"]]


def preset_rule_sets() -> dict[str, dict[str, Any]]:
    """Each preset's whole rule set, for night_form.js (which fills the rule fields, pattern fields included, from
    the preset chosen) on the night form and a group's default rules."""
    return {name: {**Rules().as_dict(), **values} for name, values in PRESETS.items()}


#: Each rule option: (label, explanation, form field), in the engine's order; the fan table has no one field
#: (its fields are pattern_fan_fields()).
RULE_FIELDS: dict[str, tuple[Any, Any, forms.Field | None]] = {
    name: (RULE_TEXT[name][0], RULE_TEXT[name][1], None if option.kind == "fan_table" else rule_field(option))
    for name, option in OPTIONS.items()}


FEE_MODE_LABELS = {"none": _("不收台费"), "per_player": _("每人固定"), "winners": _("赢家按赢的比例分摊"),
                   "per_win": _("每次胡牌抽")}
FEE_WINS_LABELS = {"all": _("每次胡牌"), "self_draw": _("只算自摸")}
#: The evening choice of a night: none, a new one (same date, venue and title as the night), or an evening's id.
NO_EVENING, NEW_EVENING = "", "new"


def base_field(**kwargs: Any) -> forms.DecimalField:
    """底金: within the ledger's bounds (ledger.bounds, 0.01 to 100000), two decimals at most; too large is said as the
    largest amount, not as a count of digits ("Ensure that there are no more than 12 digits")."""
    return forms.DecimalField(label=_("底金"), max_digits=None, decimal_places=2, min_value=bounds.MIN_BASE,
                              max_value=bounds.MAX_BASE, error_messages={"max_value": _("底金最多 %(limit_value)s"),
                                                                         "min_value": _("底金至少 %(limit_value)s")},
                              **kwargs)


class FeeFields(forms.Form):
    """The table fee's fields (mode, amount, which wins), for a night and for a group's defaults."""

    fee_mode = forms.ChoiceField(label=_("怎么收"), required=False, initial="none",
                                 choices=[(m, FEE_MODE_LABELS[m]) for m in FEE_MODES])
    fee_amount = forms.DecimalField(label=_("台费金额"), max_digits=None, decimal_places=2, min_value=Decimal("0.01"),
                                    max_value=MAX_FEE, error_messages={"max_value": _("台费最多 %(limit_value)s"),
                                                                       "min_value": _("台费至少 %(limit_value)s")},
                                    required=False, help_text=_("每人 / 整桌 / 每次胡牌的金额"))
    fee_wins = forms.ChoiceField(label=_("按哪些胡牌抽"), required=False, initial="all",
                                 choices=[(w, FEE_WINS_LABELS[w]) for w in FEE_WINS])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if (data.get("fee_mode") or "none") != "none" and data.get("fee_amount") is None and "fee_amount" not in self.errors:
            self.add_error("fee_amount", _("请填写台费金额"))
        return data

    def fee(self) -> dict[str, Any]:
        """The table fee as the form gives it (scoring.parse_fee checks it when it is used)."""
        mode = self.cleaned_data.get("fee_mode") or "none"
        if mode == "none":
            return {"mode": "none"}
        doc: dict[str, Any] = {"mode": mode, "amount": format(self.cleaned_data["fee_amount"], "f")}
        if mode == "per_win":
            doc["wins"] = self.cleaned_data.get("fee_wins") or "all"
        return doc


class NightForm(RuleFields, FeeFields):
    group = forms.ModelChoiceField(label=_("圈子"), queryset=Group.objects.none(), required=False, empty_label=None)
    evening = forms.ChoiceField(label=_("活动（同一天的几桌一起结算）"), required=False)
    table_no = forms.IntegerField(label=_("桌号"), min_value=1, max_value=99, required=False,
                                  help_text=_("空着：自动排下一个桌号"))
    title = forms.CharField(label=_("名称"), max_length=80, initial=_("周五夜"))
    date = forms.DateField(label=_("日期"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    venue = forms.CharField(label=_("地点/桌号"), max_length=80, required=False)
    player_0 = forms.CharField(label=_("东"), max_length=40)
    player_1 = forms.CharField(label=_("南"), max_length=40)
    # Seats 2 and 3 only at a table that has them (RULES.md §9 `players`): checked in clean().
    player_2 = forms.CharField(label=_("西"), max_length=40, required=False)
    player_3 = forms.CharField(label=_("北"), max_length=40, required=False)
    first_dealer = forms.TypedChoiceField(label=_("首局庄家"), coerce=int, initial=0,
                                          choices=[(i, label) for i, label in enumerate(SEAT_LABELS)],
                                          widget=forms.RadioSelect)
    base = base_field(initial=1)
    stake = forms.ChoiceField(label=_("计分方式"), choices=Night.Stake.choices, initial=Night.Stake.MONEY)
    currency = forms.CharField(label=_("币种"), max_length=8, initial="CNY", required=False)
    preset = forms.ChoiceField(label=_("规则预设"), choices=[(k, PRESET_LABELS[k]) for k in PRESETS], initial="chengdu")
    scorekeepers = forms.CharField(label=_("记分员（用户名，逗号分隔）"), required=False)
    members = forms.CharField(label=_("可查看的人（用户名，逗号分隔）"), required=False)

    def __init__(self, *args: Any, groups: Any = None, evenings: Sequence[Evening] = (), **kwargs: Any) -> None:
        """`groups`: where the user may record (the first is the default); `evenings`: those a table may join."""
        super().__init__(*args, **kwargs)
        self.fields["date"].initial = night_day()
        group = self.fields["group"]
        assert isinstance(group, forms.ModelChoiceField)
        group.queryset = groups if groups is not None else Group.objects.none()
        self.evenings = {str(e.pk): e for e in evenings}
        evening = self.fields["evening"]
        assert isinstance(evening, forms.ChoiceField)
        evening.choices = [(NO_EVENING, _("不属于活动")), (NEW_EVENING, _("新建一个活动"))] + [
            (pk, f"{e.date:%m-%d} {e.title}") for pk, e in self.evenings.items()]

    def seat_count(self) -> int:
        """How many seats the night will have: the posted (else initial) `rule_players`, else its preset's, else 4.
        The form shows that many seats (night_form.js follows a change of preset or players)."""
        source: Mapping[str, Any] = self.data if self.is_bound else self.initial
        players = str(source.get("rule_players") or "")
        if players in ("2", "3", "4"):
            return int(players)
        preset = source.get("preset") or self.fields["preset"].initial
        return int(PRESETS.get(str(preset), {}).get("players", 4))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        players = data.get("rule_players")
        count = players if players in (2, 3, 4) else int(PRESETS.get(data.get("preset", ""), {}).get("players", 4))
        for i in range(count):
            if not data.get(f"player_{i}", "").strip() and f"player_{i}" not in self.errors:
                self.add_error(f"player_{i}", forms.Field.default_error_messages["required"])
        for i in range(count, 4):  # a seat the table does not have
            data[f"player_{i}"] = ""
        names = [data.get(f"player_{i}", "").strip() for i in range(count)]
        if "first_dealer" in data and data["first_dealer"] >= count:
            self.add_error("first_dealer", _("这一桌只有 %(n)d 个座位") % {"n": count})
        same = [name.casefold() for name in names]  # "alice" and "Alice" are one player (services.groups._named)
        if all(names) and len(set(same)) != count:
            # Said at each seat the name sits in (marked there, and each listed at the top linked to its seat).
            for i, name in enumerate(names):
                if same.count(name.casefold()) > 1:
                    self.add_error(f"player_{i}", _("%(names)s 坐了不止一个座位：每个座位需要一位不同的玩家")
                                   % {"names": name})
        return data

    def seated_names(self) -> list[str]:
        """The names of the table's seats, in seat order (as many as the night's players)."""
        return [name for i in range(4) if (name := self.cleaned_data.get(f"player_{i}", "").strip())]

    def chosen_evening(self) -> Evening | None | str:
        """The evening chosen: None, NEW_EVENING, or an Evening."""
        value = self.cleaned_data.get("evening") or NO_EVENING
        return self.evenings[value] if value in self.evenings else (NEW_EVENING if value == NEW_EVENING else None)

    def player_fields(self) -> list[forms.BoundField]:
        return [self[f"player_{i}"] for i in range(4)]


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("原因"), max_length=200)


class SeatForm(forms.Form):
    """换人 (from the next hand): one of this table's seats, named with who sits there (东 · 张三), and who comes in."""

    seat = forms.TypedChoiceField(label=_("座位"), coerce=int)
    player = forms.CharField(label=_("换上的玩家"), max_length=40)

    def __init__(self, *args: Any, names: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        seat = self.fields["seat"]
        assert isinstance(seat, forms.TypedChoiceField)
        seat.choices = [(s, f"{SEAT_LABELS[s]} · {name}") for s, name in enumerate(names)]


class AdjustmentForm(forms.Form):
    """A penalty or adjustment (罚分/调整) on the table page, one form per kind: 诈胡 (who, fan) or a transfer (from,
    to, amount, reason). The form only reads what was typed; ledger.services.adjustments checks it (its errors name these
    fields, which the view puts on them)."""

    def __init__(self, *args: Any, kind: str, names: Sequence[str], correcting: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kind = kind
        seats = [(str(s), f"{SEAT_LABELS[s]} · {name}") for s, name in enumerate(names)]
        if kind == "zha_hu":
            self.fields["player"] = forms.TypedChoiceField(label=_("诈胡的人"), choices=seats, coerce=int)
            self.fields["fan"] = forms.IntegerField(label=_("番数（空着：按封顶，没有封顶按 4 番）"),
                                                    required=False, min_value=0, max_value=20)
        else:
            self.fields["from"] = forms.TypedChoiceField(label=_("付款人"), choices=seats, coerce=int)
            # Two different seats from the start: a transfer to oneself is refused, so the form never opens on one.
            self.fields["to"] = forms.TypedChoiceField(label=_("收款人"), choices=seats, coerce=int,
                                                       initial=seats[1][0] if len(seats) > 1 else None)
            self.fields["amount"] = forms.CharField(label=_("金额"), max_length=20, required=False,
                                                    widget=forms.TextInput(attrs={"inputmode": "decimal"}))
        self.fields["reason"] = forms.CharField(label=_("原因") if kind != "zha_hu" else _("备注（可不填）"),
                                                max_length=200, required=False)  # the service says why
        if correcting:
            self.fields["why"] = forms.CharField(label=_("更正原因"), max_length=200)
        self.auto_id = f"id_{kind}_%s"

    def data_for_service(self) -> dict[str, Any]:
        """What ledger.services.adjustments reads (the API's names), from the cleaned form."""
        data = {k: v for k, v in self.cleaned_data.items() if k != "why"}
        if data.get("reason") == "":
            data.pop("reason")
        return {"kind": self.kind, **data}

    def add_service_errors(self, errors: dict[str, list[str]]) -> None:
        for field, messages in errors.items():
            field = field.removeprefix("adjustment.")
            self.add_error(field if field in self.fields else None, messages)
