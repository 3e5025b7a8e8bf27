"""The night form's fan-table editor (issue 19): one number per pattern, the rule fields in groups as players name
them, the same fields on a group's default rules; posting gives `pattern_fan` only the fans that differ."""
import re

import pytest

from ledger.forms.nights import RULE_GROUPS, pattern_field_name
from ledger.models import Group, Night
from scoring import PATTERNS
from scoring.rules import DEFAULT_FANS, OPTIONS, TABLE_PATTERNS

from tests.factories import page_client as client_for


def posted(form):
    """What a browser posts for an unbound form as the page shows it (a ticked box as "on")."""
    data = {}
    for field in form:
        value = field.value()
        if value is None or value is False:
            continue
        data[field.html_name] = "on" if value is True else value
    return data


def night_data(client, title, url="/nights/new/", **changes):
    form = client.get(url).context["form"]
    data = posted(form)
    data.update({"title": title, "player_0": "张三", "player_1": "李四", "player_2": "王五", "player_3": "赵六"})
    data.update(changes)
    return data


def test_the_form_shows_every_pattern_with_its_fan_in_the_groups_players_name(owner, players):
    client = client_for(owner)
    page = client.get("/nights/new/").content.decode()
    for code in TABLE_PATTERNS:
        field = re.search(rf'<input type="number" name="{pattern_field_name(code)}"[^>]*>', page)
        assert field, code
        assert f'value="{DEFAULT_FANS[code]}"' in field.group(0) and 'min="0"' in field.group(0) \
            and 'max="10"' in field.group(0)
        assert f'<label for="id_{pattern_field_name(code)}">{PATTERNS[code].zh}</label>' in page
    assert 'name="rule_pattern_fan"' not in page  # no JSON text field any more
    for legend in ("牌桌", "杠（刮风下雨）", "番数表", "幺九将对", "门清中张", "天地胡", "点炮可平胡", "查叫/花猪"):
        assert f"<legend>{legend}</legend>" in page, legend
    # A group of one rule named as its heading is not said twice on the screen (a walk), only to screen readers.
    assert '<legend class="visually-hidden">点杠花</legend>' in page and "<label>点杠花" in page
    # Every option's field stands in its group's fieldset, in the group's order.
    for key, _legend, names in RULE_GROUPS:
        fieldset = re.search(rf'<fieldset class="rule-group" id="rules-{key}">(.*?)</fieldset>', page, re.S).group(1)
        fields = re.findall(r'name="(rule_[a-z_]+)"', fieldset)
        expected = [pattern_field_name(c) for c in TABLE_PATTERNS] if names == ("pattern_fan",) else [
            f"rule_{n}" for n in names]
        assert list(dict.fromkeys(fields)) == expected, key
    english = client_for(owner, "en").get("/nights/new/").content.decode()
    assert f'<label for="id_{pattern_field_name("qing_yi_se")}">Full flush</label>' in english
    assert "<legend>Fan table</legend>" in english


def test_the_usual_fans_post_an_empty_table_and_a_changed_fan_only_its_own_entry(owner, players):
    client = client_for(owner)
    assert client.post("/nights/new/", night_data(client, "默认番表")).status_code == 302
    assert Night.objects.get(title="默认番表").rules["pattern_fan"] == {}
    changed = night_data(client, "清一色三番", **{pattern_field_name("qing_yi_se"): "3"})
    assert client.post("/nights/new/", changed).status_code == 302
    night = Night.objects.get(title="清一色三番")
    assert night.rules["pattern_fan"] == {"qing_yi_se": 3}
    # The rest of the rule set is the preset's, as before.
    assert {k: v for k, v in night.rules.items() if k != "pattern_fan"} == {
        k: v for k, v in Night.objects.get(title="默认番表").rules.items() if k != "pattern_fan"}
    # A fan set back to its usual value is no entry at all; one set to 0 is.
    zero = night_data(client, "平胡对对胡", **{pattern_field_name("dui_dui_hu"): "0",
                                           pattern_field_name("qing_yi_se"): "2"})
    assert client.post("/nights/new/", zero).status_code == 302
    assert Night.objects.get(title="平胡对对胡").rules["pattern_fan"] == {"dui_dui_hu": 0}


