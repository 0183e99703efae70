"""What members read about an event: its page, its rating report and its crosstable.

Members whose ratings are not published (arrears, guests) play and are rated like
everyone else; these pages withhold their ratings from the public.
"""

from __future__ import annotations

from typing import Any

from django.db.models import (
    Prefetch,
)
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from .. import crosstable, figures, publication, reports, services
from ..models import (
    Event,
    Member,
    RatingChange,
)
from ..rating_lists import event_list_system
from ..tables import (
    change_html,
)
from .common import club_of, is_officer, withhold_unpublished
from .officer_rating import change_rows, provisional_rows, saved_changes

# -- reports (public) -------------------------------------------------------------------


def event_report(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    rating_list, system = event_list_system(event, club_of(request))
    changes = saved_changes(event, system=system)
    rows = change_rows(changes)
    withhold_unpublished(request, rows, event)
    points, _games = crosstable.event_scores(event)
    for row in rows:
        row["points"] = points.get(row["member"].pk, 0) if row["member"] else 0
    rows.sort(key=lambda r: -r["points"])  # stable: ties stay in rated-score order
    period = None
    provisional = None
    # Period systems store the whole period's change on each of its events: say so,
    # or a reader adds the period's change up once an event.
    whole_period = (
        services.period_for(event, system, rating_list)
        if changes and system.period_based
        else None
    )
    if not changes and event.rated and event.is_complete:
        period = services.period_for(event, system, rating_list)
        provisional = provisional_rows(request, event, period, is_rated=False)
        for row in provisional or []:
            row["points"] = points.get(row["member"].pk, 0) if row["member"] else 0
        if provisional:
            provisional.sort(key=lambda r: -r["points"])
    return render(
        request,
        "ratings/officer/report.html",
        {
            "event": event,
            "rows": rows,
            "period": period,
            "system": system,
            "provisional": provisional,
            "whole_period": whole_period,
            "legend": reports.legend(system) if system.legend_on_report else None,
        },
    )


def event_crosstable(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    return render(
        request,
        "ratings/officer/crosstable.html",
        crosstable_rows(event, officer=is_officer(request)),
    )


def crosstable_rows(event: Event, *, officer: bool) -> dict[str, Any]:
    """The crosstable's rows as the page (and its CSV) shows them to this reader."""
    players = list(
        Member.objects.filter(entries__event=event).prefetch_related(
            Prefetch("rating_changes", queryset=RatingChange.objects.filter(event=event))
        )
    )
    points, _games = crosstable.event_scores(event)
    players = crosstable.by_points(players, points)
    cells = crosstable.crosstable_cells(players, event.games.all(), event)
    # Members in arrears and guests are named (they played) but their ratings withheld.
    # An officer sees them all, the unpublished ones marked.
    shown = publication.published_players(event)
    rows = []
    for place, (member, row_cells) in enumerate(zip(players, cells, strict=True), start=1):
        change = next(iter(member.rating_changes.all()), None)
        unpublished = change is not None and member.pk not in shown
        hidden = unpublished and not officer
        rows.append(
            {
                "place": place,
                "member": member,
                "points": points.get(member.pk, 0),
                "rating": change.display_after if change and not hidden else "",
                "hidden": hidden,
                "unpublished": unpublished and officer,
                "cells": row_cells,
            }
        )
    grid = crosstable.is_grid(event)
    return {
        "event": event,
        "rows": rows,
        "grid": grid,
        "columns": range(1, (len(players) if grid else event.rounds) + 1),
    }


def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The players by place (points from the games, then name), each with score and games;
    ratings and changes for the published players (an officer: everyone, marked)."""
    event = get_object_or_404(Event, pk=pk)
    shown = publication.published_players(event)
    officer = is_officer(request)
    changes = {c.member_id: c for c in event.rating_changes.all()}
    points, games = crosstable.event_scores(event)
    members = crosstable.by_points(Member.objects.filter(entries__event=event), points)
    players = []
    for member, place in zip(members, crosstable.shared_places(members, points), strict=True):
        change = changes.get(member.pk)
        published = member.pk in shown
        visible = change is not None and (officer or published)
        players.append(
            {
                "member": member,
                "place": place,
                "points": points[member.pk],
                "games": games[member.pk],
                "change": change if visible else None,
                "change_html": change_html(
                    figures.shown_change(change.display_before, change.display_after)
                )
                if visible and change
                else "",
                "rated": change,
                "unpublished": change is not None and not published,
            }
        )
    return render(
        request,
        "ratings/public/event.html",
        {"event": event, "players": players, "has_ratings": bool(changes)},
    )
