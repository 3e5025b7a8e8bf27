"""Every audited change goes through the one audit writer (ledger.services.audit), which bumps the generation of the group
it concerns in the change's transaction; no other module builds audit entries."""
import ast
import datetime as dt
import json
import uuid
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from ledger.services import adjustments
from ledger.services import audit as audit_log
from ledger.services import confirmations
from ledger.services import nights as services
from ledger.services import evenings as paying
from ledger.services import groups
from ledger.services import sharing as join
from ledger.models import NightLink
from ledger.models import AuditEntry, Group, GroupMember, Night
from ledger.reports.backup import _digest, _signature, export_night, import_night

from tests.hand_helpers import w, win

LATE = {"kind": "transfer", "from": 0, "to": 3, "amount": "5", "reason": "迟到"}
SELF_DRAW = {"events": [win(None, w(1))], "exhausted": True}
DISCARD = {"events": [win(0, w(2))], "exhausted": True}


@pytest.fixture
def ctx(owner, viewer, keeper, group, players, night):
    return SimpleNamespace(owner=owner, viewer=viewer, keeper=keeper, group=group, players=players, night=night)


def _closed(c):
    services.hand_record(night=c.night, by=c.owner, entry=DISCARD)
    services.night_close(night=c.night, by=c.owner)
    return c.night


def _claimed_and_closed(c):
    groups.player_claim(player=c.players[0], user=c.owner)
    return _closed(c)


def _settled(c):
    return paying.settle_night(by=c.owner, night=_closed(c)).transfers.order_by("position").first()


def _member(c):
    groups.group_link_renew(group=c.group, by=c.owner)
    groups.group_join(token=groups.group_link_active(c.group).token, user=c.viewer)
    return c.viewer


def _clear(c, _night):
    with transaction.atomic():
        return confirmations.confirmations_clear(night=c.night, by=c.owner, cause={"cause": "merge", "from": "a",
                                                                                    "into": "b"})


def _paid(c, transfer):
    return paying.transfer_mark_paid(by=c.owner, transfer=transfer)


def _restore(c, _):
    doc = json.loads(json.dumps(export_night(c.night), default=str))
    doc["night"]["uuid"] = str(uuid.uuid4())  # another night with the same content
    body = {k: v for k, v in doc.items() if k not in ("digest", "signature")}
    signed = {**body, "signature": _signature(body)}
    doc = {**signed, "digest": _digest(signed)}
    return import_night(doc, by=c.owner).night


