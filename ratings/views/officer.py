"""The ratings officer's pages: members, events, results, rating. Login + officer permission.

The event report and crosstable live here too (they read the officer's results) but are
public: members read them.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.text import slugify
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from .. import explain, services, trf, trf_export
from ..engine.codec import TITLES
from ..forms import (
    FLIP,
    GRID_AS_WHITE,
    WHITE_AS_GRID,
    EntriesForm,
    EventForm,
    GridForm,
    MemberForm,
    Pairing,
    PasteRoundForm,
    QuickMemberForm,
    RoundFormSet,
    SubscriptionForm,
    next_member_numbers,
)
from ..models import (
    ClubSettings,
    Entry,
    Event,
    Game,
    Member,
    RatingChange,
    RatingPeriod,
    RatingRun,
    Season,
)
from ..tables import OfficerEventTable, OfficerMemberTable

PER_PAGE = 50


def officer_required(view):  # type: ignore[no-untyped-def]
    """Login first (to /accounts/login/), then the 'officer' permission (403 without it)."""
    return login_required(permission_required("ratings.officer", raise_exception=True)(view))


# -- home -------------------------------------------------------------------------------


@officer_required
def officer_home(request: HttpRequest) -> HttpResponse:
    runs = RatingRun.objects.select_related("user", "from_event")[:8]
    drafts = (
        Event.objects.exclude(status=Event.Status.COMPLETE)
        .annotate(
            player_count=Count("entries", distinct=True),
            games_count=Count("games", distinct=True),
        )
        .order_by("-start_date", "-pk")[:20]
    )
    # Complete and rated by the officer, but no changes yet: a period system's wait.
    waiting = (
        Event.objects.filter(status=Event.Status.COMPLETE, rated=True, rating_changes__isnull=True)
        .order_by("end_date", "pk")
        .distinct()[:20]
    )
    system = ClubSettings.load().engine()
    waiting_rows = [(e, system.period_of(e.end_date)) for e in waiting]
    return render(
        request,
        "ratings/officer/home.html",
        {"runs": runs, "drafts": drafts, "waiting": waiting_rows, "system": system},
    )


# -- members ----------------------------------------------------------------------------


@officer_required
def member_list(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()
    members = Member.objects.active().with_financial().select_related("rating_state")
    if query:
        members = members.filter(Q(name__icontains=query) | Q(member_number__iexact=query))
    table = OfficerMemberTable(members.order_by("name", "member_number"))
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    return render(request, "ratings/officer/members.html", {"table": table, "query": query})


@officer_required
def member_add(request: HttpRequest) -> HttpResponse:
    form = MemberForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        member = form.save()
        messages.success(request, f"{member.name} added ({member.member_number}).")
        _warn_of_namesakes(request, member)
        if "another" in request.POST:
            return redirect("ratings:officer-member-add")
        return redirect("ratings:officer-member", pk=member.pk)
    return render(request, "ratings/officer/member_form.html", {"form": form, "member": None})


def _warn_of_namesakes(request: HttpRequest, member: Member) -> None:
    """After adding ``member``: name anyone already recorded under the same name."""
    namesakes = member.namesakes()
    if namesakes:
        # Two people may share a name, so this is a warning, not a refusal.
        messages.warning(
            request,
            f"Another member is also called {member.name} "
            f"({', '.join(namesakes)}). If they are the same person, merge the two "
            "records in the admin (Members: select both, then “Merge selected duplicate "
            "members”).",
        )


@officer_required
def member_edit(request: HttpRequest, pk: int) -> HttpResponse:
    member = get_object_or_404(Member, pk=pk)
    rated = member.rating_changes.exists()
    form = MemberForm(request.POST or None, instance=member, prefix="member")
    scope = None
    if request.method == "POST" and form.is_valid():
        moves_ratings = not services.MEMBER_RATING_FIELDS.isdisjoint(form.changed_data)
        if rated and moves_ratings and "confirm" not in request.POST:
            # Say how much a change re-rates before doing it.
            scope = services.rerate_scope(start=services.member_rerate_start(member=member))
        else:
            run = services.member_save(
                member=form.instance, changed=form.changed_data, user=request.user, soon=True
            )
            messages.success(request, f"{member.name} saved{_rerated(run, ' and ')}.")
            return _progress_or(run, redirect("ratings:officer-member", pk=member.pk))
    subscription_form = SubscriptionForm(member=member, initial=_season())
    return _member_page(request, member, form, subscription_form, scope=scope)


def _season() -> dict[str, Any]:
    return {"season": Season.for_day(timezone.localdate())}


def _member_page(request, member, form, subscription_form, scope=None):  # type: ignore[no-untyped-def]
    today = timezone.localdate()
    subscriptions = member.subscriptions.select_related("season")
    return render(
        request,
        "ratings/officer/member_form.html",
        {
            "form": form,
            "member": member,
            "subscriptions": subscriptions,
            "subscription_form": subscription_form,
            "financial": member.is_financial_on(today),
            "today": today,
            "scope": scope,
        },
    )


@officer_required
@require_POST
def member_subscribe(request: HttpRequest, pk: int) -> HttpResponse:
    member = get_object_or_404(Member, pk=pk)
    form = SubscriptionForm(request.POST, member=member)
    if form.is_valid():
        subscription = form.save()
        messages.success(request, f"{member.name} has paid for {subscription.season}.")
        return redirect("ratings:officer-member", pk=member.pk)
    return _member_page(request, member, MemberForm(instance=member, prefix="member"), form)


# -- events -----------------------------------------------------------------------------


def _event_counts(events: Any) -> Any:
    """Each event's players and games, and whether it has been rated: a count per event
    (an index lookup each), not a join of every entry with every game."""
    return events.annotate(
        player_count=Coalesce(
            Subquery(
                Entry.objects.filter(event=OuterRef("pk"))
                .values("event")
                .annotate(n=Count("pk"))
                .values("n")
            ),
            0,
        ),
        games_count=Coalesce(
            Subquery(
                Game.objects.filter(event=OuterRef("pk"))
                .values("event")
                .annotate(n=Count("pk"))
                .values("n")
            ),
            0,
        ),
        rated_changes=Exists(RatingChange.objects.filter(event=OuterRef("pk"))),
    )


@officer_required
def event_list(request: HttpRequest) -> HttpResponse:
    """Every event, newest first, 50 a page; only the page's events are counted (sorting by
    the number of players counts them all, as it must)."""
    events = Event.objects.order_by("-end_date", "-start_date", "-pk")
    sorts = {o.lstrip("-") for o in request.GET.get("sort", "").split(",")}
    if sorts & {"player_count", "games_count"}:
        events = _event_counts(events)
    table = OfficerEventTable(events)
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    page = [row.record for row in table.page.object_list]
    counted = {e.pk: e for e in _event_counts(Event.objects.filter(pk__in=[e.pk for e in page]))}
    for event in page:
        for name in ("player_count", "games_count", "rated_changes"):
            setattr(event, name, getattr(counted[event.pk], name))
    return render(request, "ratings/officer/events.html", {"table": table})


@officer_required
def event_add(request: HttpRequest) -> HttpResponse:
    today = timezone.localdate()
    form = EventForm(request.POST or None, initial={"start_date": today, "end_date": today})
    if request.method == "POST" and form.is_valid():
        event = form.save()
        messages.success(request, f"{event.name} created: now add its players.")
        return redirect("ratings:officer-event-players", pk=event.pk)
    return render(request, "ratings/officer/event_form.html", {"form": form, "event": None})


@officer_required
def event_edit(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    previous = services.rating_key(event)
    form = EventForm(request.POST or None, instance=event)
    scope = None
    if request.method == "POST" and form.is_valid():
        rated = event.is_rated or (previous and event.is_complete)
        moves_ratings = not services.EVENT_RATING_FIELDS.isdisjoint(form.changed_data)
        if rated and moves_ratings and "confirm" not in request.POST:
            # Say how much a change re-rates before doing it.
            new = (form.cleaned_data["end_date"], form.cleaned_data["start_date"], event.pk)
            scope = services.rerate_scope(start=min(previous, new))
        else:
            run = services.event_save(
                event=form.instance,
                previous=previous,
                changed=form.changed_data,
                user=request.user,
                soon=True,
            )
            messages.success(request, f"{event.name} saved{_rerated(run, ' and ')}.")
            return _progress_or(run, redirect("ratings:officer-event", pk=event.pk))
    return render(
        request, "ratings/officer/event_form.html", {"form": form, "event": event, "scope": scope}
    )


@officer_required
def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    players = Member.objects.filter(entries__event=event).order_by("name")
    by_round = dict(event.games.values_list("round").annotate(n=Count("pk")))
    rounds = [(n, by_round.get(n, 0)) for n in range(1, event.rounds + 1)]
    expected = math.ceil(len(players) / 2)
    system = ClubSettings.load().engine()
    period = services.period_for(event, system) if event.is_complete else None
    is_rated = event.is_rated
    return render(
        request,
        "ratings/officer/event.html",
        {
            "event": event,
            "players": players,
            "rounds": rounds,
            "expected": expected,
            "period": period,
            "is_rated": is_rated,
            "system": system,
            "provisional": _provisional_rows(request, event, period, is_rated=is_rated),
        },
    )


def _provisional_rows(
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
    rows = _change_rows(_preview_changes(result), event)
    _withhold_unpublished(request, rows, event)
    return rows


@officer_required
def event_players(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    form = EntriesForm(request.POST or None, event=event, prefix="entries")
    quick = QuickMemberForm(prefix="quick")
    if request.method == "POST" and "quick-name" in request.POST:
        form = EntriesForm(event=event, prefix="entries")
        quick = QuickMemberForm(request.POST, prefix="quick")
        if quick.is_valid():
            member = quick.save()
            services.entries_add(event=event, members=[member], user=request.user)
            kind = "Guest" if member.is_guest else "New member"
            messages.success(request, f"{kind} {member.name} ({member.member_number}) entered.")
            _warn_of_namesakes(request, member)
            return redirect("ratings:officer-event-players", pk=event.pk)
    elif request.method == "POST" and form.is_valid():
        added = services.entries_add(
            event=event, members=form.cleaned_data["players"], user=request.user
        )
        messages.success(request, f"{added} player{'s' if added != 1 else ''} entered.")
        return redirect("ratings:officer-event-players", pk=event.pk)
    entries = event.entries.select_related("member").order_by("member__name")
    in_games = set(event.games.values_list("white_id", flat=True)) | set(
        event.games.values_list("black_id", flat=True)
    )
    return render(
        request,
        "ratings/officer/players.html",
        {
            "event": event,
            "form": form,
            "quick": quick,
            "entries": entries,
            "in_games": in_games,
            "next_round": next(iter(_missing_rounds(event)), None),
        },
    )


@officer_required
@require_POST
def event_player_remove(request: HttpRequest, pk: int, member: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    entry = get_object_or_404(event.entries.select_related("member"), member_id=member)
    if event.games.filter(Q(white_id=member) | Q(black_id=member)).exists():
        messages.error(request, f"{entry.member.name} has games here: remove those first.")
    else:
        entry.delete()
        messages.success(request, f"{entry.member.name} removed from {event.name}.")
    return redirect("ratings:officer-event-players", pk=event.pk)


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
                f"Round {number}: its {_count(len(games), 'result')} deleted"
                f"{_rerated(run, '; ')}.",
            )
            return _progress_or(run, redirect("ratings:officer-event", pk=event.pk))
        messages.success(
            request, f"Round {number}: {len(pairings)} results saved{_rerated(run, '; ')}."
        )
        _warn_of_rematches(request, event, number)
        if number < event.rounds:
            return _progress_or(
                run, redirect("ratings:officer-round", pk=event.pk, number=number + 1)
            )
        return _progress_or(run, redirect("ratings:officer-event", pk=event.pk))
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
    missing = _missing_rounds(event)
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
                request, f"Round {number}: {len(pairings)} results saved{_rerated(run, '; ')}."
            )
            _warn_of_rematches(request, event, number)
            return _progress_or(run, redirect("ratings:officer-event", pk=event.pk))
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
            messages.success(
                request, f"Crosstable saved: {len(games)} games{_rerated(run, '; ')}."
            )
            return _progress_or(run, redirect("ratings:officer-event", pk=event.pk))
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


# -- rating -----------------------------------------------------------------------------


@officer_required
def event_complete(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    system = ClubSettings.load().engine()
    period = services.period_for(event, system)
    if request.method == "POST":
        run = services.event_complete(event=event, user=request.user, soon=True)
        if run is not None and run.status != RatingRun.Status.DONE:
            messages.info(request, f"{event.name} is complete: rating it in the background.")
            return redirect("ratings:run", pk=run.pk)
        if run is not None:
            messages.success(
                request,
                f"{event.name} rated ({_count(run.games_rated, 'game')}; "
                f"{_count(run.events_rated, 'event')} rated in all).",
            )
            return redirect("ratings:event-report", pk=event.pk)
        if event.rated and period is not None:
            messages.info(
                request,
                f"{event.name} is complete. Its games wait for rating period {period.label}.",
            )
        else:
            messages.success(request, f"{event.name} is complete.")
        return redirect("ratings:officer-event", pk=event.pk)
    result, scope = services.event_preview(event=event) if event.rated else (None, None)
    rows = _change_rows(_preview_changes(result), event)
    return render(
        request,
        "ratings/officer/complete.html",
        {
            "event": event,
            "rows": rows,
            "scope": scope,
            "period": period,
            "system": system,
            "missing_rounds": _missing_rounds(event),
        },
    )


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _rerated(run: RatingRun | None, joiner: str) -> str:
    """What saving re-rated, to end the officer's message ("" when it re-rated nothing)."""
    if run is None:
        return ""
    if run.status == RatingRun.Status.DONE:
        return f"{joiner}re-rated {_count(run.events_rated, 'event')}"
    return f"{joiner}re-rating in the background"


