"""A member's place on the published list: the one meaning of the lists' "#" column.

The place is among every published member with a usable rating, by rating (ties share a
place), whatever the reader has filtered or searched: the U16s' page shows each junior's
place on the whole list, not 1, 2, 3. The published ratings are read once, in one query,
and a member's place found by bisecting them, so a page or a download of 20,000 rows
costs the same one query however many rows it places.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_right
from typing import Any

from django.db import connections
from django.db.models import F, Window
from django.db.models.functions import Rank
from django.utils.functional import cached_property

from ..pages import reports
from . import publication
from .time_classes import STANDARD


class PublishedRanking:
    """Places on the published list (of ``time_class``) of ``day`` (today)."""

    def __init__(
        self,
        day: dt.date | None = None,
        *,
        ratings: list[float] | None = None,
        time_class: str = STANDARD,
    ):
        self.day = day
        self.time_class = time_class
        if ratings is not None:
            self.__dict__["ratings"] = sorted(ratings)

    def _usable(self) -> Any:
        """The published members with a usable rating (``with_ratings``' annotations)."""
        listed = reports.with_ratings(
            publication.published_members(self.day), ranked=False, time_class=self.time_class
        )
        return listed.filter(unrated=0).order_by()  # type: ignore[misc]  # an annotation

    @cached_property
    def ratings(self) -> list[float]:
        """Every usable published rating, lowest first."""
        rows = self._usable().values_list("rating_value")
        # Read straight from the cursor, as ``ListPaginator`` reads its keys: plain floats.
        sql, params = rows.query.sql_with_params()
        with connections[rows.db].cursor() as cursor:
            cursor.execute(sql, params)
            return sorted(rating for (rating,) in cursor.fetchall())

    def places_sql(self) -> tuple[str, tuple[Any, ...]]:
        """The SQL of every usable published member's place, ``(place_pk, place)``: a
        window over the published list, for a page's one read of its keys to join."""
        rows = self._usable().values(
            place_pk=F("pk"), place=Window(Rank(), order_by=F("rating_value").desc())
        )
        return rows.query.sql_with_params()

    def rank(self, rating: float) -> int:
        """One more than the published members with a better usable rating."""
        return 1 + len(self.ratings) - bisect_right(self.ratings, rating)

    def place(self, member: Any) -> int | None:
        """A listed member's place (read with ``with_ratings`` and ``is_financial``), or
        None: no usable rating, or not published (the officer's list shows everyone)."""
        if member.unrated or publication.reason(member) != "published":
            return None
        return self.rank(member.rating_value)
