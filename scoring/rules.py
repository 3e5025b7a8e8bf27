"""Rule options of RULES.md §8: defaults, the allowed values, and their validation."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from functools import cached_property
from typing import Any, Literal, Mapping

from .messages import Problem, ScoringError
from .patterns import PATTERNS


@dataclass(frozen=True)
class Rules:
    """A table's house rules; frozen with a night's records."""

    kong_direct: int = 2
    kong_added: int = 1
    kong_concealed: int = 2
    finished_players_pay_kongs: bool = False
    gang_shang_hua_fan: int = 1
    qiang_gang_hu_fan: int = 0
    robbable_kongs: str = "added"  # "added" or "added_direct"
    self_draw_bonus: str = "none"  # "none", "base" (自摸加底) or "fan" (自摸加番)
    max_fan: int | None = None  # 封顶; None: no cap
    cha_jiao: str = "min"  # "min" (查小) or "max" (查大)
    kong_refund: bool = True
    call_transfer: bool = False
    hua_zhu: bool = False
    hua_zhu_fan: int | None = None  # None: the cap, or 5 with no cap
    hai_di_fan: int = 0
    jin_gou_diao_fan: int = 0
    dealer_when_no_winner: str = "stay"  # "stay" or "next"
    # RULES.md §9: table shapes
    mode: str = "xue_zhan"  # "xue_zhan" (血战到底), "xue_liu" (血流成河) or "first_win" (标准: the first win ends the hand)
    players: int = 4  # 4, 3 or 2: seats 0 .. players-1
    suits: str = "mps"  # "mps" (三房, 108 tiles) or "ps" (两房: 筒 and 条 only, 72 tiles)
    # RULES.md §10: house rules
    dian_gang_hua: str = "zi_mo"  # 点杠花: "zi_mo" (every active opponent pays) or "dian_pao" (the kong's discarder)
    pattern_fan: Mapping[str, int] = field(default_factory=dict)  # the table's fan of §3 patterns, by code
    yao_jiu_jiang_dui: bool = True  # False: 幺九, 清幺九, 将对 and 将七对 do not exist
    jiang_qi_dui_fan: int = 0  # 将七对; 0: no such pattern
    men_qing_fan: int = 0
    zhong_zhang_fan: int = 0
    jia_xin_wu_fan: int = 0
    hai_di_pao_fan: int = 0
    tian_hu_fan: int = 5
    di_hu_fan: int = 5
    min_fan_on_discard: int = 0  # 0: 点炮可平胡
    hua_zhu_pays_winners: bool = False
    call_transfer_scope: str = "last_kong"  # "last_kong" or "all_kongs"

    def __hash__(self) -> int:  # pattern_fan is a dict: hash its items
        return hash(tuple(tuple(sorted(self.pattern_fan.items())) if f.name == "pattern_fan" else getattr(self, f.name)
                          for f in fields(self)))

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @cached_property
    def fans(self) -> dict[str, int]:
        """The patterns of this table (RULES.md §3 and §10), code -> fan, in the order of the tie rule."""
        table: dict[str, int] = {}
        for code, pattern in PATTERNS.items():
            if code in LEVEL_PATTERNS and not self.yao_jiu_jiang_dui:
                continue
            if code == "jiang_qi_dui":
                if self.jiang_qi_dui_fan:
                    table[code] = self.jiang_qi_dui_fan
                continue
            table[code] = self.pattern_fan.get(code, pattern.fan)
        return table

    @cached_property
    def default_fans(self) -> bool:
        """The fan table is that of RULES.md §3 (so the fast paths of hands and waits apply)."""
        return self.fans == DEFAULT_FANS

    def cap(self, fan: int) -> int:
        """Clip a total fan to the cap (封顶), if any."""
        return fan if self.max_fan is None else min(fan, self.max_fan)

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats of this table, in play order (RULES.md §9)."""
        return tuple(range(self.players))

    @property
    def two_suits(self) -> bool:
        """A 两房 table: 筒 and 条 only, so no 万 tile anywhere and nobody can be 花猪."""
        return self.suits == "ps"

    @property
    def effective_hua_zhu_fan(self) -> int:
        if self.hua_zhu_fan is not None:
            return self.hua_zhu_fan
        return self.max_fan if self.max_fan is not None else 5


