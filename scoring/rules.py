"""Rule options of RULES.md §8: defaults, the allowed values, and their validation."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Mapping

from .messages import Problem, ScoringError


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

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def cap(self, fan: int) -> int:
        """Clip a total fan to the cap (封顶), if any."""
        return fan if self.max_fan is None else min(fan, self.max_fan)

    @property
    def effective_hua_zhu_fan(self) -> int:
        if self.hua_zhu_fan is not None:
            return self.hua_zhu_fan
        return self.max_fan if self.max_fan is not None else 5


# name -> ("int", low, high) | ("bool",) | ("choice", values) | ("optional_int", low, high)
OPTION_SPECS: dict[str, tuple[Any, ...]] = {
    "kong_direct": ("int", 0, 16),
    "kong_added": ("int", 0, 16),
    "kong_concealed": ("int", 0, 16),
    "finished_players_pay_kongs": ("bool",),
    "gang_shang_hua_fan": ("int", 0, 5),
    "qiang_gang_hu_fan": ("int", 0, 5),
    "robbable_kongs": ("choice", ("added", "added_direct")),
    "self_draw_bonus": ("choice", ("none", "base", "fan")),
    "max_fan": ("optional_int", 1, 20),
    "cha_jiao": ("choice", ("min", "max")),
    "kong_refund": ("bool",),
    "call_transfer": ("bool",),
    "hua_zhu": ("bool",),
    "hua_zhu_fan": ("optional_int", 0, 20),
    "hai_di_fan": ("int", 0, 5),
    "jin_gou_diao_fan": ("int", 0, 5),
    "dealer_when_no_winner": ("choice", ("stay", "next")),
}

#: Accepted spellings of robbable_kongs besides the canonical ones.
_ROBBABLE_ALIASES = {"added+direct": "added_direct", "direct+added": "added_direct"}

PRESETS: dict[str, dict[str, Any]] = {
    # The defaults of RULES.md (seeds 003/004).
    "chengdu": {},
    # Seed 001: every kong pays 2, winners still pay later kongs, direct kongs can be robbed.
    "seed001": {"kong_added": 2, "finished_players_pay_kongs": True, "robbable_kongs": "added_direct"},
    # A common club setting: 4-fan cap, 自摸加底, 查大.
    "club": {"max_fan": 4, "self_draw_bonus": "base", "cha_jiao": "max"},
}


def check_option(name: str, value: object, path: str) -> tuple[Any, Problem | None]:
    """Return (canonical value, None) or (None, the problem) for one option."""
    spec = OPTION_SPECS[name]
    kind = spec[0]
    if kind == "bool":
        return (value, None) if isinstance(value, bool) else (None, Problem(path, "bad_bool"))
    if kind == "choice":
        if isinstance(value, list) and name == "robbable_kongs":
            value = "added_direct" if sorted(value) == ["added", "direct"] else ("added" if value == ["added"] else value)
        if isinstance(value, str):
            value = _ROBBABLE_ALIASES.get(value, value) if name == "robbable_kongs" else value
            if value in spec[1]:
                return value, None
        return None, Problem(path, "bad_choice", {"choices": ", ".join(spec[1])})
    if kind == "optional_int" and value is None:
        return None, None
    if isinstance(value, int) and not isinstance(value, bool) and spec[1] <= value <= spec[2]:
        return value, None
    return None, Problem(path, "bad_int_range", {"low": spec[1], "high": spec[2]})


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
        if name not in OPTION_SPECS:
            problems.append(Problem(where, "unknown_option", {"name": name}))
            continue
        canonical, problem = check_option(name, raw, where)
        if problem:
            problems.append(problem)
        else:
            overrides[name] = canonical
    if problems:
        raise ScoringError(problems)
    return Rules(**overrides)
