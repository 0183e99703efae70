"""Tables (django-tables2): the published list, the reports, the officer's lists."""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

import django_tables2 as tables
from django.core.paginator import Paginator
from django.db import connections
from django.db.models import Count, Exists, F, OrderBy, OuterRef, QuerySet, Window
from django.db.models.functions import RowNumber
from django.db.models.sql.where import WhereNode
from django.utils.formats import date_format, localize
from django.utils.functional import cached_property
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import template_localtime
from django_tables2.rows import BoundRows

from ..models import Event, Member, RatingState, is_usable
from ..pages import reports
from ..pages.reports import age_group, is_inactive
from ..rules import publication

#: Columns a phone has no room for: shown from the md breakpoint up (and in print).
WIDE = {"th": {"class": "d-none d-md-table-cell"}, "td": {"class": "d-none d-md-table-cell"}}
NUMBER = {"th": {"class": "rating"}, "td": {"class": "rating"}}
WIDE_NUMBER = {
    "th": {"class": "rating d-none d-md-table-cell"},
    "td": {"class": "rating d-none d-md-table-cell"},
}
#: Columns whose natural order is strongest first: their arrows point down.
STRENGTH = {"th": {"class": "rating by-strength"}, "td": {"class": "rating"}}


def change_html(value: float | None) -> str:
    """A rating change as the list shows it: whole points, signed, coloured; 0 when it
    rounds to nothing (a change of 0.4 is "0", not a green "+0")."""
    if value is None:
        return ""
    shown = round(value)
    css = "change-up" if shown > 0 else "change-down" if shown < 0 else ""
    return format_html('<span class="{}">{}</span>', css, f"{shown:+d}" if shown else "0")


