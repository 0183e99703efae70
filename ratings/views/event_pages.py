"""What members read about an event: its page, its rating report and its crosstable.

Members whose ratings are not published (arrears, guests) play and are rated like
everyone else; these pages withhold their ratings from the public.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from django.db.models import (
    Prefetch,
)
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from .. import publication, services
from ..models import (
    ClubSettings,
    Event,
    Game,
    Member,
    RatingChange,
)
from ..tables import (
    change_html,
)
from .common import is_officer, withhold_unpublished
from .officer_rating import change_rows, provisional_rows, saved_changes

# -- reports (public) -------------------------------------------------------------------


def event_report(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    changes = saved_changes(event)
    rows = change_rows(changes, event)
    withhold_unpublished(request, rows, event)
    points = _points(event)
    for row in rows:
        row["points"] = points.get(row["member"].pk, 0) if row["member"] else 0
    rows.sort(key=lambda r: -r["points"])  # stable: ties stay in rated-score order
    system = ClubSettings.load().engine()
    period = None
    provisional = None
    if not changes and event.rated and event.is_complete:
        period = services.period_for(event, system)
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
        },
    )


def _points(event: Event) -> dict[int, float]:
    points: dict[int, float] = defaultdict(float)
    for white, black, result in event.games.values_list("white_id", "black_id", "result"):
        w, b = Game.POINTS[result]
        points[white] += w
        if black is not None:
            points[black] += b
    return points


def event_crosstable(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    players = list(
        Member.objects.filter(entries__event=event).prefetch_related(
            Prefetch("rating_changes", queryset=RatingChange.objects.filter(event=event))
        )
    )
    games = list(event.games.all())
    points = _points(event)
    players.sort(key=lambda m: (-points.get(m.pk, 0), m.name))
    place = {m.pk: i for i, m in enumerate(players, start=1)}
    # Members in arrears and guests are named (they played) but their ratings withheld.
    # An officer sees them all, the unpublished ones marked.
    officer = is_officer(request)
    shown = publication.published_players(event)
    rows = []
    for member in players:
        change = next(iter(member.rating_changes.all()), None)
        unpublished = change is not None and member.pk not in shown
        hidden = unpublished and not officer
        rows.append(
            {
                "place": place[member.pk],
                "member": member,
                "points": points.get(member.pk, 0),
                "rating": change.display_after if change and not hidden else "",
                "hidden": hidden,
                "unpublished": unpublished and officer,
                "cells": [],
            }
        )
    by_player: dict[int, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    for game in games:
        w, b = (_mark(p, game.result) for p in Game.POINTS[game.result])
        if game.black_id is None:
            by_player[game.white_id][-game.round].append(_bye(game.result))
            continue
        forfeit = game.result not in Game.PLAYED
        by_player[game.white_id][game.black_id].append(w + ("f" if forfeit else ""))
        by_player[game.black_id][game.white_id].append(b + ("f" if forfeit else ""))
        by_player[game.white_id][-game.round].append(
            f"{place[game.black_id]}w{w}{'f' if forfeit else ''}"
        )
        by_player[game.black_id][-game.round].append(
            f"{place[game.white_id]}b{b}{'f' if forfeit else ''}"
        )
    grid = event.kind == Event.Kind.ROUND_ROBIN
    for row in rows:
        cells = by_player[row["member"].pk]
        if grid:
            row["cells"] = [
                "×" if m.pk == row["member"].pk else " ".join(cells.get(m.pk, [])) for m in players
            ]
        else:
            row["cells"] = [" ".join(cells.get(-n, [])) for n in range(1, event.rounds + 1)]
    return render(
        request,
        "ratings/officer/crosstable.html",
        {
            "event": event,
            "rows": rows,
            "grid": grid,
            "columns": range(1, (len(players) if grid else event.rounds) + 1),
        },
    )


def _mark(points: float, result: str) -> str:
    return {1.0: "1", 0.5: "½", 0.0: "0"}[points]


def _bye(result: str) -> str:
    return {"bye": "bye 1", "half-bye": "bye ½", "zero-bye": "–"}[result]


def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The players by place (points from the games, then name), each with score and games;
    ratings and changes for the published players (an officer: everyone, marked)."""
    event = get_object_or_404(Event, pk=pk)
    shown = publication.published_players(event)
    officer = is_officer(request)
    changes = {c.member_id: c for c in event.rating_changes.all()}
    points: dict[int, float] = defaultdict(float)
    games: dict[int, int] = defaultdict(int)
    for white, black, result in event.games.values_list("white_id", "black_id", "result"):
        white_points, black_points = Game.POINTS[result]
        points[white] += white_points
        games[white] += 1
        if black is not None:
            points[black] += black_points
            games[black] += 1
    members = sorted(
        Member.objects.filter(entries__event=event), key=lambda m: (-points[m.pk], m.name)
    )
    sharing = Counter(points[m.pk] for m in members)
    players = []
    place = 0
    for index, member in enumerate(members, start=1):
        if index == 1 or points[member.pk] != points[members[index - 2].pk]:
            place = index  # players on the same points share the first of their places
        change = changes.get(member.pk)
        published = member.pk in shown
        visible = change is not None and (officer or published)
        players.append(
            {
                "member": member,
                "place": f"{place}=" if sharing[points[member.pk]] > 1 else str(place),
                "points": points[member.pk],
                "games": games[member.pk],
                "change": change if visible else None,
                "change_html": change_html(change.change) if visible and change else "",
                "rated": change,
                "unpublished": change is not None and not published,
            }
        )
    return render(
        request,
        "ratings/public/event.html",
        {"event": event, "players": players, "has_ratings": bool(changes)},
    )
