"""Calendar months as rating periods: a ``YYYY-MM`` label's first day, and whole months
counted back (ecf-2020 rates month by month and looks back 36 months for activity)."""

from __future__ import annotations

import re
from datetime import date

_MONTH_LABEL = re.compile(r"(\d{4})-(\d{2})")


def month_start(label: str) -> date | None:
    """The first day of the month a ``YYYY-MM`` label names; None for any other label."""
    match = _MONTH_LABEL.fullmatch(label)
    if match is None:
        return None
    year, month = int(match[1]), int(match[2])
    if year < 1 or not 1 <= month <= 12:
        return None
    return date(year, month, 1)


def months_before(first: date, months: int) -> date:
    """The first day of the month ``months`` months before the month starting ``first``."""
    index = first.year * 12 + first.month - 1 - months
    if index < 12:
        return date.min
    return date(index // 12, index % 12 + 1, 1)
