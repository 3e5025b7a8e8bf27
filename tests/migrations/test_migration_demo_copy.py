"""The data migration into groups (0006-0009) on a copy of a real demo database.

`tests/data/demo_before_groups.sqlite3.gz` was made by the code of the previous release (e56f324, migrations up to
0005): `manage.py demo` (owner demo, guest a member, 20 hands with a correction), then a second owner, `other`,
with a closed night of five hands whose players include the demo's 张三 (one Player row: names were global then).
The copy is migrated by `manage.py migrate` in its own process, as a deployment would, then read back.
"""
import gzip
import json
import shutil
import sqlite3
from decimal import Decimal
from pathlib import Path

from tests.factories import COPY, manage, run_manage

ROOT = Path(__file__).resolve().parents[2]

#: Each night's totals by player name, from the current revisions of the hands that count.
TOTALS_SQL = """
SELECT n.title, p.name, r.net_{seat}
FROM ledger_handrevision r JOIN ledger_hand h ON r.hand_id = h.id JOIN ledger_night n ON h.night_id = n.id
JOIN ledger_player p ON p.id = r.player_{seat}_id
WHERE r.is_current = 1 AND h.status = 'recorded'
"""

READ_BACK = """
import json
from decimal import Decimal
from ledger.models import Group, GroupMember, Night, Player, SeatResult, HandRevision, AuditEntry
from ledger.selectors.nights import night_nets

out = {"groups": {}, "nights": {}, "seat_results": SeatResult.objects.count(),
       "revisions": HandRevision.objects.count(),
       "audit_without_group": AuditEntry.objects.filter(group__isnull=True).count()}
for group in Group.objects.all():
    owners = list(GroupMember.objects.filter(group=group, role="owner").values_list("user__username", flat=True))
    out["groups"][group.name] = {"owners": owners,
                                 "players": sorted(Player.objects.filter(group=group).values_list("name", flat=True))}
for night in Night.objects.all():
    names = dict(Player.objects.values_list("pk", "name"))
    out["nights"][night.title] = {"group": night.group.name, "owner": night.owner.username,
                                  "totals": {names[pk]: str(v) for pk, v in night_nets(night).items()}}
print("RESULT " + json.dumps(out, ensure_ascii=False))
"""


def totals_before(database: Path) -> dict[str, dict[str, Decimal]]:
    totals: dict[str, dict[str, Decimal]] = {}
    with sqlite3.connect(database) as db:
        for seat in range(4):
            for title, name, net in db.execute(TOTALS_SQL.format(seat=seat)):
                night = totals.setdefault(title, {})
                night[name] = night.get(name, Decimal(0)) + Decimal(str(net))
    return totals


def test_the_demo_database_of_the_last_release_migrates_into_groups(tmp_path):
    database = tmp_path / "demo.sqlite3"
    with gzip.open(COPY) as source, open(database, "wb") as target:
        shutil.copyfileobj(source, target)
    before = totals_before(database)
    assert set(before) == {"周五夜 · 演示", "另一桌"}

    manage(database, "migrate", "-v0")
    # The last release's demo put 杠上炮 on one of two winners of a discard, which RULES.md §7 now refuses
    # (the flag is the discard's: every winner or none). That stored hand keeps its money; re-scoring it says so,
    # and nothing else differs.
    checked = run_manage(database, "check_ledger")
    assert checked.returncode == 1 and "1 differences; 2 nights, 25 hands" in checked.stderr, checked.stderr[-3000:]
    assert checked.stdout.count("\n") == 1 and "gang_shang_pao belongs to the discard" in checked.stdout
    result = json.loads(manage(database, "shell", "-c", READ_BACK).split("RESULT ", 1)[1])

    # One group per owner, the owner its owner; each night in its owner's group.
    assert {name: g["owners"] for name, g in result["groups"].items()} == {"demo的圈子": ["demo"],
                                                                           "other的圈子": ["other"]}
    assert {t: (n["group"], n["owner"]) for t, n in result["nights"].items()} == {
        "周五夜 · 演示": ("demo的圈子", "demo"), "另一桌": ("other的圈子", "other")}
    # The shared 张三 is now one player in each group; nobody else moved.
    assert result["groups"]["demo的圈子"]["players"] == sorted(["张三", "李四", "王五", "赵六"])
    assert result["groups"]["other的圈子"]["players"] == sorted(["张三", "钱七", "孙八", "周九"])
    # Every night's totals are what they were, to the cent.
    for title, totals in before.items():
        after = {name: Decimal(v) for name, v in result["nights"][title]["totals"].items()}
        assert after == {name: v for name, v in totals.items()}, title
    # Four seat results per revision; every audit entry has its night's group.
    assert result["seat_results"] == 4 * result["revisions"]
    assert result["audit_without_group"] == 0
