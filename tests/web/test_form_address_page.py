"""A form's address opened as a page says so in the app's words (a walk: a bare "405 Method Not Allowed")."""
from django.test import Client

from tests.factories import page_client


def test_a_post_only_address_opened_in_the_browser_answers_a_page_that_says_what_it_is(played, owner):
    night = played
    page = page_client(owner).get(f"/nights/{night.pk}/hands/1/void/")
    assert page.status_code == 405 and page["Allow"] == "POST"
    text = page.content.decode()
    assert "这个地址不能直接打开" in text and '<a class="button primary big" href="/">回到我的牌局</a>' in text
    assert page["X-Frame-Options"] == "DENY" and "no-store" in page["Cache-Control"]  # it went out as a page does
    english = page_client(owner, "en").get(f"/nights/{night.pk}/hands/1/void/").content.decode()
    assert "This address is not a page" in english
    # Nothing was voided; the API's 405 is its errors document, as before.
    assert night.hands.get(number=1).status == "recorded"
    api = Client().get("/api/token/")
    assert api.status_code == 405 and "errors" in api.json()
