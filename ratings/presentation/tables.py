"""Tables (django-tables2): the published list, the reports, the officer's lists."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypedDict

import django_tables2 as tables
from django.db.models import Case, F, Q, QuerySet, Value, When
from django.utils.formats import date_format, localize
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import template_localtime  # type: ignore[attr-defined]  # in Django since 1.4, not in django-stubs

from ..formats.list_row import LIVE, ObjectRow, live_path, table_row
from ..models import Event, Member, is_usable
from ..models.listing import age_group, is_inactive, year_start
from ..models.members import newcomer_condition
from ..rules import publication
from ..templatetags.membership import membership_badge
from .links import officer_member_urls

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class Ranked(TypedDict):
    """The list's sort column on its members (``pages.reports.with_ratings``): 1 for a
    member without a usable rating, who is listed unplaced."""

    unrated: int


class RatedOrNot(TypedDict):
    """The officer's events page's mark on each event (``views.officer_events``): whether
    any rating change comes from it."""

    rated_changes: bool


#: Columns a phone has no room for: shown from the md breakpoint up (and in print).
WIDE = {"th": {"class": "d-none d-md-table-cell"}, "td": {"class": "d-none d-md-table-cell"}}
NUMBER = {"th": {"class": "rating"}, "td": {"class": "rating"}}
WIDE_NUMBER = {
    "th": {"class": "rating d-none d-md-table-cell"},
    "td": {"class": "rating d-none d-md-table-cell"},
}
#: Columns whose natural order is strongest first: their arrows point down.
STRENGTH = {"th": {"class": "rating by-strength"}, "td": {"class": "rating"}}
#: A rating column: strongest first is its numbers highest first, which its header's
#: aria-sort says as "descending" (templates/django_tables2/bootstrap5.html).
HIGHEST_FIRST = {"th": {"class": "rating by-strength highest-first"}, "td": {"class": "rating"}}


def change_html(value: float | None) -> str:
    """A rating change as the list shows it: whole points, signed, coloured; 0 when it
    rounds to nothing (a change of 0.4 is "0", not a green "+0")."""
    if value is None:
        return ""
    shown = round(value)
    css = "change-up" if shown > 0 else "change-down" if shown < 0 else ""
    return format_html('<span class="{}">{}</span>', css, f"{shown:+d}" if shown else "0")


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


class RowsInOneJoin:
    """A table whose page's rows the template writes in one join (``rows_html``, through
    ``_list_table.html``): each cell worked out by ``cell``, not through django-tables2's
    per-cell path (an accessor, a signature inspected for every call), which took as long
    as a page's queries."""

    columns: Any
    paginated_rows: Any

    def cell(self, name: str, record: Any, bound: Any) -> Any:
        """The content of column ``name``'s cell of ``record``'s row."""
        raise NotImplementedError

    def page_cells(self) -> list[tuple[str, list[tuple[str, Any]]]]:
        """The page's rows as the template writes them: each row's class and its cells, each
        cell's ``<td>`` attributes and content."""
        columns = [
            (bound.name, mark_safe(bound.attrs["td"].as_html()), bound) for bound in self.columns
        ]
        return [
            (
                row.get_even_odd_css_class(),
                [(td, self.cell(name, row.record, bound)) for name, td, bound in columns],
            )
            for row in self.paginated_rows
        ]

    def page_body(self) -> SafeString:
        return rows_html(self.page_cells())


#: Each look a column of the list may take (``ListColumn.tables``'s ``cell``).
CELLS: dict[str, dict[str, Any]] = {
    "text": {},
    "number": NUMBER,
    "wide": WIDE,
    "wide-number": WIDE_NUMBER,
    "strength": STRENGTH,
    "highest-first": HIGHEST_FIRST,
    # Only its heading says so (a publication's rating column).
    "highest-first-heading": {"th": {"class": "highest-first"}},
}


def list_table_columns(
    table: str, path: Callable[[str], str], options: dict[str, dict[str, Any]] | None = None
) -> list[tuple[str, tables.Column]]:
    """The list's columns for the table ``table`` (``list_row.LIVE``, ``PUBLICATION``) from
    ``list_row.LIST_ROW``, in its order: each sorted by what it reads first (``path``:
    where the table's rows keep it), unless its options say otherwise (``options``: a
    table's own beyond ``LIST_ROW``'s, by column). Read as each table is made, so that
    the row's definition is read as it stands."""
    columns = []
    for column in table_row(table):
        chosen = {**column.tables[table], **(options or {}).get(column.key, {})}
        cell = chosen.pop("cell", "text")
        orderable = chosen.pop("orderable", True)
        accessor = path(column.reads[0]) if column.reads and orderable else None
        made = tables.Column(
            column.label, accessor=accessor, attrs=CELLS[cell], orderable=orderable, **chosen
        )
        columns.append((column.key, made))
    return columns


