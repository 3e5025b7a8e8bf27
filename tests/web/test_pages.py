"""Pages render in Chinese by default and in English on request; writes are scoped like the API."""
import pytest
from django.test import Client

from ledger.models import Night

from tests.factories import page_client as client_for
from tests.hand_helpers import w, win

SELF_DRAW = {"events": [win(None, w(1, "qing_yi_se", 1))], "exhausted": True}


PAGES = [
    ("/nights/{pk}/", "保存本局", "Save hand"),
    ("/nights/{pk}/hands/", "李四 自摸 清一色 带1根 3番，张三、王五、赵六 各付16", "李四 self-draws: full flush, 1 root, 3 fan; 张三, 王五 and 赵六 each pay 16"),
    ("/nights/{pk}/hands/1/correct/", "保存更正", "Save correction"),
    ("/nights/{pk}/audit/", "记录一局", "Hand recorded"),
    ("/nights/{pk}/settle/", "最少转账", "Fewest transfers"),
    ("/nights/new/", "掷骰子定庄", "Roll dice for the dealer"),
    ("/nights/new/", 'data-deals="{who} 坐庄"', 'data-deals="{who} deals first"'),  # was "→ East 坐庄" in English
    ("/", "我的牌局", "My nights"),
    ("/rules/", "过水不胡", "No win after a pass"),
]


@pytest.mark.parametrize("url, chinese, english", PAGES)
def test_pages_speak_chinese_by_default_and_english_on_request(recorded, owner, url, chinese, english):
    url = url.format(pk=recorded.pk)
    zh = client_for(owner, None).get(url, HTTP_ACCEPT_LANGUAGE="en-US")  # a phone set to English still gets Chinese
    en = client_for(owner, "en").get(url)
    assert zh.status_code == en.status_code == 200
    assert chinese in zh.content.decode() and english not in zh.content.decode()
    assert english in en.content.decode()


def test_the_login_page_in_both_languages(db):
    assert "用户名" in Client().get("/login/").content.decode()
    assert "Username" in client_for(None, "en").get("/login/").content.decode()


def test_the_language_switch_sets_english(db):
    client = Client()
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/rules/"})
    assert response.status_code == 302
    assert "Chengdu mahjong rules" in client.get("/rules/").content.decode()


def test_pages_need_sign_in(recorded):
    response = Client().get(f"/nights/{recorded.pk}/")
    assert response.status_code == 302 and "/login/" in response["Location"]


@pytest.mark.parametrize("url", ["/nights/{pk}/", "/nights/{pk}/hands/", "/nights/{pk}/audit/", "/nights/{pk}/settle/",
                                 "/nights/{pk}/hands/1/correct/"])
def test_outsiders_get_404_on_night_pages(recorded, outsider, url):
    assert client_for(outsider).get(url.format(pk=recorded.pk)).status_code == 404


def test_viewers_see_the_table_without_the_entry_form_and_cannot_write(recorded, viewer):
    client = client_for(viewer)
    page = client.get(f"/nights/{recorded.pk}/").content.decode()
    assert "李四" in page and 'id="save"' not in page
    assert client.get(f"/nights/{recorded.pk}/hands/1/correct/").status_code == 403
    assert client.post(f"/nights/{recorded.pk}/hands/1/void/", {"reason": "x"}).status_code == 403
    assert client.post(f"/nights/{recorded.pk}/settle/").status_code == 403


