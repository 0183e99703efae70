"""The rating chain: which events the system rates now, in what order, and from what states.

A rating position is an event's place in the chain, ``(end date, start date, pk)``: the
engine's order. Everything here reads; ``rerate.py`` writes.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter
from typing import Any

from django.db.models import OuterRef, Q, QuerySet, Subquery

from ..engine import Event as EngineEvent
from ..engine import Game as EngineGame
from ..engine import PlayerState, RatingSystem
from ..engine.codec import state_from_dict
from ..models import ClubSettings, Event, Game, Member, RatingChange, RatingPeriod
from ..models.rating_lists import on_list
from ..rules.places_of_play import list_place
from ..rules.time_classes import STANDARD

Position = tuple[dt.date, dt.date, int]


def rating_key(event: Event) -> Position:
    """Where an event stands in the chain: the engine's order."""
    return (event.end_date, event.start_date, event.pk)


def position_of(start: Event | Position) -> Position:
    return rating_key(start) if isinstance(start, Event) else start


def before_q(key: Position, prefix: str = "") -> Q:
    """Events strictly before rating position ``key`` (``prefix``: the path to the event)."""
    end, start, pk = key
    p = prefix
    return (
        Q(**{f"{p}end_date__lt": end})
        | Q(**{f"{p}end_date": end, f"{p}start_date__lt": start})
        | Q(**{f"{p}end_date": end, f"{p}start_date": start, f"{p}pk__lt": pk})
    )


def change_before_q(key: Position) -> Q:
    """Rating changes of events strictly before ``key``, by the place each change keeps."""
    end, start, pk = key
    return (
        Q(event_end__lt=end)
        | Q(event_end=end, event_start__lt=start)
        | Q(event_end=end, event_start=start, event_id__lt=pk)
    )


def closed_periods(
    system: RatingSystem[Any], time_class: str = STANDARD
) -> QuerySet[RatingPeriod]:
    return RatingPeriod.objects.of_list(system, time_class).closed()


def rateable_q(system: RatingSystem[Any], time_class: str = STANDARD) -> Q:
    """Events a list's system rates now: rated, complete, of a time control the list rates
    (over the board or online, as the list's place), on an online list from the day the
    system rates online play (``online_rated_from``) and, for period systems, in a
    closed period of the list."""
    q = Q(rated=True, status=Event.Status.COMPLETE) & on_list(time_class)
    if list_place(time_class)[1] and system.online_rated_from is not None:
        q &= Q(end_date__gte=system.online_rated_from)
    if system.period_based:
        ranges = Q(pk__in=[])
        for start, end in closed_periods(system, time_class).values_list("start", "end"):
            ranges |= Q(end_date__gte=start, end_date__lte=end)
        q &= ranges
    return q


def rateable_events(system: RatingSystem[Any], time_class: str = STANDARD) -> QuerySet[Event]:
    return Event.objects.filter(rateable_q(system, time_class)).in_rating_order()


def period_for(
    event: Event, system: RatingSystem[Any], time_class: str = STANDARD
) -> RatingPeriod | None:
    """The (possibly new, unsaved) rating period of list ``time_class`` holding ``event``;
    None for per-event systems (``RatingPeriod.objects.for_event``)."""
    return RatingPeriod.objects.for_event(event, system=system, time_class=time_class)


@dataclass(frozen=True)
class RerateScope:
    """What a re-rate from some point touches: shown to the officer before confirming.

    ``key`` is the rating position the chain restarts from (None: from the very
    beginning); everything rateable before it stands, ``events`` are rated anew.
    """

    key: Position | None
    events: list[Event]

    @property
    def count(self) -> int:
        return len(self.events)


def rerate_scope(
    *,
    start: Event | Position | None,
    system: RatingSystem[Any] | None = None,
    time_class: str = STANDARD,
) -> RerateScope:
    """The rateable events from ``start`` (or its period's first event) onwards.

    ``start`` is an event or a rating position (an event's old place in the chain,
    for an event that moved or was deleted); None re-rates everything. Only the events
    from there on are read.
    """
    system = system or ClubSettings.load().engine(time_class)
    rateable = rateable_events(system, time_class)
    if start is None:
        return RerateScope(key=None, events=list(rateable))
    key = position_of(start)
    if system.period_based:
        # From the first rateable event of ``start``'s period: it may have none left from
        # ``start`` on (its last event unrated or deleted), yet its earlier ones are
        # rated anew without it.
        label = system.period_of(key[0])
        assert label is not None
        first_day, last_day = system.period_bounds(label)
        first = rateable.filter(end_date__gte=first_day, end_date__lte=last_day).first()
        if first is not None:
            key = min(key, rating_key(first))
    return RerateScope(key=key, events=list(rateable.exclude(before_q(key))))


