"""Loading many rows fast, past the model layer: COPY on PostgreSQL, executemany on SQLite.

For generated histories (``generate_history``): rows are tuples in the table's column
order, written in one transaction; no signals, no audit trail, no per-row Python objects.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from django.core.management.color import no_style
from django.db import connection
from django.db.models import Field, Model


class fast_writes:
    """SQLite: the loader's connection skips fsync and keeps a big page cache while it
    writes (a crash mid-way loses only what is being loaded). Restored afterwards."""

    def __enter__(self) -> None:
        if connection.vendor == "sqlite" and not connection.in_atomic_block:
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA synchronous=OFF")
                cursor.execute("PRAGMA cache_size=-400000")  # 400 MB, for the index inserts

    def __exit__(self, *exc: object) -> None:
        if connection.vendor == "sqlite" and not connection.in_atomic_block:
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA synchronous=NORMAL")
                cursor.execute("PRAGMA cache_size=-2000")


def insert(model: type[Model], fields: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
    fields, rows = with_defaults(model, fields, rows)
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    columns = ", ".join(quote(column(model, f)) for f in fields)
    connection.ensure_connection()
    raw = connection.connection
    if connection.vendor == "postgresql":
        with raw.cursor() as cursor, cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        return
    if connection.vendor != "sqlite":
        raise NotImplementedError(
            f"Bulk loads go to SQLite or PostgreSQL, not {connection.vendor}."
        )
    marks = ", ".join("?" * len(fields))
    cursor = raw.cursor()
    try:
        for chunk in chunks(sqlite_rows(rows), 100_000):
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", chunk)
    finally:
        cursor.close()


def with_defaults(
    model: type[Model], fields: Sequence[str], rows: list[tuple[Any, ...]]
) -> tuple[Sequence[str], list[tuple[Any, ...]]]:
    """The rows with every column they leave out that cannot be NULL given its default
    (an empty text, a list), as the model layer would save it: a field added to the
    record later needs no change to the generators that write past the model layer."""
    given = {column(model, f) for f in fields}
    missing = [
        f
        for f in model._meta.concrete_fields
        if f.column not in given
        and not f.null
        and not f.primary_key
        and (f.has_default() or f.empty_strings_allowed)
    ]
    if not missing:
        return fields, rows
    extra = tuple(f.get_db_prep_save(f.get_default(), connection) for f in missing)
    return [*fields, *(f.attname for f in missing)], [row + extra for row in rows]


def column(model: type[Model], attname: str) -> str:
    """The column of a field named as the rows give it (``white_id``, ``name``)."""
    name = attname[:-3] if attname.endswith("_id") and attname != "fide_id" else attname
    field = model._meta.get_field(name)
    assert isinstance(field, Field), f"{model.__name__}.{name} is not a column"
    return field.column


def sqlite_rows(rows: Iterable[tuple[Any, ...]]) -> Iterable[tuple[Any, ...]]:
    """Dates as Django writes them to SQLite (text), not by sqlite3's deprecated adapters."""
    for row in rows:
        if any(isinstance(v, dt.date) for v in row):
            yield tuple(sqlite_value(v) for v in row)
        else:
            yield row


def sqlite_value(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).replace(tzinfo=None).isoformat(" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def chunks(rows: Iterable[tuple[Any, ...]], size: int) -> Iterable[list[tuple[Any, ...]]]:
    chunk: list[tuple[Any, ...]] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def after_bulk_load(models: Sequence[type[Model]]) -> None:
    """PostgreSQL: the id sequences past the ids written, and fresh planner statistics.

    SQLite needs neither: its rowids carry on from the highest, and Django never runs
    ANALYZE there, so neither does this (the figures are those of a club's own file).
    """
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(sql)
        for model in models:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")
