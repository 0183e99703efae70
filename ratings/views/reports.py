"""The club's reports (most active, improvers, juniors...) for members."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django_tables2 import Table

from ..models import (
    ClubSettings,
    listing,
)
from ..pages import reports
from ..presentation.tables import (
    ActiveTable,
    ImproversTable,
    JuniorReportTable,
    ReportTable,
)
from ..rules.time_classes import STANDARD
from ..words import figures
from .common import rating_list_of, rows_csv, wants_csv

REPORT_TABLES: dict[str, type[Table]] = {
    "under-20": JuniorReportTable,
    "under-16": JuniorReportTable,
    "under-12": JuniorReportTable,
    "improvers": ImproversTable,
    "active": ActiveTable,
}


#: The CSV's column for a rating's marker (provisional, partial, not yet rated).
MARKER = "Marker"


def _report_csv(table: Table, filename: str) -> HttpResponse:
    """The report as CSV with its ratings as numbers: each "Rating" cell ("1486p") is split
    into the figure (1486) and, in a column of its own after it, the marker ("p"), so a
    spreadsheet sorts the ratings as numbers."""
    rows = iter(table.as_values())
    header = list(next(rows))
    at = header.index("Rating")
    split = [[*header[: at + 1], MARKER, *header[at + 1 :]]]
    for row in rows:
        figure, marker = figures.rating_and_marker(row[at])
        split.append([*row[:at], figure, marker, *row[at + 1 :]])
    return rows_csv(split, filename)


def report_index(request: HttpRequest) -> HttpResponse:
    system = ClubSettings.load().engine()
    return render(
        request,
        "ratings/public/reports.html",
        {"reports": reports.REPORTS.values(), "basis": listing.list_basis(system)},
    )


def report_detail(request: HttpRequest, slug: str) -> HttpResponse:
    report = reports.REPORTS.get(slug)
    if report is None:
        raise Http404("No such report.")
    rating_list = rating_list_of(request)
    system = ClubSettings.load().engine(rating_list)
    span = reports.report_window(system, request.GET.get("since"), rating_list)
    rows = report.rows(span, rating_list)
    if slug != "active":
        rows = rows[: reports.TOP]
    table = REPORT_TABLES.get(slug, ReportTable)(rows)
    # An empty report says why, in a sentence: no one qualifies yet, or not in this span.
    table.empty_text = (
        "No published member has played in this span yet."
        if report.uses_window
        else "No published member qualifies yet: the report fills in as events are rated."
    )
    if wants_csv(request):
        kind = "" if rating_list == STANDARD else f"{rating_list}-"
        return _report_csv(table, f"{kind}{slug}-{timezone.localdate():%Y-%m-%d}.csv")
    export = request.GET.copy()
    export["_export"] = "csv"
    return render(
        request,
        "ratings/public/report.html",
        {
            "report": report,
            "table": table,
            "span": span,
            "system": system,
            "basis": listing.list_basis(system, rating_list),
            "since_choices": reports.SINCE_CHOICES if not system.period_based else {},
            "since": request.GET.get("since", "3"),
            "export_query": export.urlencode(),
            "today": timezone.localdate(),
            "rating_list": rating_list,
        },
    )
