"""The published list's row, defined once: its columns, each as data.

Four readers build from ``LIST_ROW``: the HTML tables (``presentation/tables.py`` for the
live and the officer's list, ``pages/publication_tables.py`` for a publication), the CSV
(``formats/list_csv.py``), the API's row (``api/schemas.py``, filled by ``api/lists.py``)
and a publication's pages and file (``pages/publications.py``). Adding a column is one
entry here (docs/development.md, "Adding a column to the list").

It sits in ``formats/``, the lowest layer with a reader (the CSV), so that every reader
may import it. It names no Django: the tables turn a column's ``cell`` kind into their
classes, and each reader reads the values.

A column reads the row by name (``reads``). A name is one of the list's figures
(``FIGURES``: the live list reads them from the member's rating state, a publication from
its frozen entry), one of the values a reader works out for its rows (``DERIVED``: the
place, the junior group, the page's address...), or else a field of the member (the live
list reads ``region``, a publication ``member__region``): a column showing another of the
member's fields needs nothing but its entry here.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..words.figures import rating_and_marker

#: The list's figures: the live list reads them from the member's rating state; a
#: publication froze them in its entries (``services/publishing.py`` copies them).
FIGURES = frozenset({"display", "games", "last_played"})
#: Values each reader works out for its rows, not read from the database by a path.
DERIVED = frozenset({"rank", "junior", "url"})

#: The HTML tables that show the list's row.
LIVE = "live"
PUBLICATION = "publication"


def live_path(name: str) -> str:
    """Where the live list (a query of members) reads ``name``."""
    return f"rating_state__{name}" if name in FIGURES else name


def publication_path(name: str) -> str:
    """Where a publication (a query of its entries) reads ``name``."""
    return name if name in FIGURES or name == "rank" else f"member__{name}"


class Row(Protocol):
    """A row of the list as a column reads it: a value by name (a dict, or ``ObjectRow``)."""

    def __getitem__(self, name: str, /) -> Any: ...


@dataclass(frozen=True)
class ListShown:
    """What decides whether a column is shown: the club's settings and the list's system."""

    club: Any
    system: Any = None


def _always(shown: ListShown) -> bool:
    return True


def _first(row: Row, column: ListColumn) -> tuple[Any, ...]:
    """The column's one cell: the first name it reads, as read."""
    return (row[column.reads[0]],)


@dataclass(frozen=True)
class ListColumn:
    """One column of the list: where it shows, under what heading, read from what, written
    how."""

    #: Its name in the tables (their ``?sort=`` and ``exclude``).
    key: str
    #: The tables' heading ("": not a column of the tables).
    label: str = ""
    #: The names it reads of a row (see the module's note); the first is the one the
    #: tables sort it by, unless a table says otherwise.
    reads: tuple[str, ...] = ()
    #: The CSV's headers for it, one a cell (the rating writes two: its number, its marker).
    csv: tuple[str, ...] = ()
    #: The API's fields for it, each a name and a type (the name brings the title along).
    api: tuple[tuple[str, Any], ...] = ()
    #: The tables showing it, each with its options there: ``cell`` (the look: "text",
    #: "number", "wide", "strength", "highest-first", "highest-first-heading"),
    #: ``orderable``, ``order_by``, ``empty_values`` (what shows as "—"), ``linkify``.
    tables: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: Whether the tables show it, for the club and the list's system (the FIDE column
    #: only where the club chooses); the CSV and the API keep their columns fixed.
    shown: Callable[[ListShown], bool] = _always
    #: The CSV's cells from the row read (``csv`` in number), before made safe.
    to_csv: Callable[[Row, ListColumn], tuple[Any, ...]] = _first
    #: The API's values from the row read (``api`` in number).
    to_api: Callable[[Row, ListColumn], tuple[Any, ...]] = _first
    #: The tables' cell from the value read, for a column whose table has no cell of its
    #: own for it: by default the value as a template shows it, "—" for none.
    to_html: Callable[[Any], Any] = lambda value: "—" if value in (None, "") else value


def _rating_cells(row: Row, column: ListColumn) -> tuple[Any, ...]:
    return rating_and_marker(row["display"])


def _name_and_title(row: Row, column: ListColumn) -> tuple[Any, ...]:
    return row["name"], row["title"]


def _iso_date(row: Row, column: ListColumn) -> tuple[Any, ...]:
    day: dt.date | None = row[column.reads[0]]
    return (day.isoformat() if day else "",)


def _fide_on_list(shown: ListShown) -> bool:
    return bool(shown.club.fide_on_list)


_BOTH = (LIVE, PUBLICATION)

