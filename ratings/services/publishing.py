"""Publishing the list: the published list frozen as it stands, with its date and note.

One ``Publication`` row and one ``PublicationEntry`` a listed member, copied by one
INSERT ... SELECT from the list's own query, in one transaction that holds the club
settings' row lock as a re-rate does, so a publication never sees a re-rate half-written.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import connection, transaction
from django.db.models import Case, F, When, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from ..formats.list_row import FIGURES, live_path
from ..models import (
    ClubSettings,
    Member,
    Publication,
    PublicationEntry,
    RatingPeriod,
    RatingRun,
    listing,
)
from ..rules.time_classes import STANDARD
from .rerate import ratings_lock_take


class PublishRefused(Exception):
    """Publishing now would freeze a list about to change; the message says why."""


def list_publish(
    *,
    note: str = "",
    user: Any = None,
    period: RatingPeriod | None = None,
    now: dt.datetime | None = None,
    time_class: str = STANDARD,
) -> Publication:
    """Freeze one published list (``time_class``: standard, or rapid or blitz on a list
    of their own) as it stands now (who, rating, mark, games, place).

    Refused while a re-rate is queued or running: the list it would freeze is about to
    change under it.
    """
    now = now or timezone.now()
    with transaction.atomic():
        # A run going holds the ratings lock: refused at once rather than waiting for it.
        going = not ratings_lock_take(wait=False)
        club = ClubSettings.load()
        busy = [
            run
            for run in RatingRun.objects.filter(
                status__in=[RatingRun.Status.QUEUED, RatingRun.Status.RUNNING]
            )
            if not run.dead
        ]
        if busy or going:
            what = (
                f"started {timezone.localtime(busy[0].started):%-d %b %H:%M}: {busy[0].reason}"
                if busy
                else "a correction's"
            )
            raise PublishRefused(
                f"A re-rate is still running ({what}): "
                "publish once it has finished, so the list published is the one it leaves."
            )
        day = timezone.localdate(now)
        system = club.engine(time_class)
        publication = Publication.objects.create(
            slug=_slug_for(day, time_class),
            time_class=time_class,
            day=day,
            published_at=now,
            note=note.strip(),
            published_by=user if getattr(user, "is_authenticated", False) else None,
            system=system.id,
            params=dict(system.params),
            basis=listing.list_basis(system, time_class)[:200],
            period=period,
        )
        size = _entries_write(publication=publication, day=day, time_class=time_class)
        publication.size = size
        publication.save(update_fields=["size"])
    return publication


#: The entry's columns, and the list's annotation each is copied from: its place, and
#: the list's figures (``list_row.FIGURES``, each an entry's field of the same name).
_COLUMNS = {
    "member_id": "p_member",
    "position": "p_position",
    "rank": "p_rank",
    "rating": "p_rating",
    **{name: f"p_{name}" for name in sorted(FIGURES)},
}


def _entries_write(*, publication: Publication, day: dt.date, time_class: str) -> int:
    """Copy the published list into the publication's entries in one INSERT ... SELECT.

    The list is the live list's own query (``listing.with_ratings`` over the published
    members, ranked), so a publication is exactly what the list page showed; the rows
    never travel through Python (20,000 members: a fraction of a second).
    """
    listed = (
        listing.with_ratings(Member.objects.published(day), time_class=time_class)
        .annotate(
            p_member=F("pk"),
            p_position=Window(
                RowNumber(), order_by=[F("unrated").asc(), F("rating_value").desc(), "name", "pk"]
            ),
            p_rank=Case(When(unrated=0, then=F("rank")), default=None),
            p_rating=F("rating_state__rating"),
            **{f"p_{name}": F(live_path(name)) for name in FIGURES},
        )
        .order_by()
        .values(*_COLUMNS.values())
    )
    sql, params = listed.query.sql_with_params()
    table = connection.ops.quote_name(PublicationEntry._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(c) for c in ("publication_id", *_COLUMNS))
    chosen = ", ".join(connection.ops.quote_name(a) for a in _COLUMNS.values())
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({columns}) SELECT %s, {chosen} FROM ({sql}) listed",
            [publication.pk, *params],
        )
        return int(cursor.rowcount)


def _slug_for(day: dt.date, time_class: str = STANDARD) -> str:
    """The day's date ("<date>-rapid" for the rapid list); a second publication of a list
    on one day is "<date>-2" ("<date>-rapid-2"), and so on."""
    base = day.isoformat() if time_class == STANDARD else f"{day.isoformat()}-{time_class}"
    taken = Publication.objects.filter(day=day, time_class=time_class).count()
    return base if taken == 0 else f"{base}-{taken + 1}"


def publication_on(day: dt.date, time_class: str = STANDARD) -> Publication | None:
    """A list as it stood on ``day``: its last publication made on or before it."""
    return (
        Publication.objects.filter(day__lte=day, time_class=time_class)
        .order_by("-day", "-published_at", "-pk")
        .first()
    )


def publication_latest(time_class: str = STANDARD) -> Publication | None:
    return (
        Publication.objects.filter(time_class=time_class).order_by("-published_at", "-pk").first()
    )


def list_size(time_class: str = STANDARD) -> int:
    """How many members a publication of a list made now would list."""
    return listing.with_ratings(
        Member.objects.published(), ranked=False, time_class=time_class
    ).count()
