"""A system switch or a list's change made, rating nothing: the club's settings (or the
list's row) saved and that system's past rating periods closed.

The caller re-rates in the same transaction: a switch made now (``systems.py``), or a
queued run that brings one (``rerate.py``, in the run's own transaction). It sits below
both, and below ``periods.py`` (whose closing of one period re-rates), so that the re-rate
reaches it without going back up through the modules that queue re-rates.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from ..engine import RatingSystem
from ..models import ClubSettings, Event, RatingList, RatingPeriod
from ..models.rating_lists import on_list
from ..rules.time_classes import STANDARD


def rated_complete(time_class: str) -> QuerySet[Event]:
    """The events a list's periods are made of: rated, complete, of its time controls."""
    return Event.objects.filter(on_list(time_class), rated=True, status=Event.Status.COMPLETE)


def periods_close_past(
    *, system: RatingSystem, today: dt.date | None = None, time_class: str = STANDARD
) -> list[RatingPeriod]:
    """Close every period of ``system`` that has complete events and has ended before today.

    Used when history is loaded in bulk (imports, the demo, a change of system): past
    periods are published as they would have been; the current one stays open for
    the officer to close. Rates nothing itself: the caller re-rates once.
    """
    if not system.period_based:
        return []
    today = today or timezone.localdate()
    events = rated_complete(time_class).filter(end_date__lt=today)
    closed = []
    now = timezone.now()
    for period in RatingPeriod.objects.of_events(events, system=system, time_class=time_class):
        if not period.has_ended(today):
            continue
        if period.pk is None:
            period.save()
        if period.closed_at is None:
            period.closed_at = now
            period.save(update_fields=["closed_at"])
        closed.append(period)
    return closed


def rating_system_apply(*, pending: dict[str, Any], user: Any = None) -> None:
    """Make the club's settings name ``pending``'s system and parameters, and close that
    system's past rating periods; rates nothing (the caller re-rates, in this transaction)."""
    club = ClubSettings.load()
    system_id, params = pending["rating_system"], pending.get("system_params") or {}
    if (club.rating_system, club.system_params) != (system_id, params):
        # Saved only if it changes: a second save would put an empty "Changed" row in
        # the audit trail.
        club.rating_system, club.system_params = system_id, params
        club.full_clean()
        if getattr(user, "is_authenticated", False):
            club._history_user = user  # type: ignore[attr-defined]
        club.save()
    periods_close_past(system=club.engine())


def rating_list_apply(*, pending: dict[str, Any]) -> None:
    """Keep a time control as ``pending["rating_list"]`` says, and close its list's past
    rating periods; rates nothing (the caller re-rates, in this transaction)."""
    wanted = pending["rating_list"]
    online = bool(wanted.get("online", False))  # a change queued before online lists
    row = RatingList.objects.filter(
        time_class=wanted["time_class"], online=online
    ).first() or RatingList(time_class=wanted["time_class"], online=online)
    for field in ("kept", "rating_system", "system_params"):
        setattr(row, field, wanted[field])
    row.full_clean()
    row.save()
    if row.kept == RatingList.Kept.OWN:
        periods_close_past(system=row.engine(), time_class=row.key)


def pending_apply(*, pending: dict[str, Any], user: Any = None) -> None:
    """Make the change a background run brings in: a system switch or a list's keeping."""
    if "rating_list" in pending:
        rating_list_apply(pending=pending)
    else:
        rating_system_apply(pending=pending, user=user)
