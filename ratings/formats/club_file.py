"""The club file: the whole club as one JSON document, its shape written and read back.

``club_write`` writes the document from plain data (its head, and each table's rows as
Django's serializer gives them, a row at a time so a big club never sits in memory);
``club_read`` reads one and checks it is one (its format, version and tables). What goes
into the rows and loading them into a database is ``services.club_file``'s.
"""

from __future__ import annotations

import datetime as dt
import gzip
import io
import json
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from django.core.serializers.json import DjangoJSONEncoder

FORMAT = "club-ratings/club"
VERSION = 1


class _Encoder(DjangoJSONEncoder):
    """Django's JSON, but times to the microsecond (Django's stops at the millisecond)."""

    def default(self, o: Any) -> Any:
        if isinstance(o, dt.datetime | dt.time):
            return o.isoformat()
        return super().default(o)


class ClubFileRefused(Exception):
    """A document that cannot be imported here, or a database it cannot go into."""


def open_file(path: Path | str, mode: str) -> IO[str]:
    """A text file; gzipped when its name ends in .gz."""
    if str(path).endswith(".gz"):
        return io.TextIOWrapper(gzip.open(path, mode + "b"), encoding="utf-8")  # type: ignore[type-var]
    return open(path, mode, encoding="utf-8")


def club_write(
    *, out: IO[str], head: dict[str, Any], tables: Iterable[tuple[str, Iterable[dict[str, Any]]]]
) -> dict[str, int]:
    """Write the document to ``out``: its format and version, ``head``, then each table's
    rows, one a line; the rows of each table, by its label."""
    encoder = _Encoder(ensure_ascii=False, separators=(",", ":"))
    counts: dict[str, int] = {}
    head = {"format": FORMAT, "version": VERSION, **head}
    out.write(encoder.encode(head)[:-1] + ',"tables":{')
    for index, (label, rows) in enumerate(tables):
        out.write(("," if index else "") + encoder.encode(label) + ":[")
        count = 0
        for row in rows:
            out.write(("," if count else "") + "\n" + encoder.encode(row))
            count += 1
        out.write("]")
        counts[label] = count
    out.write("}}\n")
    return counts


def club_read(*, source: IO[str]) -> dict[str, Any]:
    """The document, checked to be one: its format, version and tables."""
    try:
        document = json.load(source)
    # ValueError: bad JSON, bad UTF-8, and a whole number past Python's 4,300 digits;
    # RecursionError: brackets nested thousands deep.
    except (ValueError, RecursionError, EOFError, OSError) as error:
        raise ClubFileRefused(f"Not a club document: the JSON cannot be read ({error}).") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ClubFileRefused(f'Not a club document: its "format" is not "{FORMAT}".')
    if document.get("version") != VERSION:
        raise ClubFileRefused(
            f"The document is version {document.get('version')!r}; this app reads version "
            f"{VERSION}."
        )
    if not isinstance(document.get("tables"), dict):
        raise ClubFileRefused('Not a club document: it has no "tables".')
    return document
