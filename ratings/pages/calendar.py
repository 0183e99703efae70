"""What the club's calendar feed holds (``/events.ics``): its events from a year ago on,
fixtures entered ahead included (a date to come, no games yet), each with its place, kind
and time control; a finished event's entry links to its rating report. A feed per rating
list holds the events that list rates (``?list=rapid``)."""

from __future__ import annotations

import datetime as dt

from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils import timezone

from ..formats.calendar import CalendarEntry, calendar_ics
from ..models import ClubSettings, Event, RatingChange
from ..models.rating_lists import classes_of
from ..rules.rating_lists import list_name
from ..words.counts import count_phrase

#: How far back the feed reaches: a calendar program keeps what it read before.
PAST_DAYS = 366


def _entry(event: Event, *, site: str, host: str, today: dt.date) -> CalendarEntry:
    finished = bool(event.has_ratings)  # type: ignore[attr-defined]
    page = reverse("ratings:event-report" if finished else "ratings:event", args=[event.pk])
    lines = [
        f"{event.get_kind_display()}, {count_phrase(event.rounds, 'round')}"
        + (f", {event.time_control}" if event.time_control else ""),
    ]
    if finished:
        lines.append(f"Rating report: {site}{page}")
    elif not event.rated:
        lines.append("Not rated.")
    elif event.start_date > today:
        lines.append(f"Fixture: {site}{page}")
    return CalendarEntry(
        uid=f"event-{event.pk}@{host}",
        summary=event.name,
        first_day=event.start_date,
        last_day=event.end_date,
        stamp=event.created,
        location=event.place,
        description="\n".join(lines),
        url=f"{site}{page}",
    )


def club_calendar(*, club: ClubSettings, site: str, host: str, rating_list: str | None) -> bytes:
    """The feed's file: every event from a year ago on (``rating_list``: only those it
    rates). ``site``: the site's address, for the entries' links; ``host`` names their UIDs."""
    today = timezone.localdate()
    events = Event.objects.filter(end_date__gte=today - dt.timedelta(days=PAST_DAYS))
    name = club.name
    if rating_list is not None:
        events = events.filter(time_class__in=classes_of(rating_list))
        name = f"{club.name}: {list_name(rating_list)}"
    events = events.annotate(
        has_ratings=Exists(RatingChange.objects.filter(event=OuterRef("pk")))
    ).order_by("start_date", "pk")
    site = site.rstrip("/")
    return calendar_ics(
        name=name,
        entries=[_entry(event, site=site, host=host, today=today) for event in events],
    )
