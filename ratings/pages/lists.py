"""The rating lists as data: the published list (the latest publication, or the live list),
the live list of today's published members, the officer's list of everyone, and their CSV.

Members in arrears and guests are rated like everyone else, but their ratings are not
published (``Member.objects.published``): the public list reads its rule; an officer's list
has everyone, each marked with the rule's reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django_tables2 import RequestConfig, Table

from .. import services
from ..formats.list_csv import list_csv_header, list_csv_rows, list_csv_writer
from ..formats.list_row import ListShown, hidden_columns
from ..models import ClubSettings, ListStanding, Member, listing
from ..models.listing import born_after_for
from ..models.ranking import PublishedRanking
from ..presentation.filters import RatingListFilter
from ..presentation.list_paginator import ListPaginator
from ..presentation.paging import table_paginate
from ..presentation.tables import OfficerRatingTable, RatingListTable
from ..rules.time_classes import STANDARD
from . import publications, reports
from .fide import fide_ratings_of

PER_PAGE = 50


def list_members(
    *, query: Any, everyone: bool = False, regions: list[str] | None = None
) -> RatingListFilter:
    """The list's members as the reader filtered them (``query``: the form's fields):
    today's published members, or ``everyone`` the engine rates (the officer's list).
    ``regions``: the choices of region (None: every region of the members listed)."""
    members = Member.objects.with_financial() if everyone else Member.objects.published()
    if regions is None:
        regions = _regions(everyone=everyone)
    return RatingListFilter(query or None, queryset=members, regions=regions)


def _regions(*, everyone: bool) -> list[str]:
    """The regions of the members a list can show, in order: every member's for the
    officer's list, those with a published member for the public one."""
    if not everyone:
        return listing.published_regions()
    named = Member.objects.exclude(region="")
    return list(named.values_list("region", flat=True).distinct().order_by("region"))


def latest_publication(*, rating_list: str, club: ClubSettings) -> Any:
    """The list the club published last, or None for a club that publishes continuously
    (``ClubSettings.live_list_only``) or has published nothing yet."""
    return None if club.live_list_only else services.publication_latest(rating_list)


def published_list(
    *,
    query: Any,
    rating_list: str,
    club: ClubSettings,
    request: Any = None,
    latest: Any = False,
) -> dict[str, Any]:
    """The published list: the latest publication's (``publication`` in the answer), or
    the live list (``live``) where there is none to show. ``latest``: the caller's
    ``latest_publication`` when it has read it already."""
    if latest is False:
        latest = latest_publication(rating_list=rating_list, club=club)
    if latest is not None:
        return publications.publication_list(
            publication=latest, query=query, club=club, latest=True, request=request
        )
    return rating_list_page(
        query=query,
        rating_list=rating_list,
        club=club,
        everyone=False,
        request=request,
        extra={"live": True, "latest_publication": latest},
    )


