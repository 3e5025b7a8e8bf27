"""Query parameters are checked like bodies: a bad `size` or `lang` is a 400 naming it, never silently ignored."""
import pytest

from tests.conftest import api_client


@pytest.mark.parametrize("size", ["null", "0", "101", "-1", "2.5"])
@pytest.mark.parametrize("url", ["/api/players/", "/api/nights/", "/api/nights/{pk}/hands/", "/api/nights/{pk}/audit/"])
def test_a_page_size_that_is_not_1_to_100_is_refused(night, owner, url, size):
    response = api_client(owner).get(url.format(pk=night.pk), {"size": size}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response.json() == {"errors": [{"path": "size", "message": "the page size must be an integer from 1 to 100"}]}


def test_a_page_size_in_range_is_taken(night, owner):
    response = api_client(owner).get(f"/api/nights/{night.pk}/audit/", {"size": "1"})
    assert response.status_code == 200 and len(response.json()["results"]) == 1


@pytest.mark.parametrize("fmt", ["report.pdf", "report.txt", "hands.csv", "backup.json"])
def test_a_report_language_other_than_zh_or_en_is_refused(night, owner, fmt):
    response = api_client(owner).get(f"/api/nights/{night.pk}/{fmt}", {"lang": "fr"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response.json() == {"errors": [{"path": "lang", "message": "the language must be zh or en"}]}
