"""The published list's paginator: the list read a page at a time, each row placed.

Kept apart from the tables (``tables.py``: the columns and how a row is shown): this is
how a page's rows are read from the database, whichever table shows them.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from django.core.paginator import Paginator
from django.db import connections
from django.db.models import Count, F, OrderBy, QuerySet, Window
from django.db.models.sql.where import WhereNode
from django.utils.functional import cached_property
from django_tables2.rows import BoundRows

from ..models import ListStanding, RatingState, listing
from ..models.ranking import PublishedRanking
from ..rules.time_classes import STANDARD


class ListPaginator(Paginator):
    """The published list's paginator: the page's rows alone read from the database.

    A filtered list is filtered, sorted and sliced in the database, and only the page's
    rows come back: counted in the same pass, and the page's places one query
    (``PublishedRanking.place_all``). Reading every listed member's keys (pk, unrated,
    rating) into Python to count, slice and place them read every member for a region's
    few.

    The whole list sorted by another column than the rating (name, games, region, last
    played) is the exception: its page's ratings span the list, so placing them in the
    database ranked the whole list in a second pass. Its keys are read in one pass and
    the page placed from them (``_whole_list_rows``): the database's work of one pass.

    A list filtered by region, age group or women (a table given its
    ``filtered_standings``: ``pages.lists.FilteredStandings``) while each member's standing
    is kept is read among those standings: counted over the filter's range of their
    indexes, its page read down them (a region's or the women's in the rating order, in
    order; an age group's range sorted), each row placed by its kept place. Among every
    published member, the filter, the count and the places read 1.3-3.7 M SQLite
    instructions at 60,000 members; among the standings, 15-54 k.

    The whole published list in its rating order (the first page every reader sees) is
    not read whole: reading every listed member's keys grew with the members (half the
    page's time at 20,000). It is counted, and its page read from the nearer end of the
    (list, rating) index (``_rating_page``).
    """

    def __init__(self, object_list: Any, per_page: int, *args: Any, **kwargs: Any) -> None:
        super().__init__(object_list, per_page, *args, **kwargs)
        self._queryset = object_list.data.data

    @property
    def _time_class(self) -> str | None:
        """The rating list the table shows (``RatingListTable.time_class``)."""
        return getattr(self.object_list.table, "time_class", None)  # type: ignore[attr-defined]

    @cached_property
    def _strongest_first(self) -> bool | None:
        """For the whole published list in its rating order, strongest first (True) or
        weakest first (False); None for any other list or order (read by ``keys``).

        The whole list (a table given its ``whole_list``: ``pages.lists.WholeList``)
        sorted by rating is read a page at a time (``_rating_page``): its usable ratings
        down the rating index, so that the first and last pages read some fifty rows,
        not every member.
        """
        if self._whole_list is None or self._time_class is None:
            return None
        order = [_order_key(item) for item in self._queryset.query.order_by]
        if len(order) != 3 or order[0] != ("unrated", False) or order[2] != ("name", False):
            return None
        field, descending = order[1] or ("", False)
        return descending if field == "rating_value" else None

    @property
    def _whole_list(self) -> Any:
        """The table's ``whole_list`` (``pages.lists.WholeList``), or None."""
        return getattr(self.object_list.table, "whole_list", None)  # type: ignore[attr-defined]

    @cached_property
    def _counts(self) -> tuple[int, int]:
        """The whole list's members, and those of them with a usable rating."""
        return self._whole_list.size()

    @cached_property
    def count(self) -> int:
        # The whole list (nothing filtered, any order): its size as the last rating run
        # kept it, or one count. A filtered list: counted in the database, never its
        # members' keys read into Python (37,000 rows at 60,000 members).
        if self._whole_list is not None:
            return self._counts[0]
        if self._filtered_order is not None:
            # A filtered list whose standings are kept: the filter's range of them.
            return self._filtered_standings.rows().count()
        return self._queryset.order_by().count()

    @property
    def _ranking(self) -> Any:
        """What places the page's rows: the table's ``ranking`` (the published list
        filtered, the officer's list, a publication's stored places), else the whole
        published list, which is its own ranking."""
        ranking = getattr(self.object_list.table, "ranking", None)  # type: ignore[attr-defined]
        if ranking is None:
            ranking = PublishedRanking(time_class=self._time_class or STANDARD)
        return ranking

    def page(self, number: Any) -> Any:
        first_read = None
        kept_order = self._filtered_order
        if self._strongest_first is None and self._whole_list is None and kept_order is None:
            first_read = self._read_counted(number)
        number = self.validate_number(number)
        bottom = (number - 1) * self.per_page
        top = bottom + self.per_page
        if top + self.orphans >= self.count:
            top = self.count
        if self._strongest_first is not None and not self._by_standings(bottom, top):
            # The rating order without standings that hold: down the rating index.
            return self._rating_page(number, bottom, top, strongest_first=self._strongest_first)
        if self._whole_list is not None:
            # The whole list in another order than the rating's (name, games, region...):
            # one pass over it (``_whole_list_rows``), as its page's ratings span it.
            found = self._whole_list_rows(bottom, top)
        elif kept_order is not None:
            # Filtered as the kept standings answer (region, age group, women): the page
            # read among them in its order, placed by their kept places.
            standings = self._filtered_standings.rows()
            found = self._standing_rows(standings, kept_order, bottom, top)
        elif first_read is not None and first_read[0] == bottom:
            found = first_read[1][: top - bottom]
        else:
            # Sorted, filtered and sliced in the database: only the page's rows come
            # back, read from the nearer end of the list (the last page as cheap as the
            # first, where nothing else needs the whole list read).
            found = _read_part(self._ordered(), self._order(), bottom, top, self.count)
        rows = BoundRows(
            data=found,
            table=self.object_list.table,  # type: ignore[attr-defined]
            pinned_data=self.object_list.pinned_data,  # type: ignore[attr-defined]
        )
        page = self._get_page(rows, number, self)  # type: ignore[attr-defined]
        if self._whole_list is None and kept_order is None:
            # A filtered page's places on the whole published list, in one query for the
            # page (``ranking.place_all``). Not a window in the page's own query: it had
            # the database carry every listed member's whole row through a second sort
            # (three times the work of the page's read at 60,000 members).
            self._ranking.place_all(found)
        return page

    #: The most rows a page of the whole list reads by primary key; a longer page (the
    #: print view's whole list) is sliced in the query.
    MAX_BY_KEY = 500

    def _whole_list_rows(self, bottom: int, top: int) -> list[Any]:
        """Rows ``bottom`` to ``top`` of the whole published list in its order (not the
        rating's), placed: its keys (pk, unrated, rating) read in that order in one pass,
        the page's members then by primary key, and their places bisected from the keys'
        usable ratings (the whole list is its own ranking).

        A page of the whole list sorted by name, games or region has ratings from the top
        of the list to the bottom: placing them in the database ranked the whole list in
        a second pass, each as costly as this one (2.4 times the work at 20,000 members).
        """
        standing = self._standing_order()
        if standing is not None and self._by_standings(bottom, top):
            standings = ListStanding.objects.filter(time_class=self._time_class)
            return self._standing_rows(standings, standing, bottom, top)
        keys = self._ordered().values_list("pk", "unrated", "rating_value")
        sql, params = keys.query.sql_with_params()
        # Straight from the cursor: plain ints and floats, no per-value converters.
        with connections[keys.db].cursor() as cursor:
            cursor.execute(sql, params)
            every = cursor.fetchall()
        if top - bottom > self.MAX_BY_KEY:
            rows = list(self._ordered()[bottom:top])
        else:
            ids = [pk for pk, _, _ in every[bottom:top]]
            # Read by primary key alone: their keys came through the list's filter just
            # now, so the publication rule is not asked again. Columns and joins as ever.
            by_key = self._queryset.order_by()
            by_key.query.where = WhereNode()
            found = {member.pk: member for member in by_key.filter(pk__in=ids)}
            rows = [found[pk] for pk in ids if pk in found]
        better = sorted(rating for _, unrated, rating in every if not unrated)
        for record in rows:
            above = len(better) - bisect_right(better, record.rating_value)
            record.rank = None if record.unrated else 1 + above
        return rows

    def _by_standings(self, bottom: int, top: int) -> bool:
        """Whether rows ``bottom`` to ``top`` of the whole list are read from its kept
        standings: they hold, they keep its order, and the page is no longer than
        ``MAX_BY_KEY``. In any order, the rating's too: its weak end and "#" reversed were
        read down the rating index only where few unpublished or unusable ratings lay
        there, else at an offset through every listed member (150-600 ms at 170,000)."""
        return self._standing_order() is not None and top - bottom <= self.MAX_BY_KEY

    def _standing_order(self) -> list[str] | None:
        """The list's order on the kept standings (``ListStanding``'s columns), or None:
        no standings kept that hold (``WholeList.standings``), or an order they do not
        keep."""
        if not getattr(self._whole_list, "standings", False) or self._time_class is None:
            return None
        return _standing_order_of(self._queryset)

    @property
    def _filtered_standings(self) -> Any:
        """The table's ``filtered_standings`` (``pages.lists.FilteredStandings``), or None."""
        return getattr(self.object_list.table, "filtered_standings", None)  # type: ignore[attr-defined]

    @cached_property
    def _filtered_order(self) -> list[str] | None:
        """For a list filtered as its kept standings answer, its order on them; None for
        any other list, an order they do not keep, or a page longer than ``MAX_BY_KEY``
        (the print view's: read as before)."""
        if self._filtered_standings is None or self.per_page + self.orphans > self.MAX_BY_KEY:
            return None
        return _standing_order_of(self._queryset)

    def _standing_rows(
        self, standings: QuerySet[ListStanding], order: list[str], bottom: int, top: int
    ) -> list[Any]:
        """Rows ``bottom`` to ``top`` of the published list (``standings``: the kept
        standings of its members) in ``order``, read down their (list, column) index
        (``ListStanding``), from the nearer end: the page's members then by primary key,
        each placed by their kept place. Neither the list sorted nor its ratings ranked:
        some fifty narrow rows, at any size."""
        found = _read_part(standings, order, bottom, top, self.count)
        places = {row.member_id: row.place for row in found}
        # Read by primary key alone, as ``_whole_list_rows`` reads them: they are on the
        # list as it was kept. Columns and joins as ever.
        by_key = self._queryset.order_by()
        by_key.query.where = WhereNode()
        members = {member.pk: member for member in by_key.filter(pk__in=list(places))}
        rows = [members[row.member_id] for row in found if row.member_id in members]
        for record in rows:
            record.rank = None if record.unrated else places[record.pk]
        return rows

    def _order(self) -> list[Any]:
        """The list's order, the primary key last: a total order, so that pages neither
        repeat nor skip a member among ties, and the order read backwards is the same
        order reversed."""
        order = list(self._queryset.query.order_by) or list(self._queryset.model._meta.ordering)
        return [*order, "pk"]

    def _ordered(self) -> QuerySet[Any]:
        """The list's rows in its order."""
        return self._queryset.order_by(*self._order())

    def _read_counted(self, number: Any) -> tuple[int, list[Any]] | None:
        """For a filtered list not yet counted: page ``number``'s rows (and the orphans
        after them) read with the list's size, ``COUNT(*) OVER ()``, in one pass, which
        is then the count. Counting the list and then reading its page sorted it twice.
        None for a page number that is not one (``validate_number`` says so); a page
        past the end reads no rows, and the list is counted alone."""
        if "count" in self.__dict__:
            return None
        try:
            wanted = int(number)
        except (TypeError, ValueError):
            return None
        if wanted < 1:
            return None
        bottom = (wanted - 1) * self.per_page
        top = bottom + self.per_page + self.orphans
        found = list(self._ordered().annotate(list_size=Window(Count("*")))[bottom:top])
        self.__dict__["count"] = found[0].list_size if found else self._queryset.count()
        return bottom, found

    #: The deepest the first or last page of the rating order reads from its end of the
    #: list's usable ratings; a page deeper in (or a list most of whose rated members are
    #: not published) is read at its offset.
    MAX_FROM_END = 2000

    def _rating_page(self, number: int, bottom: int, top: int, *, strongest_first: bool) -> Any:
        """Rows ``bottom`` to ``top`` of the whole list in its rating order, placed.

        The list in that order is its usable ratings (``unrated`` 0) by rating, then the
        rest by the figure they show: each part is read alone, the usable ratings from
        the nearer end of the (list, rating) index (``_usable_rows``), the rest at its
        offset (few on a list, and after every usable rating).
        """
        listed, usable = self._counts
        rated = self._usable_rows(
            bottom, min(top, usable), usable, strongest_first=strongest_first
        )
        value = F("rating_value")
        unrated = _read_part(
            self._queryset.filter(unrated=1),
            [value.desc() if strongest_first else value.asc(), "name", "pk"],
            max(bottom - usable, 0),
            top - usable,
            listed - usable,
        )
        for record in unrated:
            record.rank = None
        rows = BoundRows(
            data=rated + unrated,
            table=self.object_list.table,  # type: ignore[attr-defined]
            pinned_data=self.object_list.pinned_data,  # type: ignore[attr-defined]
        )
        return self._get_page(rows, number, self)  # type: ignore[attr-defined]

    def _usable_rows(
        self, start: int, stop: int, usable: int, *, strongest_first: bool
    ) -> list[Any]:
        """Rows ``start`` to ``stop`` of the list's ``usable`` ratings in the list's order
        (by rating, then name), each with its place (``ratings.models.ranking``: one more
        than the usable ratings above).

        A page nearer an end is read from that end (``_from_end``), with every row before
        it there: their ratings place the page's rows without another query. A page
        deeper in is read at its offset, and its first rating's place counted.
        """
        if start >= stop:
            return []
        at_head = start <= usable - stop
        strong_end = strongest_first == at_head
        by_rating = F("rating_state__rating")
        order = [by_rating.desc() if strongest_first else by_rating.asc(), "name", "pk"]
        # From the tail, the list's order reversed: its last row first.
        reverse = [by_rating.asc() if strongest_first else by_rating.desc(), "-name", "-pk"]
        reach = stop if at_head else usable - start
        found = self._from_end(reach, strong_end=strong_end, order=order if at_head else reverse)
        if found is None:
            rows = _read_part(
                listing.with_usable_rating(self._queryset), order, start, stop, usable
            )
            self._place(rows, start, usable, strongest_first=strongest_first)
            return rows
        # ``found`` is every usable rating from its end to the page's far edge (``reach``
        # rows): every row above a row of it is in it, but a tie at the far edge may go on
        # beyond it (a members file brings thousands in at one rating).
        ratings = sorted(record.rating_value for record in found)
        edge = found[-1].rating_value if len(found) >= reach else None
        edge_above = None
        for record in found:
            if not strong_end and record.rating_value == edge:
                # Read from the weak end, the usable ratings at or below the edge's are
                # not all in ``found``: they are counted.
                if edge_above is None:
                    edge_above = self._usable_above(edge, near=usable, usable=usable)
                record.rank = 1 + edge_above
                continue
            at_or_below = bisect_right(ratings, record.rating_value)
            above = len(ratings) - at_or_below if strong_end else usable - at_or_below
            record.rank = 1 + above
        if at_head:
            return found[start:stop]
        return found[usable - stop : usable - start][::-1]

    def _from_end(self, reach: int, *, strong_end: bool, order: list[Any]) -> list[Any] | None:
        """The list's first ``reach`` usable rows from one end (``strong_end``: the
        highest ratings) in ``order``; None when that is deeper than ``MAX_FROM_END``
        (``_usable_rows`` reads at the offset then).

        They are read among the members whose rating on the list is as high (or low) as
        the edge found down the (list, rating) index, some rows beyond ``reach``: so the
        database reads a few hundred rows, not every member, and every listed member
        rated past the edge is among them. Those members are a subquery, not their ids:
        where thousands tie at the edge, their ids made a statement of hundreds of
        kilobytes (820 kB, 13 s at 60,000 members).
        """
        states = RatingState.objects.filter(time_class=self._time_class, rating__isnull=False)
        states = states.order_by("-rating" if strong_end else "rating")
        depth = reach + reach // 2 + 20  # some to spare for members not on the list
        while depth <= self.MAX_FROM_END:
            edge = list(states.values_list("rating", flat=True)[depth - 1 : depth])
            among = states.order_by()
            if edge and strong_end:
                among = among.filter(rating__gte=edge[0])
            elif edge:
                among = among.filter(rating__lte=edge[0])
            # The list among the members rated past the edge, the publication rule asked
            # of them alone: asked of the whole list, the database made the list of every
            # paid-up member, and SQLite read the page from it (every published member).
            members = self._whole_list.among(among.values("member_id"))
            rows = list(listing.with_usable_rating(members).order_by(*order)[:reach])
            if not edge or len(rows) >= reach:
                return rows
            depth *= 8
        return None

    def _place(self, rated: list[Any], bottom: int, usable: int, *, strongest_first: bool) -> None:
        """Place the page's usable rows (``rated``, from position ``bottom`` of the usable
        part, in the list's order): ``ratings.models.ranking``'s place, one more than the
        usable ratings above."""
        ratings = [record.rating_value for record in rated]
        if not strongest_first:
            # Weakest first: the same rows strongest first, at their positions so.
            ratings.reverse()
            bottom = usable - bottom - len(rated)
        # The first rating (strongest first) may have rows above the page: count them.
        above = {ratings[0]: self._usable_above(ratings[0], near=bottom, usable=usable)}
        for i, rating in enumerate(ratings):
            above.setdefault(rating, bottom + i)
        for record in rated:
            record.rank = 1 + above[record.rating_value]

    def _usable_above(self, rating: float, *, near: int, usable: int) -> int:
        """The list's usable ratings above ``rating``, which stands about ``near`` rows
        down: counted down the rating index from the nearer end of the list."""
        rated = listing.with_usable_rating(self._queryset.order_by())
        # ``state_rating`` is an annotation (``with_usable_rating``): the stubs know fields.
        if near <= usable // 2:
            return rated.filter(state_rating__gt=rating).count()  # type: ignore[misc]
        return usable - rated.filter(state_rating__lte=rating).count()  # type: ignore[misc]


def _read_part(
    rows: QuerySet[Any], order: list[Any], start: int, stop: int, size: int
) -> list[Any]:
    """Rows ``start`` to ``stop`` of ``rows`` (``size`` of them) in ``order``: read from
    the far end, in the reverse order, when nearer it, so the last page is as cheap to
    read as the first (an offset reads every row it skips)."""
    if start >= stop:
        return []
    if start > size - stop:
        found = list(rows.order_by(*order).reverse()[size - stop : size - start])
        found.reverse()
        return found
    return list(rows.order_by(*order)[start:stop])


#: The list's sort keys (``listing.with_ratings``' annotations, the members' and their
#: states' columns) as ``ListStanding`` keeps them.
_STANDING_COLUMNS = {
    "unrated": "unrated",
    "rating_value": "rating_value",
    "name": "name",
    "region": "region",
    "games": "games",
    "rating_state__games": "games",
    "last_change": "last_change",
    "rating_state__last_change": "last_change",
    "last_played": "last_played",
    "rating_state__last_played": "last_played",
}


def _standing_order_of(rows: QuerySet[Any]) -> list[str] | None:
    """The order of ``rows`` (the list's) on the kept standings' columns, the member
    last (a total order), or None where it sorts by something they do not keep."""
    order = []
    for item in rows.query.order_by:
        key = _order_key(item)
        column = _STANDING_COLUMNS.get(key[0]) if key else None
        if key is None or column is None:
            return None
        order.append(f"-{column}" if key[1] else column)
    return [*order, "member_id"]


def _order_key(item: Any) -> tuple[str, bool] | None:
    """An ``order_by`` entry as (field, descending), or None for another expression."""
    if isinstance(item, str):
        return item.removeprefix("-"), item.startswith("-")
    if isinstance(item, OrderBy) and isinstance(item.expression, F):
        if item.nulls_first or item.nulls_last:
            return None
        return item.expression.name, item.descending
    return None
