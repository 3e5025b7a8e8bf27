"""Live pages: who may listen to a night's socket, what they hear, and the fragments a page fetches."""
import json

import pytest
from channels.db import database_sync_to_async
from django.db import transaction
from django.test import Client

from ledger.services import nights as services
from ledger.services import sharing as join_services
from ledger.models import NightLink

from tests.hand_helpers import w, win
from tests.live_helpers import listen, run, session_headers

SELF_DRAW_THEN_WALL_OUT = {"events": [win(None, w(1))], "exhausted": True}

pytestmark = pytest.mark.usefixtures("keep_the_test_transactions_connection")


async def refusal(socket):
    """How a socket is turned away: the close code the browser reads (the consumer accepts, then closes with 4403;
    a socket stopped earlier, by the origin check, never connects: None)."""
    connected, code = await socket.connect()
    if not connected:
        return code
    closed = await socket.receive_output(timeout=2)
    assert closed["type"] == "websocket.close"
    return closed["code"]


def test_an_outsiders_socket_is_refused(night, outsider):
    headers = session_headers(outsider)

    async def scenario():
        return await refusal(listen(f"/ws/nights/{night.pk}/", headers))
    assert run(scenario) == 4403


def test_a_signed_out_socket_is_refused(night):
    async def scenario():
        return await refusal(listen(f"/ws/nights/{night.pk}/"))
    assert run(scenario) == 4403


def test_a_socket_from_another_site_is_refused(night, viewer):
    headers = [(b"origin", b"http://evil.example"), (b"host", b"testserver")] + session_headers(viewer)[2:]

    async def scenario():
        connected, _code = await listen(f"/ws/nights/{night.pk}/", headers).connect()
        return connected
    assert run(scenario) is False


def test_a_members_socket_receives_the_hand_recorded(night, viewer, owner, django_capture_on_commit_callbacks):
    headers = session_headers(viewer)

    async def scenario():
        socket = listen(f"/ws/nights/{night.pk}/", headers)
        connected, _ = await socket.connect()
        assert connected

        def record():
            with django_capture_on_commit_callbacks(execute=True):
                services.hand_record(night=night, by=owner, entry=SELF_DRAW_THEN_WALL_OUT)
        await database_sync_to_async(record)()
        event = await socket.receive_json_from(timeout=2)
        await socket.disconnect()
        return event
    event = run(scenario)
    # 李四 won first, so 李四 (seat 1) deals the next hand.
    assert event == {"kind": "hand_recorded", "night": night.pk, "number": 1, "next_dealer": 1, "hand_count": 1}


