"""The rules in words: presets, seats and each rule option (label, explanation, labels of its choices), for the
forms, the rules page, the reports and the audit trail."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

PRESET_LABELS = {"chengdu": _("成都标准（默认）"), "seed001": _("杠都收 2 倍、胡了也付杠钱"), "club": _("封顶 4番、自摸加底、查大"),
                 # RULES.md §9: the seeds' four ways and the table shapes
                 "biao_zhun": _("标准打法（胡一家结束，杠不收钱）"), "biao_zhun_xia_yu": _("标准下雨（胡一家结束，杠收钱）"),
                 "biao_zhun_xue_zhan": _("标准血战（血战到底，杠不收钱）"), "xue_zhan_xia_yu": _("血战下雨（血战到底，杠收钱）"),
                 "xue_liu": _("血流成河（胡了接着打到牌摸完）"), "san_ren_liang_fang": _("三人两房（3 人，只打筒条）"),
                 "san_ren_san_fang": _("三人三房（3 人，万筒条）"), "liang_ren_liang_fang": _("两人两房（2 人，只打筒条）"),
                 "si_ren_liang_fang": _("四人两房（4 人，只打筒条）"),
                 # RULES.md §10: house rules
                 "men_qing_zhong_zhang": _("门清中张（各加 1番）"), "dui_dui_hu_liang_fan": _("对对胡两番")}
SEAT_LABELS = [_("东"), _("南"), _("西"), _("北")]
#: Each preset in a sentence, for the rules page (RULES.md §8-§9).
PRESET_TEXT = {
    "chengdu": _("成都标准：血战到底，四人三房，杠收钱，其他规则都按默认。"),
    "seed001": _("和成都标准一样，但补杠也收 2 倍、已经胡了的人也付杠钱、直杠也可以抢。"),
    "club": _("和成都标准一样，但一手最多 4 番、自摸每家多付一个底、查叫按最大的番（查大）。"),
    "biao_zhun": _("第一次胡牌这一局就结束（可以一炮多响），杠不收钱。"),
    "biao_zhun_xia_yu": _("第一次胡牌这一局就结束，杠照常收钱（刮风下雨）。"),
    "biao_zhun_xue_zhan": _("血战到底：胡了的人退出，其他人继续打，但杠不收钱。"),
    "xue_zhan_xia_yu": _("血战到底，杠照常收钱：就是成都标准。"),
    "xue_liu": _("血流成河：胡了的人不退出，可以一直再胡，这一局只在牌摸完时结束，最后大家一起查叫。"),
    "san_ren_liang_fang": _("三个人打，只用筒和条 72 张牌（没有万，也就没有花猪），血战到底。"),
    "san_ren_san_fang": _("三个人打，万筒条 108 张牌都用，血战到底。"),
    "liang_ren_liang_fang": _("两个人面对面打，只用筒和条 72 张牌，血战到底：一家胡了这一局就结束。"),
    "si_ren_liang_fang": _("四个人打，只用筒和条 72 张牌，血战到底。"),
    "men_qing_zhong_zhang": _("和成都标准一样，但门清（没有碰和明杠）、中张（没有 1 和 9）各加 1 番。"),
    "dui_dui_hu_liang_fan": _("和成都标准一样，但对对胡算 2 番，清对、将对各算 4 番。"),
}


# Each rule option in words: (label, plain-words explanation, labels of its choices). Bounds, choices and
# defaults come from the engine's spec (scoring.rules.OPTIONS), so the form can never disagree with it.
RULE_TEXT: dict[str, tuple[Any, Any, dict[str, Any]]] = {
    "kong_direct": (_("直杠（刮风）倍数"), _("别人打出第四张你杠：只有放杠的人付，底金 × 这个数。"), {}),
    "kong_added": (_("补杠（刮风）倍数"), _("碰了以后自己摸到第四张：还没胡的每家付，底金 × 这个数。"), {}),
    "kong_concealed": (_("暗杠（下雨）倍数"), _("自己摸齐四张杠：还没胡的每家付，底金 × 这个数。"), {}),
    "finished_players_pay_kongs": (_("胡了的人也付杠钱"), _("打开：已经胡牌的人也要付之后别人的补杠、暗杠。"), {}),
    "gang_shang_hua_fan": (_("杠上花加番"), _("杠后补牌自摸胡，加几番。"), {}),
    "qiang_gang_hu_fan": (_("抢杠胡加番"), _("胡别人补杠的那张牌，加几番；被抢的人当放炮付。"), {}),
    "robbable_kongs": (_("可以抢的杠"), _("只有补杠可抢，或者直杠也可抢。"),
                       {"added": _("只有补杠"), "added_direct": _("补杠和直杠")}),
    "self_draw_bonus": (_("自摸奖励"), _("自摸时：不加、每家多付一个底（自摸加底）、或加一番（自摸加番）。"),
                        {"none": _("不加"), "base": _("自摸加底"), "fan": _("自摸加番")}),
    "max_fan": (_("封顶番数"), _("一手牌最多算几番；空着表示不封顶。"), {}),
    "cha_jiao": (_("查叫按"), _("流局查叫时，没下叫的人按下叫者最小的番（查小）还是最大的番（查大）赔。"),
                 {"min": _("查小"), "max": _("查大")}),
    "kong_refund": (_("退杠钱（退税）"), _("流局时没胡也没下叫的人，要退回这一局收到的杠钱。"), {}),
    "call_transfer": (_("呼叫转移"), _("杠后打出的牌被胡（杠上炮），这个杠收的钱转给胡牌的人。"), {}),
    "hua_zhu": (_("查花猪"), _("流局时手上还有三门牌的人（花猪）赔其他没胡、也不是花猪的人。两房只打两门，没有花猪，不能勾。"), {}),
    "hua_zhu_fan": (_("花猪赔几番"), _("空着：按封顶番数，不封顶就按 5 番。"), {}),
    "hai_di_fan": (_("海底捞月加番"), _("摸最后一张牌自摸胡，加几番；0 表示不算。"), {}),
    "jin_gou_diao_fan": (_("金钩钓加番"), _("手上只剩一张单钓、其余全碰杠，加几番；0 表示不算。"), {}),
    "dealer_when_no_winner": (_("没人胡时的庄家"), _("流局没人胡，庄家连庄还是下家坐庄。"),
                              {"stay": _("连庄"), "next": _("下家坐庄")}),
    # RULES.md §9: table shapes
    "mode": (_("玩法"), _("血战到底：胡了的人退出，直到只剩一家或牌摸完；血流成河：胡了继续打，可以再胡，直到牌摸完；标准：第一次胡牌就结束这一局。"),
             {"xue_zhan": _("血战到底"), "xue_liu": _("血流成河"), "first_win": _("标准（胡一家就结束）")}),
    "players": (_("人数"), _("这一桌几个人打：4、3 或 2 人。"), {}),
    "suits": (_("几房"), _("三房：万、筒、条 108 张；两房：只打筒、条 72 张（没有花猪）。"),
              {"mps": _("三房（万筒条）"), "ps": _("两房（筒条）")}),
    # RULES.md §10: house rules
    "dian_gang_hua": (_("点杠花"), _("别人点杠后杠上开花：还在牌局里的各家都当自摸付，还是只由点杠的人当点炮付（点杠花算点炮）。"),
                      {"zi_mo": _("算自摸"), "dian_pao": _("算点炮")}),
    "pattern_fan": (_("番型番数"), _("本桌每个番型算几番（0 到 10）；和成都标准一样的不用改。"), {}),
    "yao_jiu_jiang_dui": (_("幺九将对"), _("算：有幺九、清幺九、将对这些牌型；不算：本桌没有幺九、清幺九、将对、将七对。"), {}),
    "jiang_qi_dui_fan": (_("将七对番数"), _("七对全是 2、5、8；0 表示不算将七对。"), {}),
    "men_qing_fan": (_("门清加番"), _("没有碰、没有明杠（暗杠可以）就胡，加几番；0 表示不算。"), {}),
    "zhong_zhang_fan": (_("中张加番"), _("整手牌没有 1 和 9（断幺九），加几番；0 表示不算。"), {}),
    "jia_xin_wu_fan": (_("夹心五加番"), _("卡张（嵌张）胡 4 和 6 中间的 5，加几番；0 表示不算。"), {}),
    "hai_di_pao_fan": (_("海底炮加番"), _("摸完最后一张牌后打出的牌被胡，加几番；0 表示不算。"), {}),
    "tian_hu_fan": (_("天胡番数"), _("庄家起手就胡，加几番。"), {}),
    "di_hu_fan": (_("地胡番数"), _("闲家第一圈内胡牌，加几番。"), {}),
    "min_fan_on_discard": (_("点炮最少几番"), _("0：点炮可平胡；否则点炮（和抢杠胡）至少要这么多番，不够只能自摸。"), {}),
    "hua_zhu_pays_winners": (_("花猪也赔已胡的人"), _("打开：查花猪时花猪也要赔已经胡了的人。"), {}),
    "call_transfer_scope": (_("呼叫转移转走"), _("杠上炮时转走刚杠的那一个杠的钱，还是这一局所有杠收的钱。"),
                            {"last_kong": _("刚杠的那个杠"), "all_kongs": _("所有杠的钱")}),
}
