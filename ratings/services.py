"""Moves data between the database and the rating engine.

Games are the record and ratings are derived: every function here that touches
ratings leaves RatingState and RatingChange equal to what the configured system gives
for the games as they now stand, inside one transaction. Nothing here runs a query
per member or per game.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from .engine import Event as EngineEvent
from .engine import EventResult, PlayerState, RatingResult, RatingSystem
from .engine import Game as EngineGame
from .engine.io import parse_player, player_to_json
from .models import (
    ClubSettings,
    Event,
    Game,
    Member,
    RatingChange,
    RatingPeriod,
    RatingRun,
    RatingState,
)

log = logging.getLogger("ratings")

Progress = Callable[[int, str], None]

# -- which events are rated ---------------------------------------------------


def rating_key(event: Event) -> tuple[dt.date, dt.date, int]:
    """Where an event stands in the chain: the engine's order."""
    return (event.end_date, event.start_date, event.pk)


def _before_q(key: tuple[dt.date, dt.date, int], prefix: str = "") -> Q:
    """Events strictly before rating position ``key``."""
    end, start, pk = key
    p = prefix
    return (
        Q(**{f"{p}end_date__lt": end})
        | Q(**{f"{p}end_date": end, f"{p}start_date__lt": start})
        | Q(**{f"{p}end_date": end, f"{p}start_date": start, f"{p}pk__lt": pk})
    )


def closed_periods(system: RatingSystem) -> QuerySet[RatingPeriod]:
    return RatingPeriod.objects.filter(system=system.id, closed_at__isnull=False)


def rateable_q(system: RatingSystem) -> Q:
    """Events the system rates now: rated, complete and, for period systems, in a closed period."""
    q = Q(rated=True, status=Event.Status.COMPLETE)
    if system.period_based:
        ranges = Q(pk__in=[])
        for start, end in closed_periods(system).values_list("start", "end"):
            ranges |= Q(end_date__gte=start, end_date__lte=end)
        q &= ranges
    return q


def rateable_events(system: RatingSystem) -> QuerySet[Event]:
    return Event.objects.filter(rateable_q(system)).in_rating_order()


def period_for(event: Event, system: RatingSystem) -> RatingPeriod | None:
    """The (possibly new, unsaved) rating period holding ``event``; None for per-event systems."""
    label = system.period_of(event.end_date)
    if label is None:
        return None
    existing = RatingPeriod.objects.filter(system=system.id, label=label).first()
    if existing:
        return existing
    start, end = system.period_bounds(label)
    return RatingPeriod(system=system.id, label=label, start=start, end=end)


# -- engine input ---------------------------------------------------------------


def member_initial_state(member: Member, system: RatingSystem) -> PlayerState:
    """A member as the engine sees them before their first event here."""
    state = PlayerState(
        id=str(member.pk),
        rating=member.initial_rating,
        games=member.initial_games,
        guest=member.is_guest,
        born=member.born,
        gender=member.gender or None,
        title=member.title or None,
    )
    if member.initial_rating is not None and system.id == "ecf-2020":
        # An imported rating is taken as current: full from 10 games, as the ECF rates.
        category = "full" if member.initial_games >= 10 else "partial"
        state = PlayerState(
            **{**_fields(state), "category": category, "last_played": member.created.date()}
        )
    return state


def _fields(state: PlayerState) -> dict[str, Any]:
    return {name: getattr(state, name) for name in state.__slots__}  # type: ignore[attr-defined]


def state_from_json(data: dict[str, Any]) -> PlayerState:
    problems: list[str] = []
    data = {k: v for k, v in data.items() if k != "display"}
    state = parse_player(data, "state", problems)
    if state is None or problems:
        raise ValueError("; ".join(problems) or "bad stored state")
    return state


