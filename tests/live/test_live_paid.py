"""已付 marks are live: the settle page and the view link show who has paid as soon as a transfer is marked, and a
page offers 已付 exactly where the service accepts it (one rule: rights.may_mark_transfer)."""
import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from ledger import rights
from ledger.services import nights as services
from ledger.services import evenings as paying
from ledger.services import groups
from ledger.services import sharing as join_services

from tests.conftest import api_client
from tests.evening_helpers import on_discard
from tests.live_helpers import listen, run, session_headers

pytestmark = pytest.mark.usefixtures("keep_the_test_transactions_connection")


@pytest.fixture
def settled(night, owner):
    services.hand_record(night=night, by=owner, entry=on_discard(1, 0))  # 张三 pays 李四
    services.night_close(night=night, by=owner)
    settlement = paying.settle_night(by=owner, night=night)
    return settlement.transfers.get()


def _fragment(client, url):
    response = client.get(url, {"after": 0, "since": 0, "pieces": "paid"})
    assert response.status_code == 200
    return json.loads(response.content)["pieces"]["paid"]


def test_marking_a_transfer_paid_is_told_on_the_nights_socket(night, owner, viewer, settled,
                                                             django_capture_on_commit_callbacks):
    headers = session_headers(viewer)

    async def scenario():
        socket = listen(f"/ws/nights/{night.pk}/", headers)
        assert (await socket.connect())[0]

        def mark():
            with django_capture_on_commit_callbacks(execute=True):
                paying.transfer_mark_paid(by=owner, transfer=settled)
        await database_sync_to_async(mark)()
        event = await socket.receive_json_from(timeout=2)
        await socket.disconnect()
        return event
    assert run(scenario)["kind"] == "transfer_marked"


def test_the_settle_page_and_the_view_link_fetch_the_paid_state(night, owner, settled):
    keeper = Client()
    keeper.force_login(owner)
    before = _fragment(keeper, f"/nights/{night.pk}/fragments/")
    assert "标记已付" in before and "✓" not in before
    paying.transfer_mark_paid(by=owner, transfer=settled)
    after = _fragment(keeper, f"/nights/{night.pk}/fragments/")
    assert "✓ 已付" in after and "撤销" in after

    view = join_services.link_renew(night=night, by=owner, kind="view")
    page = Client().get(f"/v/{view.token}/").content.decode()
    assert 'data-live="paid"' in page and "✓ 已付" in page and "<form method=\"post\" action=\"/settlements" not in page
    fetched = _fragment(keeper, f"/v/{view.token}/fragments/")  # signed in, yet on the view link: no marks
    assert "✓ 已付" in fetched and "<form" not in fetched


def test_a_name_claimed_after_the_settlement_is_not_offered_the_mark_the_service_refuses(night, owner, viewer,
                                                                                         settled, group):
    groups.group_join(token=groups.group_link_renew(group=group, by=owner).token, user=viewer)
    groups.player_claim(player=settled.payer, user=viewer)  # 张三's name, claimed after the settlement
    member = Client()
    member.force_login(viewer)
    page = member.get(f"/nights/{night.pk}/settle/").content.decode()
    assert "标记已付" not in page
    # ... and says why (a walk: 未付 with no button and no reason), at that transfer only.
    row = page.split(f'id="transfer-{settled.position}"')[1].split("</li>")[0]
    assert "你在结算之后才认领这个名字，由对方或圈主、记分员标记" in row
    assert page.count("你在结算之后才认领这个名字") == 1
    assert "你在结算之后" not in client_for_owner(owner).get(f"/nights/{night.pk}/settle/").content.decode()
    assert member.post(f"/settlements/{settled.settlement_id}/transfers/{settled.position}/paid/").status_code in (302, 403)
    settled.refresh_from_db()
    assert settled.paid_at is None


def client_for_owner(owner):
    client = Client()
    client.force_login(owner)
    return client


@pytest.mark.parametrize("who, may", [
    ("the group's owner", True),
    ("the payee, claimed before the settlement", True),
    ("the payer, claimed after the settlement", False),
    ("a group member who claimed no name", False),
    ("the night's scorekeeper outside the group", False),
])
def test_the_settle_page_offers_paid_and_undo_exactly_where_the_service_accepts_them(night, owner, viewer, keeper,
                                                                                   players, group, who, may):
    """The page asks rights.may_mark_transfer, the rule of the service: each control is shown iff
    posting it (the page's form, then the API) is accepted."""
    def member(user):
        groups.group_join(token=groups.group_link_renew(group=group, by=owner).token, user=user)

    user = {"the group's owner": owner, "the payee, claimed before the settlement": keeper,
            "the night's scorekeeper outside the group": keeper}.get(who, viewer)
    if who == "the payee, claimed before the settlement":
        member(keeper)
        groups.player_claim(player=players[1], user=keeper)  # 李四, who is paid
    services.hand_record(night=night, by=owner, entry=on_discard(1, 0))  # 张三 pays 李四
    services.night_close(night=night, by=owner)
    transfer = paying.settle_night(by=owner, night=night).transfers.get()
    if who == "the payer, claimed after the settlement":
        member(viewer)
        groups.player_claim(player=players[0], user=viewer)  # 张三's name, claimed after the settlement
    elif who == "a group member who claimed no name":
        member(viewer)
    client = Client()
    client.force_login(user)
    settle_page = f"/nights/{night.pk}/settle/"
    mark = f"/settlements/{transfer.settlement_id}/transfers/{transfer.position}/paid/"

    page = client.get(settle_page).content.decode()
    assert "李四" in page  # the fixed settlement is on the page for everyone here
    offered = f'action="{mark}"' in page
    client.post(mark)
    transfer.refresh_from_db()
    assert offered == (transfer.paid_at is not None) == may

    if not may:
        paying.transfer_mark_paid(by=owner, transfer=transfer)
    page = client.get(settle_page).content.decode()
    offered = f'action="{mark.removesuffix("paid/")}unpaid/"' in page
    undone = api_client(user).post(f"/api{mark.removesuffix('paid/')}unpaid/")
    transfer.refresh_from_db()
    assert offered == (undone.status_code == 200) == (transfer.paid_at is None) == may


def test_a_claim_merged_into_the_payer_keeps_its_time_so_it_still_came_after_the_settlement(night, owner, viewer,
                                                                                               settled, group):
    """A name claimed after the settlement, then merged into the (unclaimed) payer: the claim moves with its time,
    so the claimed-after rule still holds there (before, the moved claim had no time and counted as older)."""
    groups.group_join(token=groups.group_link_renew(group=group, by=owner).token, user=viewer)
    alias = groups.player_create(group=group, by=owner, name="小张")
    groups.player_claim(player=alias, user=viewer)  # claimed after the settlement
    alias.refresh_from_db()
    claimed_at = alias.claimed_at
    assert claimed_at is not None
    payer = groups.player_merge(source=alias, into=settled.payer, by=owner)
    assert payer.user_id == viewer.pk and payer.claimed_at == claimed_at
    alias.refresh_from_db()
    assert alias.user_id is None and alias.claimed_at is None
    assert not rights.may_mark_transfer(viewer, settled, settlement=settled.settlement)
    member = Client()
    member.force_login(viewer)
    assert "标记已付" not in member.get(f"/nights/{night.pk}/settle/").content.decode()
    member.post(f"/settlements/{settled.settlement_id}/transfers/{settled.position}/paid/")
    settled.refresh_from_db()
    assert settled.paid_at is None
