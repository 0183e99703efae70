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
from django.db.models import F, OuterRef, Q, QuerySet, Subquery
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
    is_usable,
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
    category = ecf_category(member.initial_rating, member.initial_games)
    if category is not None and system.id == "ecf-2020":
        state = PlayerState(
            **{**_fields(state), "category": category, "last_played": member.created.date()}
        )
    return state


def ecf_category(rating: float | None, games: int) -> str | None:
    """The ecf-2020 category of a rating brought in from outside: taken as current.

    Full from 10 games and partial below, as the ECF rates. A rating with no games
    behind it is none (a new player): a partial rating is a performance over its games,
    so with none it would weigh nothing yet show and count as rated for opponents.
    """
    if rating is None or games <= 0:
        return None
    return "full" if games >= 10 else "partial"


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
    """Every member's state before rating position ``key`` (None: before everything).

    Records merged into another are left out: their games are the kept record's now.
    """
    members = Member.objects.active()
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
    if system.period_based:
        # The period of ``start`` itself: it may have no rateable event left from
        # ``start`` on (its last event unrated or deleted), yet its earlier ones are
        # rated anew without it.
        label = system.period_of(key[0])
        while index > 0 and system.period_of(events[index - 1].end_date) == label:
            index -= 1
    if index < len(events):
        key = min(key, rating_key(events[index]))
    return RerateScope(key=key, events=events[index:])


def _rerate_inputs(
    start: Event | Position | None, system: RatingSystem
) -> tuple[RerateScope, list[EngineEvent], dict[str, PlayerState]]:
    """What a re-rate from ``start`` feeds the engine: the events, their games, prior states."""
    scope = rerate_scope(start=start, system=system)
    return scope, engine_events(scope.events), states_before(scope.key, system)


def _rerate_write(
    *,
    scope: RerateScope,
    inputs: Sequence[EngineEvent],
    result: RatingResult,
    system: RatingSystem,
    run: RatingRun | None,
    user: Any,
    reason: str,
    clock: float,
) -> RatingRun:
    """Replace the derived rows from ``scope`` on with ``result`` and log the run (in atomic)."""
    # Everything from the restart point on is derived anew; so is anything left
    # over from events that are no longer rateable.
    stale = RatingChange.objects.all()
    if scope.key is not None:
        kept = Event.objects.filter(rateable_q(system)).filter(_before_q(scope.key))
        stale = stale.exclude(event__in=kept)
    stale.delete()
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
    run.message = ""
    run.finished = timezone.now()
    run.save()
    return run


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
        report(5, "Loading games and the ratings before the first event")
        scope, inputs, states = _rerate_inputs(start, system)
        report(30, f"Rating {len(inputs)} events")
        result = rate_with_progress(system, states.values(), inputs, report)
        report(90, "Saving ratings")
        run = _rerate_write(
            scope=scope,
            inputs=inputs,
            result=result,
            system=system,
            run=run,
            user=user,
            reason=reason,
            clock=clock,
        )
    report(100, "Done")
    log.info(
        "re-rated %s events, %s games in %.2fs: %s",
        run.events_rated,
        run.games_rated,
        run.seconds,
        reason,
    )
    return run


def rate_with_progress(
    system: RatingSystem,
    players: Iterable[PlayerState],
    events: Sequence[EngineEvent],
    report: Progress,
    *,
    low: int = 30,
    high: int = 90,
) -> RatingResult:
    """``system.rate`` with a progress report between rating periods (events, per-event).

    Follows the engine's own driver (``RatingSystem.rate``) step for step; a test holds
    the two equal for every system.
    """
    states: dict[str, PlayerState] = {}
    for player in players:
        states[player.id] = system.prepare(player)
    for event in events:
        for game in event.games:
            for pid in (game.a, game.b):
                if pid not in states:
                    states[pid] = system.prepare(system.new_player(pid))
    groups = system.group_events(events)
    unit = "periods" if system.period_based else "events"
    total_games = sum(len(e.games) for e in events) or 1
    done_games = 0
    results: list[EventResult] = []
    for index, (label, group) in enumerate(groups):
        rated = system.rate_period(states, group, label)
        for event_result in rated:
            for change in event_result.changes:
                change.state = states[change.player]
        results.extend(rated)
        done_games += sum(len(e.games) for e in group)
        if index % 10 == 9 or index == len(groups) - 1:
            report(
                low + (high - low) * done_games // total_games,
                f"Rated {index + 1} of {len(groups)} {unit}",
            )
    ordered = list(states.values())
    return RatingResult(
        system=system.id,
        players=ordered,
        displays={p.id: system.display(p) for p in ordered},
        events=results,
    )


