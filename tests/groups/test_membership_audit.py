"""Who may see and record a night changes through roles, removals, joins and links: each change is in its audit trail."""
from ledger.services import sharing as services
from ledger.models import AuditEntry


def member_entries(night):
    return list(AuditEntry.objects.filter(night=night, action=AuditEntry.Action.MEMBER_CHANGED).order_by("id"))


def test_role_changes_removals_and_links_are_audited_with_who_and_what(night, owner, viewer, keeper, outsider):
    services.member_set_role(night=night, by=owner, user=viewer, role=services.ROLE_SCOREKEEPER)
    services.member_set_role(night=night, by=owner, user=viewer, role=services.ROLE_SCOREKEEPER)  # no change
    services.member_remove(night=night, by=owner, user=keeper)
    link = services.link_renew(night=night, by=owner, kind="invite")
    services.night_join(token=link.token, user=outsider)
    services.link_turn_off(night=night, by=owner, kind="invite")
    entries = member_entries(night)
    assert [(e.actor.username, e.before, e.after) for e in entries] == [
        ("owner", {"user": "viewer", "role": "member"}, {"user": "viewer", "role": "scorekeeper"}),
        ("owner", {"user": "keeper", "role": "scorekeeper"}, {"user": "keeper", "role": "removed"}),
        ("owner", None, {"link": "invite", "state": "on"}),
        ("outsider", None, {"user": "outsider", "role": "member", "via": "invite"}),
        ("owner", {"link": "invite", "state": "on"}, {"link": "invite", "state": "off"}),
    ]
    assert all(e.group_id == night.group_id for e in entries)


def test_the_audit_page_shows_membership_changes_in_words(night, owner, viewer, client):
    services.member_set_role(night=night, by=owner, user=viewer, role=services.ROLE_SCOREKEEPER)
    entry = member_entries(night)[0]
    client.force_login(owner)
    page = client.get(f"/nights/{night.pk}/audit/{entry.pk}/").content.decode()
    assert "viewer" in page and "记分员" in page and "成员" in page and "{" not in page.split("<main>")[1]
