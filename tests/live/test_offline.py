"""The app offline, server side: the preview API and the engine in the phone give one document (scoring.preview),
the scoring zip is built from the package's source, the service worker covers the site, Pyodide's few files."""
import io
import json
import zipfile
from pathlib import Path

import pytest

from ledger.views.engine_files import PYODIDE_FILES, pyodide_dir, pyodide_prefix, scoring_zip
from scoring.preview import analysis_json, preview_document, preview_json

from tests.conftest import api_client
from tests.hand_helpers import kong, w, win

ENTRIES = [
    {"events": [win(2, w(1, "qing_yi_se")), win(None, w(0)), win(3, w(2))]},                      # finished
    {"events": [win(2, w(1, "qing_yi_se"))]},                                                    # not yet
    {"events": [kong(0, "concealed"), win(None, w(0, roots=1))], "exhausted": True,
     "ready": {"1": {"fan": 1}}, "hua_zhu": []},                                                 # kong, 查叫
    {"events": [win(7, w(1))]},                                                                  # a bad seat
    {"events": [], "exhausted": True, "ready": {"2": {"tiles": "1112345678999m", "melds": []}}},  # ready by tiles
]


def preview(client, night, entry, **headers):
    return client.post(f"/api/nights/{night.pk}/preview/", json.dumps(entry), content_type="application/json",
                       **headers)


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
@pytest.mark.parametrize("entry", ENTRIES)
def test_the_preview_api_answers_the_shared_function_document_exactly(night, keeper, entry, lang):
    response = preview(api_client(keeper), night, {**entry, "dealer": 1}, HTTP_ACCEPT_LANGUAGE=lang)
    status, body = preview_document(entry, base="2", rules=night.rules, dealer=1, lang=lang)
    assert response.status_code == status
    assert response.json() == body
    # The phone's entry point: the same document through JSON strings, as the worker calls it.
    phone = json.loads(preview_json(json.dumps({"entry": entry, "base": "2", "rules": night.rules, "dealer": 1,
                                                "lang": lang})))
    assert phone == {"status": status, "body": body}


def test_the_next_dealer_is_the_nights_when_the_entry_gives_none(night, keeper):
    entry = ENTRIES[0]
    status, body = preview_document(entry, base="2", rules=night.rules, dealer=0)
    assert preview(api_client(keeper), night, entry).json() == body


def test_the_tile_analysis_answers_as_the_api(night):
    client = api_client()
    for asked in ({"tiles": "11122233355m", "melds": ["7777s"]}, {"tiles": "1112345678999m", "ready": True},
                  {"tiles": "12m"}):
        response = client.post("/api/analyse/", json.dumps(asked), content_type="application/json")
        phone = json.loads(analysis_json(json.dumps({"body": asked, "lang": "zh"})))
        assert phone == {"status": response.status_code, "body": response.json()}


def test_an_entry_that_is_not_an_object_is_refused_in_words_by_the_phones_entry_point():
    answer = json.loads(preview_json(json.dumps({"entry": [], "base": "2", "rules": {}, "dealer": 0, "lang": "en"})))
    assert answer["status"] == 400 and answer["body"]["errors"][0]["path"] == ""


def test_the_scoring_zip_is_the_packages_source_named_by_its_digest(client):
    digest, data = scoring_zip()
    response = client.get(f"/engine/scoring-{digest}.zip")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert "immutable" in response["Cache-Control"]
    names = zipfile.ZipFile(io.BytesIO(b"".join(response))).namelist()
    source = Path(__file__).resolve().parents[2] / "scoring"
    assert sorted(names) == sorted(f"scoring/{p.name}" for p in source.glob("*.py"))
    assert "scoring/preview.py" in names
    assert client.get("/engine/scoring-0000000000000000.zip").status_code == 404


def test_the_service_worker_is_served_from_the_root_for_the_whole_site(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    config = json.loads(response.content.decode().split("\n", 1)[0].removeprefix("const CONFIG = ").removesuffix(";"))
    assert "/static/ledger/table/main.js" in config["shell"]
    assert config["engine"][-1] == f"/engine/scoring-{scoring_zip()[0]}.zip"
    assert len(config["engine"]) == len(PYODIDE_FILES) + 1


def test_every_script_and_style_of_the_table_page_is_kept_for_offline(night, owner, client):
    """A walk: turn.js was not kept, so a table page reopened offline lost the picture turned to its recorder."""
    import re

    from tests.factories import page_client
    config = json.loads(client.get("/sw.js").content.decode().split("\n", 1)[0]
                        .removeprefix("const CONFIG = ").removesuffix(";"))
    page = page_client(owner).get(f"/nights/{night.pk}/").content.decode()
    loaded = set(re.findall(r'(?:src|href)="(/static/[^"]+\.(?:js|css))"', page))
    assert loaded and "/static/ledger/turn.js" in loaded
    assert loaded <= set(config["shell"]), loaded - set(config["shell"])


def test_pages_that_need_the_network_have_a_page_that_says_so(client):
    assert "需要网络" in client.get("/offline/").content.decode()


@pytest.mark.skipif(not (pyodide_dir() / "package.json").is_file(), reason="npm ci has not installed pyodide")
def test_only_the_pyodide_files_the_engine_needs_are_served(client):
    for name in PYODIDE_FILES:
        response = client.get(f"/static/{pyodide_prefix()}/{name}")
        assert response.status_code == 200, name
    for name in ("console.html", "pyodide.d.ts", "package.json", "pyodide.js.map"):
        assert client.get(f"/static/{pyodide_prefix()}/{name}").status_code == 404, name
    assert json.loads((pyodide_dir() / "package.json").read_text())["version"] == json.loads(
        (Path(__file__).resolve().parents[2] / "package.json").read_text())["dependencies"]["pyodide"]


def test_the_live_changes_name_the_last_hand_that_counts(night, keeper):
    from ledger.services import nights as services
    client = api_client(keeper)
    for _ in range(2):
        services.hand_record(night=night, by=keeper, entry=ENTRIES[0])
    services.hand_void(hand=night.hands.get(number=2), by=keeper, reason="undo")
    client.force_login(keeper)
    body = client.get(f"/nights/{night.pk}/fragments/?after=0&since=0&pieces=").json()
    assert body["last"] == 2 and body["counted"] == 1