def _progress_or(run: RatingRun | None, response: HttpResponse) -> HttpResponse:
    """A re-rate queued for the background: its progress page. Otherwise ``response``."""
    if run is not None and run.status != RatingRun.Status.DONE:
        return redirect("ratings:run", pk=run.pk)
    return response


def _missing_rounds(event: Event) -> list[int]:
    have = set(event.games.values_list("round", flat=True).distinct())
    return [n for n in range(1, event.rounds + 1) if n not in have]


def _change_rows(changes: list[dict[str, Any]], event: Event) -> list[dict[str, Any]]:
    """Each player's change with the engine's game lines, names looked up in one query.

    ``changes`` are dicts with player (member pk), before, after, display_before,
    display_after and breakdown: a saved RatingChange or a preview, read alike.
    """
    names = {m.pk: m for m in Member.objects.filter(entries__event=event)}
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
                "change": after - before if before is not None and after is not None else None,
                "games": games,
                "columns": [explain.line_label(key) for key in columns],
                "has_expected": has_expected,
                "has_change": has_change,
                "width": 4 + len(columns) + has_expected + has_change,
                "detail": breakdown,
                "breakdown": explain.breakdown_items(breakdown),
                "played": len(rated),
                "score": sum(g["score"] for g in rated),
                "expected": sum(expected) if rated and None not in expected else None,
            }
        )
    rows.sort(key=lambda r: (-r["score"], r["member"].name if r["member"] else ""))
    return rows