def engine_events(events: Sequence[Event]) -> list[EngineEvent]:
    """The events as the engine takes them: played games only, one query for all games."""
    by_event: dict[int, list[EngineGame]] = {e.pk: [] for e in events}
    games = (
        Game.objects.filter(event__in=[e.pk for e in events], result__in=Game.PLAYED)
        .exclude(black__isnull=True)
        .order_by("event_id", "round", "board", "pk")
        .values_list("event_id", "white_id", "black_id", "result", "round")
    )
    for event_id, white, black, result, round_ in games.iterator(chunk_size=5000):
        by_event[event_id].append(
            EngineGame(str(white), str(black), Game.POINTS[result][0], round_)
        )
    return [
        EngineEvent(id=str(e.pk), date=e.end_date, games=tuple(by_event[e.pk])) for e in events
    ]


def states_before(
    key: tuple[dt.date, dt.date, int] | None, system: RatingSystem
) -> dict[str, PlayerState]:
    """Every member's state before rating position ``key`` (None: before everything)."""
    members = Member.objects.all()
    if key is not None:
        earlier = RatingChange.objects.filter(member=OuterRef("pk")).filter(
            _before_q(key, "event__")
        )
        latest = earlier.order_by("-event__end_date", "-event__start_date", "-event_id")
        members = members.annotate(prior_state=Subquery(latest.values("state_after")[:1]))
    states: dict[str, PlayerState] = {}
    for member in members.iterator(chunk_size=2000):
        prior = getattr(member, "prior_state", None)
        if isinstance(prior, str):  # some backends hand JSON from a subquery back as text
            import json

            prior = json.loads(prior)
        if prior:
            states[str(member.pk)] = state_from_json(prior)
        else:
            states[str(member.pk)] = member_initial_state(member, system)
    return states


# -- re-rating the chain ------------------------------------------------------------


@dataclass(frozen=True)
class RerateScope:
    """What a re-rate from some point touches: shown to the officer before confirming.

    ``key`` is the rating position the chain restarts from (None: from the very
    beginning); everything rateable before it stands, ``events`` are rated anew.
    """

    key: tuple[dt.date, dt.date, int] | None
    events: list[Event]

    @property
    def count(self) -> int:
        return len(self.events)


Position = tuple[dt.date, dt.date, int]


def rerate_scope(
    *, start: Event | Position | None, system: RatingSystem | None = None
) -> RerateScope:
    """The rateable events from ``start`` (or its period's first event) onwards.

    ``start`` is an event or a rating position (an event's old place in the chain,
    for an event that moved or was deleted); None re-rates everything.
    """
    system = system or ClubSettings.load().engine()
    events = list(rateable_events(system))
    if start is None:
        return RerateScope(key=None, events=events)
    key = rating_key(start) if isinstance(start, Event) else start
    index = next((i for i, e in enumerate(events) if rating_key(e) >= key), len(events))
    if system.period_based and index < len(events):
        label = system.period_of(events[index].end_date)
        while index > 0 and system.period_of(events[index - 1].end_date) == label:
            index -= 1
    if index < len(events):
        key = min(key, rating_key(events[index]))
    return RerateScope(key=key, events=events[index:])


def ratings_rerate(
    *,
    start: Event | Position | None = None,
    user: Any = None,
    reason: str,
    progress: Progress | None = None,
    run: RatingRun | None = None,
) -> RatingRun:
    """Re-rate every rateable event from ``start`` onwards (None: everything), atomically.

    The chain before ``start`` is left alone; the states as they stood before it are
    the starting point. Returns the RatingRun logged for it.
    """
    clock = time.perf_counter()
    report = progress or (lambda percent, message: None)
    with transaction.atomic():
        settings = ClubSettings.objects.select_for_update().get(pk=ClubSettings.load().pk)
        system = settings.engine()
        scope = rerate_scope(start=start, system=system)
        report(5, "Loading games")
        inputs = engine_events(scope.events)
        report(20, "Loading ratings before the first event")
        states = states_before(scope.key, system)
        # Everything from the restart point on is derived anew; so is anything left
        # over from events that are no longer rateable.
        stale = RatingChange.objects.all()
        if scope.key is not None:
            kept = Event.objects.filter(rateable_q(system)).filter(_before_q(scope.key))
            stale = stale.exclude(event__in=kept)
        stale.delete()
        report(30, f"Rating {len(inputs)} events")
        result = system.rate(states.values(), inputs)
        report(70, "Saving ratings")
        _save_result(result, scope.events, system)
        games = sum(len(e.games) for e in inputs)
        run = run or RatingRun(user=user if getattr(user, "is_authenticated", False) else None)
        run.reason = reason[:200]
        run.system = system.id
        run.from_event = scope.events[0] if scope.events else None
        run.events_rated = len(inputs)
        run.games_rated = games
        run.seconds = round(time.perf_counter() - clock, 3)
        run.status = RatingRun.Status.DONE
        run.progress = 100
        run.finished = timezone.now()
        run.save()
    report(100, "Done")
    log.info("re-rated %s events, %s games in %.2fs: %s", len(inputs), games, run.seconds, reason)
    return run


