"""Reads compiled once (ledger/compiled.py, selectors.night_for_page), hand cards rendered once and served with the
viewer's own CSRF token (live/fragments.py), and plain INSERTs and UPDATEs (ledger/bulk.py): each gives what the
ORM and the uncached pages give."""
import datetime as dt
import json
import re
from decimal import Decimal

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db.models import DecimalField, ExpressionWrapper, F, OuterRef, Subquery
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client
from django.utils import timezone

from ledger import bulk, rights, services
from ledger.compiled import CompiledQuery
from ledger.evenings import services as evenings
from ledger.groups import services as group_services
from ledger.idempotency import IdempotencyRecord
from ledger.join import services as join_services
from ledger.live import fragments
from ledger.models import AuditEntry, GroupMember, Hand, HandRevision, Night, NightLink, Payment, SeatResult, Seating
from ledger.presenters import money
from ledger.selectors import night_for_page, night_next_dealer, night_seating

from .hand_helpers import w, win

User = get_user_model()


def self_draw(seat):
    return {"events": [win(None, w(seat))], "exhausted": True}


@pytest.fixture(autouse=True)
def fresh_cards(monkeypatch):
    """Cards are kept per process by revision id; SQLite hands out a rolled-back test's ids again."""
    monkeypatch.setattr(fragments, "CARDS", type(fragments.CARDS)(2000))


# ---- CompiledQuery ---------------------------------------------------------------------------------------------

def night_with_everything(owner, group, players):
    evening = evenings.evening_create(by=owner, group=group, title="周五", date=dt.date(2026, 11, 27))
    night = services.night_create(owner=owner, title="一号桌", date=dt.date(2026, 11, 27), base=Decimal("2.50"),
                                  players=players, first_dealer=2, evening=evening, venue="老茶馆",
                                  fee={"mode": "winners", "amount": "10"}, rule_overrides={"max_fan": 4})
    services.hand_record(night=night, by=owner, entry=self_draw(1))
    return services.night_close(night=night, by=owner)


def build_night(pk, user):
    first_at = AuditEntry.objects.filter(night=OuterRef("pk")).order_by("id").values("at")[:1]
    double = ExpressionWrapper(F("base") * 2, output_field=DecimalField(max_digits=14, decimal_places=2))
    return rights.with_rights(Night.objects.all(), User(pk=user)).filter(pk=pk).annotate(double=double, first_at=Subquery(first_at))


def described(instance, names):
    return [(name, type(getattr(instance, name)), repr(getattr(instance, name))) for name in names]


def test_a_compiled_query_builds_the_instance_the_orm_gets_field_for_field_and_annotation_for_annotation(
        owner, group, players, keeper):
    night = night_with_everything(owner, group, players)
    query = CompiledQuery(Night, build_night, "pk", "user")
    for user in (owner, keeper):
        orm = build_night(night.pk, user.pk).get()
        compiled = query.first(pk=night.pk, user=user.pk)
        fields = [f.attname for f in Night._meta.concrete_fields]
        assert described(compiled, fields) == described(orm, fields)
        annotations = ["user_can_write", "user_group_writer", "double", "first_at"]
        assert described(compiled, annotations) == described(orm, annotations)
        assert compiled.user_can_write is (user == owner)
    assert compiled.evening_id is not None and compiled.closed_at is not None and compiled.fee["mode"] == "winners"
    assert compiled.rules["max_fan"] == 4 and compiled.base == Decimal("2.50") and compiled._state.adding is False


def test_a_compiled_query_binds_new_values_each_call_and_builds_its_queryset_once(owner, players, group):
    nights = [services.night_create(owner=owner, title=t, date=dt.date(2026, 11, d), base=Decimal(1), players=players,
                                    first_dealer=0) for t, d in (("甲", 1), ("乙", 2))]
    built = []
    query = CompiledQuery(Night, lambda pk: built.append(pk) or Night.objects.filter(pk=pk), "pk")
    assert [query.first(pk=n.pk).title for n in nights * 2] == ["甲", "乙", "甲", "乙"]
    assert len(built) == 1


def test_a_compiled_query_gives_none_when_no_row_matches(night, outsider):
    assert CompiledQuery(Night, build_night, "pk", "user").first(pk=night.pk + 1000, user=outsider.pk) is None


