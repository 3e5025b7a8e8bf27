"""The night read with what its pages show (selectors.night_for_page), and hand cards rendered once and served with
the viewer's own CSRF token (live/fragments.py): each gives what the ORM and the uncached pages give."""
import datetime as dt
import json
import re
from decimal import Decimal

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.middleware.csrf import _unmask_cipher_token
from django.core.cache import caches
from django.test import Client, RequestFactory
from django.utils import timezone

from ledger import rights
from ledger.services import nights as services
from ledger.services import groups as group_services
from ledger.services import sharing as join_services
from ledger.live import fragments
from ledger.models import AuditEntry, GroupMember, Hand, HandRevision, Night, NightLink
from ledger.presenters.nights import money
from ledger.selectors.nights import night_for_page, night_next_dealer, night_seating

from tests.hand_helpers import w, win

User = get_user_model()


def self_draw(seat):
    return {"events": [win(None, w(seat))], "exhausted": True}




# ---- night_for_page --------------------------------------------------------------------------------------------

#: name -> (sees the night, may record, writes for the group)
KINDS = {"owner": (True, True, True), "viewer": (True, False, False), "keeper": (True, True, False),
         "group_owner": (True, True, True), "group_keeper": (True, True, True), "group_member": (True, False, False),
         "outsider": (False, False, False), "anonymous": (False, False, False)}


@pytest.mark.parametrize("kind", KINDS)
def test_night_for_page_agrees_with_the_orm_for_each_kind_of_user(kind, night, owner, viewer, keeper, outsider, group):
    users = {"owner": owner, "viewer": viewer, "keeper": keeper, "outsider": outsider, "anonymous": AnonymousUser()}
    user = users.get(kind) or User.objects.create_user(kind)
    if kind.startswith("group_"):  # a member of the night's group, not on the night itself
        role = {"owner": GroupMember.Role.OWNER, "keeper": GroupMember.Role.SCOREKEEPER}.get(kind[6:], "member")
        GroupMember.objects.create(group=group, user=user, role=role)
    page_night = night_for_page(night.pk, user)
    sees = Night.objects.visible_to(user).filter(pk=night.pk).exists()
    assert (page_night is not None, sees) == (KINDS[kind][0], KINDS[kind][0])
    if page_night is not None:
        assert (page_night.page.can_write, page_night.page.group_writer) == KINDS[kind][1:]
        assert (page_night.page.can_write, page_night.page.group_writer) == (rights.may_write_night(user, night),
                                                                             rights.may_write_group(user, night.group))
        assert page_night.pk == night.pk and page_night.page.group_name == group.name


def test_a_night_without_hands_has_no_newest_and_the_first_dealer_next_and_no_night_is_none(owner, players):
    night = services.night_create(owner=owner, title="空", date=dt.date(2026, 1, 1), base=Decimal(1), players=players,
                                  first_dealer=3)
    page = night_for_page(night.pk, owner).page
    assert (page.top_number, page.counted_number, page.newest, page.next_dealer) == (0, None, None, 3)
    assert page.latest_audit == AuditEntry.objects.get(night=night).pk
    assert (page.group_link, page.invite_link) == (None, None)
    assert night_for_page(night.pk + 1000, owner) is None


def test_night_for_page_counts_hands_voided_and_recorded_as_the_orm_does(night, owner):
    hands = [services.hand_record(night=night, by=owner, entry=self_draw(s)) for s in (1, 2, 3)]
    services.hand_void(hand=hands[2], by=owner, reason="记错了")
    page = night_for_page(night.pk, owner).page
    plain = Night.objects.get(pk=night.pk)
    assert (page.top_number, page.counted_number) == (3, 2)
    assert page.next_dealer == night_next_dealer(plain) == 2  # hand 2's self-drawing winner deals
    assert page.newest == (HandRevision.objects.get(hand=hands[2], is_current=True).pk, "voided", "记错了")
    assert page.latest_audit == max(AuditEntry.objects.filter(night=night).values_list("id", flat=True))


def test_night_for_page_shows_the_current_seats_before_and_after_a_seat_change(night, owner, group):
    before = night_for_page(night.pk, owner)
    assert list(before.page.seats) == [(p.pk, p.name) for p in night_seating(Night.objects.get(pk=night.pk))]
    newcomer = services.player_get_or_create(name="孙七", group=group)
    services.seat_change(night=night, by=owner, seat=2, player=newcomer)
    after = night_for_page(night.pk, owner)
    assert [(p.pk, p.name) for p in night_seating(after)] == [
        (p.pk, p.name) for p in night_seating(Night.objects.get(pk=night.pk))]
    assert after.page.seats[2] == (newcomer.pk, "孙七")


def test_night_for_page_carries_the_tokens_of_the_links_that_work_now(night, owner, group):
    group_services.group_link_renew(group=group, by=owner)
    join_services.link_renew(night=night, by=owner, kind=NightLink.Kind.VIEW)
    first = join_services.link_renew(night=night, by=owner, kind=NightLink.Kind.INVITE)
    second = join_services.link_renew(night=night, by=owner, kind=NightLink.Kind.INVITE)
    page = night_for_page(night.pk, owner).page
    assert page.group_link == group_services.group_link_active(group).token
    assert page.invite_link == join_services.link_active(night=night, kind=NightLink.Kind.INVITE).token
    assert page.invite_link == second.token != first.token


# ---- hand cards ------------------------------------------------------------------------------------------------

VOID_FORM = re.compile(r'action="/nights/\d+/hands/(\d+)/void/"[^>]*>\s*'
                       r'<input type="hidden" name="csrfmiddlewaretoken" value="([^"]+)"')