class ListPaginator(Paginator):
    """The published list's paginator: one read of the list's order, then the page's rows.

    Counting the rows, finding a page's rows at an offset and ranking them each had the
    database read and join every listed member again. Instead the ordered rows' keys
    (pk, unrated, rating) are read once: their number is the count, a slice of them is
    the page (its members then read by primary key), and their ratings place the page's
    members (``rank``) without another query. A page too long for one ``pk IN`` (the
    print view's whole list) is read by offset as before.

    The whole published list in its rating order (the first page every reader sees) is
    not read whole: reading every listed member's keys grew with the members (half the
    page's time at 20,000). It is counted, and its page read from the nearer end of the
    (list, rating) index (``_rating_page``).
    """

    #: The most rows a page reads by primary key; longer pages are sliced in the query.
    MAX_BY_KEY = 500

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

        The whole list (a table with no ``ranking``: it is its own) sorted by rating is
        read a page at a time (``_rating_page``): its usable ratings down the rating
        index, so that the first and last pages read some fifty rows, not every member.
        """
        table = self.object_list.table  # type: ignore[attr-defined]
        if getattr(table, "ranking", None) is not None or self._time_class is None:
            return None
        order = [_order_key(item) for item in self._queryset.query.order_by]
        if len(order) != 3 or order[0] != ("unrated", False) or order[2] != ("name", False):
            return None
        field, descending = order[1] or ("", False)
        return descending if field == "rating_value" else None

    @cached_property
    def _counts(self) -> tuple[int, int]:
        """The list's members, and those of them with a usable rating, in one count."""
        totals = reports.with_state_columns(self._queryset.order_by()).aggregate(
            listed=Count("pk"), usable=Count("pk", filter=reports.USABLE)
        )
        return totals["listed"], totals["usable"]

    @cached_property
    def keys(self) -> list[tuple[int, int, float]]:
        ranking = getattr(self.object_list.table, "ranking", None)  # type: ignore[attr-defined]
        if ranking is not None and hasattr(ranking, "places_sql"):
            return self._keys_and_places(ranking)
        # Read straight from the cursor: the values are plain ints and floats already, and
        # the ORM's per-value converters cost as much as the query on a federation's list.
        keys = self._queryset.values_list("pk", "unrated", "rating_value")
        sql, params = keys.query.sql_with_params()
        with connections[keys.db].cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()

    #: Each member's place on the published list, when the table's ``ranking`` gives them.
    places: dict[int, int | None] | None = None

    def _keys_and_places(self, ranking: Any) -> list[tuple[int, int, float]]:
        """The keys as ``keys`` reads them, each with its member's place on the published
        list (``ratings.rules.ranking``), in the same one query: the list's rows numbered in
        their order, joined to a window over the published list."""
        order = list(self._queryset.query.order_by) or list(self._queryset.model._meta.ordering)
        keyed = self._queryset.values(
            k_pk=F("pk"),
            k_unrated=F("unrated"),
            k_rating=F("rating_value"),
            k_position=Window(RowNumber(), order_by=[_ordering(o) for o in order] or None),
        )
        keys_sql, keys_params = keyed.query.sql_with_params()
        places_sql, places_params = ranking.places_sql()
        sql = (
            f"SELECT k.k_pk, k.k_unrated, k.k_rating, r.place FROM ({keys_sql}) k "
            f"LEFT JOIN ({places_sql}) r ON r.place_pk = k.k_pk ORDER BY k.k_position"
        )
        with connections[self._queryset.db].cursor() as cursor:
            cursor.execute(sql, (*keys_params, *places_params))
            rows = cursor.fetchall()
        self.places = {pk: place for pk, _, _, place in rows}
        return [(pk, unrated, rating) for pk, unrated, rating, _ in rows]

    @cached_property
    def count(self) -> int:
        if self._strongest_first is not None:
            return self._counts[0]
        return len(self.keys)

    @cached_property
    def _better(self) -> list[float]:
        """Every usable rating on the list, lowest first."""
        return sorted(rating for _, unrated, rating in self.keys if not unrated)

    def rank(self, rating: float) -> int:
        """One more than the members on the list with a better usable rating."""
        return 1 + len(self._better) - bisect_right(self._better, rating)

    def _by_key(self, ids: list[int]) -> QuerySet[Member]:
        """The page's members, read by primary key alone: their keys were read through
        the list's filter just now, so the page's rows are not filtered again (the
        published filter reads every member's subscription, most of the query on a
        federation's list). The columns and joins are the list's own."""
        rows = self._queryset.order_by()
        rows.query.where = WhereNode()
        return rows.filter(pk__in=ids)

    def page(self, number: Any) -> Any:
        number = self.validate_number(number)
        bottom = (number - 1) * self.per_page
        top = bottom + self.per_page
        if top + self.orphans >= self.count:
            top = self.count
        if self._strongest_first is not None:
            return self._rating_page(number, bottom, top, strongest_first=self._strongest_first)
        if top - bottom > self.MAX_BY_KEY:
            rows = self.object_list[bottom:top]
        else:
            ids = [pk for pk, _, _ in self.keys[bottom:top]]
            found = {m.pk: m for m in self._by_key(ids)}
            rows = BoundRows(
                data=[found[pk] for pk in ids if pk in found],
                table=self.object_list.table,  # type: ignore[attr-defined]
                pinned_data=self.object_list.pinned_data,  # type: ignore[attr-defined]
            )
        page = self._get_page(rows, number, self)  # type: ignore[attr-defined]
        # A table may place its rows itself (``ranking``: the published list filtered, the
        # officer's list, a publication's stored places); else the list is its own ranking.
        ranking = getattr(self.object_list.table, "ranking", None)  # type: ignore[attr-defined]
        for row in rows:
            record = row.record
            if self.places is not None and record.pk in self.places:
                record.rank = self.places[record.pk]
            elif ranking is not None:
                record.rank = ranking.place(record)
            else:
                record.rank = None if record.unrated else self.rank(record.rating_value)
        return page

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
        (by rating, then name), each with its place (``ratings.rules.ranking``: one more
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
                reports.with_usable_rating(self._queryset), order, start, stop, usable
            )
            self._place(rows, start, usable, strongest_first=strongest_first)
            return rows
        # ``found`` is every usable rating from its end to the page's far edge, ties whole.
        ratings = sorted(record.rating_value for record in found)
        for record in found:
            at_or_below = bisect_right(ratings, record.rating_value)
            above = len(ratings) - at_or_below if strong_end else usable - at_or_below
            record.rank = 1 + above
        if at_head:
            return found[start:stop]
        return found[usable - stop : usable - start][::-1]

    def _from_end(self, reach: int, *, strong_end: bool, order: list[Any]) -> list[Any] | None:
        """The list's usable rows from one end (``strong_end``: the highest ratings) in
        ``order``: at least ``reach`` of them, and every row tying the last; None when
        that is deeper than ``MAX_FROM_END`` (``_usable_rows`` reads at the offset then).

        They are read among the members whose rating on the list is as high (or low) as
        the edge found down the (list, rating) index, some rows beyond ``reach``: so the
        database reads a few hundred rows, not every member, and every listed member
        rated past the edge is among them, ties and all.
        """
        states = RatingState.objects.filter(time_class=self._time_class, rating__isnull=False)
        states = states.order_by("-rating" if strong_end else "rating")
        listed = reports.with_usable_rating(self._queryset)
        depth = reach + reach // 2 + 20  # some to spare for members not on the list
        while depth <= self.MAX_FROM_END:
            edge = list(states.values_list("rating", flat=True)[depth - 1 : depth])
            among = states.order_by()
            if edge and strong_end:
                among = among.filter(rating__gte=edge[0])
            elif edge:
                among = among.filter(rating__lte=edge[0])
            # By the joined state's own key: SQLite, given a member ``pk IN`` here, may
            # read every paid-up member of the published rule first (it guesses each
            # ``IN`` subquery at 25 rows, and the rule's won at 20,000 members).
            rows = list(
                listed.alias(state_id=F("rating_state__id"))
                .filter(state_id__in=among.values("pk"))
                .order_by(*order)
            )
            if not edge or len(rows) >= reach:
                return rows
            depth *= 8
        return None

    def _place(self, rated: list[Any], bottom: int, usable: int, *, strongest_first: bool) -> None:
        """Place the page's usable rows (``rated``, from position ``bottom`` of the usable
        part, in the list's order): ``ratings.rules.ranking``'s place, one more than the
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
        rated = reports.with_usable_rating(self._queryset.order_by())
        if near <= usable // 2:
            return rated.filter(state_rating__gt=rating).count()
        return usable - rated.filter(state_rating__lte=rating).count()


def _read_part(
    rows: QuerySet[Member], order: list[Any], start: int, stop: int, size: int
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


def _order_key(item: Any) -> tuple[str, bool] | None:
    """An ``order_by`` entry as (field, descending), or None for another expression."""
    if isinstance(item, str):
        return item.removeprefix("-"), item.startswith("-")
    if isinstance(item, OrderBy) and isinstance(item.expression, F):
        if item.nulls_first or item.nulls_last:
            return None
        return item.expression.name, item.descending
    return None


def _ordering(item: Any) -> Any:
    """An ``order_by`` entry ("-rating_value", or an expression) as a window's ordering."""
    if isinstance(item, str):
        return F(item[1:]).desc() if item.startswith("-") else F(item).asc()
    return item