def _preview_changes(result) -> list[dict[str, Any]]:  # type: ignore[no-untyped-def]
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


def _saved_changes(event: Event) -> list[dict[str, Any]]:
    changes = event.rating_changes.values(
        "before", "after", "display_before", "display_after", "breakdown", player=F("member_id")
    )
    return [{**c, "breakdown": services.breakdown_read(c["breakdown"])} for c in changes]


@officer_required
def period_list(request: HttpRequest) -> HttpResponse:
    system = ClubSettings.load().engine()
    periods: dict[str, dict[str, Any]] = {}
    if system.period_based:
        for period in RatingPeriod.objects.filter(system=system.id):
            periods[period.label] = {"period": period, "events": []}
        events = Event.objects.filter(rated=True).exclude(status=Event.Status.DRAFT)
        for event in events.annotate(player_count=Count("entries")).in_rating_order():
            label = system.period_of(event.end_date)
            if label not in periods:
                start, end = system.period_bounds(label)
                periods[label] = {
                    "period": RatingPeriod(system=system.id, label=label, start=start, end=end),
                    "events": [],
                }
            periods[label]["events"].append(event)
    rows = sorted(periods.values(), key=lambda p: p["period"].start, reverse=True)
    return render(request, "ratings/officer/periods.html", {"system": system, "periods": rows})