@dataclass(frozen=True)
class RuleOption:
    """The spec of one rule option: its kind, default and allowed values (the one source of its bounds)."""

    name: str
    kind: Literal["int", "bool", "choice", "optional_int", "fan_table"]
    default: int | bool | str | Mapping[str, int] | None
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()

    def check(self, value: object, path: str) -> tuple[Any, Problem | None]:
        """Return (the value, None) when it is allowed, else (None, the problem at `path`)."""
        if self.kind == "bool":
            return (value, None) if isinstance(value, bool) else (None, Problem(path, "bad_bool"))
        if self.kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return value, None
            return None, Problem(path, "bad_choice", {"choices": ", ".join(self.choices)})
        if self.kind == "optional_int" and value is None:
            return None, None
        if self.kind == "fan_table":
            table, problems = check_fan_table(value, path, self.low or 0, self.high or 0)
            return (table, None) if not problems else (None, problems[0])
        assert self.low is not None and self.high is not None
        if isinstance(value, int) and not isinstance(value, bool) and self.low <= value <= self.high:
            return value, None
        return None, Problem(path, "bad_int_range", {"low": self.low, "high": self.high})


#: The modes of RULES.md §9: 血战到底, 血流成河, 标准 (the first win ends the hand).
MODES = ("xue_zhan", "xue_liu", "first_win")
#: The suit sets of RULES.md §9: 三房 (万筒条) and 两房 (筒条).
SUIT_SETS = ("mps", "ps")

_DEFAULTS = {f.name: f.default for f in fields(Rules)}


def _option(name: str, kind: Literal["int", "bool", "choice", "optional_int", "fan_table"], low: int | None = None,
            high: int | None = None, choices: tuple[str, ...] = ()) -> RuleOption:
    default: Any = _DEFAULTS[name]
    if kind == "fan_table":
        default = {}
    assert default is None or isinstance(default, (int, str, dict)), name
    return RuleOption(name, kind, default, low, high, choices)


#: Patterns that 幺九将对 (yao_jiu_jiang_dui) switches on or off (RULES.md §10).
LEVEL_PATTERNS = frozenset({"yao_jiu", "qing_yao_jiu", "jiang_dui", "jiang_qi_dui"})
#: The fan table of RULES.md §3 (将七对 is not a pattern by default).
DEFAULT_FANS = {code: p.fan for code, p in PATTERNS.items() if code != "jiang_qi_dui"}
#: Patterns whose fan `pattern_fan` may set: every §3 pattern (将七对's is jiang_qi_dui_fan).
TABLE_PATTERNS = tuple(DEFAULT_FANS)


def check_fan_table(value: object, path: str, low: int, high: int) -> tuple[dict[str, int] | None, list[Problem]]:
    """A fan table {code: fan}: codes of §3 patterns (not jiang_qi_dui), fans low..high; every problem, at its code."""
    if not isinstance(value, Mapping):
        return None, [Problem(path, "not_object")]
    table: dict[str, int] = {}
    problems: list[Problem] = []
    for code, fan in value.items():
        where = f"{path}.{code}"
        if code == "jiang_qi_dui":
            problems.append(Problem(where, "jiang_qi_dui_in_pattern_fan"))
        elif not isinstance(code, str) or code not in TABLE_PATTERNS:
            problems.append(Problem(where, "unknown_pattern", {"name": str(code)}))
        elif not (isinstance(fan, int) and not isinstance(fan, bool) and low <= fan <= high):
            problems.append(Problem(where, "bad_int_range", {"low": low, "high": high}))
        else:
            table[code] = fan
    if problems:
        return None, problems
    return {code: table[code] for code in TABLE_PATTERNS if code in table}, []


#: Every rule option of RULES.md §8, in its order; the defaults are those of `Rules`.
OPTIONS: dict[str, RuleOption] = {o.name: o for o in (
    _option("kong_direct", "int", 0, 16),
    _option("kong_added", "int", 0, 16),
    _option("kong_concealed", "int", 0, 16),
    _option("finished_players_pay_kongs", "bool"),
    _option("gang_shang_hua_fan", "int", 0, 5),
    _option("qiang_gang_hu_fan", "int", 0, 5),
    _option("robbable_kongs", "choice", choices=("added", "added_direct")),
    _option("self_draw_bonus", "choice", choices=("none", "base", "fan")),
    _option("max_fan", "optional_int", 1, 20),
    _option("cha_jiao", "choice", choices=("min", "max")),
    _option("kong_refund", "bool"),
    _option("call_transfer", "bool"),
    _option("hua_zhu", "bool"),
    _option("hua_zhu_fan", "optional_int", 0, 20),
    _option("hai_di_fan", "int", 0, 5),
    _option("jin_gou_diao_fan", "int", 0, 5),
    _option("dealer_when_no_winner", "choice", choices=("stay", "next")),
    # RULES.md §9: table shapes
    _option("mode", "choice", choices=MODES),
    _option("players", "int", 2, 4),
    _option("suits", "choice", choices=SUIT_SETS),
    # RULES.md §10: house rules
    _option("dian_gang_hua", "choice", choices=("zi_mo", "dian_pao")),
    _option("pattern_fan", "fan_table", 0, 10),
    _option("yao_jiu_jiang_dui", "bool"),
    _option("jiang_qi_dui_fan", "int", 0, 10),
    _option("men_qing_fan", "int", 0, 3),
    _option("zhong_zhang_fan", "int", 0, 3),
    _option("jia_xin_wu_fan", "int", 0, 3),
    _option("hai_di_pao_fan", "int", 0, 3),
    _option("tian_hu_fan", "int", 0, 20),
    _option("di_hu_fan", "int", 0, 20),
    _option("min_fan_on_discard", "int", 0, 3),
    _option("hua_zhu_pays_winners", "bool"),
    _option("call_transfer_scope", "choice", choices=("last_kong", "all_kongs")),
)}

