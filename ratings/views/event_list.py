"""Every event, for the public: searched by name, 50 a page, newest first."""

from __future__ import annotations

from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.db.models import Count, Exists, OuterRef
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from ..context_processors import rating_lists_kept
from ..models import Event, RatingChange
from ..pages.calendar import club_calendar
from ..rules.rating_lists import list_name
from .common import club_of

EVENTS_PER_PAGE = 50


def event_list(request: HttpRequest) -> HttpResponse:
    """Every event recorded (not only the recently rated), with how far it has got. The
    page reads its 50 events with their player counts: the same queries however many."""
    query = request.GET.get("q", "").strip()
    events = Event.objects.order_by("-end_date", "-start_date", "-pk")
    if query:
        events = events.filter(name__icontains=query)
    page = Paginator(events.values_list("pk", flat=True), EVENTS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    ids = list(page.object_list)
    rows = (
        Event.objects.filter(pk__in=ids)
        .annotate(
            player_count=Count("entries"),
            has_ratings=Exists(RatingChange.objects.filter(event=OuterRef("pk"))),
        )
        .in_bulk()
    )
    return render(
        request,
        "ratings/public/events.html",
        {
            "events": [rows[pk] for pk in ids],
            "page": page,
            "page_range": page.paginator.get_elided_page_range(page.number),
            "query": query,
            "keep": f"{urlencode({'q': query})}&" if query else "",
            "today": timezone.localdate(),
            "calendars": [
                (list_name(kept), f"?list={kept}") for kept in rating_lists_kept(request)
            ]
            if len(rating_lists_kept(request)) > 1
            else [],
        },
    )


def events_calendar(request: HttpRequest) -> HttpResponse:
    """The club's calendar as an iCalendar feed (``/events.ics``; ``?list=rapid``: the
    events one list rates) for a calendar program to subscribe to. Not kept in the public
    pages' cache: its entries carry the site's address as this request reached it."""
    wanted = request.GET.get("list")
    body = club_calendar(
        club=club_of(request),
        site=request.build_absolute_uri("/"),
        host=request.get_host().split(":")[0],
        rating_list=wanted if wanted in rating_lists_kept(request) else None,
    )
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="events.ics"'
    return response