def signed_in(user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def void_tokens(content):
    """Hand number -> the CSRF token of its void form."""
    return {int(n): token for n, token in VOID_FORM.findall(content)}


def kept_cards(night, language):
    """The words of the night's hand cards kept in the "pieces" cache, in this language."""
    keys = [fragments._body_key(night, r.pk, r.hand.status, r.hand.void_reason, language)
            for r in HandRevision.objects.filter(hand__night=night, is_current=True).select_related("hand")]
    return [key for key in keys if caches["pieces"].get(key) is not None]


def card(content, number):
    return re.search(rf'<article[^>]*id="hand-{number}".*?</article>', content, re.S).group(0)


def test_each_viewer_gets_their_own_csrf_token_in_the_void_forms_of_shared_cards(night, owner, keeper):
    for seat in (1, 2):
        services.hand_record(night=night, by=owner, entry=self_draw(seat))
    url = f"/nights/{night.pk}/hands/"
    pages = {}
    for user in (owner, keeper):
        client = signed_in(user)
        content = client.get(url).content.decode()
        tokens = void_tokens(content)
        assert sorted(tokens) == [1, 2]
        secret = client.cookies["csrftoken"].value
        assert {_unmask_cipher_token(t) for t in tokens.values()} == {secret}
        pages[user.username] = (client, tokens, secret)
    assert len(kept_cards(night, "zh-hans")) == 2  # rendered for the owner, served to the scorekeeper too
    assert pages["owner"][2] != pages["keeper"][2]
    client, tokens, _secret = pages["keeper"]
    response = client.post(f"/nights/{night.pk}/hands/2/void/", {"csrfmiddlewaretoken": tokens[2], "reason": "打错"})
    assert response.status_code == 302
    assert Hand.objects.get(night=night, number=2).status == Hand.Status.VOIDED


def test_a_voided_hand_gets_its_own_card_with_the_reason_and_no_void_form(night, owner):
    hand = services.hand_record(night=night, by=owner, entry=self_draw(1))
    client = signed_in(owner)
    url = f"/nights/{night.pk}/hands/"
    assert "已作废" not in card(client.get(url).content.decode(), 1)
    services.hand_void(hand=hand, by=owner, reason="重复记录")
    content = client.get(url).content.decode()
    assert "已作废" in card(content, 1) and "重复记录" in card(content, 1)
    assert void_tokens(content) == {}


def test_a_corrected_hand_shows_its_new_version(night, owner):
    hand = services.hand_record(night=night, by=owner, entry=self_draw(1))
    client = signed_in(owner)
    url = f"/nights/{night.pk}/hands/"
    client.get(url)
    services.hand_correct(hand=hand, by=owner, entry=self_draw(2), reason="赢家是王五")
    shown = card(client.get(url).content.decode(), 1)
    net = HandRevision.objects.get(hand=hand, is_current=True).result["net"]
    assert "已更正 1 次：赢家是王五" in shown and f"王五&nbsp;{money(net[2])}" in shown and Decimal(net[2]) > 0


def test_the_same_card_is_kept_apart_per_language(night, owner):
    services.hand_record(night=night, by=owner, entry=self_draw(1))
    client = signed_in(owner)
    url = f"/nights/{night.pk}/hands/"
    zh = card(client.get(url).content.decode(), 1)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # pages follow the language switch, not Accept-Language
    en = card(client.get(url).content.decode(), 1)
    assert len(kept_cards(night, "zh-hans")) == len(kept_cards(night, "en")) == 1
    assert "庄" in zh and "Dealer" not in zh
    assert "Dealer" in en and "庄" not in en


def test_the_live_fragments_carry_the_viewers_token_never_the_placeholder(night, owner, keeper):
    services.hand_record(night=night, by=owner, entry=self_draw(1))
    for user in (owner, keeper):
        client = signed_in(user)
        response = client.get(f"/nights/{night.pk}/fragments/?after=0&since=0")
        assert response.status_code == 200
        cards = json.loads(response.content)["hands"]
        tokens = void_tokens(cards[0]["html"])
        assert [c["number"] for c in cards] == [1] and list(tokens) == [1]
        assert _unmask_cipher_token(tokens[1]) == client.cookies["csrftoken"].value




def test_a_hand_voided_between_reading_the_card_keys_and_rendering_still_gets_a_card(night, owner, monkeypatch):
    hand = services.hand_record(night=night, by=owner, entry=self_draw(1))
    render_query = fragments.night_hands_query

    def voided_meanwhile(n):
        services.hand_void(hand=hand, by=owner, reason="另一台手机作废了")
        return render_query(n)
    monkeypatch.setattr(fragments, "night_hands_query", voided_meanwhile)
    request = RequestFactory().get("/")
    request.user = owner
    [(number, html)] = fragments.hand_page(request, night, None, editable=True)[0]
    assert number == 1 and 'id="hand-1"' in html and "另一台手机作废了" in html  # shown as it is now


def test_the_kept_group_page_gives_each_address_its_own_invite_link(owner, night):
    """The body is kept per change of the group and viewer; the invite link in it is built from the address the
    page was opened at, so the address is part of the key (found by a walk: localhost's link at 127.0.0.1)."""
    from django.test import Client
    from ledger.services import groups as group_services
    group_services.group_link_renew(group=night.group, by=owner)
    client = Client()
    client.force_login(owner)
    first = client.get(f"/groups/{night.group_id}/", HTTP_HOST="localhost").content.decode()
    second = client.get(f"/groups/{night.group_id}/", HTTP_HOST="127.0.0.1").content.decode()
    assert "http://localhost/groups/join/" in first and "http://127.0.0.1/groups/join/" in second
    assert "http://localhost/groups/join/" not in second
