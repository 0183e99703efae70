"""What an audit record keeps of a change: why (the officer's reason, as long as
django-simple-history's ``history_change_reason`` holds) and who (the acting user). Below
every service that writes the record, which all share it."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from django.db import router
from django.db.models.deletion import Collector

#: django-simple-history's ``history_change_reason`` is 100 characters.
REASON_LENGTH = 100


def reason_kept(reason: str) -> str:
    """An officer's reason for a change as its history keeps it: one line of text, its
    control characters (a NUL PostgreSQL would refuse, a pasted escape or line break)
    read as spaces: the reason is a note beside the change, never a value of the record."""
    text = "".join(" " if unicodedata.category(c) == "Cc" else c for c in reason)
    return " ".join(text.split())[:REASON_LENGTH]


def audit_user(user: Any) -> Any:
    """The user an audit record names: the acting user, or None for a command or task."""
    return user if getattr(user, "is_authenticated", False) else None


def delete_with_history(records: Sequence[Any], *, user: Any, reason: str = "") -> None:
    """Delete ``records`` in one query, the audit trail recording each with ``user`` (and
    ``reason``, when given)."""
    if not records:
        return
    for record in records:
        if user is not None:
            record._history_user = user
        if reason:
            record._change_reason = reason
    # QuerySet.delete() would load fresh instances that do not carry the user.
    collector = Collector(using=router.db_for_write(type(records[0])))
    collector.collect(records)
    collector.delete()