def test_creating_a_night_from_the_form(owner, players):
    data = {"title": "周六夜", "date": "2026-11-28", "venue": "", "player_0": "张三", "player_1": "李四",
            "player_2": "王五", "player_3": "新人", "first_dealer": "2", "base": "5", "stake": "points", "currency": "",
            "preset": "chengdu", "scorekeepers": "", "members": "",
            "rule_kong_direct": "2", "rule_kong_added": "1", "rule_kong_concealed": "2", "rule_gang_shang_hua_fan": "1",
            "rule_qiang_gang_hu_fan": "0", "rule_robbable_kongs": "added", "rule_self_draw_bonus": "base",
            "rule_max_fan": "4", "rule_cha_jiao": "min", "rule_kong_refund": "on", "rule_hua_zhu_fan": "",
            "rule_hai_di_fan": "0", "rule_jin_gou_diao_fan": "0", "rule_dealer_when_no_winner": "stay"}
    response = client_for(owner).post("/nights/new/", data)
    night = Night.objects.get(title="周六夜")
    assert response.status_code == 302 and response["Location"] == f"/nights/{night.pk}/"
    assert night.rules["max_fan"] == 4 and night.rules["self_draw_bonus"] == "base" and night.rules["kong_refund"]
    assert night.rules["call_transfer"] is False and night.first_dealer == 2
    assert [s.player.name for s in night.seating.all()] == ["张三", "李四", "王五", "新人"]


def test_the_night_form_shows_errors_next_to_fields(owner):
    response = client_for(owner).post("/nights/new/", {"title": "", "player_0": "甲", "player_1": "甲"})
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()
    assert Night.objects.count() == 0


def test_voiding_from_the_hand_list(recorded, owner):
    response = client_for(owner).post(f"/nights/{recorded.pk}/hands/1/void/", {"reason": "记错了"})
    assert response.status_code == 302
    assert recorded.hands.get(number=1).status == "voided"


def test_closing_the_night(recorded, owner):
    client_for(owner).post(f"/nights/{recorded.pk}/settle/")
    recorded.refresh_from_db()
    assert recorded.is_closed


def test_the_demo_command_loads_a_full_night(db):
    from django.core.management import call_command
    call_command("demo")
    night = Night.objects.get(title="周五夜 · 演示")
    assert night.hands.count() == 20
    kinds = {e.get("kind") for h in night.hands.all() for e in h.current.record["events"]}
    flags = {f for h in night.hands.all() for e in h.current.record["events"] if e["type"] == "win"
             for x in e["winners"] for f in x.get("flags", [])}
    assert {"direct", "added", "concealed"} <= kinds and {"qiang_gang_hu", "gang_shang_hua"} <= flags
    assert any(h.current.record.get("exhausted") for h in night.hands.all())
    assert any(len(e["winners"]) > 1 for h in night.hands.all() for e in h.current.record["events"] if e["type"] == "win")
    # Last week's evening: two closed tables with a ¥5-a-player fee, settled, one transfer paid.
    tables = Night.objects.filter(evening__title="上周五").order_by("table_no")
    assert [(t.table_no, t.is_closed, t.fee["mode"]) for t in tables] == [(1, True, "per_player"), (2, True, "per_player")]
    settlement = tables[0].evening.settlement
    assert settlement.transfers.filter(paid_at__isnull=False).count() == 1
    assert settlement.transfers.filter(paid_at__isnull=True).exists()  # the rest carries in the group's balance
    call_command("demo")  # a second run changes nothing
    assert Night.objects.count() == 5  # with the 三人两房 and 血流成河 tables of issue 18


def test_the_english_table_page_names_its_buttons_as_buttons(recorded, owner):
    page = client_for(owner, "en").get(f"/nights/{recorded.pk}/").content.decode()
    assert 'id="add-kong">+ Kong</button>' in page  # a button's word, not the payment reason's "kong"


def test_the_correction_page_of_a_closed_night_says_why_nothing_can_be_changed(recorded, owner):
    """It was an empty shell (a walk through the pages): the night's head and nothing else."""
    from ledger.services import nights as services
    services.night_close(night=recorded, by=owner)
    url = f"/nights/{recorded.pk}/hands/1/correct/"
    zh = client_for(owner, None).get(url).content.decode()
    assert "这一场已经结束，不能再更正" in zh and 'id="save"' not in zh
    assert f'href="/nights/{recorded.pk}/hands/"' in zh
    en = client_for(owner, "en").get(url).content.decode()
    assert "This night has ended: its hands can no longer be corrected" in en
    open_night = client_for(owner, None).get(f"/nights/{recorded.pk}/").content.decode()
    assert "不能再更正" not in open_night
