"""Rating an event (preview and completion) and closing rating periods."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.db.models import (
    Count,
    F,
)
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from .. import explain, figures, services
from ..counts import count_phrase
from ..engine import RatingSystem
from ..forms.publications import PublicationNoteForm
from ..models import (
    ClubSettings,
    Event,
    Member,
    RatingPeriod,
    RatingRun,
    rules,
)
from ..rating_lists import classes_of, event_list_system, list_query
from ..time_classes import STANDARD
from .common import officer_required, rating_list_of, withhold_unpublished

# -- rating -----------------------------------------------------------------------------


@officer_required
def event_complete(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    rating_list, system = event_list_system(event)
    period = services.period_for(event, system, rating_list)
    if problem := rules.complete_problem(event):
        messages.error(request, problem)
        return redirect("ratings:officer-event", pk=event.pk)
    if request.method == "POST":
        run = services.event_complete(event=event, user=request.user)
        if run is not None and run.status != RatingRun.Status.DONE:
            messages.info(request, f"{event.name} is complete: rating it in the background.")
            return redirect("ratings:run", pk=run.pk)
        if run is not None:
            messages.success(
                request,
                f"{event.name} rated ({count_phrase(run.games_rated, 'game')}; "
                f"{count_phrase(run.events_rated, 'event')} rated in all).",
            )
            return redirect("ratings:event-report", pk=event.pk)
        if event.rated and period is not None:
            messages.info(
                request,
                f"{event.name} is complete. Its games wait for rating period {period.name}.",
            )
        else:
            messages.success(request, f"{event.name} is complete.")
        return redirect("ratings:officer-event", pk=event.pk)
    result, scope = services.event_preview(event=event) if event.rated else (None, None)
    rows = change_rows(preview_changes(result))
    # A period system re-rates the event's whole period: its events dated before this one
    # are rated anew with it, not "later" ones.
    key = services.rating_key(event)
    later = sum(1 for e in scope.events if services.rating_key(e) > key) if scope else 0
    return render(
        request,
        "ratings/officer/complete.html",
        {
            "event": event,
            "rows": rows,
            "scope": scope,
            "later": later,
            "same_period": (scope.count - later) if scope else 0,
            "period": period,
            "system": system,
            "missing_rounds": missing_rounds(event),
            "unplayed_pairs": unplayed_pairs(event),
        },
    )


def rerated(run: RatingRun | None, joiner: str) -> str:
    """What saving re-rated, to end the officer's message ("" when it re-rated nothing)."""
    if run is None:
        return ""
    if run.status == RatingRun.Status.DONE:
        return f"{joiner}re-rated {count_phrase(run.events_rated, 'event')}"
    return f"{joiner}re-rating in the background"


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
    have = set(event.games.values_list("round", flat=True).distinct())
    return [n for n in range(1, event.rounds + 1) if n not in have]


