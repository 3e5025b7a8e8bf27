"""Sign-off of a closed night (签字确认, issue 21 §2): who may confirm, twice is once, where it shows (night API,
pages, group page, settle page), audit and live, and what clears the confirmations (a merge of names)."""

import pytest
from django.test import Client
from django.urls import reverse

from ledger.services import nights as services
from ledger.services import groups
from ledger.models import GroupMember
from ledger.models import AuditEntry, Confirmation, Night

from tests.conftest import api_client
from tests.factories import post_json as post
from tests.hand_helpers import w, win

SELF_DRAW = {"events": [win(None, w(1, "qing_yi_se", 1))], "exhausted": True}


@pytest.fixture
def claimed(night, owner, viewer, players):
    """A closed night of one hand where the viewer (a member of the night) claimed 王五's name."""
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    players[2].user = viewer
    players[2].save()
    return night


def close(night, owner):
    services.night_close(night=night, by=owner)


def test_a_claimed_player_confirms_a_closed_night_once(claimed, owner, viewer):
    close(claimed, owner)
    client = api_client(viewer)
    first = post(client, reverse("api-confirm", args=[claimed.pk]))
    assert first.status_code == 200, first.content
    assert [(c["player"], c["seat"], c["account"]) for c in first.json()] == [("王五", 2, "viewer")]
    again = post(client, reverse("api-confirm", args=[claimed.pk]))
    assert again.json() == first.json()
    assert Confirmation.objects.count() == 1
    assert AuditEntry.objects.filter(action=AuditEntry.Action.NIGHT_CONFIRMED).count() == 1
    detail = client.get(reverse("api-night", args=[claimed.pk])).json()
    assert detail["confirmations"] == first.json() and detail["confirmations"][0]["at"]


def test_an_open_night_cannot_be_confirmed_yet(claimed, viewer):
    response = post(api_client(viewer), reverse("api-confirm", args=[claimed.pk]))
    assert response.status_code == 400 and not Confirmation.objects.exists()