def _save_result(result: RatingResult, events: Sequence[Event], system: RatingSystem) -> None:
    by_id = {str(e.pk): e for e in events}
    final = {p.id: p for p in result.players}
    changes: list[RatingChange] = []
    last_event: dict[str, Event] = {}
    last_change: dict[str, float | None] = {}
    # The state after an event is the player's state after the period holding it; for
    # per-event systems the state right after the event. Rebuild it from the changes.
    after_state = _states_after_each(result, system)
    for event_result in result.events:
        event = by_id[event_result.id]
        for change in event_result.changes:
            last_event[change.player] = event
            last_change[change.player] = (
                None
                if change.before is None or change.after is None
                else change.after - change.before
            )
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
                    event_end=event.end_date,
                    event_start=event.start_date,
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
                last_change=last_change.get(pid),
                usable=is_usable(result.displays[pid]),
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
            latest_delta=Subquery(
                latest.annotate(delta=F("after") - F("before")).values("delta")[:1]
            ),
        )
        .exclude(latest_event__isnull=True)
    )
    updates = []
    for row in rows:
        row.last_event_id = row.latest_event
        row.last_played = row.latest_date
        row.last_change = row.latest_delta
        updates.append(row)
    RatingState.objects.bulk_update(
        updates, ["last_event", "last_played", "last_change"], batch_size=2000
    )


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


def game_line_change(*, line: dict[str, Any]) -> float | None:
    """One game's own change, from a breakdown's game line (None: the system has none).

    Most systems give it as ``change``; ecf-2020 gives each game's ``increment``.
    """
    change = line.get("change")
    return line.get("increment") if change is None else change


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


def event_complete(*, event: Event, user: Any = None, soon: bool = False) -> RatingRun | None:
    """Mark ``event`` complete and rate it (and re-rate every later event) if its turn has come.

    Per-event systems rate it at once. Period systems rate it when its period closes
    (or at once, if the event belongs to a period already closed: a late event).
    Returns the rating run, or None when the event waits for its period.
    ``soon``: a re-rate too long to wait for is queued (``ratings_rerate_soon``).
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
        rerate = ratings_rerate_soon if soon else ratings_rerate
        return rerate(start=event, user=user, reason=f"{event.name} rated")


def period_close(*, period: RatingPeriod, user: Any = None, soon: bool = False) -> RatingRun:
    """Close a rating period: rate its events and publish the new list.

    ``soon``: a re-rate too long to wait for is queued (``ratings_rerate_soon``).
    """
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
        rerate = ratings_rerate_soon if soon else ratings_rerate
        return rerate(
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
    *,
    system_id: str,
    params: dict[str, Any] | None = None,
    user: Any = None,
    soon: bool = False,
) -> RatingRun:
    """Switch the club to another system (or new parameters) and re-rate everything.

    ``soon``: a re-rate too long to wait for is queued (``ratings_rerate_soon``).
    """
    with transaction.atomic():
        settings = ClubSettings.load()
        if (settings.rating_system, settings.system_params) != (system_id, params or {}):
            # Saved only if it changes: the admin has already saved its form, and a
            # second save would put an empty "Changed" row in the audit trail.
            settings.rating_system = system_id
            settings.system_params = params or {}
            settings.full_clean()
            settings.save()
        periods_close_past(system=settings.engine())
        rerate = ratings_rerate_soon if soon else ratings_rerate
        return rerate(user=user, reason=f"Rating system set to {system_id}")


# -- Officer: members, events, results entry and TRF import ------------------------------

#: Member fields the engine reads: changing one re-rates from the member's first event.
MEMBER_RATING_FIELDS = frozenset(
    {"initial_rating", "initial_games", "is_guest", "born", "gender", "title"}
)
#: Event fields that move an event in the chain or in or out of it. The name, kind,
#: rounds and time control are not the engine's: changing them re-rates nothing.
EVENT_RATING_FIELDS = frozenset({"start_date", "end_date", "rated", "status"})


def _who(user: Any) -> Any:
    """The user an audit record names: the acting user, or None for a command or task."""
    return user if getattr(user, "is_authenticated", False) else None


def member_rerate_start(*, member: Member) -> Position | None:
    """Where a change to the member's starting details restarts the chain (None: the start).

    From the first event they played in; with no games yet, re-rating the last event is
    enough to refresh their listed rating.
    """
    first = (
        Event.objects.filter(Q(games__white=member) | Q(games__black=member))
        .distinct()
        .in_rating_order()
        .first()
    )
    if first is not None:
        return rating_key(first)
    last = Event.objects.in_rating_order().last()
    return rating_key(last) if last else None


def member_save(
    *, member: Member, changed: Iterable[str], user: Any = None, soon: bool = False
) -> RatingRun | None:
    """Save an edited member; a change the engine reads (``changed`` fields) re-rates them.

    The chain restarts at ``member_rerate_start``. ``soon``: a re-rate too long to wait
    for is queued (``ratings_rerate_soon``).
    """
    with transaction.atomic():
        member.save()
        if MEMBER_RATING_FIELDS.isdisjoint(changed):
            return None
        rerate = ratings_rerate_soon if soon else ratings_rerate
        return rerate(
            start=member_rerate_start(member=member),
            user=user,
            reason=f"{member}: starting details changed",
        )


def event_rerate_needed(*, event: Event) -> bool:
    """A change to this event's record moves ratings: it is rated, or was until now."""
    return event.rating_changes.exists() or (event.rated and event.status == Event.Status.COMPLETE)