@pytest.mark.parametrize("value, message", [
    ("11", "清一色：番数应在 0 到 10 之间"),
    ("-1", "清一色：番数应在 0 到 10 之间"),
    ("两番", "清一色：番数应是整数"),
    ("2.5", "清一色：番数应是整数"),
])
def test_a_bad_fan_is_refused_naming_the_pattern_and_nothing_is_written(owner, players, value, message):
    client = client_for(owner)
    nights = Night.objects.count()
    response = client.post("/nights/new/", night_data(client, "坏番数", **{pattern_field_name("qing_yi_se"): value}))
    assert response.status_code == 200
    assert response.context["form"].errors == {pattern_field_name("qing_yi_se"): [message]}
    assert message in response.content.decode()
    assert Night.objects.count() == nights


def test_a_bad_fan_is_refused_in_english_naming_the_pattern(owner, players):
    client = client_for(owner, "en")
    response = client.post("/nights/new/", night_data(client, "Bad", **{pattern_field_name("long_qi_dui"): "12"}))
    assert response.context["form"].errors == {
        pattern_field_name("long_qi_dui"): ["Dragon seven pairs: the fan must be from 0 to 10"]}
    assert not Night.objects.filter(title="Bad").exists()


def test_the_dui_dui_hu_preset_s_fans_and_a_client_without_the_fields_keep_the_preset_s_table(owner, players):
    client = client_for(owner)
    preset_table = {"dui_dui_hu": 2, "qing_dui": 4, "jiang_dui": 4}
    shown = {pattern_field_name(code): str(fan) for code, fan in preset_table.items()}  # as night_form.js fills them
    data = night_data(client, "对对胡两番", preset="dui_dui_hu_liang_fan", **shown)
    assert client.post("/nights/new/", data).status_code == 302
    assert Night.objects.get(title="对对胡两番").rules["pattern_fan"] == preset_table
    # A form from before the editor (no pattern fields at all) takes the preset's table, as other new options.
    old = {k: v for k, v in night_data(client, "旧表单", preset="dui_dui_hu_liang_fan").items()
           if not k.startswith("rule_pattern_fan__")}
    assert client.post("/nights/new/", old).status_code == 302
    assert Night.objects.get(title="旧表单").rules["pattern_fan"] == preset_table
    # A pattern field left empty keeps the preset's fan for that pattern; the others say theirs.
    partly = night_data(client, "半空", preset="dui_dui_hu_liang_fan", **shown)
    partly.update({pattern_field_name("qing_dui"): "", pattern_field_name("qing_yi_se"): "3"})
    assert client.post("/nights/new/", partly).status_code == 302
    assert Night.objects.get(title="半空").rules["pattern_fan"] == {**preset_table, "qing_yi_se": 3}


def test_a_group_s_default_rules_take_the_same_fields_and_a_night_of_the_group_starts_from_them(owner, players):
    group = Group.objects.get()
    client = client_for(owner)
    url = f"/groups/{group.pk}/defaults/"
    form = client.get(url).context["form"]
    night_form = client.get("/nights/new/").context["form"]
    assert [(s["key"], [f.name for f in s["fields"]]) for s in form.rule_fieldsets()] == [
        (s["key"], [f.name for f in s["fields"]]) for s in night_form.rule_fieldsets()]
    data = posted(form)
    data.update({pattern_field_name("qing_dui"): "5", pattern_field_name("ping_hu"): "1"})
    assert client.post(url, data).status_code == 302
    group.refresh_from_db()
    assert group.defaults["rules"] == {"pattern_fan": {"ping_hu": 1, "qing_dui": 5}}
    # The defaults page and the new night form of the group show them.
    assert client.get(url).context["form"][pattern_field_name("qing_dui")].value() == 5
    prefilled = client.get(f"/nights/new/?group={group.pk}").context["form"]
    assert prefilled[pattern_field_name("qing_dui")].value() == 5
    assert prefilled[pattern_field_name("qing_yi_se")].value() == DEFAULT_FANS["qing_yi_se"]
    data_night = night_data(client, "圈子番表", url=f"/nights/new/?group={group.pk}")
    assert client.post(f"/nights/new/?group={group.pk}", data_night).status_code == 302
    assert Night.objects.get(title="圈子番表").rules["pattern_fan"] == {"ping_hu": 1, "qing_dui": 5}
    # A bad fan on the defaults page: refused naming the pattern, the defaults unchanged.
    before = dict(group.defaults)
    bad = posted(client.get(url).context["form"])
    bad[pattern_field_name("jiang_dui")] = "20"
    refused = client.post(url, bad)
    assert refused.status_code == 400
    assert refused.context["form"].errors == {pattern_field_name("jiang_dui"): ["将对：番数应在 0 到 10 之间"]}
    group.refresh_from_db()
    assert group.defaults == before


