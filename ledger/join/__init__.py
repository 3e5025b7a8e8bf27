"""Joining a night: sign-up, invite links (QR code), members and their roles, read-only view links."""
