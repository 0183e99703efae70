"""Entering players in an event, each entry in the audit trail: the officer's pages and
the admin's corrections (a game's players are entered in its event) both enter them here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from simple_history.utils import bulk_create_with_history

from ..models import Entry, Event
from .audit import audit_user


def entries_create(
    *, event: Event, member_ids: Iterable[int], user: Any, reason: str | None = None
) -> int:
    """Enter the members not in ``event`` yet, each entry in the audit trail (with
    ``reason``: a rated event's results corrected); how many were new."""
    have = set(event.entries.values_list("member_id", flat=True))
    new = [Entry(event=event, member_id=pk) for pk in dict.fromkeys(member_ids) if pk not in have]
    if new:
        bulk_create_with_history(
            new, Entry, default_user=audit_user(user), default_change_reason=reason
        )
    return len(new)
