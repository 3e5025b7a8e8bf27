"""A {# … #} comment is one line in Django's templates: one that runs onto a second line is printed on the page
(the table page showed its own comment to players)."""
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_no_template_comment_runs_onto_a_second_line():
    broken = []
    for path in TEMPLATES.rglob("*.html"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            start = line.rfind("{#")
            if start >= 0 and "#}" not in line[start:]:
                broken.append(f"{path.relative_to(TEMPLATES)}:{number}")
    assert broken == []
