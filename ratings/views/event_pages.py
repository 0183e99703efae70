"""What members read about an event: its page, its rating report and its crosstable.

The pages' content is ``ratings.pages.events``' (the publication rule applied there);
these views find the event and render it.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from ..models import Event
from ..pages import events as pages
from .common import club_of


def event_report(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    return render(
        request,
        "ratings/public/event_report.html",
        pages.event_report(event=event, viewer=request.user, club=club_of(request)),
    )


def event_crosstable(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    return render(
        request,
        "ratings/public/event_crosstable.html",
        pages.event_crosstable(event=event, viewer=request.user, club=club_of(request)),
    )


def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    return render(
        request,
        "ratings/public/event.html",
        pages.event_players(event=event, viewer=request.user, club=club_of(request)),
    )
