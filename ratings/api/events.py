"""Events with their results and rating changes; ratings of unpublished players withheld,
as the event's page withholds them (their names and points stay: they played, unless the
club keeps them off public pages: then they are "Unpublished player", with no number)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Query, Router, Schema
from pydantic import BeforeValidator

from ..models import Event
from ..pages import events as event_pages
from . import schemas
from .caching import cacheable
from .paging import Paging, page_of

router = Router(tags=["events"])


def _iso_day(value: Any) -> Any:
    """A date as the description says, YYYY-MM-DD: not a number read as seconds since 1970
    (pydantic's lax reading of "0")."""
    if isinstance(value, str) and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise ValueError("a date is written YYYY-MM-DD")
    return value


IsoDate = Annotated[dt.date, BeforeValidator(_iso_day)]


class EventFilters(Schema):
    name: str | None = None
    time_class: Literal["standard", "rapid", "blitz"] | None = None
    since: IsoDate | None = None
    until: IsoDate | None = None


def _summary(request: HttpRequest, event: Event) -> dict[str, Any]:
    return {
        "id": event.pk,
        "name": event.name,
        "kind": event.kind,
        "start_date": event.start_date,
        "end_date": event.end_date,
        "rounds": event.rounds,
        "time_control": event.time_control,
        "time_class": event.time_class,
        "status": event.status,
        "rated": event.rated,
        "online": event.online,
        "url": request.build_absolute_uri(event.get_absolute_url()),
    }


@router.get("/events", response=schemas.EventIndex, summary="Events, newest first")
@cacheable
def event_index(
    request: HttpRequest, filters: Query[EventFilters], paging: Query[Paging]
) -> dict[str, Any]:
    """Every event, newest first; ``name`` matches part of the name, ``since`` and
    ``until`` bound the end date."""
    events = Event.objects.order_by("-end_date", "-start_date", "-pk")
    if filters.name:
        events = events.filter(name__icontains=filters.name)
    if filters.time_class:
        events = events.filter(time_class=filters.time_class)
    if filters.since:
        events = events.filter(end_date__gte=filters.since)
    if filters.until:
        events = events.filter(end_date__lte=filters.until)
    rows, place = page_of(events, paging)
    return {**place, "results": [_summary(request, event) for event in rows]}


@router.get(
    "/events/{int:pk}",
    response={200: schemas.EventDetail, 404: schemas.Problem},
    summary="An event: results and rating changes",
)
@cacheable
def event_detail(request: HttpRequest, pk: int) -> dict[str, Any]:
    """The players by place (points, then name), as the event's page lists them, and the
    games by round."""
    event = get_object_or_404(Event, pk=pk)
    # The event's page as the public reads it, whoever asks: the answer is cached for all.
    page = event_pages.event_players(event=event, viewer=AnonymousUser())
    # The members the club keeps off public pages, whose numbers the games must not name.
    numbers = {p["member"].pk: p["member"].member_number or None for p in page["players"]}
    players = [
        {
            "place": player["place"],
            "member": player["member"].member_number or None,
            "name": player["member"].name,
            "points": player["points"],
            "games": player["games"],
            "published": player["published"],
            "rating_before": player["change"].display_before if player["change"] else None,
            "rating_after": player["change"].display_after if player["change"] else None,
            "change": player["shown_change"],
        }
        for player in page["players"]
    ]
    games = list(event.games.select_related("white", "black").order_by("round", "board", "pk"))
    return {
        **_summary(request, event),
        "players": players,
        "games": [
            {
                "round": game.round,
                "board": game.board,
                "white": numbers.get(game.white_id, game.white.member_number),
                "black": numbers.get(game.black_id, game.black.member_number)
                if game.black
                else None,
                "result": game.result,
            }
            for game in games
        ],
    }


__all__ = ["page_of", "router"]
