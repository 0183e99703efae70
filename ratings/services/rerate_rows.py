"""Writing a re-rate's rows fast: the changes' and states' columns, rows inserted past
the model layer (COPY on PostgreSQL, one prepared INSERT on SQLite), the planner's
statistics refreshed after a big rewrite, SQLite's page cache widened for a list rated
whole. ``rerate.py`` rates; this module only writes what it rated."""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from typing import Any

import msgspec
from django.db import connection

#: Rows written at a time.
WRITE_BATCH = 2_000


def chunks(values: Sequence[Any], size: int = 500) -> Iterator[Sequence[Any]]:
    """``values`` in slices, so that no query binds more parameters than a database takes."""
    for i in range(0, len(values), size):
        yield values[i : i + size]


CHANGE_COLUMNS = (
    "event_id",
    "member_id",
    "time_class",
    "period",
    "before",
    "after",
    "display_before",
    "display_after",
    "played",
    "score",
    "breakdown",
    "state_after",
    "event_end",
    "event_start",
    "unsettled",
)
STATE_COLUMNS = (
    "member_id",
    "time_class",
    "rating",
    "display",
    "games",
    "state",
    "last_event_id",
    "last_played",
    "last_change",
    "usable",
    "updated",
)
_encode = msgspec.json.Encoder().encode


def _json(value: Any) -> str:
    return _encode(value).decode()


def insert_rows(model: type[Any], columns: Sequence[str], rows: Sequence[tuple[Any, ...]]) -> None:
    """Insert rows of values straight from the chain: COPY on PostgreSQL, one prepared
    INSERT on SQLite. A model instance a row, as ``bulk_create`` builds, would cost the
    re-rate of a long history more than the rating itself."""
    if not rows:
        return
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    names = ", ".join(quote(column) for column in columns)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            marks = ", ".join(["%s"] * len(columns))
            for chunk in chunks(rows, WRITE_BATCH):
                cursor.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", chunk)


def _analyse(*, lines: int, everyone: bool) -> None:
    """Refresh the planner's statistics after a rewrite big enough to move them: a full
    re-rate of a sizeable club, or a re-rate of half a million game lines or more (not a
    correction a year back: ANALYZE would cost a tenth of it, for statistics it hardly
    moves)."""
    if lines < (20_000 if everyone else 500_000):
        return
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("ANALYZE ratings_ratingchange, ratings_ratingstate")
        elif connection.vendor == "sqlite":
            cursor.execute("ANALYZE ratings_ratingchange")
            cursor.execute("ANALYZE ratings_ratingstate")


class _collector_paused:
    """The cyclic garbage collector held off while a re-rate builds its rows, and run on
    the young objects alone after each batch (``batch_done``).

    A re-rate makes several objects a game line (states, game lines, row tuples) and frees
    them whole, batch by batch; with the collector on, every 700 new objects it walks them
    again, and its full passes walk the whole heap: some 40 % of a full re-rate's time. The
    young collection after each batch still frees whatever cycles the batch made (Django's
    querysets make a few), so memory stays as it was."""

    def __enter__(self) -> _collector_paused:
        self.was = gc.isenabled()
        gc.disable()
        return self

    def batch_done(self) -> None:
        if self.was:
            gc.collect(1)

    def __exit__(self, *exc: object) -> None:
        if self.was:
            gc.enable()


class _page_cache:
    """SQLite: a bigger page cache for a list re-rated whole. Its inserts land all over
    the rating changes' indexes (by member), and with SQLite's default 2 MB cache most
    of them read and write pages back and forth. Restored afterwards (per connection)."""

    PAGES_KB = 256_000

    def __init__(self, *, big: bool) -> None:
        self.big = big and connection.vendor == "sqlite"

    def __enter__(self) -> None:
        if self.big:
            with connection.cursor() as cursor:
                self.was = cursor.execute("PRAGMA cache_size").fetchone()[0]
                cursor.execute(f"PRAGMA cache_size=-{self.PAGES_KB}")

    def __exit__(self, *exc: object) -> None:
        if self.big:
            with connection.cursor() as cursor:
                cursor.execute(f"PRAGMA cache_size={int(self.was)}")