def rating_list_page(
    *,
    query: Any,
    rating_list: str,
    club: ClubSettings,
    everyone: bool,
    request: Any = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The live list (``everyone``: the officer's list) filtered, sorted and a page at a
    time as ``query`` asks. "#" is the member's place on the whole published list,
    whatever is filtered (``ratings.models.ranking``)."""
    system = club.engine(rating_list)
    table_class: type[Table] = OfficerRatingTable if everyone else RatingListTable
    # The public list's figures as the last rating run counted them, if they still hold;
    # else, for the moments until they are counted again, as they were last counted
    # (``services.list_figures_read``: the page then is this reader's own, never kept).
    kept, last_count = None, None
    if not everyone:
        kept, holding = services.list_figures_read()
        last_count = None if holding else kept
    regions = None if kept is None else kept["regions"]
    filters = list_members(query=query, everyone=everyone, regions=regions)
    filtered = any(v for k, v in query.items() if k in filters.filters)
    # ``ListPaginator`` counts the list and reads the page's rows: the whole list in its
    # rating order from the nearer end of the rating index, any other list or order by
    # one read of the list's order, the page's members then by primary key.
    table = table_class(
        listing.with_ratings(filters.qs, ranked=False, time_class=rating_list),
        exclude=hidden_columns(ListShown(club, system)),
    )
    # "#" is the place on the whole published list (``PublishedRanking``), its usable
    # ratings as the last rating run counted them where they still hold. The whole list
    # unfiltered is read a page at a time by its kept size (``WholeList``).
    size = None if kept is None else kept["lists"].get(rating_list)
    # Places counted from the bottom count the usable ratings afresh while the figures
    # are the last count's: a filtered page's "#" is exact whatever the figures.
    usable = size[1] if size and last_count is None else None
    table.ranking = PublishedRanking(time_class=rating_list, usable=usable)
    table.time_class = rating_list
    standings = bool(size and kept and kept.get("standings"))
    if not (everyone or filtered):
        table.whole_list = WholeList(
            time_class=rating_list, kept=tuple(size) if size else None, standings=standings
        )
    elif standings and not everyone:
        # A region's, an age group's or the women's list: counted and read a page at a
        # time among the kept standings, each placed by their kept place.
        table.filtered_standings = FilteredStandings.of(filters, time_class=rating_list)
    if not filtered:
        table.empty_text = _empty_list(system, officer=everyone)
    table_paginate(request, table, per_page=PER_PAGE, paginator_class=ListPaginator)
    if "fide" in table.columns.names():
        table.fide_ratings = fide_ratings_of(
            [row.record.pk for row in table.paginated_rows], rating_list
        )
    export = query.copy()
    export["_export"] = "csv"
    return {
        "table": table,
        "filter": filters,
        "system": system,
        "basis": listing.list_basis(system, rating_list),
        "legend": reports.legend(system),
        "export_query": export.urlencode(),
        "filtered": filtered,
        "rating_list": rating_list,
        "last_count": last_count is not None,
        **(extra or {}),
    }


@dataclass(frozen=True)
class WholeList:
    """The whole published list of ``time_class``, nothing filtered, as ``ListPaginator``
    reads its pages in the rating order: its size, and its rows among a few members."""

    time_class: str
    #: Its size as the last rating run kept it (``services.list_figures_kept``), if any.
    kept: tuple[int, ...] | None = None
    #: Whether each member's standing on it is kept with those figures
    #: (``ListStanding``): its pages in another order are read down their indexes.
    standings: bool = False

    def size(self) -> tuple[int, int]:
        """Its members, and those of them with a usable rating: as the last rating run
        kept them, or counted."""
        if self.kept is not None:
            return self.kept[0], self.kept[1]
        return listing.published_list_size(time_class=self.time_class)

    def among(self, members: QuerySet[Any]) -> QuerySet[Member]:
        """Its rows among ``members`` (a query of their pks, joined, never their ids): the
        publication rule asked of those alone (asked of the whole list, the database made
        the list of every paid-up member)."""
        members = Member.objects.published(among=members)
        return listing.with_ratings(members, ranked=False, time_class=self.time_class)


@dataclass(frozen=True)
class FilteredStandings:
    """The published list of ``time_class`` filtered as the kept standings can answer
    (``ListStanding``: region, age group, women), as ``ListPaginator`` counts it and reads
    its pages: down the filter's range of their indexes, never among every published
    member, each row placed by its kept place."""

    time_class: str
    #: The filters asked, as conditions on the standings.
    only: tuple[tuple[str, Any], ...]

    @classmethod
    def of(cls, filters: RatingListFilter, *, time_class: str) -> FilteredStandings | None:
        """The list as ``filters`` filter it (those the form found valid, as its own
        query filters by), or None where one of them is not kept (a name searched,
        the active members)."""
        only: dict[str, Any] = {}
        for name, value in filters.form.cleaned_data.items():
            if value in (None, "", False):
                continue  # not asked
            if name == "region":
                only["region"] = value
            elif name == "age":
                # The age group on the day read, as ``RatingListFilter.filter_age``.
                only["born__gt"] = born_after_for(value)
            elif name == "women":
                only["gender"] = Member.Gender.FEMALE
            else:
                return None
        return cls(time_class=time_class, only=tuple(sorted(only.items())))

    def rows(self) -> QuerySet[ListStanding]:
        """Its members' standings, unordered."""
        return ListStanding.objects.filter(time_class=self.time_class, **dict(self.only))


def _empty_list(system: Any, *, officer: bool) -> str:
    """What an empty list (nothing filtered) says comes next."""
    rated = "played in a rated event" + (
        " whose rating period is closed" if system.period_based else ""
    )
    if officer:
        return (
            f"No one is rated yet: a member is listed once they have {rated}, or brought "
            "a rating in."
        )
    return (
        f"No one is on the list yet: a member is listed once they have {rated} and paid "
        "this season's subscription."
    )


def list_file(rating_list: str) -> str:
    """The list CSV's name, dated today."""
    name = "rating-list" if rating_list == STANDARD else f"{rating_list}-rating-list"
    return f"{name}-{timezone.localdate():%Y-%m-%d}.csv"


class _Lines:
    """A file for csv.writer that hands back what it is given."""

    def write(self, text: str) -> str:
        return text


def list_csv(
    *, query: Any, rating_list: str, everyone: bool, request: Any = None
) -> Iterator[str]:
    """The list, every row in the reader's order (``query``'s sort), 500 rows to a chunk,
    never held all at once. The columns are ``export_ratings``'s
    (``ratings.formats.list_csv``); the officer's has its ``--all`` column, ``unpublished``."""
    filters = list_members(query=query, everyone=everyone)
    table_class: type[Table] = OfficerRatingTable if everyone else RatingListTable
    table = table_class(listing.with_ratings(filters.qs, ranked=False, time_class=rating_list))
    RequestConfig(request, paginate=False).configure(table)  # the reader's order
    members = table.data.data
    writer = list_csv_writer(_Lines())
    yield writer.writerow(list_csv_header(everyone=everyone))
    lines = []
    ranking = PublishedRanking(time_class=rating_list)
    for row in list_csv_rows(members, everyone=everyone, ranking=ranking):
        lines.append(writer.writerow(row))
        if len(lines) == 500:
            yield "".join(lines)
            lines = []
    yield "".join(lines)