def rows_html(page_cells: list[tuple[str, list[tuple[str, Any]]]]) -> SafeString:
    """A list page's rows (``page_cells``: each row's class, and its cells' ``<td>``
    attributes and content) as ``<tr>`` elements, each cell shown as a template shows a
    value (localized, escaped unless safe). Written here in one join: the template's
    loop over some 400 cells took longer than the page's queries."""
    return mark_safe(
        "\n".join(
            f'<tr class="{conditional_escape(row_class)}">'
            + "".join(
                f"<td {td}>{conditional_escape(localize(template_localtime(cell)))}</td>"
                for td, cell in cells
            )
            + "</tr>"
            for row_class, cells in page_cells
        )
    )


#: The list's columns read from the member's rating state, and the field each reads.
_STATE_COLUMNS = {"rating": "display", "games": "games", "last_played": "last_played"}


class RatingListTable(tables.Table):
    rank = tables.Column("#", order_by=("unrated", "-rating_value", "name"), attrs=STRENGTH)
    name = tables.Column("Name", linkify=True)
    rating = tables.Column("Rating", accessor="rating_state__display", attrs=STRENGTH)
    games = tables.Column("Games", accessor="rating_state__games", attrs=NUMBER)
    last_change = tables.Column("Last change", attrs=NUMBER)
    region = tables.Column("Region", attrs=WIDE)
    # Rendered for everyone, so no birth date and an adult both show blank (not "—").
    age = tables.Column("Junior", accessor="born", orderable=False, attrs=WIDE, empty_values=())
    last_played = tables.Column("Last played", accessor="rating_state__last_played", attrs=WIDE)

    #: The rating list shown (``rating_list_page`` sets it): ``ListPaginator`` reads its
    #: first and last pages down that list's rating index.
    time_class: str | None = None

    class Meta:
        template_name = "ratings/public/_list_table.html"
        attrs = {"class": "table table-sm table-striped table-hover align-middle rating-list"}
        order_by = "rating"
        orderable = True
        empty_text = "No member matches."

    def page_cells(self) -> list[tuple[str, list[tuple[str, Any]]]]:
        """The page's rows as the template writes them: each row's class and its cells, each
        cell's ``<td>`` attributes and content. The same cells django-tables2 renders, but
        with the render methods called directly: its per-cell path (an accessor, a
        signature inspected for every call) took as long as the page's queries."""
        columns = [
            (bound.name, mark_safe(bound.attrs["td"].as_html()), bound) for bound in self.columns
        ]
        rows = []
        for row in self.paginated_rows:
            record = row.record
            cells = []
            for name, td, bound in columns:
                value = self._cell_value(name, record)
                if value in bound.column.empty_values:
                    cell: Any = bound.default
                else:
                    cell = self._render_cell(name, record, value)
                if name == "name":
                    cell = format_html('<a href="{}">{}</a>', record.get_absolute_url(), cell)
                cells.append((td, cell))
            rows.append((row.get_even_odd_css_class(), cells))
        return rows

    def page_body(self) -> SafeString:
        return rows_html(self.page_cells())

    def _cell_value(self, name: str, record: Member) -> Any:
        state = getattr(record, "rating_state", None)
        if name in _STATE_COLUMNS:
            return None if state is None else getattr(state, _STATE_COLUMNS[name])
        if name == "age":
            return record.born
        return getattr(record, name, None)

    def _render_cell(self, name: str, record: Member, value: Any) -> Any:
        if name == "rank":
            return self.render_rank(record, value)
        if name == "name":
            return self.render_name(record, value)
        if name == "rating":
            return self.render_rating(record, value)
        if name == "last_change":
            return self.render_last_change(value)
        if name == "age":
            return self.render_age(record)
        return value

    def render_rank(self, record: Member, value: int) -> str:
        return str(value) if not record.unrated else ""

    def value_rank(self, record: Member, value: int) -> str:
        return self.render_rank(record, value)

    def render_name(self, record: Member, value: str) -> str:
        if record.title:
            return format_html('<abbr title="FIDE title">{}</abbr> {}', record.title, value)
        return value

    def value_name(self, record: Member, value: str) -> str:
        return value

    def render_rating(self, record: Member, value: str) -> str:
        css = "usable" if is_usable(value) else "text-body-secondary"
        state = getattr(record, "rating_state", None)
        if state is not None and is_inactive(state.last_played):
            return format_html(
                '<span class="badge text-bg-light border inactive me-1" title="No rated game '
                'since {}">inactive</span><span class="{}">{}</span>',
                date_format(state.last_played),
                css,
                value or "—",
            )
        return format_html('<span class="{}">{}</span>', css, value or "—")

    def value_rating(self, value: str) -> str:
        return value

    def order_rating(self, queryset: QuerySet[Member], is_descending: bool) -> tuple[Any, bool]:
        # By the number, never the text; unrated ("Unr", "4 R") last whichever way.
        # The list's natural order (strongest first) is "rating"; "-rating" reverses it.
        value = F("rating_value").asc() if is_descending else F("rating_value").desc()
        return queryset.order_by("unrated", value, "name"), True

    def render_last_change(self, value: float | None) -> str:
        return change_html(value)

    def value_last_change(self, value: float | None) -> str:
        return "" if value is None else str(round(value))

    def render_age(self, record: Member) -> str:
        return age_group(record)

    def value_age(self, record: Member) -> str:
        return age_group(record)


