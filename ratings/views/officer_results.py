"""Entering results: a round's pairings and results, pasted rounds, the round-robin grid."""

from __future__ import annotations

import math
from typing import cast

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from .. import services
from ..forms import (
    CHANGE_REASON,
    GridForm,
    Pairing,
    PasteRoundForm,
    RoundFormSet,
)
from ..models import (
    Event,
    Game,
    Member,
    rules,
)
from ..pages.events import missing_rounds
from ..rules.pairings import grid_games, rematches, round_robin_schedule
from ..rules.results import WHITE_AS_GRID, flipped, result_words
from ..words.counts import count_phrase
from .common import director_required, progress_or, rerated, results_closed

# -- results ----------------------------------------------------------------------------


def _players(event: Event) -> list[Member]:
    return list(Member.objects.filter(entries__event=event).order_by("entries__pk"))


def _games(number: int, pairings: list[Pairing]) -> list[Game]:
    return [
        Game(round=number, board=p.board, white=p.white, black=p.black, result=p.result)
        for p in pairings
    ]


def _results_refused(request: HttpRequest, event: Event) -> HttpResponse | None:
    """Back to the event, saying why, when its results cannot be entered yet."""
    if closed := results_closed(request, event):
        return closed
    problem = rules.results_too_early_problem(event)
    if problem is None:
        return None
    messages.error(request, problem)
    return redirect("ratings:officer-event", pk=event.pk)


#: The hidden field a results page carries: the results as it showed them.
VERSION = "results_version"


def _version_shown(request: HttpRequest, event: Event, *, pairs_only: bool = False) -> str:
    """The results' version the page was opened on: the one it sent back (a save, a
    preview, a form with errors), or the results as they stand (the page opened now)."""
    if request.method == "POST" and VERSION in request.POST:
        return request.POST[VERSION]
    return services.results_version(event=event, pairs_only=pairs_only)


def _conflict(
    event: Event, refused: services.ResultsChanged, *, pairs_only: bool = False
) -> dict[str, object]:
    """What a refused save's page shows: why, the results now saved in the rounds
    concerned, and the version they are (saving again then replaces them)."""
    games = event.games.filter(round__in=refused.rounds).select_related("white", "black")
    if pairs_only:
        games = games.exclude(black__isnull=True)
    saved = [
        f"Round {g.round}, board {g.board}: {g.white.name} "
        + (f"{result_words(g.result)} {g.black.name}" if g.black else result_words(g.result))
        for g in games.order_by("round", "board", "pk")
    ]
    return {
        "conflict": str(refused),
        "saved_now": saved,
        "version": services.results_version(event=event, pairs_only=pairs_only),
    }


def _reason_needed(refused: services.ReasonNeeded) -> dict[str, object]:
    """What a save refused for want of a reason shows: the error at the reason's box."""
    return {"change_reason_error": str(refused)}


def _rerate_note(event: Event) -> int | None:
    """How many events saving this event's results re-rates (None: saving rates nothing)."""
    if not services.event_rerate_needed(event=event):
        return None
    return services.rerate_scope(start=event).count


