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
from ..models import ClubSettings, RatingPeriod, RatingRun
from .rerate import RerateRequest
from .runs import ratings_update
from .switches import periods_close_past as periods_close_past
from .switches import rated_complete


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


def earlier_open_periods(*, period: RatingPeriod, system: RatingSystem) -> list[RatingPeriod]:
    """The periods before ``period`` that have complete rated events and are not closed,
    earliest first. Reads only the events after the last closed period before it."""
    last_closed = (
        RatingPeriod.objects.of_list(system, period.time_class)
        .filter(end__lt=period.start)
        .last_closed()
    )
    events = rated_complete(period.time_class).filter(end_date__lt=period.start)
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
