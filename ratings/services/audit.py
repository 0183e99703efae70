"""What an audit record keeps of why a record changed: the officer's reason, as long as
django-simple-history's ``history_change_reason`` holds."""

from __future__ import annotations

import unicodedata

#: django-simple-history's ``history_change_reason`` is 100 characters.
REASON_LENGTH = 100


def reason_kept(reason: str) -> str:
    """An officer's reason for a change as its history keeps it: one line of text, its
    control characters (a NUL PostgreSQL would refuse, a pasted escape or line break)
    read as spaces: the reason is a note beside the change, never a value of the record."""
    text = "".join(" " if unicodedata.category(c) == "Cc" else c for c in reason)
    return " ".join(text.split())[:REASON_LENGTH]