#: The published list's row, in its order: each reader takes the columns it shows.
LIST_ROW: tuple[ListColumn, ...] = (
    ListColumn(
        "rank",
        "#",
        reads=("rank",),
        csv=("rank",),
        api=(("rank", int | None),),
        tables={
            LIVE: {"cell": "strength", "order_by": ("unrated", "-rating_value", "name")},
            PUBLICATION: {"cell": "strength", "order_by": ("position",)},
        },
    ),
    ListColumn("member_number", reads=("member_number",), csv=("id",), api=(("member", str),)),
    ListColumn(
        "name",
        "Name",
        reads=("name", "title"),
        csv=("name",),
        api=(("name", str), ("title", str)),
        tables={LIVE: {"linkify": True}, PUBLICATION: {}},
        to_api=_name_and_title,
    ),
    ListColumn(
        "rating",
        "Rating",
        reads=("display",),
        csv=("rating", "marker"),
        api=(("rating", str),),
        tables={
            LIVE: {"cell": "highest-first"},
            PUBLICATION: {
                "cell": "highest-first-heading",
                "order_by": ("unrated", "-rating_value", "member__name"),
            },
        },
        to_csv=_rating_cells,
    ),
    ListColumn(
        "games",
        "Games",
        reads=("games",),
        csv=("games",),
        api=(("games", int),),
        tables={table: {"cell": "number"} for table in _BOTH},
    ),
    # Since the member's last rated event; a publication shows its change since the last.
    ListColumn("last_change", "Last change", tables={LIVE: {"cell": "number"}}),
    ListColumn(
        "change",
        "Change",
        tables={PUBLICATION: {"cell": "number", "orderable": False, "empty_values": ()}},
    ),
    ListColumn(
        "region",
        "Region",
        reads=("region",),
        csv=("region",),
        api=(("region", str),),
        tables={table: {"cell": "wide"} for table in _BOTH},
    ),
    ListColumn("title", reads=("title",), csv=("title",)),
    ListColumn("fide_id", reads=("fide_id",), csv=("fide_id",)),
    ListColumn(
        "age",
        "Junior",
        reads=("junior",),
        api=(("junior", str),),
        # Shown for everyone, so no birth date and an adult both show blank (not "—").
        tables={
            table: {"cell": "wide", "orderable": False, "empty_values": ()} for table in _BOTH
        },
    ),
    ListColumn(
        "last_played",
        "Last played",
        reads=("last_played",),
        csv=("last_played",),
        api=(("last_played", dt.date | None),),
        tables={table: {"cell": "wide"} for table in _BOTH},
        to_csv=_iso_date,
    ),
    # FIDE's rating as the club last read it, where the club chooses.
    ListColumn(
        "fide",
        "FIDE",
        tables={
            LIVE: {"cell": "number", "orderable": False, "empty_values": (None,)},
            PUBLICATION: {"cell": "number", "orderable": False, "empty_values": ()},
        },
        shown=_fide_on_list,
    ),
    ListColumn("url", reads=("url",), api=(("url", str),)),
)


def table_row(table: str) -> list[ListColumn]:
    """The columns the table ``table`` (``LIVE`` or ``PUBLICATION``) shows, in order."""
    return [column for column in LIST_ROW if table in column.tables]


def hidden_columns(shown: ListShown) -> tuple[str, ...]:
    """The tables' columns the club's settings and the list's system leave out."""
    return tuple(column.key for column in LIST_ROW if column.tables and not column.shown(shown))


def csv_header() -> list[str]:
    return [header for column in LIST_ROW for header in column.csv]


def csv_reads() -> list[str]:
    """The names the CSV's columns read, each once, in order."""
    names = [name for column in LIST_ROW if column.csv for name in column.reads]
    return list(dict.fromkeys(names))


def csv_cells() -> Callable[[Row], list[Any]]:
    """What writes a row's cells in ``csv_header``'s order, as read (its ``row``: each
    name the CSV reads). Made once a file: a list of 20,000 rows writes each row with no
    more than a call a column."""
    # A column written as read (most) is read by name, with no call.
    plan = [
        (column.reads[0], None) if column.to_csv is _first else ("", column)
        for column in LIST_ROW
        if column.csv
    ]

    def cells(row: Row) -> list[Any]:
        out: list[Any] = []
        for name, column in plan:
            if column is None:
                out.append(row[name])
            else:
                out.extend(column.to_csv(row, column))
        return out

    return cells


def api_fields() -> dict[str, Any]:
    """The API's row: each field's name and type, in order."""
    return {name: kind for column in LIST_ROW for name, kind in column.api}


def api_reads() -> list[str]:
    names = [name for column in LIST_ROW if column.api for name in column.reads]
    return list(dict.fromkeys(names))


def api_values(row: Row) -> dict[str, Any]:
    """A row's API fields (``row``: each name the API reads)."""
    out: dict[str, Any] = {}
    for column in LIST_ROW:
        if column.api:
            values = column.to_api(row, column)
            out.update(zip((name for name, _kind in column.api), values, strict=True))
    return out


class ObjectRow:
    """A row read from a model instance by path (``rating_state__display``), with the
    values its reader works out (``derived``): a missing rating state reads as None."""

    def __init__(
        self, record: Any, path: Callable[[str], str], derived: Mapping[str, Any] | None = None
    ) -> None:
        self.record, self.path, self.derived = record, path, derived or {}

    def __getitem__(self, name: str) -> Any:
        if name in self.derived:
            return self.derived[name]
        value = self.record
        for part in self.path(name).split("__"):
            value = getattr(value, part, None)
            if value is None:
                return None
        return value
