"""Entering results: a round's pairings and results, pasted rounds, the round-robin grid."""

from __future__ import annotations

import math
from collections import defaultdict

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from .. import services
from ..forms import (
    FLIP,
    GRID_AS_WHITE,
    WHITE_AS_GRID,
    GridForm,
    Pairing,
    PasteRoundForm,
    RoundFormSet,
)
from ..models import (
    Event,
    Game,
    Member,
)
from .common import officer_required
from .officer_rating import count_phrase, missing_rounds, progress_or, rerated

# -- results ----------------------------------------------------------------------------


def _players(event: Event) -> list[Member]:
    return list(Member.objects.filter(entries__event=event).order_by("entries__pk"))


def round_robin_schedule(players: list[Member]) -> dict[int, list[tuple[Member, Member | None]]]:
    """Who meets whom in each round of a round robin (the circle method, colours alternating).

    With an odd number of players the one paired with ``None`` sits the round out.
    """
    seats: list[Member | None] = list(players)
    if len(seats) % 2:
        seats.append(None)
    n = len(seats)
    schedule: dict[int, list[tuple[Member, Member | None]]] = {}
    fixed, rest = seats[-1], seats[:-1]
    for r in range(n - 1):
        turn = rest[r:] + rest[:r]
        pairs = [(turn[0], fixed) if r % 2 == 0 else (fixed, turn[0])]
        pairs += [(turn[i], turn[-i]) for i in range(1, n // 2)]
        games: list[tuple[Member, Member | None]] = []
        for white, black in pairs:
            if white is None:
                white, black = black, None
            if white is not None:
                games.append((white, black))
        schedule[r + 1] = games
    return schedule


def _games(number: int, pairings: list[Pairing]) -> list[Game]:
    return [
        Game(round=number, board=p.board, white=p.white, black=p.black, result=p.result)
        for p in pairings
    ]


def _rerate_note(event: Event) -> int | None:
    """How many events saving this event's results re-rates (None: saving rates nothing)."""
    if not services.event_rerate_needed(event=event):
        return None
    return services.rerate_scope(start=event).count


@officer_required
def round_entry(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    if not 1 <= number <= event.rounds:
        raise Http404(f"{event.name} has {event.rounds} rounds.")
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
        run = services.games_replace(
            event=event,
            rounds=[number],
            games=_games(number, pairings),
            user=request.user,
            soon=True,
        )
        if not pairings:
            messages.success(
                request,
                f"Round {number}: its {count_phrase(len(games), 'result')} deleted"
                f"{rerated(run, '; ')}.",
            )
            return progress_or(run, redirect("ratings:officer-event", pk=event.pk))
        messages.success(
            request, f"Round {number}: {len(pairings)} results saved{rerated(run, '; ')}."
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
    met: dict[frozenset[int], list[int]] = defaultdict(list)
    rows = event.games.filter(black__isnull=False).values_list("round", "white", "black")
    for round_, white, black in rows:
        met[frozenset((white, black))].append(round_)
    twice = [pair for pair, rounds in met.items() if number in rounds and len(rounds) > 1]
    if not twice:
        return
    names = dict(Member.objects.filter(pk__in=set().union(*twice)).values_list("pk", "name"))
    for pair in twice:
        first, second = sorted(names[pk] for pk in pair)
        others = sorted(r for r in met[pair] if r != number)
        messages.warning(
            request,
            f"Round {number}: {first} and {second} also met in round "
            f"{', '.join(map(str, others))}. A Swiss pairs nobody twice: check the pairing.",
        )


def _round_page(request, event, number, formset, has_players, clearing):  # type: ignore[no-untyped-def]
    """A round's page; ``clearing``: the results a blank save would delete, to confirm."""
    return render(
        request,
        "ratings/officer/round.html",
        {
            "event": event,
            "number": number,
            "formset": formset,
            "rounds": range(1, event.rounds + 1),
            "rerate": _rerate_note(event),
            "has_players": has_players,
            "clearing": clearing,
            "autofocus": _first_focus(formset),
        },
    )


def _first_focus(formset) -> str:  # type: ignore[no-untyped-def]
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


@officer_required
def round_paste(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    # The first round with no results yet; with every round entered, the last (replaced).
    missing = missing_rounds(event)
    form = PasteRoundForm(
        request.POST or None,
        event=event,
        initial={"round": missing[0] if missing else event.rounds},
    )
    preview = None
    if request.method == "POST" and form.is_valid():
        number, pairings = form.cleaned_data["round"], form.cleaned_data["text"]
        if "save" in request.POST:
            run = services.games_replace(
                event=event,
                rounds=[number],
                games=[
                    Game(
                        round=number, board=p.board, white=p.white, black=p.black, result=p.result
                    )
                    for p in pairings
                ],
                user=request.user,
                soon=True,
            )
            messages.success(
                request, f"Round {number}: {len(pairings)} results saved{rerated(run, '; ')}."
            )
            _warn_of_rematches(request, event, number)
            return progress_or(run, redirect("ratings:officer-event", pk=event.pk))
        preview = pairings
        replaces = event.games.filter(round=number).count()
    return render(
        request,
        "ratings/officer/paste.html",
        {
            "event": event,
            "form": form,
            "preview": preview,
            "replaces": replaces if preview else 0,
            "all_entered": not missing,
            "rerate": _rerate_note(event),
        },
    )


@officer_required
def round_robin_grid(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    players = _players(event)
    existing = {
        frozenset((g.white_id, g.black_id)): g for g in event.games.exclude(black__isnull=True)
    }
    initial = {}
    for i, row in enumerate(players):
        for col in players[i + 1 :]:
            game = existing.get(frozenset((row.pk, col.pk)))
            if game is not None:
                result = (
                    game.result if game.white_id == row.pk else FLIP.get(game.result, game.result)
                )
                initial[GridForm.cell(row, col)] = WHITE_AS_GRID.get(result, "")
    form = GridForm(request.POST or None, players=players, initial=initial)
    schedule = round_robin_schedule(players)
    rounds_needed = max(schedule, default=0)
    if request.method == "POST" and form.is_valid():
        if rounds_needed > event.rounds:
            form.add_error(
                None,
                f"{len(players)} players need {rounds_needed} rounds; this event has "
                f"{event.rounds}. Edit the event first.",
            )
        else:
            sitting = event.games.filter(black__isnull=True).values_list("round", "white_id")
            games = _grid_games(form, players, existing, schedule, sitting, event.rounds)
            run = services.games_replace(
                event=event,
                games=games,
                rounds=None,
                pairs_only=True,
                user=request.user,
                soon=True,
            )
            messages.success(request, f"Crosstable saved: {len(games)} games{rerated(run, '; ')}.")
            return progress_or(run, redirect("ratings:officer-event", pk=event.pk))
    return render(
        request,
        "ratings/officer/grid.html",
        {"event": event, "form": form, "players": players, "rerate": _rerate_note(event)},
    )


def _grid_games(form, players, existing, schedule, sitting, rounds):  # type: ignore[no-untyped-def]
    """Games from the grid: a pair keeps its round and colours, or takes the schedule's.

    A new pair whose scheduled round already has one of them busy (a round entered on its
    page in another order, or a bye there) goes to the first round where both are free,
    so nobody plays twice in a round; ``sitting`` is (round, player) of those byes.
    """
    slot = {}
    for number, pairs in schedule.items():
        for board, (white, black) in enumerate(pairs, start=1):
            if black is not None:
                slot[frozenset((white.pk, black.pk))] = (number, board, white.pk)
    wanted = []
    for i, row in enumerate(players):
        for col in players[i + 1 :]:
            value = form.cleaned_data.get(GridForm.cell(row, col))
            if value:
                wanted.append((row, col, value, existing.get(frozenset((row.pk, col.pk)))))
    busy: dict[int, set[int]] = defaultdict(set)
    boards: dict[int, set[int]] = defaultdict(set)
    for number, player in sitting:
        busy[number].add(player)
    for _, _, _, old in wanted:
        if old is not None:
            busy[old.round].update((old.white_id, old.black_id))
            if old.board is not None:
                boards[old.round].add(old.board)
    games = []
    # New pairs in the schedule's order, so a grid filled in from scratch is the schedule.
    for row, col, value, old in sorted(wanted, key=lambda w: slot[frozenset((w[0].pk, w[1].pk))]):
        if old is not None:
            number, board, white = old.round, old.board, old.white_id
        else:
            number, board, white = slot[frozenset((row.pk, col.pk))]
            pair = {row.pk, col.pk}
            if busy[number] & pair:
                free = [n for n in range(1, rounds + 1) if not busy[n] & pair]
                number = free[0] if free else number
            if board in boards[number]:
                board = max(boards[number]) + 1
            busy[number].update(pair)
            boards[number].add(board)
        result = GRID_AS_WHITE[value]
        if white != row.pk:
            result = FLIP.get(result, result)
        black = col.pk if white == row.pk else row.pk
        games.append(
            Game(round=number, board=board, white_id=white, black_id=black, result=result)
        )
    # Byes and absences entered on the round pages are not in the grid: saving it
    # replaces the games between two players only (games_replace(pairs_only=True)).
    return games