def _entries_create(*, event: Event, member_ids: Iterable[int], user: Any) -> int:
    """Enter the members not in ``event`` yet, each entry in the audit trail."""
    from simple_history.utils import bulk_create_with_history

    from .models import Entry

    have = set(event.entries.values_list("member_id", flat=True))
    new = [Entry(event=event, member_id=pk) for pk in dict.fromkeys(member_ids) if pk not in have]
    if new:
        bulk_create_with_history(new, Entry, default_user=_who(user))
    return len(new)


def entries_add(*, event: Event, members: Iterable[Member], user: Any = None) -> int:
    """Enter ``members`` in ``event`` (those already in it stay as they are); how many were new."""
    with transaction.atomic():
        return _entries_create(event=event, member_ids=[m.pk for m in members], user=user)


def _delete_with_history(objs: Sequence[Any], *, user: Any) -> None:
    """Delete ``objs`` in one query, the audit trail recording each with ``user``."""
    from django.db import router
    from django.db.models.deletion import Collector

    if not objs:
        return
    if user is not None:
        for obj in objs:
            obj._history_user = user
    # QuerySet.delete() would load fresh instances that do not carry the user.
    collector = Collector(using=router.db_for_write(type(objs[0])))
    collector.collect(objs)
    collector.delete()


#: What entering a game again may change about it (as fields, and as attributes).
GAME_FIELDS = ["round", "board", "white", "black", "result", "colours_known"]
_GAME_VALUES = ["round", "board", "white_id", "black_id", "result", "colours_known"]


def _games_match(old: Sequence[Game], new: Sequence[Game]) -> list[tuple[Game | None, Game]]:
    """Pair each new game with the old one it re-enters (None: a game not there before).

    First the same round and players (either colours), then the same round and board.
    """
    by_players: dict[tuple[int, frozenset[int | None]], list[Game]] = {}
    for game in old:
        by_players.setdefault((game.round, frozenset((game.white_id, game.black_id))), []).append(
            game
        )
    matched: dict[int, Game] = {}
    for index, game in enumerate(new):
        same = by_players.get((game.round, frozenset((game.white_id, game.black_id))))
        if same:
            matched[index] = same.pop(0)
    left = {id(g) for games in by_players.values() for g in games}
    by_board = {(g.round, g.board): g for g in reversed(old) if id(g) in left and g.board}
    for index, game in enumerate(new):
        if index not in matched and (game.round, game.board) in by_board:
            matched[index] = by_board.pop((game.round, game.board))
    return [(matched.get(index), game) for index, game in enumerate(new)]