class RatingListTable(RowsInOneJoin, tables.Table):
    """The live list: ``LIST_ROW``'s columns, its cells as the page shows them. The FIDE
    column only where the club chooses (``ClubSettings.fide_on_list``):
    ``rating_list_page`` excludes it otherwise, and reads the page's FIDE ratings into
    ``fide_ratings``."""

    #: This table's options for a column beyond ``LIST_ROW``'s, by column.
    column_options: dict[str, dict[str, Any]] = {}

    #: Each member's FIDE rating on the list shown, by member id, for the page's rows.
    fide_ratings: dict[int, int | None] | None = None
    #: The rating list shown (``rating_list_page`` sets it): ``ListPaginator`` reads its
    #: first and last pages down that list's rating index.
    time_class: str | None = None
    #: For the whole published list (``rating_list_page`` sets it): its size and its rows
    #: among a few members (``pages.lists.WholeList``), which ``ListPaginator`` reads its
    #: pages in the rating order from; None for any other list.
    whole_list: Any = None
    #: For the published list filtered as its kept standings answer (region, age group,
    #: women: ``pages.lists.FilteredStandings``), which ``ListPaginator`` counts and reads
    #: its pages from; None for any other list.
    filtered_standings: Any = None

    class Meta:
        template_name = "ratings/public/_list_table.html"
        attrs = {"class": "table table-sm table-striped table-hover align-middle rating-list"}
        order_by = "rating"
        orderable = True
        empty_text = "No member matches."

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        columns = list_table_columns(LIVE, live_path, self.column_options)
        kwargs["extra_columns"] = [*columns, *(kwargs.get("extra_columns") or ())]
        #: The row's columns by key, found once, not once a cell.
        self.defined = {column.key: column for column in table_row(LIVE)}
        super().__init__(*args, **kwargs)

    def cell(self, name: str, record: Any, bound: Any) -> Any:
        """The same cell django-tables2 renders, with the render methods called directly."""
        value = self._cell_value(name, record)
        if value in bound.column.empty_values:
            cell: Any = bound.default
        else:
            cell = self._render_cell(name, record, value)
        if name == "name":
            cell = format_html('<a href="{}">{}</a>', record.get_absolute_url(), cell)
        return cell

    def _cell_value(self, name: str, record: Member) -> Any:
        if name == "age":
            return record.born
        if name == "fide":
            return (self.fide_ratings or {}).get(record.pk)
        column = self.defined.get(name)
        if column is not None and column.reads:
            return ObjectRow(record, live_path)[column.reads[0]]
        return getattr(record, name, None)

    def _render_cell(self, name: str, record: WithAnnotations[Member, Ranked], value: Any) -> Any:
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
        column = self.defined.get(name)
        return value if column is None else column.to_html(value)

    def render_rank(self, record: WithAnnotations[Member, Ranked], value: int) -> str:
        return str(value) if not record.unrated else ""

    def value_rank(self, record: WithAnnotations[Member, Ranked], value: int) -> str:
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
    column_options = {"games": {"cell": "wide-number"}}

    class Meta(RatingListTable.Meta):
        sequence = ("rank", "name", "rating", "published", "...")

    def _render_cell(self, name: str, record: WithAnnotations[Member, Ranked], value: Any) -> Any:
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


class OfficerMemberTable(RowsInOneJoin, tables.Table):
    """Every member (guests too) with today's financial status; a name opens its record."""

    name = tables.Column("Name", linkify=("ratings:officer-member", {"pk": tables.A("pk")}))
    member_number = tables.Column("Number")
    rating = tables.Column(
        "Rating", accessor="rating_state__display", default="–", attrs=HIGHEST_FIRST
    )
    today = tables.Column("Today", empty_values=(), orderable=False)

    class Meta:
        # Its rows from ``page_cells`` in one join, as the published list writes its own.
        template_name = "ratings/public/_list_table.html"
        attrs = {"class": "table table-sm table-hover align-middle officer-members"}
        order_by = ("name",)
        orderable = True
        empty_text = "No member matches."

    def cell(self, name: str, record: Any, bound: Any) -> Any:
        """The cell django-tables2 renders, worked out directly (its per-cell path took
        23-38 ms of CPU for fifty rows, more than the page's queries)."""
        if name == "name":
            return format_html('<a href="{}">{}</a>', self.member_url(record.pk), record.name)
        if name == "member_number":
            return record.member_number
        if name == "rating":
            state = getattr(record, "rating_state", None)
            display = None if state is None else state.display
            return "–" if display in (None, "") else self.render_rating(record, display)
        return self.render_today(record)

    @cached_property
    def member_url(self) -> Callable[[object], str]:
        """Each row's record's address, reversed once for the page (``officer_member_urls``)."""
        return officer_member_urls()

    def order_rating(self, queryset: QuerySet[Member], is_descending: bool) -> tuple[Any, bool]:
        # By the number (strongest first), never the text; the unrated, and new members
        # yet to play who brought no rating in, last either way.
        rating = F("rating_state__rating")
        value = rating.asc(nulls_last=True) if is_descending else rating.desc(nulls_last=True)
        # Not listed (``MemberQuerySet.listable``): no state on the list, or a newcomer's;
        # read on the row's joined state, not asked again of each member.
        unlisted = Case(
            When(Q(rating_state__isnull=True) | newcomer_condition(), then=Value(True)),
            default=Value(False),
        )
        return queryset.order_by(unlisted.asc(), value, "name"), True

    def render_rating(self, record: Member, value: str) -> str:
        if getattr(record, "is_newcomer", False):
            return "–"  # the system's starting figure is no rating yet (not listed either)
        return value

    def render_today(self, record: Member) -> str:
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

    def render_status(self, record: WithAnnotations[Event, RatedOrNot]) -> str:
        if record.rated_changes:
            return mark_safe('<span class="badge text-bg-success">Rated</span>')
        if record.is_complete:
            text = "Complete, not rated yet" if record.rated else "Complete (unrated)"
            return format_html('<span class="badge text-bg-info">{}</span>', text)
        return mark_safe('<span class="badge text-bg-warning">Entering results</span>')
