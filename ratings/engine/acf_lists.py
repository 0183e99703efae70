"""acf-1993's calendar: the three lists a year (April, August, December) and the months
of results each one is made from, as the booklet sets them out. A rating period is named
by its list's month ("2026-12")."""

from __future__ import annotations

from datetime import date, timedelta

from .base import EngineError

#: The list (month) an event's end month feeds, and how many years later it appears.
LIST_OF_MONTH = {
    11: (4, 1),
    12: (4, 1),
    1: (4, 0),
    2: (4, 0),
    3: (8, 0),
    4: (8, 0),
    5: (8, 0),
    6: (8, 0),
    7: (12, 0),
    8: (12, 0),
    9: (12, 0),
    10: (12, 0),
}


def list_fed(day: date) -> str:
    """The label of the list an event ending on ``day`` feeds ("2027-04")."""
    month, years_on = LIST_OF_MONTH[day.month]
    return f"{day.year + years_on}-{month:02d}"


def list_month(label: str) -> date | None:
    """The first day of the month a label names, or None when it names none."""
    year, _, month = label.partition("-")
    if year.isdigit() and month.isdigit() and 1 <= int(month) <= 12 and int(year) >= 1:
        return date(int(year), int(month), 1)
    return None


def list_period(label: str) -> tuple[date, date]:
    """The first and last day of the results a list is made from."""
    year_text, _, month_text = label.partition("-")
    if not (year_text.isdigit() and len(year_text) == 4 and month_text in ("04", "08", "12")):
        raise EngineError(
            [f"period: {label!r} is not an acf-1993 period (YYYY-04, YYYY-08 or YYYY-12)"]
        )
    year = int(year_text)
    if month_text == "04":
        return date(year - 1, 11, 1), date(year, 3, 1) - timedelta(days=1)
    if month_text == "08":
        return date(year, 3, 1), date(year, 6, 30)
    return date(year, 7, 1), date(year, 10, 31)
