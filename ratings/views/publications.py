"""Publications: the published lists by date (page, CSV), what changed between two, and
the officer's button that publishes the list.

A publication is a public record of what was published on its date: it is read as it
was frozen, whatever has happened to its members since (a member who has since fallen
into arrears is on it as they were then; their page shows nothing new of them).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django_tables2 import RequestConfig

from .. import reports, services
from ..charts import changes_bar_svg
from ..counts import count_phrase
from ..filters import PublicationFilter
from ..formats.list_csv import list_csv_header, list_csv_writer, publication_csv_rows
from ..models import ClubSettings, Publication, RatingPeriod
from ..publication_changes import Changes, live_moved
from ..publication_tables import PublicationTable, listed
from ..rating_lists import list_name
from ..tables import ListPaginator
from ..time_classes import STANDARD
from .common import club_of, officer_required, rating_list_of, rating_lists_kept, wants_csv

PER_PAGE = 50
#: Publications an index page lists.
PUBLICATIONS_PER_PAGE = 25
#: Entrants and leavers a page of the changes shows.
CHANGES_PER_PAGE = 50


def publication_index(request: HttpRequest) -> HttpResponse:
    """Every publication, newest first; a date finds the list as it stood that day."""
    on = request.GET.get("on")
    if on:
        try:
            day = dt.date.fromisoformat(on)
        except ValueError:
            messages.error(request, f"“{on}” is not a date: use YYYY-MM-DD.")
            return redirect("ratings:publications")
        found = services.publication_on(day, rating_list_of(request))
        if found is None:
            messages.info(request, f"No list had been published by {day:%-d %b %Y}.")
            return redirect("ratings:publications")
        return redirect(found)
    page = Paginator(Publication.objects.all(), PUBLICATIONS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(request, "ratings/public/publications.html", {"page": page})


def publication_detail(request: HttpRequest, slug: str) -> HttpResponse:
    publication = get_object_or_404(Publication, slug=slug)
    return publication_page(request, publication, latest=False)


def publication_page(request: HttpRequest, publication: Publication, *, latest: bool) -> Any:
    """A publication's list as the live list is read: filtered, sorted, a page at a time."""
    entries = listed(publication)
    regions = list(
        entries.exclude(member__region="")
        .order_by("member__region")
        .values_list("member__region", flat=True)
        .distinct()
    )
    filters = PublicationFilter(
        request.GET or None, queryset=entries, day=publication.day, regions=regions
    )
    if wants_csv(request):
        return _publication_csv(publication, filters.qs)
    table = PublicationTable(filters.qs, publication=publication)
    RequestConfig(
        request, paginate={"per_page": PER_PAGE, "paginator_class": ListPaginator}
    ).configure(table)
    export = request.GET.copy()
    export["_export"] = "csv"
    system = club_of(request).engine(publication.time_class)
    return render(
        request,
        "ratings/public/publication.html",
        {
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
            "filtered": any(v for k, v in request.GET.items() if k in filters.filters),
        },
    )


