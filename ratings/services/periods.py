"""Whether a rating period may be closed now: never before it starts, never before an
earlier period with events (the list would name a period whose predecessor is unrated);
closing one early (before its last day) is allowed, with a warning."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from ..engine import RatingSystem
from ..models import Event, RatingPeriod
from ..rating_lists import classes_of


class PeriodRefused(Exception):
    """A period that may not be closed now; the message says why and what to do."""


def _day(day: dt.date) -> str:
    return f"{day:%d %B %Y}".lstrip("0")


def period_close_problem(
    *, period: RatingPeriod, system: RatingSystem, today: dt.date | None = None
) -> str | None:
    """Why ``period`` may not be closed today, or None."""
    today = today or timezone.localdate()
    if period.start > today:
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
    if period.end >= today:
        return (
            f"{period.name} runs until {_day(period.end)}: closing it now publishes the list "
            "before the period ends. An event of the period completed after this is rated "
            "as soon as it is completed, re-rating the events after it."
        )
    return None


def earlier_open_periods(*, period: RatingPeriod, system: RatingSystem) -> list[RatingPeriod]:
    """The periods before ``period`` that have complete rated events and are not closed,
    earliest first. Reads only the events after the last closed period before it."""
    closed = RatingPeriod.objects.filter(
        system=system.id,
        time_class=period.time_class,
        closed_at__isnull=False,
        end__lt=period.start,
    )
    last_closed = closed.order_by("-end").values_list("end", flat=True).first()
    events = Event.objects.filter(
        rated=True,
        status=Event.Status.COMPLETE,
        end_date__lt=period.start,
        time_class__in=classes_of(period.time_class),
    )
    if last_closed is not None:
        events = events.filter(end_date__gt=last_closed)
    labels: dict[str, tuple[dt.date, dt.date]] = {}
    for end in events.values_list("end_date", flat=True).distinct():
        label = system.period_of(end)
        assert label is not None
        labels.setdefault(label, system.period_bounds(label))
    done = set(closed.filter(label__in=labels).values_list("label", flat=True))
    return sorted(
        (
            RatingPeriod(
                system=system.id, time_class=period.time_class, label=label, start=start, end=end
            )
            for label, (start, end) in labels.items()
            if label not in done
        ),
        key=lambda p: p.start,
    )