class OfficerRatingTable(RatingListTable):
    """Everyone the engine rates, with why each is (not) on the published list."""

    published = tables.Column("Published?", empty_values=(), orderable=False)
    # A phone has room for one column more than the published list: the games go.
    games = tables.Column("Games", accessor="rating_state__games", attrs=WIDE_NUMBER)

    class Meta(RatingListTable.Meta):
        sequence = ("rank", "name", "rating", "published", "...")

    def _render_cell(self, name: str, record: Member, value: Any) -> Any:
        if name == "published":
            return self.render_published(record)
        return super()._render_cell(name, record, value)

    def render_published(self, record: Member) -> str:
        # Short words that fit a phone's column; the CSV has the reason in full.
        reason = publication.reason(record)
        if reason == "published":
            return mark_safe('<span class="text-success published-reason">yes</span>')
        short = SHORT_REASONS.get(reason, reason)
        return format_html(
            '<span class="text-danger published-reason" title="{}">{}</span>', reason, short
        )

    def value_published(self, record: Member) -> str:
        return publication.reason(record)


SHORT_REASONS = {
    publication.MERGED: "no: merged",
    publication.reason_of(merged=False, guest=False, financial=False): "no: arrears",
}


class ReportTable(tables.Table):
    """A booklet report: rating first, then the player, their region (and age group)."""

    rank = tables.Column("#", attrs=NUMBER)
    rating = tables.Column("Rating", accessor="rating_state__display", attrs=NUMBER)
    name = tables.Column("Name", linkify=True)
    region = tables.Column("Region")

    class Meta:
        template_name = "django_tables2/bootstrap5.html"
        attrs = {"class": "table table-sm table-striped report"}
        orderable = False


