"""The table of a publication's list: the published list's columns, read from its entries."""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.db.models import Case, F, IntegerField, QuerySet, Value, When
from django.db.models.functions import Coalesce
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from ..formats.list_row import PUBLICATION, ObjectRow, publication_path, table_row
from ..models import Publication, PublicationEntry
from ..models.listing import age_group_of, year_start
from ..presentation.tables import change_html, list_table_columns, rows_html
from ..words.figures import shown_change
from .fide import fide_ratings_of


def listed(publication: Publication) -> QuerySet[PublicationEntry]:
    """A publication's entries as the list pages read them: annotated as the live list is
    (``unrated``, ``rating_value``) so that ``ListPaginator`` pages and ranks them alike."""
    return (
        publication.entries.select_related("member")
        .annotate(
            unrated=Case(
                When(rank__isnull=True, then=Value(1)),
                default=Value(0),
                output_field=IntegerField(),
            ),
            rating_value=Coalesce(F("rating"), Value(0.0)),
        )
        .order_by("position")
    )


class StoredPlaces:
    """A publication's places, fixed when it was published: a filtered page keeps them."""

    def place(self, entry: Any) -> int | None:
        return None if entry.unrated else entry.rank

    def place_all(self, entries: list[Any]) -> None:
        """Each entry's place as stored (``ListPaginator`` places a page so): no query."""
        for entry in entries:
            entry.rank = self.place(entry)


class PublicationTable(tables.Table):
    """A publication, a page at a time: ``LIST_ROW``'s columns, read from its entries.
    "Change" is since the publication before it; FIDE's rating (as last read) only where
    the club chooses (``hidden``)."""

    ranking = StoredPlaces()

    class Meta:
        template_name = "ratings/public/_list_table.html"
        attrs = {"class": "table table-sm table-striped table-hover align-middle rating-list"}
        orderable = True
        empty_text = "No member matches."

    def __init__(
        self,
        *args: Any,
        publication: Publication,
        hidden: tuple[str, ...] = ("fide",),
        **kwargs: Any,
    ) -> None:
        self.publication = publication
        self.previous = publication.previous()
        excluded = hidden
        if self.previous is None:
            excluded += ("change",)
        kwargs["exclude"] = excluded
        kwargs["extra_columns"] = list_table_columns(PUBLICATION, publication_path)
        #: The row's columns by key, found once, not once a cell.
        self.defined = {column.key: column for column in table_row(PUBLICATION)}
        self.fide_ratings: dict[int, int | None] = {}
        super().__init__(*args, **kwargs)

    def order_rating(self, queryset: QuerySet[Any], is_descending: bool) -> tuple[Any, bool]:
        value = F("rating_value").asc() if is_descending else F("rating_value").desc()
        return queryset.order_by("unrated", value, "member__name"), True

    def _before(self, entries: list[PublicationEntry]) -> dict[int, tuple[str, bool]]:
        """The page's members on the publication before, their figure as shown there and
        whether ranked: one query for the page."""
        if self.previous is None:
            return {}
        rows = self.previous.entries.filter(
            member_id__in=[e.member_id for e in entries]
        ).values_list("member_id", "display", "rank")
        return {member: (display, rank is not None) for member, display, rank in rows}

    def page_cells(self) -> list[tuple[str, list[tuple[str, Any]]]]:
        """The page's rows for ``_list_table.html``: each row's class and its cells."""
        rows = list(self.paginated_rows)
        before = self._before([row.record for row in rows])
        if "fide" in self.columns.names():
            self.fide_ratings = fide_ratings_of(
                [row.record.member_id for row in rows], self.publication.time_class
            )
        start = year_start(self.publication.day)
        columns = [(b.name, mark_safe(b.attrs["td"].as_html())) for b in self.columns]
        out = []
        for row in rows:
            entry = row.record
            cells = []
            for name, td in columns:
                cells.append((td, self._cell(name, entry, before, start)))
            out.append((row.get_even_odd_css_class(), cells))
        return out

    def page_body(self) -> SafeString:
        return rows_html(self.page_cells())

    def _cell(self, name: str, entry: Any, before: dict[int, Any], start: Any) -> Any:
        member = entry.member
        if name == "rank":
            return "" if entry.unrated else str(entry.rank)
        if name == "name":
            title = (
                format_html('<abbr title="FIDE title">{}</abbr> ', member.title)
                if member.title
                else ""
            )
            return format_html(
                '<a href="{}">{}{}</a>', member.get_absolute_url(), title, member.name
            )
        if name == "rating":
            css = "usable" if not entry.unrated else "text-body-secondary"
            return format_html('<span class="{}">{}</span>', css, entry.display or "—")
        if name == "change":
            if entry.member_id not in before:
                return mark_safe('<span class="badge text-bg-info new-entrant">new</span>')
            old, ranked = before[entry.member_id]
            if entry.unrated or not ranked:
                return ""
            # The difference of the two figures as published ("2303" then "2304": +1).
            return change_html(shown_change(old, entry.display))
        if name == "age":
            return age_group_of(member.born, start)
        if name == "fide":
            return self.fide_ratings.get(entry.member_id) or "—"
        # Any other column as ``LIST_ROW`` writes it (a date as a template shows it).
        column = self.defined.get(name)
        if column is None or not column.reads:
            return ""
        return column.to_html(ObjectRow(entry, publication_path)[column.reads[0]])
