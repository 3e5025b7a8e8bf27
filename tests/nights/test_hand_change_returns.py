"""Voiding or correcting a hand from the table page comes back to the table page (the scorekeeper goes on
recording); from the hand list it stays on the hand list."""
import json

import pytest
from django.test import Client

from ledger.services import nights as services

from tests.hand_helpers import w, win

HAND = {"events": [win(None, w(1))], "exhausted": True}


@pytest.fixture
def scorekeeper(night, owner):
    services.hand_record(night=night, by=owner, entry=HAND)
    client = Client()
    client.force_login(owner)
    return client


def test_a_void_made_on_the_table_page_returns_to_it(night, scorekeeper):
    table = f"http://testserver/nights/{night.pk}/?saved=1"
    response = scorekeeper.post(f"/nights/{night.pk}/hands/1/void/", {"reason": "记错了"}, HTTP_REFERER=table)
    assert response.status_code == 302 and response["Location"] == f"/nights/{night.pk}/"
    assert night.hands.get(number=1).status == "voided"


@pytest.mark.parametrize("referer", [None, "http://testserver/nights/{pk}/hands/", "http://evil.example/nights/{pk}/"])
def test_a_void_made_elsewhere_returns_to_the_hand_list(night, scorekeeper, referer):
    extra = {"HTTP_REFERER": referer.format(pk=night.pk)} if referer else {}
    response = scorekeeper.post(f"/nights/{night.pk}/hands/1/void/", {"reason": "记错了"}, **extra)
    assert response.status_code == 302 and response["Location"] == f"/nights/{night.pk}/hands/"


def _done_url(page) -> str:
    config = page.content.decode().split('id="table-config" type="application/json">')[1].split("</script>")[0]
    return json.loads(config)["doneUrl"]


def test_a_correction_opened_from_the_table_page_returns_to_it(night, scorekeeper):
    url = f"/nights/{night.pk}/hands/1/correct/"
    assert _done_url(scorekeeper.get(url, HTTP_REFERER=f"http://testserver/nights/{night.pk}/")) == f"/nights/{night.pk}/"
    assert _done_url(scorekeeper.get(url)) == f"/nights/{night.pk}/hands/#hand-1"  # at its card (a walk)


def test_a_correction_of_an_older_hand_returns_to_the_hand_lists_page_that_holds_it(night, owner, scorekeeper):
    """The list shows the newest 20 hands a page: a hand below them is opened on a page starting at it."""
    from ledger.live.fragments import HANDS_PER_PAGE
    for _ in range(HANDS_PER_PAGE):
        services.hand_record(night=night, by=owner, entry=HAND)
    url = f"/nights/{night.pk}/hands/{{n}}/correct/"
    assert _done_url(scorekeeper.get(url.format(n=2))) == f"/nights/{night.pk}/hands/#hand-2"
    assert _done_url(scorekeeper.get(url.format(n=1))) == f"/nights/{night.pk}/hands/?before=2#hand-1"
    page = scorekeeper.get(f"/nights/{night.pk}/hands/?before=2").content.decode()
    assert 'id="hand-1"' in page


@pytest.mark.parametrize("lang, said", [("zh-hans", "第 1 局：作废需要写明原因"), ("en", "Hand 1: voiding needs a reason")])
def test_a_void_without_a_reason_says_which_hand_and_voids_nothing(night, scorekeeper, settings, lang, said):
    scorekeeper.cookies[settings.LANGUAGE_COOKIE_NAME] = lang  # the language switch's choice
    response = scorekeeper.post(f"/nights/{night.pk}/hands/1/void/", {"reason": "  "}, follow=True)
    assert said in response.content.decode()
    assert night.hands.get(number=1).status == "recorded"


def test_a_closed_nights_table_shows_no_card_of_a_newest_hand_voided(night, owner, scorekeeper):
    """A walk: the closed night's table showed one card, 第 2 局 已作废 (a duplicate voided), as if it were the night's
    last word. While the night is open the voided card says what was just done; once closed, no card."""
    services.hand_record(night=night, by=owner, entry=HAND)
    services.hand_void(hand=night.hands.get(number=2), by=owner, reason="和第 1 局一模一样")
    page = scorekeeper.get(f"/nights/{night.pk}/").content.decode()
    assert 'id="hand-2"' in page and "已作废" in page
    services.night_close(night=night, by=owner)
    page = scorekeeper.get(f"/nights/{night.pk}/").content.decode()
    assert 'id="hand-2"' not in page and "已作废" not in page.split('class="last-hand"')[1].split("</div>")[0]


def test_a_closed_nights_table_keeps_to_the_adjustments_since_its_voided_newest_hand(night, owner, scorekeeper):
    """A review: with the voided card gone, every 罚分/调整 of the night came onto the closed table page. Those made
    after the newest hand still show, as while the night was open; the earlier ones stay on 每局明细."""
    from ledger.services.adjustments import adjustment_record
    adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": 1, "fan": 0})  # after hand 1
    services.hand_record(night=night, by=owner, entry=HAND)
    services.hand_void(hand=night.hands.get(number=2), by=owner, reason="记重了")
    adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": 2, "fan": 0})  # after hand 2
    before = scorekeeper.get(f"/nights/{night.pk}/").content.decode()
    assert 'id="adjustment-2"' in before and 'id="adjustment-1"' not in before
    services.night_close(night=night, by=owner)
    page = scorekeeper.get(f"/nights/{night.pk}/").content.decode()
    assert 'id="adjustment-2"' in page and 'id="adjustment-1"' not in page and 'id="hand-2"' not in page