#: name: (prepare(ctx) -> x, change(ctx, x) -> the night changed (None: a change of the group as a whole)).
CHANGES = {
    "night_create": (lambda c: None, lambda c, _: services.night_create(
        owner=c.owner, title="二场", date=dt.date(2026, 11, 28), base=Decimal(1), players=c.players, first_dealer=0)),
    "hand_record": (lambda c: None, lambda c, _: services.hand_record(night=c.night, by=c.owner, entry=SELF_DRAW).night),
    "hand_correct": (lambda c: services.hand_record(night=c.night, by=c.owner, entry=SELF_DRAW),
                     lambda c, hand: services.hand_correct(hand=hand, by=c.owner, entry=DISCARD, reason="记错").night),
    "hand_void": (lambda c: services.hand_record(night=c.night, by=c.owner, entry=SELF_DRAW),
                  lambda c, hand: services.hand_void(hand=hand, by=c.owner, reason="不算").night),
    "seat_change": (lambda c: services.player_get_or_create(name="钱七", group=c.group),
                    lambda c, p: services.seat_change(night=c.night, by=c.owner, seat=2, player=p)),
    "night_close": (lambda c: None, lambda c, _: services.night_close(night=c.night, by=c.owner)),
    "adjustment_record": (lambda c: None,
                          lambda c, _: adjustments.adjustment_record(night=c.night, by=c.owner, data=LATE).night),
    "adjustment_correct": (lambda c: adjustments.adjustment_record(night=c.night, by=c.owner, data=LATE),
                           lambda c, a: adjustments.adjustment_correct(adjustment=a, by=c.owner,
                                                                       data={**LATE, "amount": "6"},
                                                                       reason="多算").night),
    "adjustment_void": (lambda c: adjustments.adjustment_record(night=c.night, by=c.owner, data=LATE),
                        lambda c, a: adjustments.adjustment_void(adjustment=a, by=c.owner, reason="不算").night),
    "night_confirm": (_claimed_and_closed, lambda c, n: confirmations.night_confirm(night=n, user=c.owner) and n),
    "confirmations_clear": (lambda c: confirmations.night_confirm(night=_claimed_and_closed(c), user=c.owner),
                            lambda c, x: _clear(c, x) and c.night),
    "link_renew": (lambda c: None,
                   lambda c, _: join.link_renew(night=c.night, by=c.owner, kind=NightLink.Kind.INVITE).night),
    "link_turn_off": (lambda c: join.link_renew(night=c.night, by=c.owner, kind=NightLink.Kind.VIEW),
                      lambda c, _: join.link_turn_off(night=c.night, by=c.owner, kind=NightLink.Kind.VIEW)
                      or c.night),
    "night_join": (lambda c: (get_user_model().objects.create_user("newcomer"),
                              join.link_renew(night=c.night, by=c.owner, kind=NightLink.Kind.INVITE).token),
                   lambda c, x: join.night_join(token=x[1], user=x[0])),
    "member_set_role": (lambda c: None, lambda c, _: join.member_set_role(night=c.night, by=c.owner, user=c.viewer,
                                                                          role="scorekeeper") or c.night),
    "import_night": (lambda c: services.hand_record(night=c.night, by=c.owner, entry=SELF_DRAW), _restore),
    "group_create": (lambda c: None, lambda c, _: groups.group_create(by=c.owner, name="新圈子") and None),
    "group_rename": (lambda c: None, lambda c, _: groups.group_rename(group=c.group, by=c.owner, name="老朋友") and None),
    "group_set_defaults": (lambda c: None,
                           lambda c, _: groups.group_set_defaults(group=c.group, by=c.owner, base="5") and None),
    "group_link_renew": (lambda c: None, lambda c, _: groups.group_link_renew(group=c.group, by=c.owner) and None),
    "group_link_turn_off": (lambda c: groups.group_link_renew(group=c.group, by=c.owner),
                            lambda c, _: groups.group_link_turn_off(group=c.group, by=c.owner)),
    "group_join": (lambda c: groups.group_link_renew(group=c.group, by=c.owner).token,
                   lambda c, token: groups.group_join(token=token, user=c.viewer) and None),
    "membership_set_role": (_member, lambda c, u: groups.membership_set_role(group=c.group, by=c.owner, user=u,
                                                                             role="scorekeeper") and None),
    "membership_remove": (_member, lambda c, u: groups.membership_remove(group=c.group, by=c.owner, user=u)),
    "player_create": (lambda c: None, lambda c, _: groups.player_create(group=c.group, by=c.owner, name="钱七") and None),
    "player_rename": (lambda c: None,
                      lambda c, _: groups.player_rename(player=c.players[0], by=c.owner, name="张三丰") and None),
    "player_merge": (lambda c: groups.player_create(group=c.group, by=c.owner, name="张老三"),
                     lambda c, p: groups.player_merge(source=p, into=c.players[0], by=c.owner) and None),
    "player_claim": (lambda c: None, lambda c, _: groups.player_claim(player=c.players[1], user=c.owner) and None),
    "player_unclaim": (lambda c: groups.player_claim(player=c.players[1], user=c.owner),
                       lambda c, _: groups.player_unclaim(group=c.group, user=c.owner)),
    "evening_create": (lambda c: None, lambda c, _: paying.evening_create(by=c.owner, group=c.group, title="周六",
                                                                          date=dt.date(2026, 11, 28)) and None),
    "settle_night": (_closed, lambda c, n: paying.settle_night(by=c.owner, night=n) and None),
    "transfer_mark_paid": (_settled, lambda c, t: _paid(c, t) and None),
    "transfer_mark_unpaid": (lambda c: _paid(c, _settled(c)),
                             lambda c, t: paying.transfer_mark_unpaid(by=c.owner, transfer=t) and None),
}


@pytest.fixture
def through_the_writer(monkeypatch):
    """The entries the writer saw saved (every path of the writer ends in `written`)."""
    seen = []
    real = audit_log.written

    def spy(entries):
        entries = list(entries)
        seen.extend(entries)
        real(entries)
    monkeypatch.setattr(audit_log, "written", spy)
    return seen


def generations():
    return dict(Group.objects.values_list("pk", "generation"))


@pytest.mark.parametrize("name", CHANGES)
def test_every_audited_change_writes_through_the_writer_and_bumps_its_groups_generation(name, ctx, through_the_writer):
    prepare, change = CHANGES[name]
    prepared = prepare(ctx)
    through_the_writer.clear()
    top = AuditEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    groups_before = generations()
    changed = change(ctx, prepared)
    new = list(AuditEntry.objects.filter(pk__gt=top))
    assert new, f"{name} wrote no audit entry"
    assert {e.pk for e in new} == {e.pk for e in through_the_writer}
    groups_after = generations()
    for entry in new:
        group_id = entry.group_id
        assert group_id is not None
        assert groups_after[group_id] > groups_before.get(group_id, -1)
        if entry.night_id is not None:
            assert entry.group_id == Night.objects.get(pk=entry.night_id).group_id
    if changed is not None:
        assert any(e.night_id == changed.pk for e in new)
    # Groups not concerned keep their generation.
    concerned_groups = {e.group_id for e in new}
    assert all(g == groups_before[pk] for pk, g in groups_after.items() if pk in groups_before
               and pk not in concerned_groups)


