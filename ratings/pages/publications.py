"""The published lists as data: a publication's list (page, CSV, API), the index, and what
changed between two publications.

A publication is a public record of what was published on its date: it is read as it was
frozen, whatever has happened to its members since (a member since fallen into arrears
is on it as they were then). The publication rule was applied when it was published:
only published members are on it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.utils import timezone

from .. import services
from ..engine import SYSTEMS
from ..formats.list_csv import list_csv_header, list_csv_writer, publication_csv_rows
from ..formats.list_row import ListShown, hidden_columns
from ..models import ClubSettings, Publication, PublicationEntry
from ..presentation.charts import changes_bar_svg
from ..presentation.filters import PublicationFilter
from ..presentation.list_paginator import ListPaginator
from ..presentation.paging import table_paginate
from . import reports
from .publication_changes import Changes, live_moved
from .publication_tables import PublicationTable, listed

#: Rows a page of a publication's list shows.
PER_PAGE = 50
#: Entrants and leavers a page of the changes shows.
CHANGES_PER_PAGE = 50
#: Members each chart of the changes draws, a side.
CHARTED = 10


# -- a publication's name ---------------------------------------------------------------


def publication_name(publication: Publication, *, beside: Publication | None = None) -> str:
    """The list named by its date ("26 Nov 2026"); beside another list of the same day,
    by its date and time ("26 Nov 2026, 14:05"), and where even the minute is the same,
    its number that day ("26 Nov 2026, the 2nd"): two lists of one day are told apart."""
    day = f"{publication.day:%-d %b %Y}"
    if beside is None or beside.day != publication.day:
        return day
    at = timezone.localtime(publication.published_at)
    other = timezone.localtime(beside.published_at)
    if (at.hour, at.minute) != (other.hour, other.minute):
        return f"{day}, {at:%H:%M}"
    number = (
        Publication.objects.filter(
            time_class=publication.time_class,
            day=publication.day,
            published_at__lte=publication.published_at,
        )
        .exclude(published_at=publication.published_at, pk__gt=publication.pk)
        .count()
    )
    return f"{day}, the {_ordinal(number)}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


#: Publications an index page lists.
PUBLICATIONS_PER_PAGE = 25


def publication_index(*, page_number: Any = None) -> Any:
    """Every publication, newest first, a page of them (``page_number``: any text; a page
    that is not one is the nearest that is)."""
    return Paginator(Publication.objects.all(), PUBLICATIONS_PER_PAGE).get_page(page_number)


# -- a publication's list ---------------------------------------------------------------


def publication_entries(
    *, publication: Publication, query: Mapping[str, Any], regions: list[str] | None = None
) -> Any:
    """A publication's entries filtered as the reader asked (``query``: the list page's
    filters, as its form sends them), in the list's order: the filter, its ``qs``.
    ``regions``: the choices of region (None: every region on the list)."""
    entries = listed(publication)
    if regions is None:
        regions = list(
            entries.exclude(member__region="")
            .order_by("member__region")
            .values_list("member__region", flat=True)
            .distinct()
        )
    return PublicationFilter(query or None, queryset=entries, day=publication.day, regions=regions)


def publication_list(
    *,
    publication: Publication,
    query: Any,
    club: ClubSettings,
    latest: bool,
    request: Any = None,
) -> dict[str, Any]:
    """A publication's list as the live list is read: filtered, sorted, a page at a time
    (``query``: the reader's filters, order and page). ``request``: for the table's own
    links to the reader's sort and page, as django-tables2 builds them."""
    filters = publication_entries(publication=publication, query=query)
    system = club.engine(publication.time_class)
    hidden = hidden_columns(ListShown(club, system))
    table = PublicationTable(filters.qs, publication=publication, hidden=hidden)
    table_paginate(request, table, per_page=PER_PAGE, paginator_class=ListPaginator)
    export = query.copy()
    export["_export"] = "csv"
    return {
        "publication": publication,
        "latest_publication": publication
        if latest
        else services.publication_latest(publication.time_class),
        "rating_list": publication.time_class,
        "previous": table.previous,
        "following": publication.following(),
        "moved": live_moved(publication),
        "table": table,
        "filter": filters,
        "system": system,
        "legend": reports.legend(system) if system.id == publication.system else [],
        "export_query": export.urlencode(),
        "filtered": any(v for k, v in query.items() if k in filters.filters),
    }


class _Lines:
    """A file for csv.writer that hands back what it is given."""

    def write(self, text: str) -> str:
        return text


def publication_csv(*, entries: QuerySet[PublicationEntry]) -> Iterator[str]:
    """Every row of the publication (as filtered), 500 rows to a chunk, in the list's
    columns (``ratings.formats.list_csv``, as ``export_ratings`` writes them)."""
    writer = list_csv_writer(_Lines())
    yield writer.writerow(list_csv_header(everyone=False))
    lines = []
    for row in publication_csv_rows(entries):
        lines.append(writer.writerow(row))
        if len(lines) == 500:
            yield "".join(lines)
            lines = []
    yield "".join(lines)


# -- what changed between two publications -----------------------------------------------


def system_changes(*, older: Publication, newer: Publication) -> list[str]:
    """What the reader must know before reading the two lists' figures side by side: the
    club switched rating systems between them, or changed its system's settings. Then
    ratings moved by the history rated again, not only by the games played between."""
    if older.system != newer.system:
        return [
            f"The club changed its rating system between these lists: the list of "
            f"{publication_name(older, beside=newer)} is rated by {_title(older.system)}, "
            f"the list of {publication_name(newer, beside=older)} by {_title(newer.system)}. "
            "The whole history was rated again by the new system, so a rating may have "
            "moved with no game played, and the two lists' game counts are each system's "
            "own."
        ]
    if older.params is None or newer.params is None or older.params == newer.params:
        return []
    changed = sorted(
        name
        for name in {*older.params, *newer.params}
        if older.params.get(name) != newer.params.get(name)
    )
    settings = "; ".join(
        f"{name}: {older.params.get(name, '—')} → {newer.params.get(name, '—')}"
        for name in changed
    )
    return [
        f"The club changed the settings of {_title(newer.system)} between these lists "
        f"({settings}). The history was rated again with them, so a rating may have moved "
        "with no game played."
    ]


def _title(system_id: str) -> str:
    system = SYSTEMS.get(system_id)
    return system.title if system is not None else system_id


def publication_changes(
    *,
    newer: Publication,
    older: Publication | None,
    entrants_page: Any = None,
    leavers_page: Any = None,
) -> dict[str, Any]:
    """What changed between two publications of one list (``older`` None: the first list,
    nothing to compare): entrants, leavers, rises, falls, improvers, the rated games each
    played between, and whether the system or its settings changed between them. Each
    list is named so that two of one day are told apart."""
    if older is not None and older.published_at > newer.published_at:
        newer, older = older, newer
    data: dict[str, Any] = {
        "publication": newer,
        "older": older,
        "newer_name": publication_name(newer, beside=older),
        "older_name": publication_name(older, beside=newer) if older else "",
    }
    if older is None or older.pk == newer.pk:
        return data
    changes = Changes(newer=newer, older=older)
    changes.with_games_between()
    between = f"{data['older_name']} to {data['newer_name']}"
    charted: list[Any] = changes.rises[:CHARTED] + changes.falls[:CHARTED]
    data.update(
        changes=changes,
        counts=changes.counts,
        system_changes=system_changes(older=older, newer=newer),
        entrants=Paginator(changes.entrants, CHANGES_PER_PAGE).get_page(entrants_page),
        leavers=Paginator(changes.leavers, CHANGES_PER_PAGE).get_page(leavers_page),
        chart=changes_bar_svg(
            [(e.member.name, round(e.shown_change)) for e in charted],
            title=f"Biggest rises and falls, {between}",
        ),
        improvers_chart=_improvers_chart(changes, charted, between),
        others=_others(newer),
    )
    return data


def _others(newer: Publication) -> list[tuple[str, str]]:
    """The lists the reader may compare with instead (slug, name), newest first: a list
    that shares its day with another is named with its time too."""
    rows = list(
        Publication.objects.filter(time_class=newer.time_class)
        .exclude(pk=newer.pk)
        .values_list("slug", "day", "published_at")[:200]
    )
    days = Counter(day for _slug, day, _at in rows)
    days[newer.day] += 1
    return [
        (
            slug,
            f"{day:%-d %b %Y}"
            if days[day] == 1
            else f"{day:%-d %b %Y}, {timezone.localtime(at):%H:%M}",
        )
        for slug, day, at in rows
    ]


def _improvers_chart(changes: Changes, charted: list[Any], between: str) -> Any:
    """The improvers' gains as bars, where they tell the reader something the rises' chart
    does not: drawn only when some of the ten biggest improvers are not charted there
    (otherwise it would draw the same bars twice)."""
    improvers: list[Any] = changes.improvers[:CHARTED]
    if {e.member_id for e in improvers} <= {e.member_id for e in charted}:
        return ""
    return changes_bar_svg(
        [(e.member.name, round(e.shown_change)) for e in improvers],
        title=f"Biggest improvers, official ratings, {between}",
        chart_id="improvers",
    )
