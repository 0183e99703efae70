"""An event's pages as data: the public page of players, the rating report, the crosstable,
and the officer's preview before rating it (and an event's figures waiting for its period).

Members whose ratings are not published (in arrears, guests) play and are rated like
everyone else: their names and points stay on every page, their ratings reach officers only;
unless the club keeps them off public pages: then the public reads each of them as an
"Unpublished player" (``kept_off``).
"""

from __future__ import annotations

from typing import Any, cast

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, F, Prefetch
from django.db.models.functions import ExtractIsoWeekDay

from .. import services
from ..engine import RatingSystem
from ..models import ClubSettings, Event, Member, RatingChange, RatingPeriod
from ..models.rating_lists import event_list_system
from ..presentation.tables import change_html
from ..rules import publication, tiebreaks
from ..words import figures
from . import crosstable as standings
from . import explain, reports
from .game_lines import event_breakdowns, period_event_breakdowns
from .kept_off import kept_off

Viewer = AbstractBaseUser | AnonymousUser


def published_players(event: Event) -> set[int]:
    """The players of ``event`` whose ratings the public may see (as on the published
    list): what ``publication.withhold_unpublished`` shows."""
    return Member.objects.filter(entries__event=event).published_pks()


# -- the rating rows: a saved change or a preview, one row a player ----------------------


def change_rows(changes: list[dict[str, Any]], *, system: RatingSystem) -> list[dict[str, Any]]:
    """Each player's change with the engine's game lines, names looked up in one query.

    ``changes`` are dicts with player (member pk), before, after, display_before,
    display_after and breakdown: a saved RatingChange or a preview, read alike. Every
    figure is here; what a reader may not see is taken out by ``publication``'s rule.
    """
    # By the ids the changes name (a game entered in the admin may have no entry behind it).
    ids = {int(change["player"]) for change in changes} | {
        int(opponent)
        for change in changes
        for line in change["breakdown"].get("games", [])
        if (opponent := str(line.get("opponent", ""))).isdigit()
    }
    names = Member.objects.in_bulk(ids)
    # Whether the report has an Expected column is the system's to say (acf-1993 expects
    # a score of a player's whole period against the average opponent, not of each game).
    has_expected = system.per_game_expected
    rows = []
    for change in changes:
        breakdown = change["breakdown"]
        lines = breakdown.get("games", [])
        # The system's own figures for each game (ecf-2020's offsets, a rule's name), as
        # columns of their own: what a player needs to check a game by hand.
        columns = explain.line_columns(lines, breakdown, system)
        games = []
        for line in lines:
            opponent = str(line.get("opponent", ""))
            games.append(
                {
                    **line,
                    "opponent": names.get(int(opponent)) if opponent.isdigit() else None,
                    "change": services.game_line_change(line=line),
                    "rated": line.get("rated", True),
                    "extra": [explain.line_text(key, line.get(key), system) for key in columns],
                    "extra_keys": columns,
                    # The opponent's rating as the system used it, where not the one
                    # they held (a rating held within a band): marked and explained.
                    "figure_used": system.opponent_figure(line),
                }
            )
        rated = [g for g in games if g["rated"]]
        has_change = any(g["change"] is not None for g in games)
        before, after = change["before"], change["after"]
        expected = [g.get("expected") for g in rated]
        rows.append(
            {
                "member": names.get(int(change["player"])),
                "before": change["display_before"],
                "after": change["display_after"],
                # Only between two ratings: "8 R → 1 R" (games still to play) is no change
                # of rating, whatever the engine's provisional figures did.
                "change": figures.shown_change(change["display_before"], change["display_after"])
                if before is not None and after is not None
                else None,
                "games": games,
                "columns": [explain.line_label(key, system) for key in columns],
                "has_expected": has_expected,
                "has_change": has_change,
                # Each reason a figure used differs from the one held, once.
                "figures_used": list(
                    dict.fromkeys(g["figure_used"].why for g in games if g["figure_used"])
                ),
                "width": 4 + len(columns) + has_expected + has_change,
                "detail": breakdown,
                "breakdown": explain.breakdown_items(breakdown, system),
                # Each item's key, so a figure that gives a withheld rating away is known
                # by it (``publication.withhold_unpublished``).
                "breakdown_keys": explain.breakdown_keys(breakdown, system),
                "played": len(rated),
                "score": sum(g["score"] for g in rated),
                "expected": (
                    sum(e for e in expected if e is not None)
                    if has_expected and rated and None not in expected
                    else None
                ),
            }
        )
    rows.sort(key=lambda r: (-r["score"], r["member"].name if r["member"] else ""))
    return rows


