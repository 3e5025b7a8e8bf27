"""A group's default table fee: set on its defaults page or by the API, checked like a night's, and the new-night
form (opened from the group, ?group=N) starts from it."""
import re

from django.test import Client

from ledger.services import groups
from ledger.views.groups import _defaults_initial
from ledger.models import AuditEntry

from tests.conftest import api_client


def test_the_defaults_page_sets_a_fee_that_the_new_night_form_starts_from(owner, group):
    client = Client()
    client.force_login(owner)
    # The page as it is filled in (every rule at its current value), with a fee of ¥10 a player.
    form = {k: ("on" if v is True else "" if v is None else str(v))
            for k, v in _defaults_initial(group).items() if v is not False}
    form.update({"fee_mode": "per_player", "fee_amount": "10", "fee_wins": "all"})
    response = client.post(f"/groups/{group.pk}/defaults/", form)
    assert response.status_code == 302, re.findall(r"errorlist.{0,300}", response.content.decode())
    group.refresh_from_db()
    assert group.defaults["fee"] == {"mode": "per_player", "amount": "10"}
    assert AuditEntry.objects.filter(group=group, action=AuditEntry.Action.GROUP_CHANGED).exists()
    night_form = client.get(f"/nights/new/?group={group.pk}").content.decode()
    assert re.search(r'<option value="per_player" selected', night_form)
    assert 'name="fee_amount" value="10"' in night_form