@director_required
def round_entry(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    if closed := _results_refused(request, event):
        return closed
    if not 1 <= number <= event.rounds:
        raise Http404(f"{event.name} has {count_phrase(event.rounds, 'round')}.")
    players = _players(event)
    games = list(event.games.filter(round=number).order_by("board", "pk"))
    if games:
        initial = [
            {"board": g.board, "white": g.white_id, "black": g.black_id, "result": g.result}
            for g in games
        ]
    elif event.kind == Event.Kind.ROUND_ROBIN and len(players) > 1:
        pairs = round_robin_schedule(players).get(number, [])
        initial = [
            {"board": b, "white": w.pk, "black": bl.pk if bl else None, "result": ""}
            for b, (w, bl) in enumerate(pairs, start=1)
        ]
    else:
        initial = []
    rows = max(len(initial), math.ceil(len(players) / 2) + 1)
    initial += [{}] * (rows - len(initial))
    # The menus list the players by name; the round robin's schedule keeps entry order.
    by_name = sorted(players, key=lambda m: (m.name.casefold(), m.member_number))
    if request.method == "POST":
        formset = RoundFormSet(request.POST, players=by_name, prefix="g")
    else:
        formset = RoundFormSet(initial=initial, players=by_name, prefix="g")
    clearing = 0
    if request.method == "POST" and formset.is_valid():
        pairings = formset.pairings()
        if not pairings and not games:
            messages.info(request, f"Round {number}: nothing entered, so nothing saved.")
            return redirect("ratings:officer-round", pk=event.pk, number=number)
        if not pairings and "clear" not in request.POST:
            # Every row left blank would delete the round's results: ask first.
            clearing = len(games)
            return _round_page(request, event, number, formset, bool(players), clearing)
        try:
            run = services.games_replace(
                event=event,
                rounds=[number],
                games=_games(number, pairings),
                user=request.user,
                reason=request.POST.get(CHANGE_REASON, ""),
                version=request.POST.get(VERSION),
                reason_required=True,
            )
        except services.ResultsChanged as refused:
            return _round_page(
                request, event, number, formset, bool(players), 0, _conflict(event, refused)
            )
        except services.ReasonNeeded as refused:
            return _round_page(
                request, event, number, formset, bool(players), 0, _reason_needed(refused)
            )
        if not pairings:
            messages.success(
                request,
                f"Round {number}: its {count_phrase(len(games), 'result')} deleted"
                f"{rerated(run, '; ')}.",
            )
            return progress_or(run, redirect("ratings:officer-event", pk=event.pk))
        messages.success(
            request,
            f"Round {number}: {count_phrase(len(pairings), 'result')} saved{rerated(run, '; ')}.",
        )
        _warn_of_rematches(request, event, number)
        if number < event.rounds:
            return progress_or(
                run, redirect("ratings:officer-round", pk=event.pk, number=number + 1)
            )
        return progress_or(run, redirect("ratings:officer-event", pk=event.pk))
    return _round_page(request, event, number, formset, bool(players), clearing)


def _warn_of_rematches(request: HttpRequest, event: Event, number: int) -> None:
    """A Swiss pairs nobody twice: after saving round ``number``, name any pair that met
    in another round (a slip of the pen more often than a real rematch)."""
    if event.kind != Event.Kind.SWISS:
        return
    rows = event.games.filter(black__isnull=False).values_list("round", "white", "black")
    twice = rematches(rows, number)
    if not twice:
        return
    names = dict(
        Member.objects.filter(pk__in={pk for pair, _ in twice for pk in pair}).values_list(
            "pk", "name"
        )
    )
    for pair, others in twice:
        first, second = sorted(names[pk] for pk in pair)
        messages.warning(
            request,
            f"Round {number}: {first} and {second} also met in round "
            f"{', '.join(map(str, others))}. A Swiss pairs nobody twice: check the pairing.",
        )


def _round_page(request, event, number, formset, has_players, clearing, conflict=None):
    """A round's page; ``clearing``: the results a blank save would delete, to confirm;
    ``conflict``: a save refused, the round having changed since the page was opened."""
    return render(
        request,
        "ratings/officer/round.html",
        {
            "version": _version_shown(request, event),
            **(conflict or {}),
            "event": event,
            "number": number,
            "formset": formset,
            "rounds": range(1, event.rounds + 1),
            "rerate": _rerate_note(event),
            "has_players": has_players,
            "clearing": clearing,
            "autofocus": _first_focus(formset),
            "change_reason": request.POST.get(CHANGE_REASON, ""),
        },
    )


def _first_focus(formset) -> str:
    """Where the cursor starts: board 1's first empty box (white, black), else its result.

    A board with a result and no black is a bye: complete, so its result.
    """
    if not formset.forms:
        return "result"
    first = formset.forms[0]
    if not first["white"].value():
        return "white"
    if not first["black"].value() and not first["result"].value():
        return "black"
    return "result"


@director_required
def round_paste(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    if closed := _results_refused(request, event):
        return closed
    # The first round with no results yet; with every round entered, the last (replaced).
    missing = missing_rounds(event)
    form = PasteRoundForm(
        request.POST or None,
        event=event,
        initial={"round": missing[0] if missing else event.rounds},
    )
    preview = None
    conflict: dict[str, object] = {}
    if "add_players" in request.POST and not form.is_valid() and form.addable:
        # The players the round names who are not in the event yet, entered in one go;
        # then the round is read again and previewed, nothing of it saved. A rated
        # event's players are corrected with a reason, as its results are.
        try:
            added = services.entries_add(
                event=event,
                members=form.addable,
                user=request.user,
                reason=request.POST.get(CHANGE_REASON, ""),
                reason_required=True,
            )
        except services.ReasonNeeded as refused:
            conflict = _reason_needed(refused)
        else:
            names = ", ".join(m.name for m in form.addable)
            messages.success(request, f"{count_phrase(added, 'player')} entered: {names}.")
            form = PasteRoundForm(request.POST, event=event)
    if request.method == "POST" and form.is_valid():
        number, pairings = form.cleaned_data["round"], form.cleaned_data["text"]
        if "save" in request.POST:
            try:
                run = services.games_replace(
                    event=event,
                    rounds=[number],
                    games=_games(number, pairings),
                    user=request.user,
                    reason=request.POST.get(CHANGE_REASON, ""),
                    version=request.POST.get(VERSION),
                    duplicate_reason=form.cleaned_data["duplicate_reason"]
                    if form.duplicates.is_duplicate
                    else "",
                    reason_required=True,
                )
            except services.ResultsChanged as refused:
                conflict = _conflict(event, refused)
            except services.ReasonNeeded as refused:
                conflict = _reason_needed(refused)
            else:
                messages.success(
                    request,
                    f"Round {number}: {count_phrase(len(pairings), 'result')} saved"
                    f"{rerated(run, '; ')}.",
                )
                _warn_of_rematches(request, event, number)
                return progress_or(run, redirect("ratings:officer-event", pk=event.pk))
        preview = pairings
        replaces = event.games.filter(round=number).count()
    return render(
        request,
        "ratings/officer/paste.html",
        {
            "version": _version_shown(request, event),
            **conflict,
            "event": event,
            "form": form,
            "preview": preview,
            "replaces": replaces if preview else 0,
            "all_entered": not missing,
            "rerate": _rerate_note(event),
            "change_reason": request.POST.get(CHANGE_REASON, ""),
        },
    )


@director_required
def round_robin_grid(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    if event.kind != Event.Kind.ROUND_ROBIN:
        # Everyone plays everyone only in a round robin: another event's rounds are
        # entered round by round (or pasted), and nothing is saved from here.
        return render(request, "ratings/officer/grid_not_round_robin.html", {"event": event})
    if closed := _results_refused(request, event):
        return closed
    players = _players(event)
    # Games between two players (byes left out): each has its black.
    existing = {
        frozenset((g.white_id, cast(int, g.black_id))): g
        for g in event.games.exclude(black__isnull=True)
    }
    initial = {}
    for i, row in enumerate(players):
        for col in players[i + 1 :]:
            game = existing.get(frozenset((row.pk, col.pk)))
            if game is not None:
                result = game.result if game.white_id == row.pk else flipped(game.result)
                initial[GridForm.cell(row, col)] = WHITE_AS_GRID.get(result, "")
    form = GridForm(request.POST or None, players=players, initial=initial)
    rounds_needed = max(round_robin_schedule(players), default=0)
    conflict: dict[str, object] = {}
    if request.method == "POST" and form.is_valid():
        if rounds_needed > event.rounds:
            form.add_error(
                None,
                f"{len(players)} players need {count_phrase(rounds_needed, 'round')}; this "
                f"event has {event.rounds}. Edit the event first.",
            )
        else:
            sitting = event.games.filter(black__isnull=True).values_list("round", "white_id")
            # Byes and absences entered on the round pages are not in the grid: saving
            # it replaces the games between two players only (pairs_only).
            games = [
                Game(
                    round=g.round,
                    board=g.board,
                    white_id=g.white_id,
                    black_id=g.black_id,
                    result=g.result,
                )
                for g in grid_games(
                    players=[p.pk for p in players],
                    cells=form.results(),
                    existing=existing,
                    sitting=sitting,
                    rounds=event.rounds,
                )
            ]
            try:
                run = services.games_replace(
                    event=event,
                    games=games,
                    rounds=None,
                    pairs_only=True,
                    user=request.user,
                    reason=request.POST.get(CHANGE_REASON, ""),
                    version=request.POST.get(VERSION),
                    reason_required=True,
                )
            except services.ResultsChanged as refused:
                conflict = _conflict(event, refused, pairs_only=True)
            except services.ReasonNeeded as refused:
                conflict = _reason_needed(refused)
            else:
                messages.success(
                    request,
                    f"Crosstable saved: {count_phrase(len(games), 'game')}{rerated(run, '; ')}.",
                )
                return progress_or(run, redirect("ratings:officer-event", pk=event.pk))
    return render(
        request,
        "ratings/officer/grid.html",
        {
            "version": _version_shown(request, event, pairs_only=True),
            **conflict,
            "event": event,
            "form": form,
            "players": players,
            "rerate": _rerate_note(event),
            "change_reason": request.POST.get(CHANGE_REASON, ""),
        },
    )
