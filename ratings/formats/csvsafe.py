"""CSV cells a spreadsheet will not run: the one guard every CSV writer calls.

A cell that begins with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return) is read
as a formula by Excel, LibreOffice and Google Sheets when the file is opened, so a member
named ``=HYPERLINK(...)`` would run in the officer's spreadsheet. As OWASP advises ("CSV
Injection"), such a cell is written with a single quote in front, which the spreadsheet
shows as text. A plain number (``-12``, ``+3.5``) is not a formula and is left alone, so
rating changes keep their sign.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

#: What a spreadsheet reads as the start of a formula (OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


def csv_safe(value: Any) -> Any:
    """``value`` as it may go into a CSV cell: a would-be formula gets a leading ``'``."""
    if not isinstance(value, str):
        return value
    if value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def csv_safe_row(row: Iterable[Any]) -> list[Any]:
    """Every cell of ``row`` through :func:`csv_safe`."""
    return [csv_safe(value) for value in row]