def test_a_change_that_fails_leaves_the_generations_as_they_were(ctx):
    before = generations()
    with pytest.raises(RuntimeError), transaction.atomic():
        services.hand_record(night=ctx.night, by=ctx.owner, entry=SELF_DRAW)
        assert generations() != before  # bumped inside the change's transaction...
        raise RuntimeError
    assert generations() == before  # ...and rolled back with it


def test_the_generation_key_moves_with_each_committed_change(ctx):
    group = Group.objects.get(pk=ctx.group.pk)
    first = audit_log.generation_key(group)
    services.hand_record(night=ctx.night, by=ctx.owner, entry=SELF_DRAW)
    assert audit_log.generation_key(Group.objects.get(pk=ctx.group.pk)) != first
    assert audit_log.generation_key(group) == first  # as read with the object (read it before the data)
    assert str(group.uuid) in first


def test_an_entry_needs_a_night_or_a_group(owner):
    with pytest.raises(ValueError):
        audit_log.build(AuditEntry.Action.GROUP_CHANGED, actor=owner)


def _constructs_audit_entries(tree: ast.AST) -> list[int]:
    """Lines that build AuditEntry rows: AuditEntry(...), AuditEntry.objects.create/bulk_create/get_or_create(...)."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "AuditEntry":
            lines.append(node.lineno)
        elif isinstance(func, ast.Attribute) and func.attr in ("create", "bulk_create", "get_or_create",
                                                               "update_or_create"):
            target = func.value
            if isinstance(target, ast.Attribute) and target.attr in ("objects", "_default_manager") \
                    and isinstance(target.value, ast.Name) and target.value.id == "AuditEntry":
                lines.append(node.lineno)
    return lines


def test_no_module_but_the_writer_builds_audit_entries():
    root = Path(__file__).resolve().parents[2] / "ledger"
    found = {}
    for path in root.rglob("*.py"):
        if "migrations" in path.parts or path == root / "services" / "audit.py":
            continue
        lines = _constructs_audit_entries(ast.parse(path.read_text(encoding="utf-8")))
        if lines:
            found[str(path.relative_to(root))] = lines
    assert found == {}
    # and the check finds what it looks for
    writer = ast.parse((root / "services" / "audit.py").read_text(encoding="utf-8"))
    assert _constructs_audit_entries(writer)


def group_bodies(ctx):
    """The group page's body (the part it keeps under the group's page generation) as the owner and a member who
    only looks see it, rendered anew; and the page generation it would be kept under."""
    from django.template.loader import render_to_string
    from django.test import RequestFactory
    from ledger.views.groups import _home_context
    bodies = []
    for user in (ctx.owner, ctx.looker):
        request = RequestFactory().get(f"/groups/{ctx.group.pk}/")
        request.user = user
        group = Group.objects.get(pk=ctx.group.pk)
        bodies.append(render_to_string("groups/_home_body.html", _home_context(request, group), request))
    return bodies, Group.objects.get(pk=ctx.group.pk).page_generation


@pytest.mark.parametrize("name", CHANGES)
def test_no_change_alters_the_kept_group_page_without_moving_its_page_generation(name, ctx):
    """What keeps the group page's body right: any change that alters it bumps the page generation it is kept
    under. A hand's own change (audit.HAND_ONLY) leaves both as they were, so the page keeps its body after a hand
    and draws only the leaderboard anew (issue 17, item 6); every other change bumps it."""
    ctx.looker = get_user_model().objects.create_user("looker")  # set up, not a change: no entry
    GroupMember.objects.create(group=ctx.group, user=ctx.looker, role=GroupMember.Role.MEMBER)
    prepare, change = CHANGES[name]
    prepared = prepare(ctx)
    before, generation = group_bodies(ctx)
    top = AuditEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    change(ctx, prepared)
    after, moved_to = group_bodies(ctx)
    actions = set(AuditEntry.objects.filter(pk__gt=top, group=ctx.group).values_list("action", flat=True))
    if after != before:
        assert moved_to > generation, f"{name} changed the group page's body without bumping its page generation"
    hand_only = bool(actions) and actions <= audit_log.HAND_ONLY
    assert (moved_to == generation) is (hand_only or not actions)
    if name in ("hand_record", "hand_correct", "hand_void"):
        assert hand_only and after == before