def games_replace(
    *,
    event: Event,
    games: Sequence[Game],
    rounds: Iterable[int] | None,
    pairs_only: bool = False,
    user: Any = None,
    soon: bool = False,
) -> RatingRun | None:
    """Make the games of ``rounds`` (None: every round) ``games``, atomically.

    A game entered again (same round and players, or same round and board) is updated in
    place when something about it changed and left alone when nothing did; games no
    longer there are deleted and new ones created. The audit trail records each change,
    before and after, with ``user``. ``pairs_only``: only games between two players are
    replaced (a round robin's grid); byes and absences stay as they are.

    Every player in them is entered in the event. If anything changed, a rated event (or
    a complete one waiting to be rated) is re-rated from its place in the chain onwards.
    ``soon``: a re-rate too long to wait for is queued (``ratings_rerate_soon``).
    """
    from simple_history.utils import bulk_create_with_history, bulk_update_with_history

    who = _who(user)
    with transaction.atomic():
        old = event.games.order_by("round", "board", "pk")
        if rounds is not None:
            old = old.filter(round__in=list(rounds))
        if pairs_only:
            old = old.exclude(black__isnull=True)
        old_games = list(old)
        created, updated, kept = [], [], set()
        for previous, game in _games_match(old_games, games):
            game.event = event
            if previous is None:
                created.append(game)
                continue
            kept.add(previous.pk)
            if any(getattr(previous, v) != getattr(game, v) for v in _GAME_VALUES):
                for v in _GAME_VALUES:
                    setattr(previous, v, getattr(game, v))
                updated.append(previous)
        gone = [g for g in old_games if g.pk not in kept]
        _delete_with_history(gone, user=who)
        if updated:
            bulk_update_with_history(updated, Game, GAME_FIELDS, default_user=who)
        if created:
            bulk_create_with_history(created, Game, default_user=who)
        players = [g.white_id for g in games] + [g.black_id for g in games if g.black_id]
        _entries_create(event=event, member_ids=players, user=user)
        if (gone or updated or created) and event_rerate_needed(event=event):
            rerate = ratings_rerate_soon if soon else ratings_rerate
            return rerate(start=event, user=user, reason=f"{event.name}: results changed")
    return None


def event_save(
    *,
    event: Event,
    previous: Position | None,
    changed: Iterable[str] = EVENT_RATING_FIELDS,
    user: Any = None,
    soon: bool = False,
) -> RatingRun | None:
    """Save an edited event; a rated one is re-rated from the earlier of its old and new places.

    Only a change to one of the ``EVENT_RATING_FIELDS`` (of the ``changed`` fields)
    re-rates: a renamed event keeps its ratings as they are.
    ``soon``: a re-rate too long to wait for is queued (``ratings_rerate_soon``).
    """
    with transaction.atomic():
        event.save()
        moved = not EVENT_RATING_FIELDS.isdisjoint(changed)
        if moved and previous is not None and event_rerate_needed(event=event):
            rerate = ratings_rerate_soon if soon else ratings_rerate
            return rerate(
                start=min(previous, rating_key(event)),
                user=user,
                reason=f"{event.name}: event changed",
            )
    return None


def trf_import(
    *,
    event: Event,
    games: Sequence[tuple[int, int, int | None, str, bool]],
    players: dict[int, Member],
    user: Any = None,
) -> Event:
    """Create an imported event with its entries and games in one transaction.

    ``players`` maps the file's starting ranks to members (unsaved ones are created:
    the new members and guests the officer chose); ``games`` are (round, white rank,
    black rank or None, result, colours known). Everything is in the audit trail, by
    ``user``.
    """
    from simple_history.utils import bulk_create_with_history

    from .models import Entry

    who = _who(user)
    with transaction.atomic():
        for record in (event, *players.values()):
            if record.pk is None and who is not None:
                record._history_user = who  # type: ignore[attr-defined]
        event.save()
        for member in players.values():
            if member.pk is None:
                member.save()
        members = {m.pk: m for m in players.values()}.values()
        bulk_create_with_history(
            [Entry(event=event, member=m) for m in members], Entry, default_user=who
        )
        bulk_create_with_history(
            [
                Game(
                    event=event,
                    round=round_,
                    white=players[white],
                    black=players[black] if black is not None else None,
                    result=result,
                    colours_known=known,
                )
                for round_, white, black, result, known in games
            ],
            Game,
            default_user=who,
        )
    return event


# -- Published list and reports: the rating calculator ---------------------------------

#: A typed opponent's rating is taken as an established one: this many games.
CALCULATOR_TYPED_GAMES = 30