def preview_changes(result: Any) -> list[dict[str, Any]]:
    """An engine result's changes in the shape ``change_rows`` reads."""
    return [
        {
            "player": c.player,
            "before": c.before,
            "after": c.after,
            "display_before": c.display_before,
            "display_after": c.display_after,
            "breakdown": services.breakdown_read(services.breakdown_json(c)),
        }
        for c in (result.changes if result else [])
    ]


def saved_changes(event: Event, *, system: RatingSystem) -> list[dict[str, Any]]:
    """The event's saved rating changes in the shape ``change_rows`` reads."""
    # Read as plain dicts: a preview's changes come in the same shape.
    changes = cast(
        list[dict[str, Any]],
        list(
            event.rating_changes.values(
                "before",
                "after",
                "display_before",
                "display_after",
                "score",
                "breakdown",
                player=F("member_id"),
            )
        ),
    )
    # The lines as the page shows them: a period system's read with the event's games, a
    # per-event system's worked out again, in a few statements.
    derived = event_breakdowns(event=event, changes=changes, system=system)
    return [
        {**c, "breakdown": services.breakdown_read(derived.get(c["player"], c["breakdown"]))}
        for c in changes
    ]


def provisional_rows(
    *, event: Event, period: RatingPeriod | None, viewer: Viewer, is_rated: bool
) -> list[dict[str, Any]] | None:
    """A complete event waiting for its open rating period: the period's figures as it
    stands (the preview's computation), for officers only. None when nothing waits.

    They are not published: the public sees only that the event waits.
    """
    waiting = (
        event.rated
        and event.is_complete
        and not is_rated
        and period is not None
        and not period.is_closed
    )
    if not waiting or not publication.sees_every_rating(viewer):
        return None
    _rating_list, system = event_list_system(event)
    result, _scope = services.event_preview(event=event)
    rows = change_rows(preview_changes(result), system=system)
    publication.withhold_unpublished(rows, shown=published_players(event), user=viewer)
    return rows


# -- what an officer checks before rating ------------------------------------------------


def unplayed_pairs(event: Event) -> list[tuple[str, str]]:
    """A round robin's pairings with no game yet (every player meets every other): rated
    short of a game, its players' figures would not be the event's."""
    if event.kind != Event.Kind.ROUND_ROBIN:
        return []
    names = dict(event.entries.values_list("member_id", "member__name"))
    met = {
        frozenset(pair)
        for pair in event.games.filter(black__isnull=False).values_list("white_id", "black_id")
    }
    players = sorted(names, key=lambda pk: names[pk])
    return [
        (names[a], names[b])
        for i, a in enumerate(players)
        for b in players[i + 1 :]
        if frozenset((a, b)) not in met
    ]


def missing_rounds(event: Event) -> list[int]:
    """The rounds with no result entered yet."""
    have = set(event.games.values_list("round", flat=True).distinct())
    return [n for n in range(1, event.rounds + 1) if n not in have]


def complete_preview(*, event: Event) -> dict[str, Any]:
    """The officer's page before completing an event: each player's change as rating it
    would make it, what else it re-rates, and what is missing from its results."""
    rating_list, system = event_list_system(event)
    period = services.period_for(event, system, rating_list)
    result, scope = services.event_preview(event=event) if event.rated else (None, None)
    rows = change_rows(preview_changes(result), system=system)
    # A period system re-rates the event's whole period: its events dated before this one
    # are rated anew with it, not "later" ones.
    key = services.rating_key(event)
    later = sum(1 for e in scope.events if services.rating_key(e) > key) if scope else 0
    return {
        "event": event,
        "rows": rows,
        "scope": scope,
        "later": later,
        "same_period": (scope.count - later) if scope else 0,
        "period": period,
        "system": system,
        # The markers the rows carry ("4 R", "Unr"), read as the list's legend reads them.
        "legend": reports.legend(system),
        "missing_rounds": missing_rounds(event),
        "unplayed_pairs": unplayed_pairs(event),
    }


# -- a period system's change: the period's, and this event's part of it -----------------


def period_parts(
    *, event: Event, system: RatingSystem, members: list[int]
) -> tuple[list[Event], dict[int, dict[str, Any]]]:
    """For a period system, whose change is the whole period's and stored alike on each of
    its events: the period's events (in the order rated), and for each of ``members`` this
    event's part of the change (``share``, None where the system's change has no part an
    event's) and every part, event by event (``parts``: event, share, whether it is this
    one). Nothing for a per-event system."""
    if not system.period_based or not members:
        return [], {}
    events, breakdowns = period_event_breakdowns(event=event, members=members)
    out: dict[int, dict[str, Any]] = {}
    for member, by_event in breakdowns.items():
        parts = [
            {
                "event": other,
                "share": system.event_share(detail, detail.get("games", [])),
                "this": other.pk == event.pk,
            }
            for other in events
            if (detail := by_event.get(other.pk)) is not None
        ]
        share = next((part["share"] for part in parts if part["this"]), None)
        out[member] = {"share": share, "parts": parts}
    return events, out


