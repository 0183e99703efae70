"""What an audit record keeps of why a record changed: the officer's reason, as long as
django-simple-history's ``history_change_reason`` holds."""

from __future__ import annotations

#: django-simple-history's ``history_change_reason`` is 100 characters.
REASON_LENGTH = 100


def reason_kept(reason: str) -> str:
    """An officer's reason for a change as its history keeps it."""
    return reason.strip()[:REASON_LENGTH]
