"""Rating periods: every write to one (closing it, closing the past ones in bulk), and
whether one may be closed now: never before it starts, never before an earlier period
with events (the list would name a period whose predecessor is unrated); closing one
early (before its last day) is allowed, with a warning.

Which periods there are, and which events each holds, is the model's to say
(``RatingPeriod.objects``, ``RatingPeriod.events``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone

from ..engine import RatingSystem
from ..models import ClubSettings, Event, RatingPeriod, RatingRun
from ..models.rating_lists import on_list
from ..rules.time_classes import STANDARD
from .rerate import RerateRequest
from .runs import ratings_update


class PeriodRefused(Exception):
    """A period that may not be closed now; the message says why and what to do."""


def _day(day: dt.date) -> str:
    return f"{day:%d %B %Y}".lstrip("0")


def period_close_problem(
    *, period: RatingPeriod, system: RatingSystem, today: dt.date | None = None
) -> str | None:
    """Why ``period`` may not be closed today, or None."""
    today = today or timezone.localdate()
    if not period.has_started(today):
        return (
            f"{period.name} has not started: it starts on {_day(period.start)}. A period "
            "is closed once its events have been played."
        )
    earlier = earlier_open_periods(period=period, system=system)
    if earlier:
        first = earlier[0]
        others = f" (and {len(earlier) - 1} more after it)" if len(earlier) > 1 else ""
        return (
            f"{first.name}{others} is still open and has complete events: close it first. "
            f"Periods are rated in order, so closing {period.name} before it would publish "
            "a list whose earlier period is unrated."
        )
    return None


def period_close_warning(*, period: RatingPeriod, today: dt.date | None = None) -> str | None:
    """What the officer should know before closing ``period`` early, or None."""
    today = today or timezone.localdate()
    if not period.has_ended(today):
        return (
            f"{period.name} runs until {_day(period.end)}: closing it now publishes the list "
            "before the period ends. An event of the period completed after this is rated "
            "as soon as it is completed, re-rating the events after it."
        )
    return None


def _rated_complete(time_class: str) -> Any:
    """The events a list's periods are made of: rated, complete, of its time controls."""
    return Event.objects.filter(on_list(time_class), rated=True, status=Event.Status.COMPLETE)


def earlier_open_periods(*, period: RatingPeriod, system: RatingSystem) -> list[RatingPeriod]:
    """The periods before ``period`` that have complete rated events and are not closed,
    earliest first. Reads only the events after the last closed period before it."""
    last_closed = (
        RatingPeriod.objects.of_list(system, period.time_class)
        .filter(end__lt=period.start)
        .last_closed()
    )
    events = _rated_complete(period.time_class).filter(end_date__lt=period.start)
    if last_closed is not None:
        events = events.filter(end_date__gt=last_closed.end)
    periods = RatingPeriod.objects.of_events(events, system=system, time_class=period.time_class)
    return [p for p in periods if not p.is_closed]


def period_close(*, period: RatingPeriod, user: Any = None) -> RatingRun:
    """Close a rating period: rate its events and publish the new list.
    Refused (``PeriodRefused``) before the period starts or before an earlier open one.
    Refused (``rules.RecordRefused``) if an event is still to start or has nothing to rate.
    """
    problem = period_close_problem(
        period=period, system=ClubSettings.load().engine(period.time_class)
    )
    if problem is not None:
        raise PeriodRefused(problem)
    with transaction.atomic():
        if period.pk is None:
            period.save()
        period.closed_at = timezone.now()
        period.closed_by = user if getattr(user, "is_authenticated", False) else None
        period.save(update_fields=["closed_at", "closed_by"])
        first = period.events().first()
        # Only this period's events became rateable: the re-rate ripples from it
        # (``period_ripple.py``), later periods rated only where a change reaches.
        return ratings_update(
            RerateRequest(
                start=first or (period.start, period.start, 0),
                changed=first,
                user=user,
                reason=f"Rating period {period.name} closed",
                time_class=period.time_class,
            )
        )


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
    events = _rated_complete(time_class).filter(end_date__lt=today)
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
