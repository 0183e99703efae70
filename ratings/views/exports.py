"""Downloads for members and federations: a member's history and an event's crosstable as
CSV, and the published list as a page to print (or save as PDF).

Each withholds what its page withholds: the public gets the history of a published member
only, and no one's rating that is not published (an opponent's, or a crosstable row's);
an officer gets everything.
"""

from __future__ import annotations

import csv
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify

from ..formats.csvsafe import csv_safe_row
from ..models import Event, Member, listing
from ..pages import events as event_pages
from ..pages import members as pages
from ..pages import reports
from ..words import figures
from .common import club_of, is_officer, rating_list_of


def _csv_response(filename: str, header: Any, rows: Any) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow(header)
    for row in rows:
        writer.writerow(csv_safe_row("" if value is None else value for value in row))
    return response


def member_history_csv(request: HttpRequest, number: str) -> HttpResponse:
    """Every event of the member, newest first, with each rated game as the member page
    lists it; the public gets only a published member's (the page shows the others'
    events but no rating, so there is no history to give)."""
    member = (
        Member.objects.with_financial()
        .with_published()
        .select_related("merged_into")
        .filter(member_number__iexact=number)
        .first()
    )
    # Kept off public pages: answered as a number no one has, before any redirect.
    if member is None or not pages.member_shown(
        member=member, viewer=request.user, club=club_of(request)
    ):
        raise Http404(pages.NO_SUCH_MEMBER)
    if member.merged_into is not None:  # selected with the member
        return redirect(
            reverse("ratings:member-history-csv", args=[member.merged_into.member_number])
        )
    rows = pages.member_history(member=member, viewer=request.user, club=club_of(request))
    if rows is None:
        raise Http404("This member's rating is not published.")
    return _csv_response(
        f"{slugify(member.name) or member.member_number}-history.csv", pages.HISTORY_CSV, rows
    )


def event_crosstable_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The crosstable as the page shows it to this reader, withheld ratings left empty."""
    event = get_object_or_404(Event, pk=pk)
    officer = is_officer(request)
    table = event_pages.event_crosstable(event=event, viewer=request.user)
    columns = [str(n) if table["grid"] else f"R{n}" for n in table["columns"]]
    tie_breaks = [tb["head"] for tb in table["tie_breaks"]]
    header = ["#", "Player", "Member number", "Rating", "Marker", *columns, "Points", *tie_breaks]
    if officer:
        header.insert(5, "Published?")
    rows = []
    for row in table["rows"]:
        member = row["member"]
        line = [row["place"], member.name, member.member_number]
        line += figures.rating_and_marker(row["rating"])
        if officer:
            line.append("no" if row["unpublished"] else "yes")
        rows.append([*line, *row["cells"], f"{row['points']:g}", *row["tie_breaks"]])
    return _csv_response(
        f"{slugify(event.name) or f'event-{event.pk}'}-crosstable.csv", header, rows
    )


def printable_list(request: HttpRequest) -> HttpResponse:
    """The whole published list on one page laid out for paper (A4, the heads repeated on
    each sheet): what a club pins on its noticeboard, or saves as PDF from the browser."""
    rating_list = rating_list_of(request)
    system = club_of(request).engine(rating_list)
    members = listing.published_ratings(time_class=rating_list)
    return render(
        request,
        "ratings/public/list_print.html",
        {
            "columns": PRINT_COLUMNS,
            "rows": list(_print_rows(members)),
            "system": system,
            "rating_list": rating_list,
            "basis": listing.list_basis(system, rating_list),
            "legend": reports.legend(system),
            "printed": timezone.localdate(),
        },
    )


#: The printed list's columns, as the list's page heads them.
PRINT_COLUMNS = ("#", "Name", "Rating", "Games", "Last change", "Region", "Junior", "Last played")
_PRINT_FIELDS = (
    "rank",
    "unrated",
    "name",
    "rating_state__display",
    "rating_state__games",
    "last_change",
    "region",
    "born",
    "rating_state__last_played",
)


def _print_rows(members: Any) -> Any:
    """The printed list's rows, read straight from the (ranked, whole) published list."""
    start = listing.year_start()
    rows = members.values_list(*_PRINT_FIELDS).iterator(chunk_size=2000)
    for rank, unrated, name, display, games, change, region, born, played in rows:
        row = [
            "" if unrated else rank,
            name,
            display,
            games,
            None if change is None else round(change),
            region,
            listing.age_group_of(born, start),
            played,
        ]
        yield row
