"""Pieces kept in Django's cache ("pieces": hand cards' words, audit rows, the group page's body): every viewer
gets their own CSRF token rendered with the form, a change shows at once, user text stays text, each language
its own piece."""
import json
import re

import pytest
from django.conf import settings
from django.core.cache import caches
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client

from ledger.services import nights as services
from ledger.services import groups
from ledger.models import GroupMember, Hand, HandRevision

from tests.hand_helpers import w, win

VOID_FORM = re.compile(r'<form method="post" action="/nights/\d+/hands/(\d+)/void/"[^>]*>\s*'
                       r'<input type="hidden" name="csrfmiddlewaretoken" value="([^"]+)"')
INVITE_FORM = re.compile(r'<form method="post" action="/groups/\d+/members/" id="invite-form">\s*'
                         r'<input type="hidden" name="csrfmiddlewaretoken" value="([^"]+)"')


def self_draw(seat):
    return {"events": [win(None, w(seat))], "exhausted": True}


def signed_in(user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def card(content, number):
    return re.search(rf'<article[^>]*id="hand-{number}".*?</article>', content, re.S).group(0)


def void_tokens(content):
    """Hand number -> the CSRF token of its void form."""
    return {int(n): token for n, token in VOID_FORM.findall(content)}


def kept_pieces():
    return len(caches["pieces"]._cache)  # LocMemCache's own store: how many pieces this process keeps


def test_a_kept_card_is_served_to_two_viewers_each_with_their_own_token_and_each_can_void_with_it(night, owner,
                                                                                                   keeper):
    services.hand_record(night=night, by=owner, entry=self_draw(1))
    services.hand_record(night=night, by=owner, entry=self_draw(2))
    url = f"/nights/{night.pk}/hands/"
    owner_client, keeper_client = signed_in(owner), signed_in(keeper)
    owner_page = owner_client.get(url).content.decode()
    kept = kept_pieces()
    keeper_page = keeper_client.get(url).content.decode()
    assert kept_pieces() == kept == 2  # the keeper is served the owner's two cards' words, nothing rendered anew
    for client, page in ((owner_client, owner_page), (keeper_client, keeper_page)):
        tokens = void_tokens(page)
        assert sorted(tokens) == [1, 2]
        assert {_unmask_cipher_token(t) for t in tokens.values()} == {client.cookies["csrftoken"].value}
    assert owner_client.cookies["csrftoken"].value != keeper_client.cookies["csrftoken"].value
    voided = keeper_client.post(f"/nights/{night.pk}/hands/2/void/",
                                {"csrfmiddlewaretoken": void_tokens(keeper_page)[2], "reason": "打错"})
    assert voided.status_code == 302
    assert Hand.objects.get(night=night, number=2).status == Hand.Status.VOIDED
    refused = owner_client.post(f"/nights/{night.pk}/hands/1/void/",
                                {"csrfmiddlewaretoken": "x" * 64, "reason": "打错"})
    assert refused.status_code == 403 and Hand.objects.get(night=night, number=1).status == Hand.Status.RECORDED


def test_the_live_fragments_carry_each_viewers_own_token_in_a_kept_card(night, owner, keeper):
    services.hand_record(night=night, by=owner, entry=self_draw(1))
    signed_in(owner).get(f"/nights/{night.pk}/hands/")  # the card's words are kept now
    client = signed_in(keeper)
    response = client.get(f"/nights/{night.pk}/fragments/?after=0&since=0&pieces=seats")
    [hand] = json.loads(response.content)["hands"]
    token = void_tokens(hand["html"])[1]
    assert _unmask_cipher_token(token) == client.cookies["csrftoken"].value
    posted = client.post(f"/nights/{night.pk}/hands/1/void/", {"csrfmiddlewaretoken": token, "reason": "重复"})
    assert posted.status_code == 302 and Hand.objects.get(night=night, number=1).status == Hand.Status.VOIDED


def test_a_corrected_hand_shows_its_new_card_on_the_list_the_table_and_in_the_fragments(night, owner):
    hand = services.hand_record(night=night, by=owner, entry=self_draw(1))
    client = signed_in(owner)
    for url in (f"/nights/{night.pk}/hands/", f"/nights/{night.pk}/"):
        assert "已更正" not in card(client.get(url).content.decode(), 1)
    services.hand_correct(hand=hand, by=owner, entry=self_draw(2), reason="赢家是王五")
    winner = HandRevision.objects.get(hand=hand, is_current=True).names[2]
    for url in (f"/nights/{night.pk}/hands/", f"/nights/{night.pk}/"):
        shown = card(client.get(url).content.decode(), 1)
        assert "已更正 1 次：赢家是王五" in shown and f"{winner}&nbsp;" in shown
    [fresh] = json.loads(client.get(f"/nights/{night.pk}/fragments/?after=1&since=0").content)["hands"]
    assert "已更正 1 次：赢家是王五" in fresh["html"]


def test_a_voided_hand_shows_the_reason_and_loses_its_form_though_its_words_were_kept(night, owner):
    hand = services.hand_record(night=night, by=owner, entry=self_draw(1))
    client = signed_in(owner)
    url = f"/nights/{night.pk}/hands/"
    assert list(void_tokens(client.get(url).content.decode())) == [1]
    services.hand_void(hand=hand, by=owner, reason="重复记录")
    content = client.get(url).content.decode()
    assert "重复记录" in card(content, 1) and void_tokens(content) == {}


def test_a_name_that_looks_like_a_token_stays_a_name_for_every_viewer(night, owner, keeper):
    client = signed_in(owner)
    client.get(f"/nights/{night.pk}/hands/")
    token = client.cookies["csrftoken"].value
    # A name that is the owner's own token, and one that is a whole token field as templates write it.
    fields = [token, f'value="{token}"']
    for seat, name in enumerate(fields):
        groups.player_rename(player=night.seating.get(seat=seat).player, by=owner, name=name)
    services.hand_record(night=night, by=owner, entry=self_draw(1))
    for user in (owner, keeper):
        viewer = signed_in(user)
        shown = card(viewer.get(f"/nights/{night.pk}/hands/").content.decode(), 1)
        assert f"{token}&nbsp;" in shown and f"value=&quot;{token}&quot;&nbsp;" in shown
        [mine] = void_tokens(shown).values()
        assert _unmask_cipher_token(mine) == viewer.cookies["csrftoken"].value
        assert (mine == token) is False


def test_switching_language_serves_the_other_languages_card_and_audit_rows(night, owner):
    services.hand_record(night=night, by=owner, entry=self_draw(1))
    client = signed_in(owner)
    pages = {}
    for language in ("zh-hans", "en", "zh-hans"):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        hands = card(client.get(f"/nights/{night.pk}/hands/").content.decode(), 1)
        audit = client.get(f"/nights/{night.pk}/audit/").content.decode()
        pages.setdefault(language, []).append((hands, re.search(r'<ol class="audit">.*?</ol>', audit, re.S).group(0)))
    (zh_hands, zh_audit), (again_hands, again_audit) = pages["zh-hans"]
    [(en_hands, en_audit)] = pages["en"]
    assert "庄" in zh_hands and "Dealer" in en_hands and "庄" not in en_hands
    assert "作废" in zh_hands and "Void" in en_hands  # the form around the kept words follows the language too
    assert "修改前后" in zh_audit and "修改前后" not in en_audit
    words = [hands.split("<details>")[0] for hands in (zh_hands, again_hands)]  # the form holds a fresh token
    assert words[0] == words[1] and again_audit == zh_audit


def test_the_group_page_renders_the_invite_form_with_each_viewers_token_beside_the_kept_body(night, group, owner,
                                                                                           keeper):
    GroupMember.objects.create(group=group, user=keeper, role=GroupMember.Role.SCOREKEEPER)
    pages = {}
    for user in (owner, keeper, owner):
        client = signed_in(user)
        page = client.get(f"/groups/{group.pk}/").content.decode()
        body = page.split("<main")[1].split('id="invite-form"')[0]  # the body, before the form rendered beside it
        assert 'form="invite-form"' in body and "csrfmiddlewaretoken" not in body
        [token] = INVITE_FORM.findall(page)
        assert _unmask_cipher_token(token) == client.cookies["csrftoken"].value
        pages[user.username] = (client, token)
    client, token = pages["keeper"]
    response = client.post(f"/groups/{group.pk}/members/",
                           {"csrfmiddlewaretoken": token, "action": "invite-renew", "back": "home"})
    assert response.status_code == 302 and response["Location"] == f"/groups/{group.pk}/"
    assert groups.group_link_active(group) is not None
    assert 'id="invite-off"' in client.get(f"/groups/{group.pk}/").content.decode()  # the change shows at once


@pytest.mark.parametrize("language, word", [("zh-hans", "玩家"), ("en", "Players")])
def test_the_group_page_body_is_kept_per_language(night, group, owner, language, word):
    client = signed_in(owner)
    client.get(f"/groups/{group.pk}/")  # kept in Chinese first
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    assert word in client.get(f"/groups/{group.pk}/").content.decode().split('id="group-players"')[1][:200]