def test_a_bad_default_fee_is_refused_with_its_field_and_nothing_is_written(owner, group):
    response = api_client(owner).patch(f"/api/groups/{group.pk}/", {"defaults": {"fee": {"mode": "per_player"}}},
                                       format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    paths = [e["path"] for e in response.json()["errors"]]
    assert any(p.startswith("defaults.fee") for p in paths), paths
    group.refresh_from_db()
    assert "fee" not in group.defaults


def test_the_api_sets_a_per_win_fee_and_the_night_defaults_carry_it(owner, group):
    response = api_client(owner).patch(f"/api/groups/{group.pk}/", {"defaults": {"fee": {
        "mode": "per_win", "amount": "1", "wins": "self_draw"}}}, format="json")
    assert response.status_code == 200, response.json()
    group.refresh_from_db()
    assert groups.group_night_defaults(group)["fee"] == {"mode": "per_win", "amount": "1", "wins": "self_draw"}


def test_a_group_without_saved_defaults_starts_a_new_week_from_its_last_night(owner, group):
    """A walk: the second week's first table started at 底金 1 and 不收台费 after a week at ¥2 and ¥10 a head. A
    group that never saved defaults starts from its last night; saved defaults still win."""
    import datetime as dt
    from decimal import Decimal

    from ledger.services import nights as services
    players = [services.player_get_or_create(name=n, group=group) for n in ("张三", "李四", "王五", "赵六")]
    services.night_create(owner=owner, title="上周", date=dt.date(2026, 11, 27), base=Decimal(2), players=players,
                          first_dealer=0, fee={"mode": "per_player", "amount": "10"},
                          rule_overrides={"max_fan": 5})
    client = Client()
    client.force_login(owner)
    night_form = client.get(f"/nights/new/?group={group.pk}").content.decode()
    assert 'name="base" value="2"' in night_form and 'name="fee_amount" value="10"' in night_form
    assert re.search(r'<option value="per_player" selected', night_form)
    assert re.search(r'name="rule_max_fan"[^>]*value="5"', night_form)
    # The 默认规则 page and the API say the same starting point (a review: they still said 底金 1, no fee).
    page = client.get(f"/groups/{group.pk}/defaults/").content.decode()
    assert re.search(r'name="base"[^>]*value="2"', page) and re.search(r'name="fee_amount"[^>]*value="10"', page)
    assert 'id="from-last-night"' in page  # and it says where they come from (a walk)
    assert api_client(owner).get(f"/api/groups/{group.pk}/").json()["defaults"]["base"] == "2"
    groups.group_set_defaults(group=group, by=owner, preset="chengdu", base="1")
    night_form = client.get(f"/nights/new/?group={group.pk}").content.decode()
    assert 'name="base" value="1"' in night_form and 'name="fee_amount" value="10"' not in night_form
    assert 'id="from-last-night"' not in client.get(f"/groups/{group.pk}/defaults/").content.decode()


def test_next_week_starts_from_the_first_table_of_the_last_evening_not_its_last_made(owner, group):
    """A walk: an evening of a four-player table and a three-player 两房 table (made second, ¥1 a win); the next
    week's first table started as 两房 with three seats. It starts from table 1 of the group's last day."""
    import datetime as dt
    from decimal import Decimal

    from ledger.services import evenings
    from ledger.services import nights as services
    names = ("张三", "李四", "王五", "赵六", "孙七", "周八", "钱九")
    players = {n: services.player_get_or_create(name=n, group=group) for n in names}
    older = dt.date(2026, 11, 20)
    services.night_create(owner=owner, title="更早", date=older, base=Decimal(5), players=[players[n] for n in names[:4]],
                          first_dealer=0)
    evening = evenings.evening_create(by=owner, group=group, title="周五", date=dt.date(2026, 11, 27))
    services.night_create(owner=owner, title="四人", date=evening.date, base=Decimal(2), evening=evening,
                          players=[players[n] for n in names[:4]], first_dealer=0,
                          fee={"mode": "per_player", "amount": "5"})
    services.night_create(owner=owner, title="两房", date=evening.date, base=Decimal(1), evening=evening,
                          players=[players[n] for n in names[4:]], first_dealer=0, preset="san_ren_liang_fang",
                          fee={"mode": "per_win", "amount": "1"})
    start = groups.group_night_defaults(group)
    assert (start["preset"], start["base"], start["fee"]) == ("chengdu", Decimal(2), {"mode": "per_player", "amount": "5"})
    # A side night outside the evening, made later that day (two players, 两房): not the first table either.
    services.night_create(owner=owner, title="两人", date=evening.date, base=Decimal(3),
                          players=[players[n] for n in names[5:]], first_dealer=0, preset="liang_ren_liang_fang")
    assert groups.group_night_defaults(group)["base"] == Decimal(2)


def test_a_new_night_of_a_group_starts_with_the_names_of_its_last_table_but_a_new_table_of_an_evening_does_not(
        owner, group):
    """A walk: a new night started from the last night's rules, and its name fields were empty again (the same
    friends typed every week). The form fills the seats from the group's last table (the night its defaults come
    from), for the group it opens with and for each group it may switch to; 加一桌 at an evening seats others."""
    import datetime as dt
    import json
    from decimal import Decimal

    from ledger.services import evenings
    from ledger.services import nights as services
    client = Client()
    client.force_login(owner)
    empty = client.get(f"/nights/new/?group={group.pk}").content.decode()
    assert re.search(r'name="player_0"[^>]*value=""', empty)  # a group with no night yet: blank seats
    players = [services.player_get_or_create(name=n, group=group) for n in ("阿芳", "老王", "胖子")]
    services.night_create(owner=owner, title="上周", date=dt.date(2026, 11, 27), base=Decimal(2), players=players,
                          first_dealer=0, preset="san_ren_liang_fang")
    form = client.get(f"/nights/new/?group={group.pk}").content.decode()
    assert all(re.search(rf'name="player_{seat}"[^>]*value="{name}"', form)
               for seat, name in enumerate(("阿芳", "老王", "胖子")))
    assert re.search(r'name="player_3"[^>]*value=""', form)
    config = json.loads(form.split('id="group-config" type="application/json">')[1].split("</script>")[0])
    assert [config["defaults"][str(group.pk)][f"player_{seat}"] for seat in range(4)] == ["阿芳", "老王", "胖子", ""]
    evening = evenings.evening_create(by=owner, group=group, title="周五", date=dt.date(2026, 12, 4))
    services.night_create(owner=owner, title="一号桌", date=evening.date, base=Decimal(2), evening=evening,
                          players=players, first_dealer=0, preset="san_ren_liang_fang")
    second = client.get(f"/nights/new/?evening={evening.pk}").content.decode()
    assert re.search(r'name="player_0"[^>]*value=""', second)