# -- the public pages --------------------------------------------------------------------


def event_report(
    *, event: Event, viewer: Viewer, club: ClubSettings | None = None
) -> dict[str, Any]:
    """The event's rating report: each player's change and working, by points; for an
    event waiting for its rating period, the period's figures so far (officers only)."""
    rating_list, system = event_list_system(event, club)
    changes = saved_changes(event, system=system)
    rows = change_rows(changes, system=system)
    publication.withhold_unpublished(rows, shown=published_players(event), user=viewer)
    points, _games = standings.event_scores(event)
    for row in rows:
        row["points"] = points.get(row["member"].pk, 0) if row["member"] else 0
    rows.sort(key=lambda r: -r["points"])  # stable: ties stay in rated-score order
    # Period systems store the whole period's change on each of its events: say so, and
    # give this event's part of it beside the period's, or a reader takes the period's
    # change for the event's (and adds it up once an event).
    whole_period = (
        services.period_for(event, system, rating_list)
        if changes and system.period_based
        else None
    )
    period_events, parts = period_parts(
        event=event, system=system, members=[row["member"].pk for row in rows if row["member"]]
    )
    for row in rows:
        _read_parts(row, parts.get(row["member"].pk) if row["member"] else None)
    _keep_off(rows, viewer=viewer, club=club)
    period = None
    provisional = None
    if not changes and event.rated and event.is_complete:
        period = services.period_for(event, system, rating_list)
        provisional = provisional_rows(event=event, period=period, viewer=viewer, is_rated=False)
        for row in provisional or []:
            row["points"] = points.get(row["member"].pk, 0) if row["member"] else 0
        if provisional:
            provisional.sort(key=lambda r: -r["points"])
    return {
        "event": event,
        "rows": rows,
        "period": period,
        "system": system,
        "provisional": provisional,
        "whole_period": whole_period,
        "period_events": period_events,
        "has_expected": system.per_game_expected,
        "legend": reports.legend(system) if system.legend_on_report else None,
    }


def _read_parts(row: dict[str, Any], found: dict[str, Any] | None) -> None:
    """A row's part of its period's change, as the pages show it (``period_parts``)."""
    found = found or {"share": None, "parts": []}
    row["share"] = found["share"]
    row["share_text"] = figures.signed_part(found["share"])
    row["parts"] = [
        {**part, "text": figures.signed_part(part["share"])} for part in found["parts"]
    ]
    # The parts add up to the period's change where each event has one (the system rounds
    # their sum once): said so only then.
    row["parts_add_up"] = bool(found["parts"]) and all(
        part["share"] is not None for part in found["parts"]
    )


def _keep_off(rows: list[dict[str, Any]], *, viewer: Viewer, club: ClubSettings | None) -> None:
    """The report's rows with the players the club keeps off public pages (and they as
    opponents on a game line) read as "Unpublished player" (``kept_off``)."""
    players = {row["member"].pk for row in rows if row["member"]} | {
        game["opponent"].pk for row in rows for game in row["games"] if game["opponent"]
    }
    hidden = kept_off(players, viewer=viewer, club=club)
    if not hidden:
        return
    for row in rows:
        row["member"] = publication.as_shown(row["member"], hidden)
        for game in row["games"]:
            game["opponent"] = publication.as_shown(game["opponent"], hidden)