@officer_required
def period_close(request: HttpRequest, label: str) -> HttpResponse:
    system = ClubSettings.load().engine()
    if not system.period_based:
        raise Http404("The club's rating system does not rate by period.")
    period = RatingPeriod.objects.filter(system=system.id, label=label).first()
    if period is None:
        try:
            start, end = system.period_bounds(label)
        except (ValueError, KeyError, NotImplementedError) as error:
            raise Http404("No such rating period.") from error
        period = RatingPeriod(system=system.id, label=label, start=start, end=end)
    if period.is_closed:
        messages.info(request, f"Rating period {label} is closed already.")
        return redirect("ratings:officer-periods")
    events = Event.objects.filter(
        rated=True,
        status=Event.Status.COMPLETE,
        end_date__gte=period.start,
        end_date__lte=period.end,
    ).in_rating_order()
    if request.method == "POST":
        run = services.period_close(period=period, user=request.user, soon=True)
        if run.status != RatingRun.Status.DONE:
            messages.info(
                request,
                f"Rating period {label} closed: rating its events in the background; "
                "the new list is published when the run finishes.",
            )
            return redirect("ratings:run", pk=run.pk)
        messages.success(
            request,
            f"Rating period {label} closed: {run.events_rated} events rated, list published.",
        )
        return redirect("ratings:officer-periods")
    scope = services.rerate_scope(start=(period.start, period.start, 0))
    return render(
        request,
        "ratings/officer/period_close.html",
        {"period": period, "events": events, "scope": scope},
    )


