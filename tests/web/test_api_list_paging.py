"""The API lists (hands, audit, nights, players): cursor pages, newest first, bounded (issue 10)."""
import datetime as dt
from decimal import Decimal
from urllib.parse import urlsplit

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger.services import nights as services
from ledger.api.pagination import MAX_PAGE_SIZE

from tests.conftest import api_client
from tests.hand_helpers import w, win


def record(night, owner, count):
    for i in range(count):
        services.hand_record(night=night, by=owner, entry={"events": [win(None, w(i % 4))], "exhausted": True})


def path(url):
    parts = urlsplit(url)
    return f"{parts.path}?{parts.query}"


def list_urls(night):
    return [f"/api/nights/{night.pk}/hands/", f"/api/nights/{night.pk}/audit/", "/api/nights/", "/api/players/"]


def test_hands_come_newest_first_twenty_to_a_page_with_a_cursor_to_the_next(night, owner):
    record(night, owner, 30)
    client = api_client(owner)
    first = client.get(f"/api/nights/{night.pk}/hands/").json()
    assert [h["number"] for h in first["results"]] == list(range(30, 10, -1))
    assert first["previous"] is None and "cursor=" in first["next"]
    second = client.get(path(first["next"])).json()
    assert [h["number"] for h in second["results"]] == list(range(10, 0, -1)) and second["next"] is None
    assert "cursor=" in second["previous"]


def test_the_page_size_can_be_chosen_up_to_the_maximum_and_no_further(night, owner, players):
    record(night, owner, 5)
    for _ in range(MAX_PAGE_SIZE + 5):
        services.player_get_or_create(name=f"p{_}", group=night.group)
    client = api_client(owner)
    assert len(client.get(f"/api/nights/{night.pk}/hands/?size=2").json()["results"]) == 2
    assert len(client.get(f"/api/players/?size={MAX_PAGE_SIZE}").json()["results"]) == MAX_PAGE_SIZE
    assert client.get("/api/players/?size=100000").status_code == 400  # refused, not quietly clamped


@pytest.mark.parametrize("which", ["hands", "audit"])
def test_a_cursor_gives_the_same_page_while_hands_are_being_added(which, night, owner):
    record(night, owner, 70)
    client = api_client(owner)
    url = f"/api/nights/{night.pk}/{which}/?size=20"
    second_url = path(client.get(url).json()["next"])
    before = client.get(second_url).json()
    record(night, owner, 9)
    after = client.get(second_url).json()
    assert after["results"] == before["results"]
    assert path(after["next"]) == path(before["next"])
    newest = client.get(url).json()["results"]
    assert newest[0] != before["results"][0] and len(newest) == 20


def test_nights_and_players_come_newest_first(owner, players):
    for day in range(3):
        services.night_create(owner=owner, title=f"{day}", date=dt.date(2026, 11, 1 + day), base=Decimal(1),
                              players=players, first_dealer=0)
    client = api_client(owner)
    assert [n["title"] for n in client.get("/api/nights/").json()["results"]] == ["2", "1", "0"]
    assert [p["name"] for p in client.get("/api/players/").json()["results"]] == ["赵六", "王五", "李四", "张三"]


def queries(client, url):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured)


def test_every_endpoint_and_page_costs_the_same_queries_at_10_and_200_hands(night, owner):
    client = api_client(owner)
    detail = [f"/api/nights/{night.pk}/", f"/api/nights/{night.pk}/hands/1/", f"/api/nights/{night.pk}/totals/",
              f"/api/nights/{night.pk}/settlement/"]

    def measure():
        counts = {url: queries(client, url) for url in list_urls(night) + detail}
        for url in list_urls(night):  # the next page, where there is one, and a page of 5
            next_url = client.get(url + "?size=5").json()["next"]
            counts[url + " next"] = queries(client, path(next_url)) if next_url else None
        return counts

    record(night, owner, 10)
    for i in range(6):
        services.player_get_or_create(name=f"p{i}", group=night.group)
    small = measure()
    record(night, owner, 190)
    large = measure()
    for url, count in small.items():
        if count is not None:
            assert large[url] == count, url


def test_the_schema_documents_the_cursor_and_the_page_size_of_every_list():
    schema = api_client().get("/api/schema/?format=json").json()
    for url in ("/api/nights/{id}/hands/", "/api/nights/{id}/audit/", "/api/nights/", "/api/players/"):
        get = schema["paths"][url]["get"]
        assert {p["name"] for p in get["parameters"] if p["in"] == "query"} >= {"cursor", "size"}, url
        body = get["responses"]["200"]["content"]["application/json"]["schema"]
        ref = body.get("$ref", "")
        assert ref.startswith("#/components/schemas/Paginated"), url