def event_crosstable(
    *, event: Event, viewer: Viewer, club: ClubSettings | None = None
) -> dict[str, Any]:
    """The crosstable's rows as the page (and its CSV) shows them to this reader: the
    players by points, then by the event's tie-breaks, each tie-break a column."""
    officer = publication.sees_every_rating(viewer)
    games = list(event.games.all())
    players = list(
        standings.event_players_of(event, games).prefetch_related(
            Prefetch("rating_changes", queryset=RatingChange.objects.filter(event=event))
        )
    )
    # Members in arrears and guests are named (they played) but their ratings withheld.
    # An officer sees them all, the unpublished ones marked.
    shown = published_players(event)
    changes = {m.pk: next(iter(m.rating_changes.all()), None) for m in players}
    unpublished = {pk for pk, change in changes.items() if change and pk not in shown}
    hidden = set() if officer else unpublished
    # The average rating of opponents reads only the ratings this reader may see.
    ratings = {pk: change.before for pk, change in changes.items() if change and pk not in hidden}
    standing = standings.event_standing(event, players, games, ratings=ratings)
    by_pk = {m.pk: m for m in players}
    players = [by_pk[pk] for pk in standing.order]
    cells = standings.crosstable_cells(players, games, event)
    codes = event.tie_break_codes
    kept = kept_off([member.pk for member in players], viewer=viewer, club=club)
    rows = []
    for place, (member, row_cells) in enumerate(zip(players, cells, strict=True), start=1):
        change = changes[member.pk]
        rows.append(
            {
                "place": place,
                "member": publication.as_shown(member, kept),
                "points": standing.points.get(member.pk, 0),
                "rating": change.display_after if change and member.pk not in hidden else "",
                "hidden": member.pk in hidden,
                "unpublished": member.pk in unpublished and officer,
                "cells": row_cells,
                "tie_breaks": [
                    standings.tie_break_figure(code, standing.figures[code].get(member.pk))
                    for code in codes
                ],
            }
        )
    grid = standings.is_grid(event)
    return {
        "event": event,
        "rows": rows,
        "grid": grid,
        "columns": range(1, (len(players) if grid else event.rounds) + 1),
        "tie_breaks": [
            {"code": code, "head": tiebreaks.HEADS[code], "name": tiebreaks.NAMES[code]}
            for code in codes
        ],
    }


def event_players(
    *, event: Event, viewer: Viewer, club: ClubSettings | None = None
) -> dict[str, Any]:
    """The event's page: the players by place, each with score and games; ratings and
    changes for the published players (an officer: everyone's, the unpublished marked).

    The places are the crosstable's, from the same standing (``event_standing``): by
    points, then the event's tie-breaks; those level on all of them share a place ("2=")
    and are listed by name. The games are read once, for the scores and the standing."""
    shown = published_players(event)
    officer = publication.sees_every_rating(viewer)
    changes = {c.member_id: c for c in event.rating_changes.all()}
    read = list(event.games.all())
    points, games = standings.event_scores(event, read)
    players_of = {m.pk: m for m in standings.event_players_of(event, read)}
    # The average rating of opponents reads only the ratings this reader may see, as on
    # the crosstable.
    ratings = {pk: c.before for pk, c in changes.items() if officer or pk in shown}
    standing = standings.event_standing(event, list(players_of.values()), read, ratings=ratings)
    members = [players_of[pk] for pk in standing.order]
    kept = kept_off([member.pk for member in members], viewer=viewer, club=club)
    _rating_list, system = event_list_system(event, club)
    period_events, parts = period_parts(
        event=event, system=system, members=[pk for pk, c in changes.items()]
    )
    players = []
    for member in members:
        place = standing.places[member.pk]
        change = changes.get(member.pk)
        published = member.pk in shown
        visible = change is not None and (officer or published)
        moved = (
            figures.shown_change(change.display_before, change.display_after)
            if visible and change
            else None
        )
        players.append(
            {
                "member": publication.as_shown(member, kept),
                "place": place,
                "points": points[member.pk],
                "games": games[member.pk],
                "change": change if visible else None,
                "shown_change": moved,
                "change_html": change_html(moved),
                "rated": change,
                "published": published,
                "unpublished": change is not None and not published,
            }
        )
        _read_parts(players[-1], parts.get(member.pk) if visible else None)
    period = (
        services.period_for(event, system, _rating_list) if changes and period_events else None
    )
    return {
        "event": event,
        "players": players,
        "has_ratings": bool(changes),
        # The page's note that some ratings are not published, said only where one is not.
        "ratings_withheld": any(row["unpublished"] for row in players),
        # A period system's: the rating period whose change each row's rating is.
        "whole_period": period,
        "period_events": period_events,
    }


def usual_kinds() -> tuple[dict[int, str], str]:
    """The club's habit, the new event form's default kind: the kind it records most on
    each day of the week (1 Monday … 7 Sunday), and the kind it records most of all
    (club nights on Tuesdays, a round robin at the weekend). A tie goes to the kind first
    in the menu. One query, counting the kinds by day, never the events one by one."""
    order = {kind: i for i, kind in enumerate(Event.Kind.values)}
    counted = (
        Event.objects.annotate(day=ExtractIsoWeekDay("start_date"))
        .values_list("day", "kind")
        .annotate(n=Count("pk"))
        .order_by()
    )
    by_day: dict[int, dict[str, int]] = {}
    overall: dict[str, int] = {}
    for day, kind, n in counted:
        by_day.setdefault(day, {})[kind] = n
        overall[kind] = overall.get(kind, 0) + n

    def most(counts: dict[str, int]) -> str:
        return min(counts, key=lambda kind: (-counts[kind], order.get(kind, len(order))))

    usual = most(overall) if overall else Event.Kind.CLUB_NIGHT
    return {day: most(counts) for day, counts in by_day.items()}, usual
