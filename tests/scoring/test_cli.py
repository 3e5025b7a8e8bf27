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
