"""A member's status to come, as their list's system says it (``RatingSystem.status_changes``),
read from their stored state; and which of those changes a member is told of by mail.

The pages and the mail read a member's changes here alone, so that every place says the
same thing; the system decides, nothing here second-guesses it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from ..engine import EngineError, RatingSystem, StatusChange
from ..engine.codec import state_from_dict

#: A dated change this close is told by mail ("within the next month"): the longest month,
#: so a change on the same day next month is always told.
TOLD_DAYS_AHEAD = 31


def member_status_changes(
    state: Any, system: RatingSystem, *, today: dt.date
) -> tuple[StatusChange, ...]:
    """The ways the member's status next changes, from their stored ``RatingState`` (its
    ``state``: the engine's state after their last rated event); none without one.

    A stored state the engine cannot read (written by another system's version, say) has
    nothing to say rather than failing the page that asks."""
    stored = getattr(state, "state", None)
    if not stored:
        return ()
    try:
        player = state_from_dict(stored, system=system)
    except EngineError:
        return ()
    return system.status_changes(player, today=today)


def told_ahead(change: StatusChange, *, today: dt.date) -> bool:
    """Whether a member is told of ``change`` by mail on ``today``: it has a day, still to
    come, within the next month (a change after more games has no day to tell ahead)."""
    return change.on is not None and today < change.on <= today + dt.timedelta(
        days=TOLD_DAYS_AHEAD
    )


def status_mail_key(*, member_pk: int, time_class: str, change: StatusChange) -> str:
    """The key of the message telling of one change: told once, whatever runs again. A
    member who plays and so moves the day has a new change, told in its turn."""
    assert change.on is not None
    return f"status:{member_pk}:{time_class}:{change.to}:{change.on.isoformat()}"