def calculator_states(*, members: Iterable[Member]) -> dict[int, PlayerState]:
    """Members as the engine would see them now (their stored states), in one query."""
    system = ClubSettings.load().engine()
    members = list(members)
    stored = dict(RatingState.objects.filter(member__in=members).values_list("member_id", "state"))
    states = {}
    for member in members:
        data = stored.get(member.pk)
        states[member.pk] = state_from_json(data) if data else member_initial_state(member, system)
    return states


def calculator_typed(*, key: str, rating: float, games: int) -> PlayerState:
    """A typed rating as the engine would take it."""
    state = PlayerState(id=key, rating=rating, games=games)
    category = ecf_category(rating, games)
    if category is not None and ClubSettings.load().rating_system == "ecf-2020":
        state = PlayerState(
            **{**_fields(state), "category": category, "last_played": timezone.localdate()}
        )
    return state


def calculator_rate(*, player: PlayerState, games: Sequence[tuple[PlayerState, float]]) -> Any:
    """What ``player`` would gain from ``games`` (opponent, score) today, saving nothing.

    Returns the engine's PlayerChange: before, after, the displays and one line per game.
    """
    system = ClubSettings.load().engine()
    states = {player.id: player}
    for opponent, _ in games:
        states.setdefault(opponent.id, opponent)
    event = EngineEvent(
        id="what-if",
        date=timezone.localdate(),
        games=tuple(
            EngineGame(player.id, opponent.id, score, number)
            for number, (opponent, score) in enumerate(games, 1)
        ),
    )
    result = system.rate(states.values(), [event])
    return next(c for c in result.events[0].changes if c.player == player.id)


# -- Corrections: the admin, merging duplicates, background re-rates ----------------------


def position_json(start: Event | Position | None) -> list[Any] | None:
    """A restart point as a task argument (JSON): [end, start, pk] or None."""
    if start is None:
        return None
    end, begin, pk = rating_key(start) if isinstance(start, Event) else start
    return [end.isoformat(), begin.isoformat(), pk]


def position_from_json(data: list[Any] | None) -> Position | None:
    if data is None:
        return None
    end, begin, pk = data
    return (dt.date.fromisoformat(end), dt.date.fromisoformat(begin), int(pk))


def rerate_estimate(
    *, start: Event | Position | None, system: RatingSystem | None = None
) -> float:
    """Seconds a re-rate from ``start`` should take, at the pace of the last finished runs.

    With no run to go by yet it guesses a pace slow enough to err towards the background.
    """
    system = system or ClubSettings.load().engine()
    scope = rerate_scope(start=start, system=system)
    games = Game.objects.filter(
        event__in=[e.pk for e in scope.events], result__in=Game.PLAYED
    ).count()
    pace = 1_000.0  # games a second, before any run has been timed (the demo does ~1,200)
    # Runs of a few games are mostly fixed overhead: they would make big ones look slow.
    recent = RatingRun.objects.filter(
        status=RatingRun.Status.DONE, games_rated__gte=100, seconds__gt=0
    ).order_by("-finished")[:5]
    timed = [(r.games_rated, r.seconds) for r in recent if r.seconds]
    if timed:
        pace = sum(g for g, _ in timed) / sum(s for _, s in timed)
    return games / pace


def ratings_rerate_soon(
    *, start: Event | Position | None = None, user: Any = None, reason: str
) -> RatingRun:
    """Re-rate from ``start`` now, in this transaction, or queue it when it would be slow.

    A re-rate estimated above settings.RERATE_FOREGROUND_SECONDS is queued for the task
    worker once this transaction commits; until it finishes the published list keeps
    the last complete ratings. The run returned is DONE, or QUEUED with a progress page.
    """
    from django.conf import settings

    limit = getattr(settings, "RERATE_FOREGROUND_SECONDS", 2.0)
    if rerate_estimate(start=start) <= limit:
        return ratings_rerate(start=start, user=user, reason=reason)
    from .tasks import rerate_in_background

    system = ClubSettings.load().engine()
    run = RatingRun.objects.create(
        user=user if getattr(user, "is_authenticated", False) else None,
        reason=reason[:200],
        system=system.id,
        from_event=start if isinstance(start, Event) else None,
        status=RatingRun.Status.QUEUED,
        message="Waiting for the worker",
    )
    where = position_json(start)
    transaction.on_commit(lambda: rerate_in_background.enqueue(run_pk=run.pk, start=where))
    return run


