"""Evenings across tables, table fees, settlements and paying up (issue 11)."""
