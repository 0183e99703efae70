"""Each published member's standing on each list (``ListStanding``: their place, the
list's sort keys, what its filters ask), written from the live list's own query: the
rows that moved written again, the places set by one UPDATE over a window of the table.
What they are kept for, when they hold and who writes them: ``list_figures``, which
marks them holding with the published lists' figures."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connections, transaction
from django.db.models import Case, F, When

from ..models import ListStanding, Member
from ..models.listing import with_ratings
from ..models.rating_lists import lists_kept

#: ``ListStanding``'s columns, and the list's annotation each is copied from.
_STANDING = {
    "member_id": "s_member",
    "unrated": "s_unrated",
    "rating_value": "s_rating",
    "name": "s_name",
    "games": "s_games",
    "region": "s_region",
    "last_change": "s_last_change",
    "last_played": "s_last_played",
    "born": "s_born",
    "gender": "s_gender",
}


def standings_insert(
    time_class: str, *, day: dt.date, using: str, among: list[int] | None = None
) -> None:
    """Copy the published list of ``time_class`` (``among``: these members' rows of it,
    unplaced) into ``ListStanding`` in one INSERT ... SELECT: the live list's own query
    (``listing.with_ratings``), its places the list's rank (ties share a place)."""
    whole = among is None
    rows = with_ratings(
        Member.objects.published(day, among=among), ranked=whole, time_class=time_class
    )
    columns = dict(_STANDING)
    if whole:
        columns["place"] = "s_place"
        rows = rows.annotate(s_place=Case(When(unrated=0, then=F("rank")), default=None))
    rows = _with_standing_keys(rows)
    listed = rows.order_by().values(*columns.values())
    sql, params = listed.query.sql_with_params()
    connection = connections[using]
    quote = connection.ops.quote_name
    table = quote(ListStanding._meta.db_table)
    into = ", ".join(quote(c) for c in ("time_class", *columns))
    chosen = ", ".join(quote(a) for a in columns.values())
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({into}) SELECT %s, {chosen} FROM ({sql}) listed",
            [time_class, *params],
        )


def _with_standing_keys(rows: Any) -> Any:
    """The list's rows with a standing's columns named as ``_STANDING`` reads them."""
    return rows.annotate(
        s_member=F("pk"),
        s_unrated=F("unrated"),
        s_rating=F("rating_value"),
        s_name=F("name"),
        s_games=F("rating_state__games"),
        s_region=F("region"),
        s_last_change=F("rating_state__last_change"),
        s_last_played=F("rating_state__last_played"),
        s_born=F("born"),
        s_gender=F("gender"),
    )


#: The span of member ids whose rows one transaction of the worker's look writes again:
#: SQLite's one writer is held for no longer (a whole re-rate moved every row: 5.1 M
#: instructions, 3.7 s at 60,000 members and load 5, in one transaction). Nobody reads the
#: standings while they are written (they do not hold), so they may be written in parts.
STANDINGS_BATCH = 10_000

#: The scratch table a list's rows are read into once, to be compared with those kept.
_LISTED = "ratings_standing_listed"


#: PostgreSQL's advisory lock held by the one worker writing the standings.
_STANDINGS_WRITER = 0x5354414E  # "STAN"


@contextmanager
def the_one_standings_writer(using: str) -> Iterator[bool]:
    """Whether this is the one process writing the standings: two workers writing the
    same rows at once, without the figures' row between them, would each insert the
    list's newcomers (PostgreSQL; SQLite writes one transaction at a time, and each list's
    rows are compared and written in one)."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        yield True
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [_STANDINGS_WRITER])
        (alone,) = cursor.fetchone()
    try:
        yield alone
    finally:
        if alone:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [_STANDINGS_WRITER])


def standings_write(kept: list[str], *, day: dt.date, using: str) -> None:
    """Every list's standings kept again (``standings_refresh``, a list at a time), those
    of lists no longer kept deleted."""
    ListStanding.objects.using(using).exclude(time_class__in=kept).delete()
    for time_class in kept:
        standings_refresh(time_class, day=day, using=using)


def _distinct(connection: Any) -> str:
    """SQL's null-safe "differs" (SQLite before 3.39 knows only ``IS NOT``)."""
    return "IS NOT" if connection.vendor == "sqlite" else "IS DISTINCT FROM"