#: A publication's CSV columns.
def _publication_csv(publication: Publication, entries: Any) -> StreamingHttpResponse:
    """Every row of the publication (as filtered), streamed 500 rows to a chunk, in the
    list's columns (``ratings.formats.list_csv``, as ``export_ratings`` writes them)."""
    from .lists import _Lines

    def chunks() -> Any:
        writer = list_csv_writer(_Lines())
        yield writer.writerow(list_csv_header(everyone=False))
        lines = []
        for row in publication_csv_rows(entries):
            lines.append(writer.writerow(row))
            if len(lines) == 500:
                yield "".join(lines)
                lines = []
        yield "".join(lines)

    response = StreamingHttpResponse(chunks(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="rating-list-published-{publication.slug}.csv"'
    )
    return response


def publication_changes(request: HttpRequest, slug: str) -> HttpResponse:
    """What changed between a publication and the one before it on its list (or
    ``?since=<date>``, a publication of the same list: another list's figures are
    another rating's, not a change)."""
    newer = get_object_or_404(Publication, slug=slug)
    since = request.GET.get("since")
    if since:
        older = Publication.objects.filter(slug=since, time_class=newer.time_class).first()
        if older is None:
            raise Http404(f"No {list_name(newer.time_class).lower()} was published on that date.")
    else:
        older = newer.previous()
    if older is not None and older.published_at > newer.published_at:
        newer, older = older, newer
    context: dict[str, Any] = {"publication": newer, "older": older}
    if older is not None and older.pk != newer.pk:
        changes = Changes(newer=newer, older=older)
        entrants = Paginator(changes.entrants, CHANGES_PER_PAGE).get_page(
            request.GET.get("entrants")
        )
        leavers = Paginator(changes.leavers, CHANGES_PER_PAGE).get_page(request.GET.get("leavers"))
        between = f"{older.day:%-d %b %Y} to {newer.day:%-d %b %Y}"
        charted = changes.rises[:CHARTED] + changes.falls[:CHARTED]
        context.update(
            changes=changes,
            counts=changes.counts,
            entrants=entrants,
            leavers=leavers,
            chart=changes_bar_svg(
                [(e.member.name, round(e.shown_change)) for e in charted],
                title=f"Biggest rises and falls, {between}",
            ),
            improvers_chart=_improvers_chart(changes, charted, between),
            others=Publication.objects.filter(time_class=newer.time_class)
            .exclude(pk=newer.pk)
            .values_list("slug", "day")[:200],
        )
    return render(request, "ratings/public/publication_changes.html", context)


#: Members each chart of the changes draws, a side.
CHARTED = 10


def _improvers_chart(changes: Changes, charted: list[Any], between: str) -> Any:
    """The improvers' gains as bars, where they tell the reader something the rises' chart
    does not: drawn only when some of the ten biggest improvers are not charted there
    (otherwise it would draw the same bars twice)."""
    improvers = changes.improvers[:CHARTED]
    if {e.member_id for e in improvers} <= {e.member_id for e in charted}:
        return ""
    return changes_bar_svg(
        [(e.member.name, round(e.shown_change)) for e in improvers],
        title=f"Biggest improvers, official ratings, {between}",
        chart_id="improvers",
    )


# -- the officer publishes -------------------------------------------------------------


class PublishForm(forms.Form):
    note = forms.CharField(
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Shown with the list, e.g. “Ratings to 30 June: the winter period.”",
    )
    period = forms.CharField(required=False, widget=forms.HiddenInput)


@officer_required
def officer_publish(request: HttpRequest) -> HttpResponse:
    """Publish the list as it stands: a button with a note (after closing a period too)."""
    asked = request.POST.get("list") or request.GET.get("list")
    rating_list = asked if asked in rating_lists_kept(request) else STANDARD
    system = ClubSettings.load().engine(rating_list)
    label = request.POST.get("period") or request.GET.get("period") or ""
    period = (
        RatingPeriod.objects.of_list(system, rating_list).closed().filter(label=label).first()
        if label
        else None
    )
    if request.method == "POST":
        form = PublishForm(request.POST)
        if form.is_valid():
            try:
                publication = services.list_publish(
                    note=form.cleaned_data["note"],
                    user=request.user,
                    period=period,
                    time_class=rating_list,
                )
            except services.PublishRefused as refusal:
                form.add_error(None, str(refusal))
            else:
                kind = "" if rating_list == STANDARD else f"{rating_list} "
                messages.success(
                    request,
                    f"The {kind}list is published: "
                    f"{count_phrase(publication.size, 'member')}, "
                    f"dated {publication.day:%-d %b %Y}.",
                )
                return redirect(publication)
    else:
        note = f"Rating period {period.name} closed." if period else ""
        form = PublishForm(initial={"note": note, "period": label if period else ""})
    return render(
        request,
        "ratings/officer/publish.html",
        {
            "form": form,
            "period": period,
            "system": system,
            "basis": reports.list_basis(system, rating_list),
            "latest": services.publication_latest(rating_list),
            "size": services.list_size(rating_list),
            "rating_list": rating_list,
        },
    )