def test_a_compiled_query_refuses_select_related(night):
    query = CompiledQuery(Night, lambda pk: Night.objects.select_related("group").filter(pk=pk), "pk")
    with pytest.raises(ValueError, match="select_related"):
        query.first(pk=night.pk)


def test_a_compiled_query_refuses_a_value_its_sql_does_not_use(night, owner):
    query = CompiledQuery(Night, lambda pk, user: Night.objects.filter(pk=pk), "pk", "user")
    with pytest.raises(ValueError, match="user"):
        query.first(pk=night.pk, user=owner.pk)


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
        assert fragments.CSRF_PLACEHOLDER not in content
        tokens = void_tokens(content)
        assert sorted(tokens) == [1, 2]
        secret = client.cookies["csrftoken"].value
        assert {_unmask_cipher_token(t) for t in tokens.values()} == {secret}
        pages[user.username] = (client, tokens, secret)
    assert len(fragments.CARDS) == 2  # rendered for the owner, served to the scorekeeper too
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
    assert "v2" in shown and f"王五&nbsp;{money(net[2])}" in shown and Decimal(net[2]) > 0


def test_the_same_card_is_kept_apart_per_language(night, owner):
    services.hand_record(night=night, by=owner, entry=self_draw(1))
    client = signed_in(owner)
    url = f"/nights/{night.pk}/hands/"
    zh = card(client.get(url).content.decode(), 1)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # pages follow the language switch, not Accept-Language
    en = card(client.get(url).content.decode(), 1)
    assert len(fragments.CARDS) == 2
    assert "庄" in zh and "Dealer" not in zh
    assert "Dealer" in en and "庄" not in en


def test_the_live_fragments_carry_the_viewers_token_never_the_placeholder(night, owner, keeper):
    services.hand_record(night=night, by=owner, entry=self_draw(1))
    for user in (owner, keeper):
        client = signed_in(user)
        response = client.get(f"/nights/{night.pk}/fragments/?after=0&since=0")
        assert response.status_code == 200 and fragments.CSRF_PLACEHOLDER.encode() not in response.content
        cards = json.loads(response.content)["hands"]
        tokens = void_tokens(cards[0]["html"])
        assert [c["number"] for c in cards] == [1] and list(tokens) == [1]
        assert _unmask_cipher_token(tokens[1]) == client.cookies["csrftoken"].value


def test_the_card_cache_keeps_at_most_its_size_and_drops_the_least_recently_used():
    cache = type(fragments.CARDS)(3)
    for key in "abc":
        cache.put((key,), key.upper())
    assert cache.get(("a",)) == "A"  # now the most recently used
    cache.put(("d",), "D")
    assert len(cache) == 3
    assert [cache.get((k,)) for k in "abcd"] == ["A", None, "C", "D"]


# ---- bulk ------------------------------------------------------------------------------------------------------

def test_insert_all_writes_rows_the_orm_reads_back_equal(night, owner, players):
    hand = services.hand_record(night=night, by=owner, entry=self_draw(1))
    revision = HandRevision.objects.get(hand=hand)
    old = HandRevision.objects.create(hand=hand, version=9, is_current=False, dealer=0, player_0=players[0],
                                      player_1=players[1], player_2=players[2], player_3=players[3], record={},
                                      result={}, created_by=owner)
    payments = [Payment(revision=old, position=i, event=None if i else 4, payer=players[i], payee=players[3],
                        payer_seat=i, payee_seat=3, amount=Decimal("1.2500") * (i + 1), reason="kong")
                for i in range(3)]
    results = [SeatResult(revision=old, seat=s, player=players[s], net=Decimal(s) - Decimal("1.5"), won=s == 3,
                          self_drawn=s == 3, fan=2 if s == 3 else None, pattern="ping_hu" if s == 3 else "")
               for s in range(4)]
    bulk.insert_all(payments)
    bulk.insert_all(results)
    rows = Payment.objects.filter(revision=old).order_by("position").values_list(
        "position", "event", "payer", "payee", "amount", "reason")
    assert list(rows) == [(p.position, p.event, p.payer_id, p.payee_id, p.amount, "kong") for p in payments]
    stored = SeatResult.objects.filter(revision=old).order_by("seat").values_list(
        "seat", "player", "net", "won", "self_drawn", "dealt_in", "pattern", "fan", "won_amount")
    assert list(stored) == [(r.seat, r.player_id, r.net, r.won, r.self_drawn, 0, r.pattern, r.fan, Decimal(0))
                            for r in results]
    assert SeatResult.objects.filter(revision=revision).count() == 4  # the hand's own rows untouched