def change_rows(changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each player's change with the engine's game lines, names looked up in one query.

    ``changes`` are dicts with player (member pk), before, after, display_before,
    display_after and breakdown: a saved RatingChange or a preview, read alike.
    """
    # By the ids the changes name (a game entered in the admin may have no entry behind it).
    ids = {int(change["player"]) for change in changes} | {
        int(opponent)
        for change in changes
        for line in change["breakdown"].get("games", [])
        if (opponent := str(line.get("opponent", ""))).isdigit()
    }
    names = Member.objects.in_bulk(ids)
    rows = []
    for change in changes:
        breakdown = change["breakdown"]
        lines = breakdown.get("games", [])
        # The system's own figures for each game (ecf-2020's offsets, a rule's name), as
        # columns of their own: what a player needs to check a game by hand.
        columns = explain.line_columns(lines, breakdown)
        games = []
        for line in lines:
            opponent = str(line.get("opponent", ""))
            games.append(
                {
                    **line,
                    "opponent": names.get(int(opponent)) if opponent.isdigit() else None,
                    "change": services.game_line_change(line=line),
                    "rated": line.get("rated", True),
                    "extra": [explain.line_text(key, line.get(key)) for key in columns],
                }
            )
        rated = [g for g in games if g["rated"]]
        # acf-1993 has neither a game's expected score nor its own change
        has_expected = any(g.get("expected") is not None for g in games)
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
                "columns": [explain.line_label(key) for key in columns],
                "has_expected": has_expected,
                "has_change": has_change,
                "width": 4 + len(columns) + has_expected + has_change,
                "detail": breakdown,
                "breakdown": explain.breakdown_items(breakdown),
                "played": len(rated),
                "score": sum(g["score"] for g in rated),
                "expected": (
                    sum(e for e in expected if e is not None)
                    if rated and None not in expected
                    else None
                ),
            }
        )
    rows.sort(key=lambda r: (-r["score"], r["member"].name if r["member"] else ""))
    return rows


def preview_changes(result) -> list[dict[str, Any]]:
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
    changes = list(
        event.rating_changes.values(
            "before",
            "after",
            "display_before",
            "display_after",
            "score",
            "breakdown",
            player=F("member_id"),
        )
    )
    # The lines as the page shows them: a period system's read with the event's games, a
    # per-event system's worked out again, in a few statements.
    derived = services.event_breakdowns(event=event, changes=changes, system=system)
    return [
        {**c, "breakdown": services.breakdown_read(derived.get(c["player"], c["breakdown"]))}
        for c in changes
    ]


@officer_required
def period_list(request: HttpRequest) -> HttpResponse:
    rating_list = rating_list_of(request)
    system = ClubSettings.load().engine(rating_list)
    periods: dict[str, dict[str, Any]] = {}
    if system.period_based:
        for period in RatingPeriod.objects.of_list(system, rating_list):
            periods[period.label] = {"period": period, "events": []}
        events = Event.objects.filter(rated=True, time_class__in=classes_of(rating_list)).exclude(
            status=Event.Status.DRAFT
        )
        for period in RatingPeriod.objects.of_events(
            events, system=system, time_class=rating_list
        ):
            periods.setdefault(period.label, {"period": period, "events": []})
        for event in events.annotate(player_count=Count("entries")).in_rating_order():
            label = system.period_of(event.end_date)
            periods[label]["events"].append(event)
    rows = sorted(periods.values(), key=lambda p: p["period"].start, reverse=True)
    return render(
        request,
        "ratings/officer/periods.html",
        {"system": system, "periods": rows, "rating_list": rating_list},
    )


@officer_required
def period_close(request: HttpRequest, label: str) -> HttpResponse:
    rating_list = rating_list_of(request)
    system = ClubSettings.load().engine(rating_list)
    if not system.period_based:
        raise Http404("The club's rating system does not rate by period.")
    try:
        period = RatingPeriod.objects.labelled(label, system=system, time_class=rating_list)
    except (ValueError, KeyError, NotImplementedError) as error:
        raise Http404("No such rating period.") from error
    periods_page = reverse("ratings:officer-periods") + list_query(rating_list)
    if period.is_closed:
        messages.info(request, f"Rating period {period.name} is closed already.")
        return redirect(periods_page)
    events = period.events().filter(rated=True, status=Event.Status.COMPLETE)
    problem = services.period_close_problem(period=period, system=system)
    note = f"Rating period {period.name} closed."
    data = None
    if request.method == "POST":
        data = request.POST.copy()
        data.setdefault("note", note)  # a confirmation without the box: the usual note
    note_form = PublicationNoteForm(data, initial={"note": note})
    if request.method == "POST" and problem is None and note_form.is_valid():
        try:
            run = services.period_close(period=period, user=request.user)
        except services.PeriodRefused as refusal:  # closed or rated meanwhile
            messages.error(request, str(refusal))
            return redirect(periods_page)
        if run.status != RatingRun.Status.DONE:
            messages.info(
                request,
                f"Rating period {period.name} closed: rating its events in the background; "
                "publish the list (Publish, above) once the run has finished.",
            )
            return redirect("ratings:run", pk=run.pk)
        rated = (
            f"Rating period {period.name} closed: {count_phrase(run.events_rated, 'event')} rated"
        )
        try:
            # The one confirmation closes and publishes: the list the period leaves,
            # with the officer's note.
            publication = services.list_publish(
                note=note_form.cleaned_data["note"],
                user=request.user,
                period=RatingPeriod.objects.get(pk=period.pk),
                time_class=rating_list,
            )
        except services.PublishRefused as refusal:  # another re-rate started meanwhile
            messages.warning(request, f"{rated}, but the list is not published: {refusal}")
            publish = f"{reverse('ratings:officer-publish')}?period={label}"
            return redirect(publish + (f"&list={rating_list}" if rating_list != STANDARD else ""))
        messages.success(
            request,
            f"{rated}, and the list published: {count_phrase(publication.size, 'member')}, "
            f"dated {publication.day:%-d %b %Y}.",
        )
        return redirect(publication)
    # The events rated anew besides the period's own: those of later closed periods.
    scope = services.rerate_scope(
        start=(period.start, period.start, 0), system=system, time_class=rating_list
    )
    events = list(events)
    # Rated in this request, the period is published with it; a re-rate too long to wait
    # for goes to the background, and the button says the list is published after.
    limit = getattr(settings, "RERATE_FOREGROUND_SECONDS", 2.0)
    first = events[0] if events else (period.start, period.start, 0)
    in_background = services.rerate_estimate(start=first, time_class=rating_list) > limit
    return render(
        request,
        "ratings/officer/period_close.html",
        {
            "period": period,
            "events": events,
            "later": scope.count,
            "note_form": note_form,
            "in_background": in_background,
            "problem": problem,
            "warning": services.period_close_warning(period=period),
            "rating_list": rating_list,
        },
        status=409 if problem and request.method == "POST" else 200,
    )


def provisional_rows(
    request: HttpRequest, event: Event, period: RatingPeriod | None, *, is_rated: bool
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
    if not waiting or not request.user.has_perm("ratings.officer"):
        return None
    result, _scope = services.event_preview(event=event)
    rows = change_rows(preview_changes(result))
    withhold_unpublished(request, rows, event)
    return rows
