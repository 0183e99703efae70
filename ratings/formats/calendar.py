"""The club's calendar as iCalendar (RFC 5545), written with the ``icalendar`` package:
one VEVENT a club event, all-day (an event's dates have no times), so a calendar program
shows a weekend congress across its days and a club night on its evening's date.

The writer takes plain entries and knows nothing of the record: ``pages/calendar.py``
says which events are in a feed and what each entry says.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from icalendar import Calendar
from icalendar import Event as CalendarEvent

__all__ = ["CalendarEntry", "calendar_ics"]

#: Who wrote the feed (RFC 5545's PRODID): the product, not the club.
PRODUCT = "-//Club Ratings//Club calendar//EN"


@dataclass(frozen=True)
class CalendarEntry:
    uid: str  # the same event keeps it, so a calendar program updates rather than adds
    summary: str
    first_day: dt.date
    last_day: dt.date  # inclusive, as the club says it ("3 to 5 May")
    stamp: dt.datetime  # when the entry was made (DTSTAMP): the same every time it is read
    location: str = ""
    description: str = ""
    url: str = ""


def calendar_ics(*, name: str, entries: Iterable[CalendarEntry]) -> bytes:
    """The iCalendar file of ``entries``, named ``name`` in a calendar program."""
    calendar = Calendar()
    calendar.add("prodid", PRODUCT)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", name)
    for entry in entries:
        event = CalendarEvent()
        event.add("uid", entry.uid)
        event.add("dtstamp", entry.stamp)
        event.add("summary", entry.summary)
        event.add("dtstart", entry.first_day)
        # An all-day event's end is the day after its last (RFC 5545, 3.6.1).
        event.add("dtend", entry.last_day + dt.timedelta(days=1))
        if entry.location:
            event.add("location", entry.location)
        if entry.description:
            event.add("description", entry.description)
        if entry.url:
            event.add("url", entry.url)
        calendar.add_component(event)
    return calendar.to_ical()