def test_insert_sets_the_id_and_the_creation_time(night, owner):
    start = timezone.now()
    entry = AuditEntry(night=night, group_id=night.group_id, actor=owner, action=AuditEntry.Action.SEAT_CHANGED,
                       after={"seat": 1, "amount": "2.5"})
    assert bulk.insert(entry) is True
    stored = AuditEntry.objects.get(pk=entry.pk)
    assert entry.pk is not None and entry._state.adding is False
    assert start <= stored.at <= timezone.now() and stored.at == entry.at
    assert stored.after == {"seat": 1, "amount": "2.5"}


def test_insert_unless_exists_inserts_nothing_when_the_unique_row_is_there(night, owner, players):
    first = IdempotencyRecord(user=owner, key="k-1", endpoint="POST /x", request_hash="a" * 64)
    again = IdempotencyRecord(user=owner, key="k-1", endpoint="POST /y", request_hash="b" * 64)
    assert bulk.insert(first, unless_exists=("user", "key")) is True
    assert bulk.insert(again, unless_exists=("user", "key")) is False
    assert again.pk is None and again._state.adding is True
    assert list(IdempotencyRecord.objects.values_list("endpoint", flat=True)) == ["POST /x"]
    seat = Seating(night=night, seat=0, player=players[1])
    assert bulk.insert(seat, unless_exists=("night", "seat")) is False
    assert Seating.objects.get(night=night, seat=0).player_id == players[0].pk


def test_update_writes_only_the_named_fields(owner):
    record = IdempotencyRecord(user=owner, key="k-2", endpoint="POST /x", request_hash="a" * 64)
    bulk.insert(record)
    created = IdempotencyRecord.objects.get(pk=record.pk).created_at
    record.status_code, record.response = 201, {"amount": Decimal("2.50"), "ok": True}
    record.endpoint, record.request_hash = "POST /changed", "c" * 64
    bulk.update(record, ["status_code", "response"])
    stored = IdempotencyRecord.objects.get(pk=record.pk)
    assert (stored.status_code, stored.response) == (201, {"amount": "2.50", "ok": True})
    assert (stored.endpoint, stored.request_hash, stored.created_at) == ("POST /x", "a" * 64, created)


def test_update_writes_a_named_creation_time_as_save_does(owner):
    record = IdempotencyRecord(user=owner, key="k-3", endpoint="POST /x", request_hash="a" * 64)
    bulk.insert(record)
    earlier = timezone.now() - dt.timedelta(days=3)
    record.created_at = earlier
    record.save(update_fields=["created_at"])
    assert IdempotencyRecord.objects.get(pk=record.pk).created_at == earlier  # what update() promises to match
    bulk.update(record, ["created_at"])
    assert IdempotencyRecord.objects.get(pk=record.pk).created_at == earlier


def test_a_hand_voided_between_reading_the_card_keys_and_rendering_still_gets_a_card(night, owner, monkeypatch):
    hand = services.hand_record(night=night, by=owner, entry=self_draw(1))
    render_query = fragments.night_hands_query

    def voided_meanwhile(n):
        services.hand_void(hand=hand, by=owner, reason="另一台手机作废了")
        return render_query(n)
    monkeypatch.setattr(fragments, "night_hands_query", voided_meanwhile)
    [(number, html)] = fragments.hand_page(night, None, editable=True)[0]
    assert number == 1 and 'id="hand-1"' in html and "另一台手机作废了" in html  # shown as it is now


def test_the_kept_group_page_gives_each_address_its_own_invite_link(owner, night):
    """The body is kept per change of the group and viewer; the invite link in it is built from the address the
    page was opened at, so the address is part of the key (found by a walk: localhost's link at 127.0.0.1)."""
    from django.test import Client
    from ledger.groups import services as group_services
    group_services.group_link_renew(group=night.group, by=owner)
    client = Client()
    client.force_login(owner)
    first = client.get(f"/groups/{night.group_id}/", HTTP_HOST="localhost").content.decode()
    second = client.get(f"/groups/{night.group_id}/", HTTP_HOST="127.0.0.1").content.decode()
    assert "http://localhost/groups/join/" in first and "http://127.0.0.1/groups/join/" in second
    assert "http://localhost/groups/join/" not in second
