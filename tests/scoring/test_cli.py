"""`manage.py score_hand`: output and exit codes exactly as HAND_FORMAT.md says."""
import json
import subprocess
import sys
from pathlib import Path

from tests.hand_helpers import WORKED_EXAMPLE, WORKED_RESULT

ROOT = Path(__file__).resolve().parents[2]


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "manage.py", "score_hand", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_it_scores_a_file(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(WORKED_EXAMPLE), encoding="utf-8")
    done = run(str(path))
    assert done.returncode == 0
    assert json.loads(done.stdout) == WORKED_RESULT


def test_it_reads_standard_input():
    done = run("-", stdin=json.dumps(WORKED_EXAMPLE))
    assert done.returncode == 0 and json.loads(done.stdout)["net"] == ["-19", "24", "6", "-11"]


def test_errors_are_json_with_exit_code_2():
    done = run("-", "--lang", "en", stdin=json.dumps({"dealer": 7, "events": [{"type": "win", "from": None, "winners": []}],
                                                      "exhausted": True}))
    assert done.returncode == 2
    assert json.loads(done.stdout) == {"errors": [
        {"path": "dealer", "message": "a seat must be an integer 0-3"},
        {"path": "events[0].winners", "message": "at least one winner is needed"}]}


def test_bad_json_and_missing_files_are_errors_too(tmp_path):
    assert run("-", stdin="{").returncode == 2
    done = run(str(tmp_path / "missing.json"))
    assert done.returncode == 2 and json.loads(done.stdout)["errors"][0]["path"] == ""
    # Said as a file that cannot be read, not as text that is not JSON (a contract check found "不是有效的 JSON").
    missing = run("no-such-hand.json")
    assert json.loads(missing.stdout)["errors"][0]["message"] == "读不了文件“no-such-hand.json”：没有这个文件"
    english = run("scoring", "--lang", "en")
    assert json.loads(english.stdout)["errors"][0]["message"] == "cannot read the file 'scoring': Is a directory"


def test_the_command_line_and_the_api_read_a_body_alike(db):
    """HAND_FORMAT.md: the same document is what `score_hand FILE` reads and `POST /api/score/` takes, so the same
    text gets the same answer (an empty body was read as {} by the API; NaN and a key twice were taken by both)."""
    from tests.conftest import api_client
    texts = ["", "  ", "{", '{"exhausted": tru}', '{"exhausted": NaN}', '{"exhausted": true, "exhausted": false}',
             '{"exhausted": true, "ready": {"3": {"fan": "bad"}, "3": {"fan": 1}}}', "[]",
             '{"exhausted": true, "x\\ud800": 1, "ready": {"3": {"tiles": "11\\udfff"}}}',
             '{"exhausted": true, "dealer": 9, "ready": {"3": {"tiles": "111234567\\u00008999m"}}}']
    client = api_client()
    for text in texts:
        for lang in ("zh", "en"):
            done = run("-", "--lang", lang, stdin=text)
            answer = client.post("/api/score/", text, content_type="application/json", HTTP_ACCEPT_LANGUAGE=lang)
            assert (done.returncode, answer.status_code) == (2, 400), text
            assert json.loads(done.stdout) == answer.json(), text
    assert answer.json()["errors"] == [{"path": "dealer", "message": "a seat must be an integer 0-3"},
                                       {"path": "ready.3.tiles", "message": "tiles hold an invalid character (character 10)"}]
    messages = {text: json.loads(run("-", "--lang", "en", stdin=text).stdout)["errors"][0]["message"] for text in texts[:6]}
    assert messages[""] == messages["  "] == "nothing was sent: expected a JSON object"
    assert messages['{"exhausted": tru}'] == "not valid JSON at line 1, column 15: Expecting value"
    assert messages['{"exhausted": NaN}'] == "not valid JSON: NaN is not a JSON number"
    assert messages['{"exhausted": true, "exhausted": false}'] == \
        "not valid JSON: the key 'exhausted' appears twice in one object"
    zh = json.loads(run("-", stdin='{"exhausted": tru}').stdout)["errors"][0]["message"]
    assert zh == "不是有效的 JSON：第 1 行第 15 列，这里应为一个值"
    with_bom = run_bytes(b"\xef\xbb\xbf" + json.dumps(WORKED_EXAMPLE).encode())  # as Windows Notepad saves it
    assert with_bom.returncode == 0 and json.loads(with_bom.stdout) == WORKED_RESULT
    bom = client.post("/api/score/", b"\xef\xbb\xbf" + json.dumps(WORKED_EXAMPLE).encode(), content_type="application/json")
    assert bom.status_code == 200 and bom.json() == WORKED_RESULT
    not_utf8 = run_bytes(b'{"exhausted": "\xff"}')
    assert json.loads(not_utf8.stdout)["errors"] == [{"path": "", "message": "not UTF-8 text (byte 16)"}]


def run_bytes(data):
    return subprocess.run([sys.executable, "manage.py", "score_hand", "-", "--lang", "en"], cwd=ROOT, input=data,
                          capture_output=True, timeout=60)


def with_lone_surrogates(record):
    """The record once for each of its strings (keys and values) with a lone surrogate added to it."""
    def variants(item):
        if isinstance(item, str):
            yield item + "\ud800"
        elif isinstance(item, dict):
            for key, value in item.items():
                yield {(k + "\udfff" if k == key else k): v for k, v in item.items()}
                for changed in variants(value):
                    yield {**item, key: changed}
        elif isinstance(item, list):
            for i, value in enumerate(item):
                for changed in variants(value):
                    yield [*item[:i], changed, *item[i + 1:]]
    return list(variants(record))


def test_the_api_and_the_engine_answer_a_lone_surrogate_anywhere_alike(db, settings):
    """A lone surrogate in any string of a record is the engine's to report at /api/score/, as `score_hand FILE`
    reports it (escaped, never echoed raw: the answer is UTF-8), not one "cannot be stored" error of the HTTP layer."""
    from scoring import ScoringError, read_json, score_hand
    from tests.conftest import api_client
    settings.LEDGER_THROTTLE_RATES = {"calculator": None, "write": None}
    client = api_client()
    texts = [json.dumps(r) for r in with_lone_surrogates(WORKED_EXAMPLE)]
    assert len(texts) > 40
    for text in texts:
        try:
            expected = score_hand(read_json(text.encode())).as_dict()
        except ScoringError as error:
            expected = error.as_dict("en")
        answer = client.post("/api/score/", text, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == (400 if "errors" in expected else 200), text
        assert answer.json() == expected, text
        answer.content.decode("utf-8")  # strict: nothing unencodable came back
    assert json.loads(run("-", "--lang", "en", stdin=texts[0]).stdout) == \
        client.post("/api/score/", texts[0], content_type="application/json", HTTP_ACCEPT_LANGUAGE="en").json()