def run_progress(*, run: RatingRun, percent: int, message: str) -> None:
    """Record a background run's progress, committed at once so the progress page sees it."""
    RatingRun.objects.filter(pk=run.pk).update(progress=percent, message=message[:500])


def rerate_run(*, run: RatingRun, start: Event | Position | None) -> RatingRun:
    """Carry out a queued re-rate: the slow rating outside any transaction, then one write.

    Readers keep seeing the old ratings until the write commits. Progress is written as it
    goes, outside the write. If the games or the ratings before ``start`` changed while
    rating (an officer kept working), the write rates again from the record as it stands,
    so the saved ratings always match the games.
    """
    clock = time.perf_counter()
    RatingRun.objects.filter(pk=run.pk).update(
        status=RatingRun.Status.RUNNING, started=timezone.now(), progress=1
    )

    def report(percent: int, message: str) -> None:
        run_progress(run=run, percent=percent, message=message)

    try:
        system = ClubSettings.load().engine()
        report(5, "Loading games and the ratings before the first event")
        scope, inputs, states = _rerate_inputs(start, system)
        report(30, f"Rating {len(inputs)} events")
        result = rate_with_progress(system, states.values(), inputs, report)
        report(90, "Saving ratings")
        with transaction.atomic():
            settings = ClubSettings.objects.select_for_update().get(pk=ClubSettings.load().pk)
            now_system = settings.engine()
            now_scope, now_inputs, now_states = _rerate_inputs(start, now_system)
            unchanged = (
                now_system.id == system.id
                and now_system.params == system.params
                and [e.pk for e in now_scope.events] == [e.pk for e in scope.events]
                and now_scope.key == scope.key
                and now_inputs == inputs
                and now_states == states
            )
            if not unchanged:
                log.info("record changed during background re-rate %s: rating again", run.pk)
                result = now_system.rate(now_states.values(), now_inputs)
                scope, inputs, system = now_scope, now_inputs, now_system
            run.refresh_from_db()
            run = _rerate_write(
                scope=scope,
                inputs=inputs,
                result=result,
                system=system,
                run=run,
                user=run.user,
                reason=run.reason,
                clock=clock,
            )
    except Exception as error:
        RatingRun.objects.filter(pk=run.pk).update(
            status=RatingRun.Status.FAILED,
            finished=timezone.now(),
            message=f"{type(error).__name__}: {error}"[:500],
        )
        raise
    log.info("background re-rate %s: %s events in %.2fs", run.pk, run.events_rated, run.seconds)
    return run


class MergeRefused(ValueError):
    """Two member records cannot be merged; the message says why, for the officer."""


def merge_problem(members: Sequence[Member]) -> str | None:
    """Why these records of one person cannot be merged, or None."""
    pks = [m.pk for m in members]
    if len(set(pks)) < 2:
        return "Choose two different members to merge."
    clash = (
        Game.objects.filter(white__in=pks, black__in=pks)
        .select_related("event", "white", "black")
        .first()
    )
    if clash is not None:
        return (
            f"{clash.white} and {clash.black} played each other ({clash.event}, round "
            f"{clash.round}): merging them would make a player play themselves. "
            "Correct that game first."
        )
    return None


#: Fields a duplicate fills in a merge when the record kept has them blank.
MERGE_FILLED_FIELDS = ("fide_id", "title", "born")


def merge_fills(*, sources: Sequence[Member], target: Member) -> dict[str, tuple[Member, Any]]:
    """What merging copies into ``target``: each blank of it a duplicate has, first one first.

    The record kept keeps its own name, number and every field it has; only its blank
    FIDE id, title and date of birth are filled from the duplicates.
    """
    fills: dict[str, tuple[Member, Any]] = {}
    for field in MERGE_FILLED_FIELDS:
        if getattr(target, field) in (None, ""):
            for source in sources:
                value = getattr(source, field)
                if value not in (None, ""):
                    fills[field] = (source, value)
                    break
    return fills


def _first_event(member_ids: Sequence[int]) -> Event | None:
    return (
        Event.objects.filter(Q(games__white__in=member_ids) | Q(games__black__in=member_ids))
        .distinct()
        .in_rating_order()
        .first()
    )


