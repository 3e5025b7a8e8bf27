"""Error messages of the scoring engine, in Simplified Chinese and English."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_TILE = re.compile(r"[1-9][mps]")
SUIT_NAMES = {
    "zh": {"m": "万", "p": "筒", "s": "条"},
    "en": {"m": "m", "p": "p", "s": "s"},
}

# code -> (Chinese, English); placeholders are filled from Problem.params.
MESSAGES: dict[str, tuple[str, str]] = {
    # tiles and hands
    "tiles_empty": ("没有牌", "no tiles given"),
    "tiles_not_text": ("牌必须是文字，例如 123m456p11s", "tiles must be text such as 123m456p11s"),
    "tiles_bad_rank": ("“{char}”不是 1–9 的点数（第 {pos} 个字符）", "'{char}' is not a rank 1-9 (character {pos})"),
    "tiles_unknown_char": ("无法识别的字符“{char}”（第 {pos} 个字符）；花色用 m/万、p/筒/饼、s/条",
                           "unknown character '{char}' (character {pos}); suits are m (万), p (筒/饼), s (条)"),
    "tiles_unknown_chars": ("无法识别的字符“{char}”（第 {pos}–{last} 个字符）；花色用 m/万、p/筒/饼、s/条",
                            "unknown characters '{char}' (characters {pos}-{last}); suits are m (万), p (筒/饼), s (条)"),
    "tiles_no_suit": ("点数“{digits}”后面缺少花色（m/万、p/筒、s/条）", "ranks '{digits}' are not followed by a suit (m, p or s)"),
    "tiles_suit_without_rank": ("花色“{char}”前面没有点数（第 {pos} 个字符）", "suit '{char}' has no ranks before it (character {pos})"),
    "tiles_too_many": ("{tile} 出现 {count} 次：每种牌只有 4 张", "{tile} appears {count} times: there are only four of each tile"),
    "tiles_bad_text": ("牌里有无效的字符（第 {pos} 个字符）", "tiles hold an invalid character (character {pos})"),
    "tiles_too_long": ("牌的文字太长：最多 {high} 个字符", "tile text is too long: at most {high} characters"),
    "tile_not_single": ("应为一张牌，例如 5m", "expected a single tile such as 5m"),
    "meld_bad": ("“{text}”不是碰（3 张相同）或杠（4 张相同）", "'{text}' is not a pong (3 equal tiles) or a kong (4 equal tiles)"),
    "melds_not_list": ("melds 必须是列表，例如 [\"555p\", \"7777s\"]", "melds must be a list such as [\"555p\", \"7777s\"]"),
    "hand_wrong_count": ("张数不对：手牌 {concealed} 张加 {melds} 组副露，应为 {expected} 张手牌",
                         "wrong number of tiles: {concealed} concealed with {melds} melds; expected {expected} concealed tiles"),
    # hand_wrong_count when the melds alone are more than a hand holds (no number of concealed tiles is right).
    "hand_too_many_melds": ("副露太多：{melds} 组，一手牌最多 {most} 组碰或杠",
                            "too many melds: {melds}; a hand has at most {most} pongs or kongs"),
    "hand_three_suits": ("手牌有三门（{suits}）：胡牌必须缺一门", "hand holds three suits ({suits}): a winning hand must be missing one suit"),
    "ready_three_suits": ("手牌有三门（{suits}）：三门不能下叫", "hand holds three suits ({suits}): a hand with three suits is not ready"),
    "hand_not_complete": ("这手牌没有胡：不是四组加一对，也不是七对", "hand is not complete: neither four sets and a pair nor seven pairs"),
    "hand_not_ready": ("这手牌没有下叫：没有任何一张牌能胡", "hand is not ready: no tile completes it"),
    "table_too_many": ("{tile} 在本局记录里共出现 {count} 次{where}：每种牌只有 4 张",
                       "{tile} appears {count} times across this hand's records{where}: there are only four of each tile"),
    # structure
    "not_object": ("应为 JSON 对象", "expected a JSON object"),
    "not_list": ("应为列表", "expected a list"),
    "unknown_field": ("未知字段“{name}”", "unknown field '{name}'"),
    "frozen_with_night": ("“{name}”随牌局固定（规则：人数、几房、玩法等，开局时定下）：一局不能改",
                          "'{name}' is frozen with the night (its rules: players, suits, mode and the rest, set when it starts): a hand cannot change it"),
    "missing_field": ("缺少字段“{name}”", "missing field '{name}'"),
    "bad_json": ("不是有效的 JSON：{detail}", "not valid JSON: {detail}"),
    "json_at": ("不是有效的 JSON：第 {line} 行第 {column} 列，{detail_zh}", "not valid JSON at line {line}, column {column}: {detail}"),
    "file_unreadable": ("读不了文件“{name}”：{detail_zh}", "cannot read the file '{name}': {detail}"),
    "json_empty": ("没有内容：应为一个 JSON 对象", "nothing was sent: expected a JSON object"),
    "json_not_utf8": ("不是 UTF-8 文本（第 {pos} 个字节）", "not UTF-8 text (byte {pos})"),
    "json_not_number": ("不是有效的 JSON：{name} 不是 JSON 的数", "not valid JSON: {name} is not a JSON number"),
    "json_duplicate_key": ("不是有效的 JSON：同一个对象里“{name}”出现了两次", "not valid JSON: the key '{name}' appears twice in one object"),
    "bad_seat": ("座位必须是 0–{high} 的整数", "a seat must be an integer 0-{high}"),
    "seat_outside_table": ("本桌只有 {players} 人：座位必须是 0–{high} 的整数",
                           "this table has {players} players: a seat must be an integer 0-{high}"),
    "bad_base": ("底金必须是大于 0、不超过 {high} 的十进制数（字符串）或整数，最多 {places} 位小数",
                 "base must be a decimal string or an integer greater than 0 and at most {high}, with at most {places} decimal places"),
    "bad_bool": ("应为 true 或 false", "expected true or false"),
    "bad_int_range": ("应为 {low}–{high} 的整数", "expected an integer from {low} to {high}"),
    "bad_choice": ("应为以下之一：{choices}", "expected one of: {choices}"),
    "unknown_option": ("未知规则选项“{name}”", "unknown rule option '{name}'"),
    "unknown_event_type": ("事件类型应为 kong 或 win", "event type must be 'kong' or 'win'"),
    "bad_kong_kind": ("杠的种类应为 direct（直杠）、added（补杠）或 concealed（暗杠）",
                      "kong kind must be direct, added or concealed"),
    "kong_from_only_direct": ("只有直杠有放杠的人（from）", "only a direct kong has a discarder ('from')"),
    "kong_needs_from": ("直杠必须写明谁放的杠（from）", "a direct kong needs the discarder ('from')"),
    "winners_empty": ("至少要有一位胡牌的人", "at least one winner is needed"),
    "self_draw_one_winner": ("自摸只能有一位胡牌的人", "a self-draw has exactly one winner"),
    "too_many_winners_event": ("一张牌最多三家胡", "at most three players can win on one tile"),
    "winner_tiles_and_pattern": ("tiles 与 pattern 只能二选一", "give either tiles or pattern, not both"),
    "winner_needs_tiles_or_pattern": ("需要 tiles（牌）或 pattern（番型）", "a winner needs tiles or a pattern"),
    "roots_without_pattern": ("roots（根）只和 pattern 一起用；给了牌时由牌算出",
                              "roots go with pattern; with tiles they are found from the tiles"),
    "melds_without_tiles": ("melds（副露）只和 tiles 一起用", "melds go with tiles"),
    "unknown_pattern": ("未知番型“{name}”", "unknown pattern '{name}'"),
    "roots_range": ("{pattern} 的根数应为 {low}–{high}", "roots for {pattern} must be {low} to {high}"),
    "roots_any_range": ("根数应为 0–{high} 的整数", "roots must be an integer 0 to {high}"),
    "unknown_flag": ("未知加番“{name}”", "unknown modifier '{name}'"),
    "duplicate_flag": ("加番“{name}”重复", "modifier '{name}' given twice"),
    "bad_fan": ("番数应为 0–{high} 的整数", "fan must be an integer from 0 to {high}"),
    "ready_needs_tiles_or_fan": ("下叫需要 tiles（牌）或 fan（番数）", "a ready entry needs tiles or fan"),
    "ready_tiles_and_fan": ("tiles 与 fan 只能二选一", "give either tiles or fan, not both"),
    # order of events and invariants
    "event_after_third_win": ("三家已胡，本局已结束，之后不能再有事件", "three players have won, so the hand is over: no event may follow"),
    "player_already_won": ("{seat}号位已经胡了，不能再{action}", "seat {seat} has already won and cannot {action}"),
    "discarder_is_receiver": ("放炮/放杠的人不能是自己", "the discarder cannot be the receiver"),
    "winner_twice_in_event": ("{seat}号位在同一张牌上出现两次", "seat {seat} is listed twice on the same tile"),
    "gang_shang_hua_rule": ("杠上花：必须是自摸，且紧接在胡牌者自己的杠之后",
                            "gang_shang_hua needs a self-draw right after the winner's own kong"),
    "gang_shang_pao_rule": ("杠上炮：必须是点炮，且紧接在放炮者自己的杠之后",
                            "gang_shang_pao needs a win on a discard right after the discarder's own kong"),
    "qiang_gang_hu_rule": ("抢杠胡：必须写明被抢杠的人（from），不能是自摸", "qiang_gang_hu needs the robbed player in 'from', not a self-draw"),
    "tian_hu_rule": ("天胡：必须是庄家自摸，且是本局第一个事件", "tian_hu is the dealer's self-draw as the hand's first event"),
    "di_hu_rule": ("地胡：必须是闲家，且在任何人胡牌之前", "di_hu is a non-dealer's win before any other win"),
    "hai_di_rule": ("海底捞月：必须是自摸，且是本局最后一个事件", "hai_di is a self-draw on the last tile: the hand's last event"),
    "jin_gou_diao_rule": ("金钩钓：手里只剩一对（其余都是副露）", "jin_gou_diao needs every tile but the pair in melds"),
    "hand_empty": ("这一局什么也没记：没人胡牌的流局要写 exhausted: true",
                   "the hand records nothing: a hand with no win ends with the wall exhausted (exhausted: true)"),
    "hand_not_finished": ("这一局还没结束：只有 {winners} 家胡牌；记下其余的胡牌，或者流局时写 exhausted: true",
                          "the hand is not over: players who have won so far: {winners}; record the other wins, or set exhausted: true if the wall ran out"),
    "too_many_events": ("一局最多 {high} 个事件（3 次胡牌，每人最多 4 个杠）",
                        "a hand has at most {high} events (3 wins, at most 4 kongs per player)"),
    "too_many_kongs": ("{seat}号位已经杠了 4 次：一手牌最多 4 个杠", "seat {seat} has already made 4 kongs: a hand holds at most four"),
    "robbed_kong_concealed": ("暗杠不能被抢，但紧接着的胡牌是抢杠胡", "a concealed kong cannot be robbed, yet the next win robs it (qiang_gang_hu)"),
    "robbed_kong_direct": ("按本局规则直杠不能被抢（robbable_kongs 为 added），但紧接着的胡牌是抢杠胡",
                           "a direct kong cannot be robbed under these rules (robbable_kongs is \"added\"), yet the next win robs it"),
    "qiang_gang_hu_all_winners": ("抢杠胡属于被抢的那张牌：这张牌上的胡牌者要么都是抢杠胡，要么都不是",
                                  "qiang_gang_hu belongs to the robbed tile: every winner on it has the flag, or none"),
    "qiang_gang_hu_with_gang_shang_pao": ("抢杠胡和杠上炮不能出现在同一次胡牌上", "qiang_gang_hu and gang_shang_pao cannot be on the same win"),
    "roots_below_kongs": ("{seat}号位本局杠了 {kongs} 次，根数至少是 {kongs}",
                          "seat {seat} made kongs this hand ({kongs}), so roots must be at least {kongs}"),
    "seven_pairs_after_kong": ("{seat}号位本局杠过牌，不能胡七对", "seat {seat} made a kong this hand, so the hand cannot be seven pairs"),
    "kong_not_in_melds": ("{seat}号位在 events[{event}] 杠了 {tile}，副露里应有 {meld}",
                          "seat {seat} konged {tile} at events[{event}], so the melds must include {meld}"),
    "kongs_missing_from_melds": ("{seat}号位本局杠了 {kongs} 次，副露里却只有 {found} 个杠",
                                 "seat {seat} made kongs this hand ({kongs}), but the melds hold {found}"),
    "exhausted_after_three_wins": ("三家已胡，不会流局查叫", "three players have won, so the wall cannot run out with a ready check (查叫)"),
    "not_exhausted_with_ready": ("没有流局（exhausted 为 false），不能填写下叫", "the wall did not run out (exhausted is false), so nobody can be listed as ready"),
    "not_exhausted_with_hua_zhu": ("没有流局（exhausted 为 false），不能填写花猪", "the wall did not run out (exhausted is false), so nobody can be listed as a three-suit hand (花猪)"),
    "ready_player_won": ("{seat}号位已经胡了，不参加查叫", "seat {seat} has already won and is not in the ready check (查叫)"),
    "bad_ready_key": ("下叫的键必须是座位号 \"0\"–\"{high}\"", "ready keys must be seats \"0\" to \"{high}\""),
    "hua_zhu_player_won": ("{seat}号位已经胡了，不会是花猪", "seat {seat} has already won and cannot be a three-suit hand (花猪)"),
    "hua_zhu_and_ready": ("{seat}号位是花猪（三门），不能同时下叫", "seat {seat} holds three suits (花猪) and cannot also be ready"),
    "hua_zhu_duplicate": ("{seat}号位重复", "seat {seat} is listed twice"),
    "hua_zhu_too_many": ("花猪名单有 {count} 项：本桌只有 {players} 人（只看前 {read} 项）",
                         "hua_zhu lists {count} entries: this table has {players} players (the first {read} are read)"),
    # table shapes (RULES.md §9)
    "hua_zhu_two_suits": ("两房（只打筒、条）的桌上没有花猪：suits 为 \"ps\" 时 hua_zhu 必须关闭",
                          "a two-suit table (dots and bamboo only, 筒条) has no three-suit hand (花猪): hua_zhu must be off when suits is \"ps\""),
    "suit_not_at_table": ("本桌只打筒和条（两房）：不能有万（{tile}）",
                          "this table plays dots and bamboo only (筒条): no character tile ({tile}, 万) may appear"),
    "hua_zhu_at_two_suits": ("本桌只打筒和条（两房），每手牌都缺一门，不会有花猪",
                             "this table plays dots and bamboo only (筒条): every hand is missing a suit, so nobody can be a three-suit hand (花猪)"),
    "too_many_winners_table": ("本桌 {players} 人：一张牌最多 {high} 家胡", "at most {high} players can win on one tile at a table of {players}"),
    "too_many_winners_table_one": ("本桌 {players} 人：一张牌只能一家胡", "only one player can win on one tile at a table of {players}"),
    "event_after_last_win": ("已有 {winners} 家胡牌，只剩一家，本局已结束，之后不能再有事件",
                             "{winners} of {players} players have won, so the hand is over: no event may follow"),
    "event_after_first_win": ("本桌第一次胡牌就结束一局（标准打法）：之后不能再有事件",
                              "at this table the first win ends the hand (first_win): no event may follow"),
    "exhausted_after_last_win": ("已有 {winners} 家胡牌，本局已结束，不会流局查叫",
                                 "{winners} of {players} players have won, so the wall cannot run out with a ready check (查叫)"),
    "exhausted_after_first_win": ("本桌第一次胡牌就结束一局（标准打法），有人胡了就不会流局查叫",
                                  "at this table the first win ends the hand (first_win), so after a win the wall cannot run out with a ready check (查叫)"),
    "xue_liu_needs_exhausted": ("血流成河只在流局（牌摸完）时结束：必须写 exhausted: true",
                                "in blood river (血流成河, xue_liu) a hand ends only with the wall exhausted: exhausted must be true"),
    "too_many_events_xue_liu": ("血流成河一局最多 {high} 个事件", "a blood river (血流成河, xue_liu) hand has at most {high} events"),
    "too_many_wins_xue_liu": ("血流成河一局最多 {high} 次胡牌", "a blood river (血流成河, xue_liu) hand has at most {high} win events"),
    "past_winner_not_ready": ("{seat}号位本局已经胡过（血流成河），查叫时必定下叫：请在 ready 里填写他的手牌或番数",
                              "seat {seat} has won in this blood river (血流成河) hand, so they are ready at the ready check (查叫): list their hand (tiles or fan) under ready"),
    "hua_zhu_past_winner": ("{seat}号位本局已经胡过（血流成河），手牌是叫牌，不会是花猪",
                            "seat {seat} has won in this blood river (血流成河) hand and holds a ready hand, so they cannot be a three-suit hand (花猪)"),
    "ready_table_too_many": ("{tile} 在查叫的各家手牌里共出现 {count} 次{where}：每种牌只有 4 张",
                             "{tile} appears {count} times across the ready hands{where} at the ready check (查叫): there are only four of each tile"),
    # RULES.md §10: house rules
    "jiang_qi_dui_in_pattern_fan": ("将七对的番数只由 jiang_qi_dui_fan 设定，不能写在 pattern_fan 里",
                                    "the fan of jiang_qi_dui is set by jiang_qi_dui_fan only, not in pattern_fan"),
    "jiang_qi_dui_without_yao_jiu_jiang_dui": ("不算幺九将对（yao_jiu_jiang_dui 为 false）时没有将七对：jiang_qi_dui_fan 应为 0",
                                               "without terminal and 2-5-8 patterns (幺九将对, yao_jiu_jiang_dui false) there is no jiang_qi_dui: jiang_qi_dui_fan must be 0"),
    "jin_gou_diao_pattern": ("金钩钓只能是对对胡一类的番型（对对胡、清对、将对）：其余都是碰或杠",
                             "jin_gou_diao needs a pattern of the all-pongs family (对对胡: dui_dui_hu, qing_dui, jiang_dui): four pongs or kongs"),
    "pattern_not_at_table": ("本桌规则没有番型“{name}”（幺九将对、将七对由规则决定）",
                             "pattern '{name}' does not exist at this table (幺九将对 and 将七对 are rule options)"),
    "men_qing_rule": ("门清：不能有碰，也不能有直杠或补杠（暗杠可以）",
                      "men_qing needs no pong and no direct or added kong (concealed kongs allowed)"),
    "zhong_zhang_rule": ("中张：整手牌（包括副露）不能有 1 或 9", "zhong_zhang needs no 1 and no 9 anywhere in the hand, melds included"),
    "jia_xin_wu_rule": ("夹心五：这手牌要能拆出 4-5-6 的顺子", "jia_xin_wu needs a reading of the hand with a 4-5-6 run"),
    "hai_di_pao_rule": ("海底炮：必须是点炮，且是本局最后一个事件", "hai_di_pao is a win on a discard as the hand's last event"),
    "gang_shang_pao_all_winners": ("杠上炮属于那张牌：这张牌上的胡牌者要么都是杠上炮，要么都不是",
                                   "gang_shang_pao belongs to the discard: every winner on it has the flag, or none"),
    "hai_di_pao_all_winners": ("海底炮属于那张牌：这张牌上的胡牌者要么都是海底炮，要么都不是",
                               "hai_di_pao belongs to the discard: every winner on it has the flag, or none"),
    # RULES.md §10 quotes the 0-fan case: "a 0-fan hand may only win by self-draw at this table".
    "fan_below_min_on_discard": ("本桌 {fan} 番的牌只能自摸：点炮胡至少要 {low} 番（算上加番、封顶之前）",
                                 "a {fan}-fan hand may only win by self-draw at this table: a win on a discard needs at least {low} fan (modifiers included, before the cap)"),
    "nets_not_zero": ("各家输赢之和应为 0，现在是 {total}", "the nets must sum to zero, not {total}"),
    "bad_amount": ("金额应为十进制数", "an amount must be a decimal number"),
}

ACTIONS = {
    "kong": ("杠牌", "kong"),
    "discard": ("放炮", "discard"),
    "discard_kong": ("放杠", "discard for a kong"),
    "win": ("胡牌", "win again"),
}


#: Echoed input (a field name, a flag, a character) is cut to this many characters.
ECHO_LIMIT = 40


def safe_text(text: str, limit: int | None = ECHO_LIMIT) -> str:
    """Return text fit to echo back: lone surrogates and control characters escaped, cut to `limit`.

    Input text comes from anyone (the calculator needs no sign-in); a lone surrogate would make the
    answer unencodable as UTF-8, and a megabyte-long field name must not come back a megabyte long.
    """
    if limit is not None and len(text) > limit:
        text = text[:limit] + "…"
    if text.isprintable():
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text) \
        .encode("utf-8", "backslashreplace").decode("utf-8")


def language(lang: str) -> str:
    """'zh' or 'en' for a language tag, as the HTTP API picks one: 'zh-CN', 'zh_Hans' and 'ZH' are Chinese, 'en-GB'
    is English, and anything else is the default, Chinese."""
    primary = str(lang).strip().lower().replace("_", "-").split("-")[0]
    return "en" if primary == "en" else "zh"


def tile_words(tile: Any, lang: str) -> Any:
    """A tile as a language says it: "1p" is 1筒 in Chinese; English keeps the notation (anything else is left)."""
    if language(lang) != "zh" or not isinstance(tile, str) or not _TILE.fullmatch(tile):
        return tile
    return tile[0] + SUIT_NAMES["zh"][tile[1]]


#: Where tiles of a kind are on the table, for the count that passes four: (Chinese, English) per kind of place.
PLACES = {
    "kong": ("{seat}号位的杠 {n} 张", "{n} in seat {seat}'s kong"),
    "win": ("{seat}号位胡牌的手牌 {n} 张", "{n} in seat {seat}'s winning hand"),
    "ready": ("{seat}号位查叫的手牌 {n} 张", "{n} in seat {seat}'s ready hand"),
    "shared": ("几家一起胡的那张放炮只算一张", "the discard they all won on counted once"),
}


def place_words(places: Any, lang: str) -> str:
    """Where the tiles of a kind that passed four are, in brackets ("（1号位的杠 4 张、2号位胡牌的手牌 1 张）"), or
    nothing when not given (a Problem built elsewhere)."""
    if not places:
        return ""
    index = 0 if language(lang) == "zh" else 1
    words = [PLACES[what][index].format(seat=seat, n=n) for what, seat, n in places]
    return f"（{'、'.join(words)}）" if index == 0 else f" ({', '.join(words)})"


def render(code: str, params: dict[str, Any], lang: str) -> str:
    """Return the message for code in lang ('zh' or 'en', or a tag such as 'zh-CN': `language`), with its parameters
    filled in."""
    if code == "hand_wrong_count" and params.get("expected", 0) < 1:  # 5+ melds: "expected -2986 tiles" says nothing
        expected = params["expected"]
        code, params = "hand_too_many_melds", {"melds": params["melds"], "most": (expected + 3 * params["melds"]) // 3}
    if code == "too_many_winners_table" and params.get("high") == 1:  # not "at most 1 players"
        code = "too_many_winners_table_one"
    zh, en = MESSAGES[code]
    lang = language(lang)
    index = 0 if lang == "zh" else 1
    filled = {key: safe_text(value) if isinstance(value, str) else value for key, value in params.items()}
    if "action" in filled:
        filled["action"] = ACTIONS[filled["action"]][index]
    if "tile" in filled:
        filled["tile"] = tile_words(filled["tile"], lang)
    if code in ("table_too_many", "ready_table_too_many"):
        filled["where"] = place_words(filled.get("where", ()), lang)
    if "suits" in filled:
        filled["suits"] = ("、" if index == 0 else ", ").join(SUIT_NAMES[lang if lang in SUIT_NAMES else "en"][s] for s in filled["suits"])
    return (zh if index == 0 else en).format(**filled)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input: where (a path such as events[2].winners[0].tiles), and what."""

    path: str
    code: str
    params: dict[str, Any] = field(default_factory=dict)

    def message(self, lang: str = "zh") -> str:
        return render(self.code, self.params, lang)

    def as_dict(self, lang: str = "zh") -> dict[str, str]:
        return {"path": safe_text(self.path, limit=None), "message": self.message(lang)}


class ScoringError(ValueError):
    """Raised with every problem found in an input, not just the first."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(f"{p.path}: {p.message('en')}" for p in problems))

    def as_dict(self, lang: str = "zh") -> dict[str, list[dict[str, str]]]:
        """Return the errors document of HAND_FORMAT.md."""
        return {"errors": [p.as_dict(lang) for p in self.problems]}


def normalise_language(value: str | None) -> str:
    """Map a language tag ('zh-hans', 'en-US', ...) to 'zh' or 'en'; Chinese when unknown."""
    if value and value.lower().startswith("en"):
        return "en"
    return "zh"