def _save_result(result: RatingResult, events: Sequence[Event], system: RatingSystem) -> None:
    by_id = {str(e.pk): e for e in events}
    final = {p.id: p for p in result.players}
    changes: list[RatingChange] = []
    last_event: dict[str, Event] = {}
    # The state after an event is the player's state after the period holding it; for
    # per-event systems the state right after the event. Rebuild it from the changes.
    after_state = _states_after_each(result, system)
    for event_result in result.events:
        event = by_id[event_result.id]
        for change in event_result.changes:
            last_event[change.player] = event
            changes.append(
                RatingChange(
                    event=event,
                    member_id=int(change.player),
                    period=event_result.period or "",
                    before=change.before,
                    after=change.after,
                    display_before=change.display_before,
                    display_after=change.display_after,
                    played=sum(1 for line in change.games if line.rated),
                    score=sum(line.score for line in change.games),
                    breakdown=breakdown_json(change),
                    state_after=after_state[(event_result.id, change.player)],
                )
            )
    RatingChange.objects.bulk_create(changes, batch_size=2000)
    RatingState.objects.all().delete()
    RatingState.objects.bulk_create(
        [
            RatingState(
                member_id=int(pid),
                rating=state.rating,
                display=result.displays[pid],
                games=state.games,
                state=player_to_json(state),
                last_event=last_event.get(pid),
                last_played=(last_event[pid].end_date if pid in last_event else None),
            )
            for pid, state in final.items()
        ],
        batch_size=2000,
    )
    if any(pid not in last_event for pid in final):
        _fill_last_events(final.keys() - last_event.keys())


def _fill_last_events(member_ids: Iterable[str]) -> None:
    """Members not in the re-rated stretch keep their last event from earlier changes."""
    ids = [int(m) for m in member_ids]
    latest = RatingChange.objects.filter(member=OuterRef("member")).order_by(
        "-event__end_date", "-event__start_date", "-event_id"
    )
    rows = (
        RatingState.objects.filter(member_id__in=ids)
        .annotate(
            latest_event=Subquery(latest.values("event_id")[:1]),
            latest_date=Subquery(latest.values("event__end_date")[:1]),
        )
        .exclude(latest_event__isnull=True)
    )
    updates = []
    for row in rows:
        row.last_event_id = row.latest_event
        row.last_played = row.latest_date
        updates.append(row)
    RatingState.objects.bulk_update(updates, ["last_event", "last_played"], batch_size=2000)


def _states_after_each(
    result: RatingResult, system: RatingSystem
) -> dict[tuple[str, str], dict[str, Any]]:
    """The state each player had after each event, for restarting the chain there."""
    final = {p.id: p for p in result.players}
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for event_result in result.events:
        for change in event_result.changes:
            out[(event_result.id, change.player)] = player_to_json(
                change.state or final[change.player]
            )
    return out


def breakdown_json(change: Any) -> dict[str, Any]:
    from .engine.io import change_to_json

    data = change_to_json(change)
    data.pop("state", None)
    for key in ("player", "before", "after", "display_before", "display_after"):
        data.pop(key, None)
    return data


# -- previews -------------------------------------------------------------------------