def test_every_kind_of_change_is_told(night, keeper, players, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        hand = services.hand_record(night=night, by=keeper, entry=SELF_DRAW_THEN_WALL_OUT)
        services.hand_correct(hand=hand, by=keeper, entry={"events": [], "exhausted": True}, reason="typo")
        services.hand_void(hand=hand, by=keeper, reason="wrong table")
        services.seat_change(night=night, by=keeper, seat=2, player=services.player_get_or_create(name="钱七", group=night.group))
        services.night_close(night=night, by=keeper)
    assert len(callbacks) == 5


def test_a_write_that_rolls_back_publishes_nothing(night, owner, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        with pytest.raises(RuntimeError):
            with transaction.atomic():
                services.hand_record(night=night, by=owner, entry=SELF_DRAW_THEN_WALL_OUT)
                raise RuntimeError("the request failed after the write")
    assert callbacks == [] and night.hands.count() == 0


def test_a_view_link_socket_listens_until_the_link_is_revoked(night, owner, django_capture_on_commit_callbacks):
    link = join_services.link_renew(night=night, by=owner, kind=NightLink.Kind.VIEW)

    async def scenario():
        socket = listen(f"/ws/view/{link.token}/")
        connected, _ = await socket.connect()
        assert connected

        def record_then_revoke():
            with django_capture_on_commit_callbacks(execute=True):
                services.hand_record(night=night, by=owner, entry=SELF_DRAW_THEN_WALL_OUT)
            with django_capture_on_commit_callbacks(execute=True):
                join_services.link_turn_off(night=night, by=owner, kind=NightLink.Kind.VIEW)
        await database_sync_to_async(record_then_revoke)()
        event = await socket.receive_json_from(timeout=2)
        closed = await socket.receive_output(timeout=2)
        again = await refusal(listen(f"/ws/view/{link.token}/"))
        return event["kind"], closed, again
    kind, closed, again = run(scenario)
    assert kind == "hand_recorded"
    assert closed == {"type": "websocket.close", "code": 4403}
    assert again == 4403


def test_a_removed_members_socket_is_closed(night, owner, viewer, django_capture_on_commit_callbacks):
    headers = session_headers(viewer)

    async def scenario():
        socket = listen(f"/ws/nights/{night.pk}/", headers)
        assert (await socket.connect())[0]

        def remove():
            with django_capture_on_commit_callbacks(execute=True):
                join_services.member_remove(night=night, by=owner, user=viewer)
        await database_sync_to_async(remove)()
        return await socket.receive_output(timeout=2)
    assert run(scenario) == {"type": "websocket.close", "code": 4403}


def test_a_member_made_scorekeeper_is_told_on_their_socket_only(night, owner, viewer, keeper,
                                                                   django_capture_on_commit_callbacks):
    mine, theirs = session_headers(viewer), session_headers(keeper)

    async def scenario():
        member = listen(f"/ws/nights/{night.pk}/", mine)
        other = listen(f"/ws/nights/{night.pk}/", theirs)
        assert (await member.connect())[0] and (await other.connect())[0]

        def promote():
            with django_capture_on_commit_callbacks(execute=True):
                join_services.member_set_role(night=night, by=owner, user=viewer, role="scorekeeper")
        await database_sync_to_async(promote)()
        told = await member.receive_json_from(timeout=2)
        others_heard_nothing = await other.receive_nothing(timeout=0.3)
        await member.disconnect()
        await other.disconnect()
        return told, others_heard_nothing
    told, others_heard_nothing = run(scenario)
    assert told == {"kind": "role_changed", "night": night.pk} and others_heard_nothing


def test_a_random_token_opens_no_socket(night):
    async def scenario():
        return await refusal(listen("/ws/view/not-a-real-token-at-all/"))
    assert run(scenario) == 4403


def fragments(client, url, **params):
    response = client.get(url, params)
    assert response.status_code == 200, response.status_code
    return json.loads(response.content)


def test_fragments_bring_hands_after_the_last_number_and_those_changed_since(night, owner, keeper):
    client = Client()
    client.force_login(owner)
    url = f"/nights/{night.pk}/fragments/"
    first = services.hand_record(night=night, by=keeper, entry=SELF_DRAW_THEN_WALL_OUT)
    start = fragments(client, url, after=0, since=0, pieces="head,seats,settlement")
    assert [h["number"] for h in start["hands"]] == [1] and start["last"] == 1
    assert set(start["pieces"]) == {"head", "seats", "settlement"}
    assert "李四" in start["pieces"]["seats"] and "+6" in start["pieces"]["seats"]
    services.hand_record(night=night, by=keeper, entry=SELF_DRAW_THEN_WALL_OUT)
    services.hand_void(hand=first, by=keeper, reason="wrong table")
    update = fragments(client, url, after=start["last"], since=start["stamp"], pieces="seats")
    assert [h["number"] for h in update["hands"]] == [1, 2]
    assert "已作废" in update["hands"][0]["html"] and update["hand_count"] == 2
    nothing = fragments(client, url, after=update["last"], since=update["stamp"], pieces="")
    assert nothing["hands"] == [] and nothing["pieces"] == {}


VIEW_PIECES = "head,seats,settlement,paid,confirmations"  # what the view link's page asks for (ledger/live/views.py)


def test_a_view_links_fetch_reads_the_seats_and_the_totals_once_whatever_the_hands(night, owner, keeper,
                                                                                django_assert_max_num_queries):
    """Every piece reads the seats, the seats and the settlement the same totals: one read each per fetch (it was
    21 statements, the seats five times and the totals twice), and no more at 6 hands than at 1."""
    link = join_services.link_renew(night=night, by=owner, kind=NightLink.Kind.VIEW)
    url = f"/v/{link.token}/fragments/"
    client = Client()
    counts = []
    for hands in (1, 5):
        for _ in range(hands):
            services.hand_record(night=night, by=keeper, entry=SELF_DRAW_THEN_WALL_OUT)
        last = night.hands.count() - 1
        with django_assert_max_num_queries(13) as queries:
            data = fragments(client, url, after=last, since=0, pieces=VIEW_PIECES)
        counts.append(len(queries))
        assert set(data["pieces"]) == set(VIEW_PIECES.split(",")) and data["last"] == last + 1
        seats_total = f"+{6 * (last + 1)}"  # 李四's self-draws, as the settlement says too
        assert seats_total in data["pieces"]["seats"] and data["next_dealer"] == 1
    assert counts[0] == counts[1]


def test_a_hand_saved_while_fragments_are_read_comes_with_the_next_fetch(night, owner, keeper, monkeypatch):
    """The stamp a page gets back is never newer than what it came with: a hand that commits while the fragments
    are read (here: just before the stamp is read) is brought by the next fetch, since that stamp."""
    from ledger.live import fragments as live_fragments
    real, saved = live_fragments.stamp, []

    def a_hand_commits_meanwhile(n):
        if not saved and n.hands.exists():  # the second read of the stamp: while the first fetch is read
            saved.append(services.hand_record(night=night, by=keeper, entry=SELF_DRAW_THEN_WALL_OUT))
        return real(n)

    services.hand_record(night=night, by=keeper, entry=SELF_DRAW_THEN_WALL_OUT)
    client = Client()
    client.force_login(owner)
    url = f"/nights/{night.pk}/fragments/"
    monkeypatch.setattr(live_fragments, "stamp", a_hand_commits_meanwhile)
    first = fragments(client, url, after=0, since=0, pieces="")
    assert saved, "the hand was saved during the fetch"
    later = fragments(client, url, after=first["last"], since=first["stamp"], pieces="")
    assert max([first["last"], later["last"]]) == 2
    assert first["counted"] == 2 or (later["stamp"] != first["stamp"] and later["counted"] == 2)


def test_the_last_hand_and_the_pieces_are_never_older_than_the_cards_sent(night, owner, keeper, monkeypatch):
    """A hand that commits while the cards are read comes as a card and in `last`, the head and the seats alike:
    they are read after the cards."""
    from ledger.live import fragments as live_fragments
    real, saved = live_fragments._card_keys, []

    def a_hand_commits_first(hands):
        if not saved:
            saved.append(services.hand_record(night=night, by=keeper, entry=SELF_DRAW_THEN_WALL_OUT))
        return real(hands)

    services.hand_record(night=night, by=keeper, entry=SELF_DRAW_THEN_WALL_OUT)
    client = Client()
    client.force_login(owner)
    monkeypatch.setattr(live_fragments, "_card_keys", a_hand_commits_first)
    data = fragments(client, f"/nights/{night.pk}/fragments/", after=0, since=0, pieces="head,seats")
    assert [h["number"] for h in data["hands"]] == [1, 2] and data["last"] == data["hand_count"] == 2
    assert "+12" in data["pieces"]["seats"]  # 李四's two self-draws


def test_fragments_of_a_member_who_may_only_look_have_no_write_controls(night, viewer, keeper):
    services.hand_record(night=night, by=keeper, entry=SELF_DRAW_THEN_WALL_OUT)
    client = Client()
    client.force_login(viewer)
    data = fragments(client, f"/nights/{night.pk}/fragments/", after=0, since=0, pieces="seats")
    assert "<form" not in data["hands"][0]["html"] and "<button" not in data["pieces"]["seats"]


def test_fragments_are_not_for_outsiders(night, outsider):
    client = Client()
    client.force_login(outsider)
    assert client.get(f"/nights/{night.pk}/fragments/").status_code == 404


@pytest.mark.parametrize("url, pieces", [("/nights/{pk}/", ["head", "seats", "confirmations"]),
                                         ("/nights/{pk}/hands/", []),
                                         ("/nights/{pk}/settle/", ["settlement", "paid", "confirmations"])])
def test_every_page_of_a_night_listens_to_its_socket(night, viewer, url, pieces):
    client = Client()
    client.force_login(viewer)
    page = client.get(url.format(pk=night.pk)).content.decode()
    config = json.loads(page.split('<script id="live-config" type="application/json">')[1].split("</script>")[0])
    assert config["socket"] == f"/ws/nights/{night.pk}/" and config["pieces"] == pieces
    assert config["fragments"] == f"/nights/{night.pk}/fragments/"
    assert '<script src="/static/ledger/follow.js"></script><script src="/static/ledger/live.js">' in page


def test_an_evening_socket_hears_its_tables_a_table_added_and_the_settlement(
        owner, viewer, outsider, players, django_capture_on_commit_callbacks):
    """/ws/evenings/<pk>/ (the evening page): the group's members only; it hears a hand at any table of the evening,
    a table added (and from then on that table's hands), the evening settled and a transfer of the group marked paid
    anywhere; a member taken out of the group is closed."""
    from ledger.services import evenings
    from ledger.services.groups import membership_remove
    from tests.evening_helpers import DATE, NAMES, self_draw, table
    from tests.group_helpers import add
    group = players[0].group
    add(group, viewer, "member")
    evening = evenings.evening_create(by=owner, group=group, title="周五麻将局", date=DATE)
    first = table(owner, group, evening, NAMES[:4])
    before = table(owner, group, None, NAMES[:4], hands=[self_draw(2)], title="上周")
    elsewhere = evenings.settle_night(by=owner, night=services.night_close(night=before, by=owner)).transfers.first()
    headers, outsiders = session_headers(viewer), session_headers(outsider)

    async def scenario():
        refused = await refusal(listen(f"/ws/evenings/{evening.pk}/", outsiders))
        socket = listen(f"/ws/evenings/{evening.pk}/", headers)
        assert (await socket.connect())[0]
        heard = []

        def step(write):
            with django_capture_on_commit_callbacks(execute=True):
                return write()
        await database_sync_to_async(step)(lambda: services.hand_record(night=first, by=owner,
                                                                         entry=self_draw(1)))
        heard.append(await socket.receive_json_from(timeout=2))
        second = await database_sync_to_async(step)(lambda: table(owner, group, evening, NAMES[4:8]))
        heard.append(await socket.receive_json_from(timeout=2))
        await database_sync_to_async(step)(lambda: services.hand_record(night=second, by=owner,
                                                                         entry=self_draw(0)))
        heard.append(await socket.receive_json_from(timeout=2))

        def settle():
            for night in (first, second):
                services.night_close(night=night, by=owner)
            evenings.settle_evening(by=owner, evening=evening)
        await database_sync_to_async(step)(settle)
        while (event := await socket.receive_json_from(timeout=2))["kind"] != "money_changed":
            assert event["kind"] == "night_closed"
        heard.append(event)
        # A transfer of another settlement of the group marked paid: what this evening may carry has moved (a walk:
        # the carry-over showed a transfer paid meanwhile, and 结算 fixed other amounts than it showed).
        await database_sync_to_async(step)(lambda: evenings.transfer_mark_paid(by=owner, transfer=elsewhere))
        while (event := await socket.receive_json_from(timeout=2))["kind"] != "money_changed":
            pass
        heard.append(event)
        await database_sync_to_async(step)(lambda: membership_remove(group=group, by=owner, user=viewer))
        closed = await socket.receive_output(timeout=2)
        return refused, heard, closed, first.pk, second.pk
    refused, heard, closed, first_pk, second_pk = run(scenario)
    assert refused == 4403
    assert heard == [{"kind": "hand_recorded", "night": first_pk}, {"kind": "table_added", "night": second_pk},
                     {"kind": "hand_recorded", "night": second_pk}, {"kind": "money_changed", "night": None},
                     {"kind": "money_changed", "night": None}]
    assert closed == {"type": "websocket.close", "code": 4403}