def test_a_group_preset_with_its_own_fans_prefills_the_pattern_fields(owner, players):
    from ledger.services import groups
    group = Group.objects.get()
    groups.group_set_defaults(group=group, by=owner, preset="dui_dui_hu_liang_fan")
    client = client_for(owner)
    for url in (f"/groups/{group.pk}/defaults/", f"/nights/new/?group={group.pk}"):
        form = client.get(url).context["form"]
        assert form[pattern_field_name("dui_dui_hu")].value() == 2, url
        assert form[pattern_field_name("qing_dui")].value() == 4 and form[pattern_field_name("qi_dui")].value() == 2


def test_every_rule_option_stands_in_exactly_one_group():
    grouped = [name for _key, _legend, names in RULE_GROUPS for name in names]
    assert sorted(grouped) == sorted(OPTIONS) and len(grouped) == len(set(grouped))


def test_a_preset_chosen_on_the_defaults_page_keeps_what_the_fields_show_once_the_script_filled_them(owner, players):
    from ledger.services import groups
    group = Group.objects.get()
    client = client_for(owner)
    url = f"/groups/{group.pk}/defaults/"
    shown = posted(client.get(url).context["form"])  # the Chengdu standard: the usual fans
    assert shown["rules_shown_for"] == "chengdu"
    # No script: the fields still show the old preset's values, so the new preset's table applies.
    assert client.post(url, {**shown, "preset": "dui_dui_hu_liang_fan"}).status_code == 302
    group.refresh_from_db()
    assert group.defaults["preset"] == "dui_dui_hu_liang_fan" and group.defaults["rules"] == {}
    # night_form.js filled the fields from 门清中张 (it says so), then the user set the fans back to 对对胡两番's:
    # what the page showed is kept, those fans included (they equal what the page showed before, not the preset's).
    filled = posted(client.get(url).context["form"])
    assert filled[pattern_field_name("dui_dui_hu")] == 2 and filled["rules_shown_for"] == "dui_dui_hu_liang_fan"
    table = {"dui_dui_hu": 2, "qing_dui": 4, "jiang_dui": 4}
    chosen = {**filled, "preset": "men_qing_zhong_zhang", "rule_men_qing_fan": "1", "rule_zhong_zhang_fan": "1",
              **{pattern_field_name(code): str(fan) for code, fan in table.items()}}
    client.post(url, {**chosen, "rules_shown_for": "men_qing_zhong_zhang"})
    group.refresh_from_db()
    assert group.defaults["preset"] == "men_qing_zhong_zhang" and group.defaults["rules"] == {"pattern_fan": table}
    # Without the script's word the same post is read as "fields left as the old preset showed them".
    groups.group_set_defaults(group=group, by=owner, preset="dui_dui_hu_liang_fan")
    client.post(url, chosen)
    group.refresh_from_db()
    assert group.defaults["preset"] == "men_qing_zhong_zhang" and group.defaults["rules"] == {}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_rule_options_that_do_not_go_together_are_listed_at_the_top_in_words_linked_to_their_fields(owner, players,
                                                                                                     lang):
    """查花猪 at a 两房 table and a 将七对 fan without 幺九将对: the page sent back opens at its top, so the errors are
    listed there, each linked to its field (and shown at the field), in the form's words: no `suits`, `hua_zhu`,
    `false` (the API's messages name the options by their codes)."""
    client = client_for(owner, lang)
    data = night_data(client, "两房花猪", rule_suits="ps", rule_hua_zhu="on", rule_yao_jiu_jiang_dui="False",
                      rule_jiang_qi_dui_fan="4")
    response = client.post("/nights/new/", data)
    assert response.status_code == 200 and not Night.objects.filter(title="两房花猪").exists()
    page = response.content.decode()
    summary = page.split('id="form-errors">')[1].split("</div>")[0]
    assert page.index('id="form-errors"') < page.index('id="rule-details"')
    assert 'href="#id_rule_hua_zhu"' in summary and 'href="#id_rule_jiang_qi_dui_fan"' in summary
    for code_word in ("suits 为", "suits is", "&quot;ps&quot;", "hua_zhu", "false", "jiang_qi_dui_fan", "yao_jiu"):
        assert code_word not in summary.replace('href="#id_rule_hua_zhu"', "").replace(
            'href="#id_rule_jiang_qi_dui_fan"', ""), code_word
    if lang == "zh":
        assert "请改正下面这几处再提交" in summary and "请不要勾“查花猪”" in summary
        assert "请把“将七对番数”设为 0" in summary
    else:
        assert "Please correct these" in summary and "untick “Three-suit penalty (查花猪)”" in summary
        assert "</a>: " in summary and "</a>：" not in summary  # the page's own punctuation
    # The same words on a group's default rules.
    group = Group.objects.get(memberships__user=owner)
    url = f"/groups/{group.pk}/defaults/"
    form = posted(client.get(url).context["form"])
    response = client.post(url, {**form, "rule_suits": "ps", "rule_hua_zhu": "on"})
    assert response.status_code == 400
    summary = response.content.decode().split('id="form-errors">')[1].split("</div>")[0]
    assert 'href="#id_rule_hua_zhu"' in summary and "hua_zhu" not in summary.replace("id_rule_hua_zhu", "")