# -- TRF import -------------------------------------------------------------------------

SESSION_KEY = "officer-trf-import"


@officer_required
def trf_upload(request: HttpRequest) -> HttpResponse:
    from ..forms import TrfUploadForm

    form = TrfUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        request.session[SESSION_KEY] = {
            "text": form.cleaned_data["text"],
            "filename": form.cleaned_data["file"].name,
        }
        return redirect("ratings:officer-import-preview")
    return render(request, "ratings/officer/import.html", {"form": form})


@officer_required
def trf_preview(request: HttpRequest) -> HttpResponse:
    from ..forms import TrfConfirmForm

    stored = request.session.get(SESSION_KEY)
    if not stored:
        messages.info(request, "Upload a tournament report file first.")
        return redirect("ratings:officer-import")
    tournament = trf.parse(stored["text"])
    form = TrfConfirmForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        event = _import(form, tournament, request.user)
        del request.session[SESSION_KEY]
        messages.success(
            request,
            f"{event.name} imported: {len(tournament.players)} players, "
            f"{event.games.count()} games. Check it, then mark it complete to rate it.",
        )
        return redirect("ratings:officer-event", pk=event.pk)
    games = tournament.games()
    counts = defaultdict(int)
    for game in games:
        counts[game.result] += 1
    return render(
        request,
        "ratings/officer/import_preview.html",
        {
            "form": form,
            "tournament": tournament,
            "filename": stored["filename"],
            "games": len(games),
            "counts": sorted(counts.items()),
            "rows": form.player_rows(),
        },
    )


def _import(form, tournament: trf.Tournament, user) -> Event:  # type: ignore[no-untyped-def]
    data = form.cleaned_data
    event = Event(
        name=data["name"],
        kind=data["kind"],
        start_date=data["start_date"],
        end_date=data["end_date"],
        rounds=max(tournament.rounds, 1),
        time_control=tournament.time_control[:40],
        rated=data["rated"],
    )
    choices = form.choices()
    new = [p for p in tournament.players if choices[p.rank] in ("new", "guest")]
    numbers = iter(next_member_numbers("N", len(new)))
    guest_numbers = iter(next_member_numbers("G", len(new)))
    members = dict(
        Member.objects.in_bulk([int(c) for c in choices.values() if c.isdigit()]).items()
    )
    players: dict[int, Member] = {}
    for player in tournament.players:
        choice = choices[player.rank]
        if choice.isdigit():
            players[player.rank] = members[int(choice)]
            continue
        guest = choice == "guest"
        players[player.rank] = Member(
            member_number=next(guest_numbers if guest else numbers),
            name=player.name,
            is_guest=guest,
            fide_id=player.fide_id if player.fide_id.isdigit() else "",
            title=player.title if player.title in TITLES else "",
            gender={"m": "M", "w": "F", "f": "F"}.get(player.sex, ""),
            initial_rating=player.rating,
        )
    games = [(g.round, g.white, g.black, g.result, g.colours_known) for g in tournament.games()]
    return services.trf_import(event=event, games=games, players=players, user=user)


