"""The officer's event pages: the list of events, an event's details and its players."""

from __future__ import annotations

import math
from typing import Any

from django.contrib import messages
from django.db.models import (
    Count,
    Exists,
    OuterRef,
    Q,
    Subquery,
)
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from .. import services
from ..forms import (
    CHANGE_REASON,
    EntriesForm,
    EntryRemoveForm,
    EventForm,
    QuickMemberForm,
)
from ..models import (
    Entry,
    Event,
    Game,
    Member,
    RatingChange,
    complete_problem,
    rules,
)
from ..models.rating_lists import event_list_system
from ..pages import events as pages
from ..pages.reports import legend as rating_legend
from ..presentation.paging import table_paginate
from ..presentation.tables import (
    OfficerEventTable,
)
from ..rules import access
from ..services import event_stages
from ..words.counts import count_phrase
from .common import (
    PER_PAGE,
    director_required,
    keeps_subscriptions,
    officer_required,
    paid_tonight,
    progress_or,
    record_version_shown,
    rerated,
    results_closed,
    saved_unless_changed,
    warn_of_namesakes,
)

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
    table_paginate(request, table, per_page=PER_PAGE)
    page = [row.record for row in table.page.object_list]
    counted = {e.pk: e for e in _event_counts(Event.objects.filter(pk__in=[e.pk for e in page]))}
    for event in page:
        for name in ("player_count", "games_count", "rated_changes"):
            setattr(event, name, getattr(counted[event.pk], name))
    return render(request, "ratings/officer/events.html", {"table": table})


@officer_required
def event_add(request: HttpRequest) -> HttpResponse:
    today = timezone.localdate()
    by_day, usual = pages.usual_kinds()
    form = EventForm(
        request.POST or None,
        initial={"start_date": today, "kind": by_day.get(today.isoweekday(), usual)},
    )
    form.kind_follows_the_date(by_day, usual)
    warnings: list[str] = []
    if request.method == "POST" and form.is_valid():
        # A duplicate name or a date to come is asked about before saving, not after.
        warnings = form.warnings()
        if not warnings or "confirm" in request.POST:
            event = form.save()
            messages.success(request, f"{event.name} created: now add its players.")
            return redirect("ratings:officer-event-players", pk=event.pk)
    return render(
        request,
        "ratings/officer/event_form.html",
        {"form": form, "event": None, "warnings": warnings},
    )


@officer_required
def event_edit(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    previous = services.rating_key(event)
    form = EventForm(request.POST or None, instance=event)
    scope = None
    conflict: dict[str, str] = {}
    if request.method == "POST" and form.is_valid():
        rated = event.is_rated or (previous and event.is_complete)
        moves_ratings = not services.EVENT_RATING_FIELDS.isdisjoint(form.changed_data)
        if rated and moves_ratings and "confirm" not in request.POST:
            # Say how much a change re-rates before doing it.
            new = (form.cleaned_data["end_date"], form.cleaned_data["start_date"], event.pk)
            scope = services.rerate_scope(start=min(previous, new))
        else:
            saved, run, conflict = saved_unless_changed(
                request,
                event,
                lambda: services.event_save(
                    event=form.instance,
                    previous=previous,
                    changed=form.changed_data,
                    user=request.user,
                    reason=form.cleaned_data.get(CHANGE_REASON, ""),
                ),
            )
            if saved:
                messages.success(request, f"{event.name} saved{rerated(run, ' and ')}.")
                return progress_or(run, redirect("ratings:officer-event", pk=event.pk))
    return render(
        request,
        "ratings/officer/event_form.html",
        {
            "form": form,
            "event": event,
            "scope": scope,
            "version": record_version_shown(request, event),
            **conflict,
        },
    )


@director_required
def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    players = Member.objects.filter(entries__event=event).order_by("name")
    by_round = dict(event.games.values_list("round").annotate(n=Count("pk")))
    rounds = [(n, by_round.get(n, 0)) for n in range(1, event.rounds + 1)]
    expected = math.ceil(len(players) / 2)
    rating_list, system = event_list_system(event)
    period = services.period_for(event, system, rating_list) if event.is_complete else None
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
            "legend": rating_legend(system),
            "provisional": pages.provisional_rows(
                event=event, period=period, viewer=request.user, is_rated=is_rated
            ),
            "complete_refused": None if event.is_complete else complete_problem(event),
            "results_refused": rules.results_too_early_problem(event)
            or access.results_closed_to(request.user, event),
            "may_submit": event.stage == Event.DRAFT,
            # Said before submitting, as the officer's rating preview says it.
            "missing_rounds": [number for number, count in rounds if not count],
        },
    )


@director_required
@require_POST
def event_submit(request: HttpRequest, pk: int) -> HttpResponse:
    """Its director (or the officer) says the event's results are in: the officers are told."""
    event = get_object_or_404(Event, pk=pk)
    try:
        event_stages.event_submit(
            event=event, user=request.user, base_url=request.build_absolute_uri("/")
        )
    except event_stages.StageRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, f"{event.name} is submitted: the ratings officer is told.")
    return redirect("ratings:officer-event", pk=pk)


@director_required
def event_players(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    if request.method == "POST" and (closed := results_closed(request, event)):
        return closed
    form = EntriesForm(request.POST or None, event=event, prefix="entries")
    quick = _quick_member_form(request)
    if request.method == "POST" and "quick-name" in request.POST:
        form = EntriesForm(event=event, prefix="entries")
        quick = _quick_member_form(request, request.POST)
        if quick.is_valid():
            quick.instance.brought_in_by = event
            member = quick.save()
            services.entries_add(event=event, members=[member], user=request.user)
            paid = paid_tonight(request, quick, member)
            kind = "Guest" if member.is_guest else "New member"
            messages.success(
                request, f"{kind} {member.name} ({member.member_number}) entered{paid}."
            )
            warn_of_namesakes(request, member)
            return redirect("ratings:officer-event-players", pk=event.pk)
    elif request.method == "POST" and form.is_valid():
        added = services.entries_add(
            event=event, members=form.cleaned_data["players"], user=request.user
        )
        messages.success(request, f"{count_phrase(added, 'player')} entered.")
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
            "next_round": next(iter(pages.missing_rounds(event)), None),
        },
    )


def _quick_member_form(request: HttpRequest, data: Any = None) -> QuickMemberForm:
    """A newcomer entered at the door: a director enters them, but "paid tonight" is a
    payment, the treasurer's or the officer's to record (not offered to a director)."""
    quick = QuickMemberForm(data, prefix="quick")
    if not keeps_subscriptions(request):
        del quick.fields["paid_tonight"]
    return quick


@director_required
def event_player_remove(request: HttpRequest, pk: int, member: int) -> HttpResponse:
    """Take a player with no games out of the event: asked first (with a reason for the
    history), then removed."""
    event = get_object_or_404(Event, pk=pk)
    if closed := results_closed(request, event):
        return closed
    entry = get_object_or_404(event.entries.select_related("member"), member_id=member)
    if event.games.filter(Q(white_id=member) | Q(black_id=member)).exists():
        messages.error(request, f"{entry.member.name} has games here: remove those first.")
        return redirect("ratings:officer-event-players", pk=event.pk)
    form = EntryRemoveForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        services.entry_remove(
            entry=entry, user=request.user, reason=form.cleaned_data[CHANGE_REASON]
        )
        messages.success(request, f"{entry.member.name} removed from {event.name}.")
        return redirect("ratings:officer-event-players", pk=event.pk)
    return render(
        request,
        "ratings/officer/player_remove.html",
        {"event": event, "member": entry.member, "form": form},
    )