PRESETS: dict[str, dict[str, Any]] = {
    # The defaults of RULES.md (seeds 003/004).
    "chengdu": {},
    # Seed 001: every kong pays 2, winners still pay later kongs, direct kongs can be robbed.
    "seed001": {"kong_added": 2, "finished_players_pay_kongs": True, "robbable_kongs": "added_direct"},
    # A common club setting: 4-fan cap, 自摸加底, 查大.
    "club": {"max_fan": 4, "self_draw_bonus": "base", "cha_jiao": "max"},
    # RULES.md §9: the seeds' four ways (003/004) and the common table shapes.
    "biao_zhun": {"mode": "first_win", "kong_direct": 0, "kong_added": 0, "kong_concealed": 0},  # 标准打法
    "biao_zhun_xia_yu": {"mode": "first_win"},  # 标准下雨
    "biao_zhun_xue_zhan": {"kong_direct": 0, "kong_added": 0, "kong_concealed": 0},  # 标准血战
    "xue_zhan_xia_yu": {},  # 血战下雨: the defaults
    "xue_liu": {"mode": "xue_liu"},  # 血流成河
    "san_ren_liang_fang": {"players": 3, "suits": "ps"},  # 三人两房
    "san_ren_san_fang": {"players": 3},  # 三人三房
    "liang_ren_liang_fang": {"players": 2, "suits": "ps"},  # 两人两房
    "si_ren_liang_fang": {"suits": "ps"},  # 四人两房
    # RULES.md §10: house rules
    # 门清中张: 门清 and 中张 add one fan each.
    "men_qing_zhong_zhang": {"men_qing_fan": 1, "zhong_zhang_fan": 1},
    # 对对胡两番: 对对胡 is worth two, and the patterns built on it one more.
    "dui_dui_hu_liang_fan": {"pattern_fan": {"dui_dui_hu": 2, "qing_dui": 4, "jiang_dui": 4}},
}


def parse_rules(value: object, path: str = "rules") -> Rules:
    """Build Rules from overrides by option name; unknown options and bad values are errors."""
    if value is None:
        return Rules()
    if not isinstance(value, Mapping):
        raise ScoringError([Problem(path, "not_object")])
    problems: list[Problem] = []
    overrides: dict[str, Any] = {}
    for name, raw in value.items():
        where = f"{path}.{name}"
        if name not in OPTIONS:
            problems.append(Problem(where, "unknown_option", {"name": name}))
            continue
        option = OPTIONS[name]
        if option.kind == "fan_table":  # every problem of the table, each at its code
            table, table_problems = check_fan_table(raw, where, option.low or 0, option.high or 0)
            problems.extend(table_problems)
            if table is not None:
                overrides[name] = table
            continue
        canonical, problem = option.check(raw, where)
        if problem:
            problems.append(problem)
        else:
            overrides[name] = canonical
    if (overrides.get("jiang_qi_dui_fan", 0) > 0 and overrides.get("yao_jiu_jiang_dui") is False
            and not any(p.path == f"{path}.jiang_qi_dui_fan" for p in problems)):
        problems.append(Problem(f"{path}.jiang_qi_dui_fan", "jiang_qi_dui_without_yao_jiu_jiang_dui"))
    if overrides.get("hua_zhu") and overrides.get("suits") == "ps":
        # RULES.md §9: at a two-suit table every hand is missing a suit, so nobody can be 花猪.
        problems.append(Problem(f"{path}.hua_zhu", "hua_zhu_two_suits"))
    if problems:
        raise ScoringError(problems)
    return Rules(**overrides)


def table_shape(value: object) -> Rules:
    """The table shape (mode, players, suits) a rules document asks for, each read on its own.

    Used when another rule option is wrong: the record is still read at its own table, so that a
    bad `max_fan` does not also turn every seat 2 of a three-player record into a second error.
    """
    shape: dict[str, Any] = {}
    if isinstance(value, Mapping):
        for name in ("mode", "players", "suits"):
            if name in value:
                canonical, problem = OPTIONS[name].check(value[name], f"rules.{name}")
                if problem is None:
                    shape[name] = canonical
    return Rules(**shape)