def merge_rerate_start(*, sources: Sequence[Member], target: Member) -> Position | None:
    """Where merging ``sources`` into ``target`` restarts the chain (None: nothing to re-rate).

    From the duplicates' first event; from the kept record's own first event if the merge
    fills one of its fields the engine reads (title, date of birth).
    """
    keys = []
    first = _first_event([m.pk for m in sources])
    if first is not None:
        keys.append(rating_key(first))
    if MEMBER_RATING_FIELDS & set(merge_fills(sources=sources, target=target)):
        own = _first_event([target.pk])
        if own is not None:
            keys.append(rating_key(own))
    return min(keys) if keys else None


def member_merge(*, source: Member, target: Member, user: Any = None) -> RatingRun | None:
    """Merge the duplicate ``source`` into ``target`` and re-rate from its first event."""
    return members_merge(sources=[source], target=target, user=user)


def members_merge(
    *, sources: Sequence[Member], target: Member, user: Any = None
) -> RatingRun | None:
    """Merge the duplicates ``sources`` into ``target``; re-rate once, from the first event.

    Every game (as white or black), entry and subscription moves to ``target``; an
    entry or subscription ``target`` already has is dropped rather than doubled. The
    duplicates stay on file as merged_into=target, so old links still resolve. The
    kept record's blank FIDE id, title and date of birth are filled from the duplicates
    (``merge_fills``). Both sides' audit trails say what was merged.
    """
    from simple_history.utils import bulk_update_with_history

    from .models import Entry, Subscription

    if target.merged_into_id is not None:
        raise MergeRefused(f"{target} was itself merged into another record; keep that one.")
    problem = merge_problem([target, *sources])
    if problem:
        raise MergeRefused(problem)
    ids = [m.pk for m in sources]
    who = user if getattr(user, "is_authenticated", False) else None
    with transaction.atomic():
        start = merge_rerate_start(sources=sources, target=target)
        fills = merge_fills(sources=sources, target=target)
        for source in sources:
            why = (
                f"Merged {source} ({source.member_number}) into {target} ({target.member_number})"
            )
            # Moved row by row with history, so the audit trail shows every game that moved.
            games = list(Game.objects.filter(Q(white=source) | Q(black=source)))
            for game in games:
                if game.white_id == source.pk:
                    game.white = target
                if game.black_id == source.pk:
                    game.black = target
            bulk_update_with_history(
                games, Game, ["white", "black"], default_user=who, default_change_reason=why
            )
            target_events = set(
                Entry.objects.filter(member=target).values_list("event_id", flat=True)
            )
            for entry in Entry.objects.filter(member=source):
                entry._change_reason = why  # type: ignore[attr-defined]
                if entry.event_id in target_events:
                    entry.delete()
                else:
                    entry.member = target
                    entry.save(update_fields=["member"])
            target_seasons = set(
                Subscription.objects.filter(member=target).values_list("season_id", flat=True)
            )
            for subscription in Subscription.objects.filter(member=source):
                subscription._change_reason = why  # type: ignore[attr-defined]
                if subscription.season_id in target_seasons:
                    subscription.delete()
                else:
                    subscription.member = target
                    subscription.save(update_fields=["member"])
            for earlier in Member.objects.filter(merged_into=source):
                earlier.merged_into = target
                earlier._change_reason = why  # type: ignore[attr-defined]
                earlier.save(update_fields=["merged_into"])
            source.merged_into = target
            source._change_reason = why  # type: ignore[attr-defined]
            source.save(update_fields=["merged_into"])
        # The kept record's own audit trail says what was merged into it (and what filled
        # its blanks), in one row.
        for field, (_, value) in fills.items():
            setattr(target, field, value)
        merged = ", ".join(f"{m.member_number} ({m.name})" for m in sources)
        reason = f"merged {merged} into this record"
        if fills:
            copied = ", ".join(
                f"{Member._meta.get_field(f).verbose_name} from {m.member_number}"
                for f, (m, _) in fills.items()
            )
            reason += f"; copied {copied}"
        target._change_reason = reason[:100]  # type: ignore[attr-defined]
        target.save()
        # The duplicates' ratings go; the kept record's come from the games, re-rated.
        RatingState.objects.filter(member__in=ids).delete()
        RatingChange.objects.filter(member__in=ids).delete()
        if start is None:
            return None
        names = ", ".join(str(m) for m in sources)
        return ratings_rerate_soon(start=start, user=user, reason=f"{names} merged into {target}")
