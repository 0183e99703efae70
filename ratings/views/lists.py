"""The home page and the rating lists: the published list (page, CSV), the officer's list.

Members in arrears and guests are rated like everyone else, but their ratings are not
published (``ratings.rules.publication``): the public list reads its rule; an officer sees
everyone, marked with the rule's reason.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control

from ..models import Comparison, listing
from ..pages import lists as pages
from ..pages import publications, reports
from ..pages.list_print import rows_for_print
from ..services.club import club_needs_start
from .common import club_of, officer_required, rating_list_of, streamed_csv, wants_csv


def home(request: HttpRequest) -> HttpResponse:
    system = club_of(request).engine()
    recent = list(listing.rated_events()[:5])
    top = reports.top_ten()
    # A fresh install (no login yet) greets its first visitor with the first-run page;
    # asked only of a club with nothing to show, so a running club's home pays nothing.
    if not recent and not top and club_needs_start():
        return redirect("ratings:club-start")
    return render(
        request,
        "ratings/home.html",
        {
            "recent_events": recent,
            "top": top,
            "standing": reports.list_standing(system),
            "comparison": Comparison.objects.filter(published__isnull=False).exists(),
        },
    )


# -- the published list ---------------------------------------------------------------


def _list_page(request: HttpRequest, *, everyone: bool, template: str, **extra: Any) -> Any:
    """The live list (``everyone``: the officer's), a page, or its CSV."""
    rating_list = rating_list_of(request)
    if wants_csv(request):
        return streamed_csv(
            pages.list_csv(
                query=request.GET, rating_list=rating_list, everyone=everyone, request=request
            ),
            pages.list_file(rating_list),
        )
    context = pages.rating_list_page(
        query=request.GET,
        rating_list=rating_list,
        club=club_of(request),
        everyone=everyone,
        request=request,
        extra=extra,
    )
    rows_for_print(context["table"])
    response = render(request, template, context)
    if context["last_count"]:
        # Its figures are the last count's, while they are counted again: this reader's
        # page alone, kept by no cache (``pages.lists.rating_list_page``).
        patch_cache_control(response, no_store=True)
    return response


def published_list(request: HttpRequest) -> HttpResponse | StreamingHttpResponse:
    """The latest publication, or the live list for a club that publishes continuously
    (``ClubSettings.live_list_only``) or has published nothing yet."""
    rating_list = rating_list_of(request)
    club = club_of(request)
    latest = pages.latest_publication(rating_list=rating_list, club=club)
    if latest is None:
        return live_list(request, latest=None)
    if wants_csv(request):
        filters = publications.publication_entries(publication=latest, query=request.GET)
        return streamed_csv(
            publications.publication_csv(entries=filters.qs),
            f"rating-list-published-{latest.slug}.csv",
        )
    context = pages.published_list(
        query=request.GET, rating_list=rating_list, club=club, request=request, latest=latest
    )
    rows_for_print(context["table"])
    return render(request, "ratings/public/publication.html", context)


def live_list(request: HttpRequest, latest: Any = False) -> HttpResponse:
    """The live list: today's ratings of today's published members, labelled as live."""
    if latest is False:
        latest = pages.latest_publication(
            rating_list=rating_list_of(request), club=club_of(request)
        )
    return _list_page(
        request,
        everyone=False,
        template="ratings/public/list.html",
        live=True,
        latest_publication=latest,
    )


@officer_required
def officer_list(request: HttpRequest) -> HttpResponse:
    """Everyone the engine rates, members in arrears and guests too, each marked."""
    return _list_page(request, everyone=True, template="ratings/officer/list.html")