@pytest.mark.parametrize("lang, base_said, fee_said", [
    (None, "底金最多 100000", "台费最多 100000"),
    ("en", "The base can be at most 100000", "The table fee can be at most 100000")])
def test_a_base_or_fee_too_large_is_said_as_the_largest_amount_not_a_count_of_digits(owner, players, lang, base_said,
                                                                                     fee_said):
    """It said "Ensure that there are no more than 12 digits in total" (a walk through the pages)."""
    client = client_for(owner, lang)
    data = night_data(client, "太大", base="99999999999999", fee_mode="per_person", fee_amount="123456789")
    page = client.post("/nights/new/", data).content.decode()
    assert base_said in page and fee_said in page and "digits" not in page and "个数字" not in page
    assert not Night.objects.filter(title="太大").exists()
    assert client.post("/nights/new/", night_data(client, "刚好", base="100000")).status_code == 302


def test_a_name_typed_with_other_letter_case_is_the_same_player_wherever_it_is_typed(owner, players):
    """"alice" for Alice: the seats, the API's find-or-add and the night form find Alice, never a second player; a
    backup restores names as written (a review of the case rule, which first held on the players page only)."""
    from ledger.models import Player
    from ledger.services import groups as group_services
    from tests.conftest import api_client
    group = group_services.personal_group(owner)
    alice = group_services.player_create(group=group, by=owner, name="Alice")
    assert group_services.player_get_or_create(name="alice", group=group) == alice
    assert group_services.player_get_or_create(name="ALICE", group=group, exact=True) != alice  # a backup's own
    Player.objects.filter(name="ALICE").delete()
    response = api_client(owner).post("/api/players/", {"name": "alice"}, format="json")
    assert response.status_code == 201 and response.json()["id"] == alice.pk
    client = client_for(owner)
    twice = client.post("/nights/new/", night_data(client, "大小写", player_0="Alice", player_1="alice")).content.decode()
    assert twice.count('aria-invalid="true"') == 2 and "坐了不止一个座位" in twice
    assert client.post("/nights/new/", night_data(client, "大小写", player_0="alice")).status_code == 302
    assert Night.objects.get(title="大小写").seat_names[0] == "Alice"
    assert Player.objects.filter(group=group, name__iexact="alice").count() == 1


@pytest.mark.parametrize("lang, base_said, fee_said", [
    (None, "底金至少 0.01", "台费至少 0.01"),
    ("en", "The base must be at least 0.01", "The table fee must be at least 0.01")])
def test_a_base_or_fee_too_small_is_said_in_the_forms_words(owner, players, lang, base_said, fee_said):
    """English said Django's "Ensure this value is greater than or equal to 0.01." (a walk)."""
    client = client_for(owner, lang)
    data = night_data(client, "太小", base="0", fee_mode="per_person", fee_amount="0")
    page = client.post("/nights/new/", data).content.decode()
    assert base_said in page and fee_said in page and "Ensure" not in page
    assert not Night.objects.filter(title="太小").exists()