@officer_required
def event_trf(request: HttpRequest, pk: int) -> HttpResponse:
    """The event as a FIDE tournament report file (TRF16), to download."""
    event = get_object_or_404(Event, pk=pk)
    response = HttpResponse(
        trf_export.event_to_trf(event).encode("utf-8"), content_type="text/plain; charset=utf-8"
    )
    filename = f"{slugify(event.name) or f'event-{event.pk}'}.trf"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# -- reports (public) -------------------------------------------------------------------


def _published_in(event: Event) -> set[int]:
    """The players of ``event`` whose ratings the public may see (as on the published list)."""
    return set(
        Member.objects.published().filter(entries__event=event).values_list("pk", flat=True)
    )


def _withhold_unpublished(request: HttpRequest, rows: list[dict[str, Any]], event: Event) -> None:
    """Members in arrears and guests played, so their names stay, but not their ratings.

    An officer sees every rating; the unpublished ones are marked. The public sees none
    of them: not their own figures, nor their rating on an opponent's game lines.
    """
    shown = _published_in(event)
    officer = request.user.has_perm("ratings.officer")
    for row in rows:
        member = row["member"]
        published = member is not None and member.pk in shown
        row["unpublished"] = officer and not published
        if officer or published:
            for game in row["games"]:
                opponent = game["opponent"]
                if not officer and (opponent is None or opponent.pk not in shown):
                    # The expected score and the game's change, with the player's own
                    # rating, give the opponent's away; so would the row's total, the
                    # game's own figures and most of the breakdown (an average opponent).
                    game.update(opponent_rating=None, expected=None, change=None)
                    game["extra"] = ["–"] * len(game["extra"])
                    row["expected"] = None
                    row["breakdown"] = explain.breakdown_items(
                        row["detail"], only=explain.OWN_KEYS
                    )
            continue
        row.update(
            hidden=True,
            before=None,
            after=None,
            change=None,
            expected=None,
            games=[],
            breakdown=[],
        )


def event_report(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    changes = _saved_changes(event)
    rows = _change_rows(changes, event)
    _withhold_unpublished(request, rows, event)
    points = _points(event)
    for row in rows:
        row["points"] = points.get(row["member"].pk, 0) if row["member"] else 0
    rows.sort(key=lambda r: -r["points"])  # stable: ties stay in rated-score order
    system = ClubSettings.load().engine()
    period = None
    provisional = None
    if not changes and event.rated and event.is_complete:
        period = services.period_for(event, system)
        provisional = _provisional_rows(request, event, period, is_rated=False)
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
    officer = request.user.has_perm("ratings.officer")
    shown = _published_in(event)
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


urlpatterns = [
    path("officer/", officer_home, name="officer-home"),
    path("officer/members/", member_list, name="officer-members"),
    path("officer/members/add/", member_add, name="officer-member-add"),
    path("officer/members/<int:pk>/", member_edit, name="officer-member"),
    path("officer/members/<int:pk>/subscribe/", member_subscribe, name="officer-member-subscribe"),
    path("officer/events/", event_list, name="officer-events"),
    path("officer/events/add/", event_add, name="officer-event-add"),
    path("officer/events/<int:pk>/", event_detail, name="officer-event"),
    path("officer/events/<int:pk>/edit/", event_edit, name="officer-event-edit"),
    path("officer/events/<int:pk>/players/", event_players, name="officer-event-players"),
    path(
        "officer/events/<int:pk>/players/<int:member>/remove/",
        event_player_remove,
        name="officer-event-player-remove",
    ),
    path("officer/events/<int:pk>/rounds/<int:number>/", round_entry, name="officer-round"),
    path("officer/events/<int:pk>/paste/", round_paste, name="officer-round-paste"),
    path("officer/events/<int:pk>/grid/", round_robin_grid, name="officer-grid"),
    path("officer/events/<int:pk>/complete/", event_complete, name="officer-event-complete"),
    path("officer/events/<int:pk>/trf/", event_trf, name="officer-event-trf"),
    path("officer/periods/", period_list, name="officer-periods"),
    path("officer/periods/<str:label>/close/", period_close, name="officer-period-close"),
    path("officer/import/", trf_upload, name="officer-import"),
    path("officer/import/preview/", trf_preview, name="officer-import-preview"),
    # Public: members read the reports of rated events.
    path("events/<int:pk>/report/", event_report, name="event-report"),
    path("events/<int:pk>/crosstable/", event_crosstable, name="event-crosstable"),
]
