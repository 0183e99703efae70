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
from django.db.models import Count, F, Window
from django.db.models.functions import Rank
from django.utils.functional import cached_property

from ..rules import publication
from ..rules.time_classes import STANDARD
from . import listing
from .members import Member


class PublishedRanking:
    """Places on the published list (of ``time_class``) of ``day`` (today)."""

    def __init__(
        self,
        day: dt.date | None = None,
        *,
        ratings: list[float] | None = None,
        time_class: str = STANDARD,
        usable: int | None = None,
    ):
        self.day = day
        self.time_class = time_class
        #: The published list's usable ratings, where the caller has them counted (the
        #: figures the last rating run kept); else counted when needed.
        self.usable = usable
        if ratings is not None:
            self.__dict__["ratings"] = sorted(ratings)

    def _usable(self) -> Any:
        """The published members with a usable rating (``with_ratings``' annotations)."""
        listed = listing.with_ratings(
            Member.objects.published(self.day), ranked=False, time_class=self.time_class
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

    #: The most distinct ratings a page places by the database's ranking; a longer page
    #: (the print view's whole list) reads the published ratings once instead.
    MOST_RANKED = 500
    #: The most members' ratings a page's places are read among from one end of the
    #: (list, rating) index; past it, the whole list is ranked in one pass.
    MOST_REACHED = 8000

    def place_all(self, members: list[Any]) -> None:
        """Set each member's ``rank``: their place (as ``place``), or None. The page's
        places come from the database, never every published rating read into Python
        (unless they were given, a publication's, or the page is the whole list)."""
        placed = [m for m in members if not m.unrated and publication.reason(m) == "published"]
        ratings = sorted({m.rating_value for m in placed})
        places: dict[int, int] = {}
        if "ratings" in self.__dict__ or len(ratings) > self.MOST_RANKED:
            places = {m.pk: self.rank(m.rating_value) for m in placed}
        elif ratings:
            places = self._places_of(placed, ratings[0], ratings[-1])
        for member in members:
            member.rank = places.get(member.pk)

    def _places_of(self, placed: list[Any], lowest: float, highest: float) -> dict[int, int]:
        """The places of these published members (``placed``), their usable ratings from
        ``lowest`` to ``highest``: the published list ranked in the database (a window
        over its ratings), of which only theirs come back.

        Where few ratings (``MOST_REACHED``) stand at or above ``lowest`` (a page near
        the top: the first page of a region or the juniors), only those are ranked, read
        down the (list, rating) index: every rating above a page's member is among them,
        so the places are the whole list's. Near the bottom, the ratings at or below
        ``highest`` are counted up from it, and a place is one more than the usable
        ratings less those at or below. A filtered page whose ratings span most of the
        list (a region's, sorted by name) ranks the whole list; the whole list sorted so
        is placed from its own keys (``ListPaginator._whole_list_rows``).
        """
        pks = [member.pk for member in placed]
        states = listing.rated_states(self.time_class)
        above = states.filter(rating__gte=lowest)
        if self._fewer_than_reached(above):
            reach = listing.with_state_columns(self._among(above.values("member_id")))
            # ``state_rating``: an alias (``with_state_columns``) the stubs cannot see.
            top = reach.filter(state_rating__gte=lowest)  # type: ignore[misc]
            return self._ranked(top, pks, from_top=True)
        below = states.filter(rating__lte=highest)
        if self._fewer_than_reached(below):
            reach = listing.with_state_columns(self._among(below.values("member_id")))
            usable = self._usable().count() if self.usable is None else self.usable
            at_or_below = self._ranked(
                reach.filter(state_rating__lte=highest),  # type: ignore[misc]
                pks,
                from_top=False,
            )
            return {pk: 1 + usable - count for pk, count in at_or_below.items()}
        # Most of the list either way (a region's page sorted by name): the published
        # ratings read once and the page's bisected from them (``rank``), one pass over
        # the list. Ranked in the database, the list was sorted too: 1.8 times the work of
        # the page's read and that pass at 20,000 members.
        return {member.pk: self.rank(member.rating_value) for member in placed}

    def _fewer_than_reached(self, states: Any) -> bool:
        """Whether fewer than ``MOST_REACHED`` of these rated states stand: whether a
        row stands at that depth, one step at a time down the index (counting them,
        each row passed through a subquery, cost twice the instructions)."""
        at_depth = states.values_list("rating", flat=True)[
            self.MOST_REACHED - 1 : self.MOST_REACHED
        ]
        return not list(at_depth)

    def _among(self, members: Any) -> Any:
        """The published members with a usable rating among ``members`` (a query of their
        pks): the publication rule asked of those alone."""
        listed = listing.with_ratings(
            Member.objects.published(self.day, among=members),
            ranked=False,
            time_class=self.time_class,
        )
        return listed.filter(unrated=0).order_by()  # type: ignore[misc]  # an annotation

    @staticmethod
    def _ranked(rows: Any, pks: list[int], *, from_top: bool) -> dict[int, int]:
        """For each of ``pks`` among ``rows``: from the top, its rank by rating (one more
        than the ratings above); from the bottom, the ratings at or below its own (a
        running count over the rating order, ties counted together)."""
        value = F("rating_value")
        window = (
            Window(Rank(), order_by=value.desc())
            if from_top
            else Window(Count("*"), order_by=value.asc())
        )
        ranked = rows.values(place_pk=F("pk"), place=window)
        sql, params = ranked.query.sql_with_params()
        marks = ", ".join(["%s"] * len(pks))
        with connections[ranked.db].cursor() as cursor:
            cursor.execute(
                f"SELECT r.place_pk, r.place FROM ({sql}) r WHERE r.place_pk IN ({marks})",
                (*params, *pks),
            )
            return dict(cursor.fetchall())

    def rank(self, rating: float) -> int:
        """One more than the published members with a better usable rating."""
        return 1 + len(self.ratings) - bisect_right(self.ratings, rating)

    def place(self, member: Any) -> int | None:
        """A listed member's place (read with ``with_ratings`` and ``is_financial``), or
        None: no usable rating, or not published (the officer's list shows everyone)."""
        if member.unrated or publication.reason(member) != "published":
            return None
        return self.rank(member.rating_value)