class JuniorReportTable(ReportTable):
    age = tables.Column("Age", accessor="born", attrs=NUMBER)

    class Meta(ReportTable.Meta):
        pass

    def render_age(self, record: Member) -> str:
        from ..pages.reports import year_start

        return str(record.age_on(year_start()))

    def value_age(self, record: Member) -> str:
        return self.render_age(record)


class ImproversTable(tables.Table):
    rank = tables.Column("#", attrs=NUMBER)
    gain = tables.Column("Gain", attrs=NUMBER)
    display = tables.Column("Rating", attrs=NUMBER)
    name = tables.Column("Name", linkify=lambda record: record["member"].get_absolute_url())
    region = tables.Column("Region")
    games = tables.Column("Games", attrs=NUMBER)

    class Meta:
        template_name = "django_tables2/bootstrap5.html"
        attrs = {"class": "table table-sm table-striped report"}
        orderable = False

    def render_gain(self, value: int) -> str:
        return f"{value:+d}"


class ActiveTable(tables.Table):
    region = tables.Column("Region")
    rating = tables.Column("Rating", accessor="rating_state__display", attrs=NUMBER)
    name = tables.Column("Name", linkify=True)
    window_games = tables.Column("Games", attrs=NUMBER)

    class Meta:
        template_name = "django_tables2/bootstrap5.html"
        attrs = {"class": "table table-sm table-striped report"}
        orderable = False

    def render_region(self, value: str) -> str:
        return value or "—"


# -- the officer's lists ------------------------------------------------------------------


class OfficerMemberTable(tables.Table):
    """Every member (guests too) with today's financial status; a name opens its record."""

    name = tables.Column("Name", linkify=("ratings:officer-member", {"pk": tables.A("pk")}))
    member_number = tables.Column("Number")
    rating = tables.Column("Rating", accessor="rating_state__display", default="–", attrs=STRENGTH)
    today = tables.Column("Today", empty_values=(), orderable=False)

    class Meta:
        template_name = "django_tables2/bootstrap5-responsive.html"
        attrs = {"class": "table table-sm table-hover align-middle officer-members"}
        order_by = ("name",)
        orderable = True
        empty_text = "No member matches."

    def order_rating(self, queryset: QuerySet[Member], is_descending: bool) -> tuple[Any, bool]:
        # By the number (strongest first), never the text; the unrated, and new members
        # yet to play who brought no rating in, last either way.
        rating = F("rating_state__rating")
        value = rating.asc(nulls_last=True) if is_descending else rating.desc(nulls_last=True)
        listed = Member.objects.listable().filter(pk=OuterRef("pk"))
        return queryset.order_by(~Exists(listed), value, "name"), True

    def render_rating(self, record: Member, value: str) -> str:
        if getattr(record, "is_newcomer", False):
            return "–"  # the system's starting figure is no rating yet (not listed either)
        return value

    def render_today(self, record: Member) -> str:
        from ..templatetags.membership import membership_badge

        return membership_badge(record.membership_on())


class OfficerEventTable(tables.Table):
    """Every event, newest first, with how far it has got; a name opens the event."""

    name = tables.Column("Event", linkify=("ratings:officer-event", {"pk": tables.A("pk")}))
    dates = tables.Column(
        "Dates",
        accessor="end_date",
        order_by=("end_date", "start_date", "pk"),
        attrs={"td": {"class": "text-nowrap"}},
    )
    kind = tables.Column("Type", attrs=WIDE)
    player_count = tables.Column("Players", attrs=NUMBER)
    games_count = tables.Column("Games", attrs=WIDE_NUMBER)
    status = tables.Column("Status", empty_values=(), orderable=False)

    class Meta:
        template_name = "django_tables2/bootstrap5-responsive.html"
        attrs = {"class": "table table-sm table-hover align-middle officer-events"}
        order_by = ("-dates",)
        orderable = True
        empty_text = "No events yet."

    def render_dates(self, record: Event) -> str:
        start, end = date_format(record.start_date, "j M Y"), date_format(record.end_date, "j M Y")
        return start if start == end else f"{start} – {end}"

    def render_status(self, record: Event) -> str:
        if record.rated_changes:
            return mark_safe('<span class="badge text-bg-success">Rated</span>')
        if record.is_complete:
            text = "Complete, not rated yet" if record.rated else "Complete (unrated)"
            return format_html('<span class="badge text-bg-info">{}</span>', text)
        return mark_safe('<span class="badge text-bg-warning">Entering results</span>')