def test_a_member_who_is_not_a_claimed_player_gets_a_clear_403_and_an_outsider_404(claimed, owner, keeper, outsider):
    close(claimed, owner)
    refused = post(api_client(keeper), reverse("api-confirm", args=[claimed.pk]))
    assert refused.status_code == 403
    assert "认领" in refused.json()["errors"][0]["message"]
    english = post(api_client(keeper), reverse("api-confirm", args=[claimed.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert "claimed" in english.json()["errors"][0]["message"]
    assert post(api_client(outsider), reverse("api-confirm", args=[claimed.pk])).status_code == 404
    assert not Confirmation.objects.exists()


def test_confirming_is_told_live(claimed, owner, viewer, django_capture_on_commit_callbacks, monkeypatch):
    close(claimed, owner)
    sent = []
    monkeypatch.setattr("ledger.services.events._send", lambda night_id, message: sent.append(message))
    with django_capture_on_commit_callbacks(execute=True):
        post(api_client(viewer), reverse("api-confirm", args=[claimed.pk]))
    assert [m["event"]["kind"] for m in sent] == ["confirmations_changed"]


def test_the_pages_show_who_confirmed_and_offer_the_button_to_the_player(claimed, owner, viewer, group):
    close(claimed, owner)
    page = Client()
    page.force_login(viewer)
    table = page.get(reverse("night-table", args=[claimed.pk])).content.decode()
    assert 'action="/nights/%d/confirm/"' % claimed.pk in table and "签字确认" in table
    done = page.post(reverse("night-confirm", args=[claimed.pk]), HTTP_REFERER=f"http://testserver/nights/{claimed.pk}/")
    assert done.status_code == 302 and done["Location"] == f"/nights/{claimed.pk}/"
    table = page.get(reverse("night-table", args=[claimed.pk])).content.decode()
    assert "viewer 已确认" in table and 'action="/nights/%d/confirm/"' % claimed.pk not in table
    owners = Client()
    owners.force_login(owner)
    settle = owners.get(reverse("night-settle", args=[claimed.pk])).content.decode()
    # Settling is still offered, and says who has not confirmed: here only names nobody claimed, who cannot.
    assert "名字没人认领，不能确认：张三、李四、赵六" in settle and "仍可结算" in settle
    assert "还没确认" not in settle
    assert reverse("night-settle-up", args=[claimed.pk]) in settle
    home = owners.get(reverse("group-home", args=[group.pk])).content.decode()
    assert "已确认：王五" in home


def test_the_view_link_shows_confirmations_without_a_button(claimed, owner, viewer):
    from ledger.services import sharing as join_services
    close(claimed, owner)
    post(api_client(viewer), reverse("api-confirm", args=[claimed.pk]))
    link = join_services.link_renew(night=claimed, by=owner, kind="view")
    page = Client().get(reverse("view-link", args=[link.token])).content.decode()
    assert "viewer 已确认" in page and "/confirm/" not in page


def test_a_merge_of_a_closed_nights_player_clears_its_confirmations_and_says_why(claimed, owner, viewer, group):
    close(claimed, owner)
    post(api_client(viewer), reverse("api-confirm", args=[claimed.pk]))
    alias = services.player_get_or_create(name="钱七", group=group)
    groups.player_merge(source=claimed.seating.get(seat=0).player, into=alias, by=owner)
    assert not Confirmation.objects.exists()
    entry = AuditEntry.objects.get(action=AuditEntry.Action.CONFIRMS_CLEARED)
    assert entry.before == {"confirmed": ["王五"]} and entry.after == {"cause": "merge", "from": "张三", "into": "钱七"}
    client = Client()
    client.force_login(viewer)
    table = client.get(reverse("night-table", args=[claimed.pk])).content.decode()
    assert "确认已清除：张三 已合并到 钱七" in table
    # Confirming again clears the note.
    client.post(reverse("night-confirm", args=[claimed.pk]))
    assert "确认已清除" not in client.get(reverse("night-table", args=[claimed.pk])).content.decode()


def test_a_closed_night_refuses_corrections_so_confirmations_stand(claimed, owner, viewer):
    close(claimed, owner)
    post(api_client(viewer), reverse("api-confirm", args=[claimed.pk]))
    owner_api = api_client(owner)
    assert post(owner_api, reverse("api-hand-void", args=[claimed.pk, 1]), {"reason": "x"}).status_code == 400
    assert Confirmation.objects.count() == 1


def test_a_group_member_who_claimed_confirms(claimed, owner, group, django_user_model):
    friend = django_user_model.objects.create_user("friend", password="x")
    GroupMember.objects.create(group=group, user=friend, role=GroupMember.Role.MEMBER)
    groups.player_claim(player=claimed.seating.get(seat=3).player, user=friend)
    close(claimed, owner)
    response = post(api_client(friend), reverse("api-confirm", args=[claimed.pk]))
    assert [c["player"] for c in response.json()] == ["赵六"]


def test_the_evening_page_says_who_has_not_confirmed_before_settling(owner, group):
    from ledger.services.confirmations import night_confirm

    from tests.evening_helpers import two_tables
    evening, first, second = two_tables(owner, group)
    zhang = second.seating.get(seat=3).player  # 张三 played both tables
    zhang.user = owner
    zhang.save()
    night_confirm(night=first, user=owner)
    client = Client()
    client.force_login(owner)
    page = client.get(reverse("evening", args=[evening.pk])).content.decode()
    assert 'id="not-confirmed"' in page and "仍可结算" in page
    assert reverse("evening-settle", args=[evening.pk]) in page
    night_confirm(night=second, user=owner)
    shown = client.get(reverse("evening", args=[evening.pk])).content.decode()
    waiting = shown.split('id="not-confirmed">')[1].split("</p>")[0]
    assert "张三" not in waiting and "孙七" in waiting


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_names_nobody_claimed_are_told_apart_from_players_who_may_still_confirm(claimed, owner, group, lang,
                                                                              django_user_model):
    """王五 (claimed by the viewer) may still confirm; 赵六 is claimed by a friend who has not; 张三 and 李四 were
    claimed by nobody, so nobody can confirm them: the settle page, the text and the PDF say which is which."""
    import subprocess
    from ledger.reports import night_report, render
    friend = django_user_model.objects.create_user("friend", password="x")
    GroupMember.objects.create(group=group, user=friend, role=GroupMember.Role.MEMBER)
    groups.player_claim(player=claimed.seating.get(seat=3).player, user=friend)
    closed = services.night_close(night=claimed, by=owner)
    owners = Client()
    owners.force_login(owner)
    owners.cookies["django_language"] = lang  # pages follow the language switch
    settle = owners.get(reverse("night-settle", args=[claimed.pk])).content.decode()
    waiting = settle.split('id="not-confirmed">')[1].split("</p>")[0]
    text = render("txt", night_report(closed), lang)[2].decode()
    pdf = subprocess.run(["pdftotext", "-layout", "-", "-"], input=render("pdf", night_report(closed), lang)[2],
                         capture_output=True, check=True).stdout.decode()
    if lang == "zh":
        assert waiting == "还没确认：王五、赵六<br>名字没人认领，不能确认：张三、李四<br>仍可结算。"
        assert "未确认：王五、赵六\n名字没人认领，不能确认：张三、李四\n" in text
        assert "张三 · 未确认（名字没人认领）" in pdf and "王五 · 未确认" in pdf and "王五 · 未确认（" not in pdf
    else:
        assert waiting == ("Not confirmed yet: 王五, 赵六<br>Nobody has claimed these names, so they cannot confirm: "
                           "张三, 李四<br>Settling is still allowed.")
        assert "Nobody has claimed these names, so they cannot confirm: 张三, 李四" in text
        assert "张三 · not confirmed (unclaimed name)" in pdf and "王五 · not confirmed\n" in pdf


def test_the_settle_forms_line_of_who_has_not_confirmed_follows_live(claimed, owner, viewer):
    """A walk: another phone's confirmation updated the 签字确认 card but the line by the settle form still said
    还没确认：阿芳 until a reload. It is a live piece of the settle page now."""
    import json
    close(claimed, owner)
    owners = Client()
    owners.force_login(owner)
    settle = owners.get(reverse("night-settle", args=[claimed.pk])).content.decode()
    assert '<div data-live="not_confirmed">' in settle and "还没确认：王五" in settle
    config = json.loads(settle.split('id="live-config" type="application/json">')[1].split("</script>")[0])
    assert "not_confirmed" in config["pieces"]
    url = reverse("night-fragments", args=[claimed.pk]) + "?after=0&since=0&pieces=not_confirmed"
    before = owners.get(url).json()["pieces"]["not_confirmed"]
    assert "还没确认：王五" in before
    post(api_client(viewer), reverse("api-confirm", args=[claimed.pk]))
    after = owners.get(url).json()["pieces"]["not_confirmed"]
    assert '<div data-live="not_confirmed">' in after
    assert "还没确认" not in after and "名字没人认领，不能确认：张三、李四、赵六" in after


def test_a_night_whose_names_nobody_claimed_is_not_told_name_by_name_that_nobody_can_confirm(night, owner):
    """A walk: a table that keeps no accounts for its names read three 未确认（名字没人认领） lines, then a yellow box
    repeating the names by the settle form, and the text for the group chat carried them too. With no name of the
    night claimed, the card says so in one line, the settle form has no box and the text no sign-off."""
    from ledger.reports import render
    from ledger.reports.context import night_report
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    close(night, owner)
    owners = Client()
    owners.force_login(owner)
    table = owners.get(reverse("night-table", args=[night.pk])).content.decode()
    assert 'id="nobody-claimed"' in table and "名字没人认领" not in table
    settle = owners.get(reverse("night-settle", args=[night.pk])).content.decode()
    assert 'id="not-confirmed"' not in settle and "名字没人认领" not in settle
    text = render("txt", night_report(Night.objects.get(pk=night.pk)), "zh")[2].decode()
    assert "签字确认" not in text and "最少转账" in text


def test_a_settled_nights_transfers_come_right_under_its_nets_before_the_sign_off(claimed, owner):
    """A walk: once settled, 最少转账 said 已结算：按“结算”里的转账付钱 and the transfers were further down, below
    签字确认. They now come right under the nets."""
    from ledger.services.evenings import settle_night
    close(claimed, owner)
    settle_night(by=owner, night=Night.objects.get(pk=claimed.pk))
    owners = Client()
    owners.force_login(owner)
    page = owners.get(reverse("night-settle", args=[claimed.pk])).content.decode()
    assert page.count('<div data-live="paid">') == 1
    assert page.index('<div data-live="paid">') < page.index('id="confirmations"')
    assert page.index('data-live="settlement"') < page.index('<div data-live="paid">')


def test_a_signed_in_friend_with_no_name_here_is_shown_where_to_claim_one(night, owner, viewer, players):
    """A walk: a friend opened a closed night whose card said nobody had claimed a name, with no way on. One signed
    in with no name of the night, while a name is unclaimed, is led to 成员与邀请's 哪个是你？; one who has a name
    here, or a view link, is not."""
    from ledger.services import sharing as join_services
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    close(night, owner)
    friend = Client()
    friend.force_login(viewer)
    table = friend.get(reverse("night-table", args=[night.pk])).content.decode()
    link = f'<a href="{reverse("night-members", args=[night.pk])}#claim" id="claim-name">你也在这一桌打牌吗？认领你的名字，就能确认 →</a>'
    assert link in table
    players[2].user = viewer
    players[2].save()
    assert 'id="claim-name"' not in friend.get(reverse("night-table", args=[night.pk])).content.decode()
    # A name of the group claimed at another night: 成员与邀请 lets them claim no other here, so no link (a review).
    players[2].user = None
    players[2].save()
    old_friend = services.player_get_or_create(name="老朋友", group=night.group)
    old_friend.user = viewer
    old_friend.save()
    assert 'id="claim-name"' not in friend.get(reverse("night-table", args=[night.pk])).content.decode()
    view = join_services.link_renew(night=night, by=owner, kind="view")
    assert 'id="claim-name"' not in Client().get(reverse("view-link", args=[view.token])).content.decode()