def standings_refresh(time_class: str, *, day: dt.date, using: str) -> None:
    """The published list of ``time_class`` kept again in ``ListStanding``, writing only
    what moved: the list's rows read once (its own query, unranked) into a scratch table,
    then those whose keys changed updated (``STANDINGS_BATCH`` members a transaction),
    and, in one transaction, the kept rows of members gone from it deleted, the
    newcomers' inserted, and the places set again by one UPDATE over a window of the
    table itself (``standings_place``). After a day of payments and
    a rating run, most rows' keys hold: writing the whole table afresh (its seven indexes)
    held SQLite's one writer's lock 4.5-20 s at 60,000 members. The list is read before
    those transactions (a connection's own scratch table needs no writer's lock on
    SQLite), so that the writer's lock is held only while the rows are written."""
    rows = _with_standing_keys(
        with_ratings(Member.objects.published(day), ranked=False, time_class=time_class)
    )
    sql, params = rows.order_by().values(*_STANDING.values()).query.sql_with_params()
    connection = connections[using]
    quote = connection.ops.quote_name
    table, listed = quote(ListStanding._meta.db_table), quote(_LISTED)
    keys = [column for column in _STANDING if column != "member_id"]
    member = quote("member_id")
    differs = " OR ".join(
        f"{table}.{quote(c)} {_distinct(connection)} {listed}.{quote(c)}" for c in keys
    )
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {listed}")
        cursor.execute(
            f"CREATE TEMPORARY TABLE {listed} ({member} integer PRIMARY KEY, "
            '"unrated" integer, "rating_value" double precision, "name" varchar(120), '
            '"games" integer, "region" varchar(40), "last_change" double precision, '
            '"last_played" date, "born" date, "gender" varchar(1))'
        )
        try:
            chosen = ", ".join(quote(a) for a in _STANDING.values())
            cursor.execute(
                f"INSERT INTO {listed} ({', '.join(quote(c) for c in _STANDING)}) "
                f"SELECT {chosen} FROM ({sql}) rows",
                params,
            )
            assigned = ", ".join(f"{quote(c)} = {listed}.{quote(c)}" for c in keys)
            cursor.execute(f"SELECT MIN({member}), MAX({member}) FROM {listed}")
            first, last = cursor.fetchone()
            for low in range(first or 0, (last or -1) + 1, STANDINGS_BATCH):
                with transaction.atomic(using=using):
                    cursor.execute(
                        f"UPDATE {table} SET {assigned} FROM {listed} "
                        f'WHERE {table}."time_class" = %s '
                        f"AND {table}.{member} = {listed}.{member} "
                        f"AND {listed}.{member} >= %s AND {listed}.{member} < %s AND ({differs})",
                        [time_class, low, low + STANDINGS_BATCH],
                    )
            members = quote(Member._meta.db_table)
            with transaction.atomic(using=using):
                cursor.execute(
                    f'DELETE FROM {table} WHERE {table}."time_class" = %s AND NOT EXISTS '
                    f"(SELECT 1 FROM {listed} WHERE {listed}.{member} = {table}.{member})",
                    [time_class],
                )
                columns = ", ".join(quote(c) for c in _STANDING)
                # A member deleted since the list was read has no row to stand for.
                cursor.execute(
                    f'INSERT INTO {table} ("time_class", {columns}) '
                    f"SELECT %s, {', '.join(f'{listed}.{quote(c)}' for c in _STANDING)} "
                    f"FROM {listed} WHERE NOT EXISTS (SELECT 1 FROM {table} "
                    f'WHERE {table}."time_class" = %s AND {table}.{member} = {listed}.{member}) '
                    f'AND EXISTS (SELECT 1 FROM {members} WHERE {members}."id" = '
                    f"{listed}.{member})",
                    [time_class, time_class],
                )
                standings_place(time_class, using=using)
        finally:
            cursor.execute(f"DROP TABLE IF EXISTS {listed}")


def standings_place(time_class: str, *, using: str) -> None:
    """Each kept standing of ``time_class`` placed as the list places it (one more than
    the usable ratings above; ties share a place; none without a usable rating), by one
    UPDATE over a window of the table itself, down its (list, unrated, rating) index:
    only the rows whose place moved are written."""
    connection = connections[using]
    table = connection.ops.quote_name(ListStanding._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f'UPDATE {table} SET "place" = ranked."place" FROM (SELECT "id", '
            'RANK() OVER (ORDER BY "rating_value" DESC) AS "place" '
            f'FROM {table} WHERE "time_class" = %s AND "unrated" = 0) ranked '
            f'WHERE {table}."id" = ranked."id" '
            f'AND {table}."place" {_distinct(connection)} ranked."place"',
            [time_class],
        )
        cursor.execute(
            f'UPDATE {table} SET "place" = NULL '
            'WHERE "time_class" = %s AND "unrated" <> 0 AND "place" IS NOT NULL',
            [time_class],
        )


#: The most places a write moves in its own transaction (``standings_placed_now``); a
#: write moving more leaves them to the worker.
PLACES_MOVED_NOW = 40_000


def standings_placed_now(*, using: str) -> bool:
    """Every list's places set again in this write's transaction, where they move no more
    than ``PLACES_MOVED_NOW`` rows. Whether they were (they hold again)."""
    if ListStanding.objects.using(using).filter(unrated=0).count() > PLACES_MOVED_NOW:
        return False
    for time_class in lists_kept():
        standings_place(time_class, using=using)
    return True


def standing_kept_again(member_id: int, *, day: dt.date, using: str) -> bool:
    """After a write to this member (or a payment of theirs): their rows written again as
    the list now has them, keeping their places, where they stand on the same lists with
    the same usable ratings (a name, a region, a payment that changes nothing), so no one
    else's place moves. Whether it was so (else nothing is written)."""

    standings = ListStanding.objects.using(using)
    kept = standings.filter(member_id=member_id)
    was = {
        tc: (unrated, rating, place)
        for tc, unrated, rating, place in kept.values_list(
            "time_class", "unrated", "rating_value", "place"
        )
    }
    kept.delete()
    for time_class in lists_kept():
        standings_insert(time_class, day=day, using=using, among=[member_id])
    now = {
        tc: (unrated, rating)
        for tc, unrated, rating in kept.values_list("time_class", "unrated", "rating_value")
    }
    if {tc: (unrated, rating) for tc, (unrated, rating, _) in was.items()} != now:
        return False
    for time_class, (_, _, place) in was.items():
        kept.filter(time_class=time_class).update(place=place)
    return True