# -- engine input ---------------------------------------------------------------


def member_initial_state(
    member: Member, system: RatingSystem[Any], time_class: str = STANDARD
) -> PlayerState:
    """A member as the engine sees them before their first event on a list.

    A rating brought in (and its games, status and category) is a standard one: on
    another list the member starts as a new player.
    """
    if time_class != STANDARD:
        bare = PlayerState(
            id=str(member.pk),
            guest=member.is_guest,
            born=member.born,
            gender=member.gender or None,
            title=member.title or None,
        )
        own: PlayerState = system.own_state(bare)
        return own
    state = PlayerState(
        id=str(member.pk),
        rating=member.initial_rating,
        games=member.initial_games,
        guest=member.is_guest,
        born=member.born,
        gender=member.gender or None,
        title=member.title or None,
    )
    standing = member.brought_in_standing(system.brought_in_standing)
    brought: PlayerState = system.brought_in(state, standing=standing, since=member.created.date())
    return brought


def state_from_json(data: dict[str, Any] | str) -> PlayerState:
    """A stored state (some backends hand JSON from a subquery back as text)."""
    return state_from_dict(json.loads(data) if isinstance(data, str) else data)


def engine_events(events: Sequence[Event]) -> list[EngineEvent]:
    """The events as the engine takes them: played games only, one query for all games."""
    by_event: dict[int, list[EngineGame]] = {e.pk: [] for e in events}
    games = (
        Game.objects.filter(event__in=[e.pk for e in events], result__in=Game.PLAYED)
        .exclude(black__isnull=True)
        .order_by("event_id", "round", "board", "pk")
        .values_list("event_id", "white_id", "black_id", "result", "round")
    )
    points = {result: score for result, (score, _) in Game.POINTS.items()}
    for event_id, white, black, result, round_ in games.iterator(chunk_size=5000):
        by_event[event_id].append(EngineGame(str(white), str(black), points[result], round_))
    return [
        EngineEvent(id=str(e.pk), date=e.end_date, games=tuple(by_event[e.pk])) for e in events
    ]


_PAIR = attrgetter("a", "b")
_GAMES = attrgetter("games")


def players_of(events: Iterable[EngineEvent]) -> set[int]:
    """The members playing in ``events``: each id read once (C-level passes: a batch of a
    full re-rate holds some fifty thousand games)."""
    games = chain.from_iterable(map(_GAMES, events))
    return set(map(int, set(chain.from_iterable(map(_PAIR, games)))))


@dataclass(frozen=True)
class PriorChange:
    """A member's last rating change before some position: where a re-rate picks them up."""

    event_id: int
    event_end: dt.date
    shown_before: str
    shown_after: str
    state: PlayerState


def last_changes_before(
    key: Position | None, member_ids: Iterable[int], time_class: str = STANDARD
) -> dict[int, PriorChange]:
    """Each member's last rating change on a list before ``key`` (None: before everything,
    so none).

    One indexed lookup a member (``change_member_chain``), in chunks: the members'
    older changes are never read.
    """
    ids = sorted(set(member_ids))
    if key is None or not ids:
        return {}
    earlier = (
        RatingChange.objects.filter(member=OuterRef("pk"), time_class=time_class)
        .filter(change_before_q(key))
        .order_by("-event_end", "-event_start", "-event_id")
    )
    found: dict[int, PriorChange] = {}
    for chunk in (ids[i : i + 500] for i in range(0, len(ids), 500)):
        last = dict(
            Member.objects.filter(pk__in=chunk)
            .annotate(last=Subquery(earlier.values("pk")[:1]))
            .exclude(last__isnull=True)
            .values_list("last", "pk")
        )
        rows = RatingChange.objects.filter(pk__in=last).values_list(
            "pk", "event_id", "event_end", "display_before", "display_after", "state_after"
        )
        for pk, event_id, event_end, shown_before, shown_after, state in rows:
            found[last[pk]] = PriorChange(
                event_id, event_end, shown_before, shown_after, state_from_json(state)
            )
    return found


def states_before(
    key: Position | None,
    system: RatingSystem[Any],
    member_ids: Iterable[int] | None = None,
    time_class: str = STANDARD,
) -> dict[str, PlayerState]:
    """The members' states on a list before rating position ``key`` (None: before
    everything).

    ``member_ids`` None: every member, but for records merged into another (their games
    are the kept record's now).
    """
    wanted = Member.objects.active()
    if member_ids is not None:
        wanted = wanted.filter(pk__in=list(member_ids))
    members = list(wanted)
    prior = last_changes_before(key, [m.pk for m in members], time_class)
    return {
        str(m.pk): prior[m.pk].state
        if m.pk in prior
        else member_initial_state(m, system, time_class)
        for m in members
    }
