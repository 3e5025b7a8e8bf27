"""English is written in English, with the Chinese term in brackets where it helps ("Wall out (流局)"), never a
Chinese word standing in an English sentence ("Check 花猪")."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = [ROOT / "locale/en/LC_MESSAGES/django.po", *ROOT.glob("locale/*/en/LC_MESSAGES/django.po")]
CHINESE = re.compile(r"[\u4e00-\u9fff]")


def _translations(path):
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("msgstr"):
            yield number, line


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_chinese_word_stands_outside_brackets_in_english(path):
    loose = []
    for number, line in _translations(path):
        outside = re.sub(r"%\([^)]*\)s", "", re.sub(r"[(（][^)）]*[)）]", "", line))
        if CHINESE.search(outside):
            loose.append(f"{number}: {line}")
    assert not loose, "\n".join(loose)


def test_the_table_page_speaks_english_on_its_main_buttons(night, owner):
    from django.conf import settings
    from django.test import Client
    client = Client()
    client.force_login(owner)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(f"/nights/{night.pk}/").content.decode()
    assert "Wall out (流局)" in page and "Wall out / 查叫" not in page


def test_the_table_script_gets_the_past_winner_badge_in_english_and_the_mode(night, owner):
    import json
    import re

    from django.conf import settings
    from django.test import Client
    client = Client()
    client.force_login(owner)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(f"/nights/{night.pk}/").content.decode()
    config = json.loads(re.search(r'<script id="table-config" type="application/json">(.*?)</script>', page,
                                  re.S).group(1))
    assert config["strings"]["wonTimes"] == "won ×%(n)s"
    assert config["mode"] == "xue_zhan"  # a night of the defaults: 血战, whose past winners are not marked