def event_preview(*, event: Event) -> tuple[EventResult | None, RerateScope]:
    """What rating ``event`` would give, without saving, and what else it re-rates.

    For period systems the preview rates the whole period the event falls in (its
    complete events plus this one): the figures stay provisional until it closes.
    """
    system = ClubSettings.load().engine()
    candidates = list(
        Event.objects.filter(rated=True, status=Event.Status.COMPLETE).in_rating_order()
    )
    if event.pk not in {e.pk for e in candidates}:
        candidates.append(event)
        candidates.sort(key=rating_key)
    if system.period_based:
        label = system.period_of(event.end_date)
        group = [e for e in candidates if system.period_of(e.end_date) == label]
        first = group[0]
    else:
        group = [event]
        first = event
    states = states_before(rating_key(first), system)
    result = system.rate(states.values(), engine_events(group))
    mine = next((r for r in result.events if r.id == str(event.pk)), None)
    scope = rerate_scope(start=event, system=system)
    return mine, scope


# -- completing events and closing periods ------------------------------------------------


def event_complete(*, event: Event, user: Any = None) -> RatingRun | None:
    """Mark ``event`` complete and rate it (and re-rate every later event) if its turn has come.

    Per-event systems rate it at once. Period systems rate it when its period closes
    (or at once, if the event belongs to a period already closed: a late event).
    Returns the rating run, or None when the event waits for its period.
    """
    with transaction.atomic():
        event.status = Event.Status.COMPLETE
        event.save(update_fields=["status"])
        if not event.rated:
            return None
        system = ClubSettings.load().engine()
        if system.period_based:
            period = period_for(event, system)
            if period is None or not period.is_closed:
                return None
        return ratings_rerate(start=event, user=user, reason=f"{event.name} rated")


def period_close(*, period: RatingPeriod, user: Any = None) -> RatingRun:
    """Close a rating period: rate its events and publish the new list."""
    with transaction.atomic():
        if period.pk is None:
            period.save()
        period.closed_at = timezone.now()
        period.closed_by = user if getattr(user, "is_authenticated", False) else None
        period.save(update_fields=["closed_at", "closed_by"])
        first = (
            Event.objects.filter(end_date__gte=period.start, end_date__lte=period.end)
            .in_rating_order()
            .first()
        )
        return ratings_rerate(
            start=first or (period.start, period.start, 0),
            user=user,
            reason=f"Rating period {period.label} closed",
        )


def periods_close_past(
    *, system: RatingSystem, today: dt.date | None = None
) -> list[RatingPeriod]:
    """Close every period of ``system`` that has complete events and has ended before today.

    Used when history is loaded in bulk (imports, the demo, a change of system): past
    periods are published as they would have been; the current one stays open for
    the officer to close. Rates nothing itself: the caller re-rates once.
    """
    if not system.period_based:
        return []
    today = today or timezone.localdate()
    labels: dict[str, tuple[dt.date, dt.date]] = {}
    ends = (
        Event.objects.filter(rated=True, status=Event.Status.COMPLETE, end_date__lt=today)
        .values_list("end_date", flat=True)
        .distinct()
    )
    for end in ends:
        label = system.period_of(end)
        assert label is not None
        if label not in labels:
            labels[label] = system.period_bounds(label)
    closed = []
    now = timezone.now()
    for label, (start, end) in sorted(labels.items(), key=lambda item: item[1]):
        if end >= today:
            continue
        period, _ = RatingPeriod.objects.get_or_create(
            system=system.id, label=label, defaults={"start": start, "end": end}
        )
        if period.closed_at is None:
            period.closed_at = now
            period.save(update_fields=["closed_at"])
        closed.append(period)
    return closed


def rating_system_set(
    *, system_id: str, params: dict[str, Any] | None = None, user: Any = None
) -> RatingRun:
    """Switch the club to another system (or new parameters) and re-rate everything."""
    with transaction.atomic():
        settings = ClubSettings.load()
        settings.rating_system = system_id
        settings.system_params = params or {}
        settings.full_clean()
        settings.save()
        periods_close_past(system=settings.engine())
        return ratings_rerate(user=user, reason=f"Rating system set to {system_id}")
