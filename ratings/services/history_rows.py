"""The audit trail of rows written in bulk, made by the database from the rows themselves.

``simple_history``'s ``bulk_create_with_history`` builds a historical object in Python
for each row and writes it field by field: most of a long members file's save (60,000
members and their payments). Here one statement per batch copies the rows just written
into their history table (``INSERT ... SELECT``), with who, when and why: the same
history rows, no Python object for any of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import Model
from django.utils import timezone

#: Rows copied into the history by one statement on SQLite (within its 999 parameters;
#: PostgreSQL copies them all in one).
BATCH = 900


def history_rows_write(
    *,
    model: type[Model],
    pks: Sequence[int],
    user: Any = None,
    reason: str = "",
    kind: str = "+",
) -> None:
    """Record in ``model``'s history the rows ``pks`` as they are now: added (``kind``
    "+") or changed ("~"), by ``user`` (the request's user when None, as
    ``simple_history`` does), for ``reason``; one statement per ``BATCH`` rows."""
    if not pks:
        return
    history = model.history.model  # type: ignore[attr-defined]
    if getattr(user, "is_authenticated", False):
        user_id = user.pk
    else:
        default = history.get_default_history_user(None)
        user_id = default.pk if getattr(default, "is_authenticated", False) else None
    quote = connection.ops.quote_name
    tracked = [quote(field.column) for field in history.tracked_fields]
    columns = [
        *tracked,
        *(quote(name) for name in ("history_date", "history_change_reason")),
        *(quote(name) for name in ("history_type", "history_user_id")),
    ]
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    pk_column = quote(model._meta.pk.column)
    insert = (
        f"INSERT INTO {quote(history._meta.db_table)} ({', '.join(columns)}) "
        f"SELECT {', '.join(tracked)}, %s, %s, %s, %s FROM {quote(model._meta.db_table)} "
    )
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # One array parameter: one statement however many rows (an IN list of
            # thousands of parameters is slow to build and to parse).
            cursor.execute(
                insert + f"WHERE {pk_column} = ANY(%s)", [now, reason, kind, user_id, list(pks)]
            )
            return
        for start in range(0, len(pks), BATCH):
            chunk = list(pks[start : start + BATCH])
            marks = ", ".join(["%s"] * len(chunk))
            cursor.execute(
                insert + f"WHERE {pk_column} IN ({marks})", [now, reason, kind, user_id, *chunk]
            )
