"""The home page and the rating lists: the published list (page, CSV), the officer's list.

Members in arrears and guests are rated like everyone else, but their ratings are not
published (``ratings.publication``): the public list reads its rule; an officer sees
everyone, marked with the rule's reason.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django_tables2 import RequestConfig, Table

from .. import reports, services
from ..filters import RatingListFilter
from ..formats.csvsafe import csv_safe
from ..formats.list_csv import list_csv_header, list_csv_rows, list_csv_writer
from ..models import (
    Comparison,
    Member,
)
from ..publication import published_members
from ..ranking import PublishedRanking
from ..services.club import club_needs_start
from ..tables import (
    ListPaginator,
    OfficerRatingTable,
    RatingListTable,
)
from ..time_classes import STANDARD
from .common import club_of, officer_required, rating_list_of, wants_csv
from .publications import publication_page

PER_PAGE = 50


def home(request: HttpRequest) -> HttpResponse:
    system = club_of(request).engine()
    recent = list(reports.rated_events()[:5])
    top = reports.top_ten()
    # A fresh install (no login yet) greets its first visitor with the first-run page;
    # asked only of a club with nothing to show, so a running club's home pays nothing.
    if not recent and not top and club_needs_start():
        return redirect("ratings:club-start")
    basis = reports.list_basis(system)
    return render(
        request,
        "ratings/home.html",
        {
            "recent_events": recent,
            "top": top,
            "basis": basis,
            "period_based": system.period_based,
            "rated": basis not in (reports.NO_PERIOD_CLOSED, reports.NO_EVENT_RATED),
            "comparison": Comparison.objects.filter(published__isnull=False).exists(),
        },
    )


# -- the published list ---------------------------------------------------------------


def _rating_list(  # type: ignore[no-untyped-def]
    request: HttpRequest,
    members: Any,
    table_class: type[Table],
    template: str,
    extra: dict[str, Any] | None = None,
):
    rating_list = rating_list_of(request)
    system = club_of(request).engine(rating_list)
    # Only the regions of the members this list can show: a region of unpublished members
    # alone would filter the public list down to nobody.
    regions = list(
        members.exclude(region="").values_list("region", flat=True).distinct().order_by("region")
    )
    filters = RatingListFilter(request.GET or None, queryset=members, regions=regions)
    # "#" is the member's place on the whole published list, whatever is filtered
    # (``ratings.ranking``).
    if wants_csv(request):
        table = table_class(reports.with_ratings(filters.qs, ranked=False, time_class=rating_list))
        RequestConfig(request, paginate=False).configure(table)  # the reader's order
        return _list_csv(
            table.data.data,
            officer=table_class is OfficerRatingTable,
            filename=f"{_list_file(rating_list)}-{timezone.localdate():%Y-%m-%d}.csv",
            rating_list=rating_list,
        )
    # One read of the list's order counts it, finds the page and ranks its rows
    # (``ListPaginator``); the page's members are then read by primary key.
    table = table_class(reports.with_ratings(filters.qs, ranked=False, time_class=rating_list))
    table.ranking = _ranking(request, filters, table_class, rating_list)
    if not any(v for k, v in request.GET.items() if k in filters.filters):
        table.empty_text = _empty_list(system, officer=table_class is OfficerRatingTable)
    RequestConfig(
        request, paginate={"per_page": PER_PAGE, "paginator_class": ListPaginator}
    ).configure(table)
    export = request.GET.copy()
    export["_export"] = "csv"
    return render(
        request,
        template,
        {
            "table": table,
            "filter": filters,
            "system": system,
            "basis": reports.list_basis(system, rating_list),
            "legend": reports.legend(system),
            "export_query": export.urlencode(),
            "filtered": any(v for k, v in request.GET.items() if k in filters.filters),
            "rating_list": rating_list,
            **(extra or {}),
        },
    )


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


def _list_file(rating_list: str) -> str:
    return "rating-list" if rating_list == STANDARD else f"{rating_list}-rating-list"


def _ranking(
    request: HttpRequest, filters: Any, table_class: type[Table], rating_list: str
) -> Any:
    """How the page places its rows: the whole published list unfiltered is its own
    ranking (the paginator's one read of it places the rows); any other list (filtered,
    or the officer's everyone) reads the published ratings once more."""
    filtered = any(v for k, v in request.GET.items() if k in filters.filters)
    if table_class is RatingListTable and not filtered:
        return None
    return PublishedRanking(time_class=rating_list)


def _cell(value: Any) -> Any:
    """One cell of a streamed CSV as written: the one place cells pass on their way out."""
    return "" if value is None else csv_safe(value)


class _Lines:
    """A file for csv.writer that hands back what it is given."""

    def write(self, text: str) -> str:
        return text


def _list_csv(
    members: Any, *, officer: bool, filename: str, rating_list: str = STANDARD
) -> StreamingHttpResponse:
    """The list, every row in the reader's order, streamed: rows are written as they are
    read, 500 to a chunk, never held all at once. The columns are ``export_ratings``'s
    (``ratings.formats.list_csv``); the officer's has its ``--all`` column, ``unpublished``."""

    def chunks() -> Any:
        writer = list_csv_writer(_Lines())
        yield writer.writerow(list_csv_header(everyone=officer))
        lines = []
        ranking = PublishedRanking(time_class=rating_list)
        for row in list_csv_rows(members, everyone=officer, ranking=ranking):
            lines.append(writer.writerow(row))
            if len(lines) == 500:
                yield "".join(lines)
                lines = []
        yield "".join(lines)

    response = StreamingHttpResponse(chunks(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def published_list(request: HttpRequest) -> HttpResponse:
    """The latest publication, or the live list for a club that publishes continuously
    (``ClubSettings.live_list_only``) or has published nothing yet."""
    latest = (
        None
        if club_of(request).live_list_only
        else services.publication_latest(rating_list_of(request))
    )
    if latest is not None:
        return publication_page(request, latest, latest=True)
    return live_list(request, latest=latest)


def live_list(request: HttpRequest, latest: Any = False) -> HttpResponse:
    """The live list: today's ratings of today's published members, labelled as live."""
    if latest is False:
        latest = (
            None
            if club_of(request).live_list_only
            else services.publication_latest(rating_list_of(request))
        )
    return _rating_list(
        request,
        published_members(),
        RatingListTable,
        "ratings/public/list.html",
        extra={"live": True, "latest_publication": latest},
    )


@officer_required
def officer_list(request: HttpRequest) -> HttpResponse:
    """Everyone the engine rates, members in arrears and guests too, each marked."""
    return _rating_list(
        request,
        Member.objects.with_financial(),
        OfficerRatingTable,
        "ratings/public/officer_list.html",
    )


# -- reports ---------------------------------------------------------------------------
