"""Groups (圈子): members and roles, invite links, players of a group, default house rules (issue 11)."""
