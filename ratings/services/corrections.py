"""Corrections to the record, one record at a time (the admin's forms, inlines, actions and
deletes): where each restarts the chain, and the one re-rate it asks for.

The officer's pages save through ``event_save``, ``games_replace`` and ``member_save``;
the admin saves a record through its form, then tells these what changed. Either way
the re-rate is ``ratings_update``'s (now, or in the background for a page waiting).

Below the services that save events and members (``events``, ``members``): they call
down to these, and what a change moves (the fields the engine reads, whether an event
counts, where the chain restarts) is said here once, for both.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q

from ..models import (
    Entry,
    Event,
    Game,
    Member,
    RatingPeriod,
    RatingRun,
    entry_with_games_problem,
    rules,
)
from .audit import audit_user, reason_kept
from .chain import Position, rating_key, rerate_scope
from .event_entries import entries_create
from .member_states import member_states_write
from .rerate import RerateRequest
from .runs import ratings_update

#: Event fields that move an event in the chain or in or out of it (its time class and
#: where it was played move it between lists). The name, kind, rounds and time control
#: are not the engine's: changing them re-rates nothing.
EVENT_RATING_FIELDS = frozenset(
    {"start_date", "end_date", "rated", "status", "time_class", "online"}
)

#: Member fields the engine reads: changing one re-rates from the member's first event.
MEMBER_RATING_FIELDS = frozenset(
    {
        "initial_rating",
        "initial_games",
        "brought_in",
        "is_guest",
        "born",
        "gender",
        "title",
    }
)


def event_rerate_needed(*, event: Event) -> bool:
    """A change to this event's record moves ratings: it is rated, or was until now."""
    return event.rating_changes.exists() or (event.rated and event.status == Event.Status.COMPLETE)


def members_first_event(*, member_ids: Sequence[int]) -> Event | None:
    """The first event, in rating order, any of these members played a game in."""
    return (
        Event.objects.filter(Q(games__white__in=member_ids) | Q(games__black__in=member_ids))
        .distinct()
        .in_rating_order()
        .first()
    )


def member_rerate_start(*, member: Member) -> Position | None:
    """Where a change to the member's starting details restarts the chain.

    From the first event they played in; None when they have played in none (their
    state alone is rewritten: ``member_states_write``).
    """
    first = members_first_event(member_ids=[member.pk])
    return rating_key(first) if first is not None else None


def event_rerate_start(
    *,
    event: Event,
    previous: Position | None,
    changed: Iterable[str],
    games_changed: bool = False,
) -> Position | None:
    """Where a change to ``event`` restarts the chain, or None when it moves no rating.

    ``previous``: its place before the change (None: a new event); ``changed``: the
    fields changed; ``games_changed``: games added, changed or deleted with it. Only an
    event that counts for ratings (rated and complete, or rated until now) moves any;
    a change to one of the ``EVENT_RATING_FIELDS`` restarts the chain from the earlier of
    its old and new places, a change to its games from its place.
    """
    if not event_rerate_needed(event=event):
        return None
    key = rating_key(event)
    if previous is None:
        return key
    if not EVENT_RATING_FIELDS.isdisjoint(changed):
        return min(previous, key)
    return key if games_changed else None


def event_changed(
    *,
    event: Event,
    previous: Position | None,
    changed: Iterable[str],
    games_changed: bool = False,
    user: Any = None,
    reason: str,
) -> RatingRun | None:
    """Re-rate after ``event`` (and, ``games_changed``, its games) was saved, if it moves
    ratings (``event_rerate_start``); None when it does not."""
    changed = set(changed)
    if games_changed:
        players_entered(event=event, user=user)
    start = event_rerate_start(
        event=event, previous=previous, changed=changed, games_changed=games_changed
    )
    if start is None:
        return None
    # Only its games changed: the ripple from this event (``services/ripple.py``).
    only_games = previous is not None and EVENT_RATING_FIELDS.isdisjoint(changed)
    return ratings_update(
        RerateRequest(start=start, changed=event if only_games else None, user=user, reason=reason)
    )


def players_entered(*, event: Event, user: Any = None) -> int:
    """Enter in ``event`` every player of its games not entered yet (a game's players are
    entered in its event, as the officer's round pages enter them); how many were new."""
    players = [
        pk
        for pair in event.games.values_list("white_id", "black_id")
        for pk in pair
        if pk is not None
    ]
    return entries_create(event=event, member_ids=players, user=user)


def games_changed(*, events: Iterable[Event], user: Any = None, reason: str) -> RatingRun | None:
    """After games of ``events`` were saved one by one (a game moved from one event to
    another names both): their players entered, and a re-rate from the earliest event
    that counts for ratings."""
    events = list(events)
    for event in events:
        players_entered(event=event, user=user)
    counting = {e.pk: e for e in events if event_rerate_needed(event=e)}
    if not counting:
        return None
    first = min(counting.values(), key=rating_key)
    return ratings_update(
        RerateRequest(
            start=first, changed=first if len(counting) == 1 else None, user=user, reason=reason
        )
    )


def member_changed(
    *, member: Member, changed: Iterable[str], user: Any = None, reason: str
) -> RatingRun | None:
    """After a member's record was saved: a change the engine reads (their starting
    details) rewrites their states and re-rates from their first event."""
    if MEMBER_RATING_FIELDS.isdisjoint(changed):
        return None
    member_states_write(member_ids=[member.pk])
    start = member_rerate_start(member=member)
    if start is None:
        return None
    return ratings_update(
        RerateRequest(start=start, members=[member.pk], user=user, reason=reason)
    )


#: A rating period's fields that change what is rated (closed or open, its dates).
PERIOD_RATING_FIELDS = frozenset({"start", "end", "closed_at", "system"})


def period_changed(
    *,
    period: RatingPeriod,
    previous_start: dt.date | None,
    changed: Iterable[str],
    user: Any = None,
    reason: str,
) -> RatingRun | None:
    """After a rating period was saved: closing or reopening it, or moving its dates,
    re-rates from the earlier of its old and new starts."""
    if PERIOD_RATING_FIELDS.isdisjoint(changed) and previous_start is not None:
        return None
    first = min(period.start, previous_start) if previous_start else period.start
    return ratings_update(RerateRequest(start=(first, dt.date.min, 0), user=user, reason=reason))


# -- deletions ----------------------------------------------------------------------------


def deletion_rerate_start(*, records: Sequence[Any]) -> Position | None:
    """Where deleting ``records`` (events, games or rating periods) restarts the chain, or
    None when nothing of them is rated. Members and entries move no rating: a member with
    games, or an entry of a player with games, cannot be deleted."""
    starts: list[Position] = []
    for record in records:
        if isinstance(record, Event) and event_rerate_needed(event=record):
            starts.append(rating_key(record))
        elif isinstance(record, Game) and event_rerate_needed(event=record.event):
            starts.append(rating_key(record.event))
        elif isinstance(record, RatingPeriod):
            starts.append((record.start, dt.date.min, 0))
    return min(starts, default=None)


def deletion_rerate_count(*, records: Sequence[Any]) -> int:
    """How many events deleting ``records`` re-rates (said on the confirmation page):
    the deleted events themselves are not re-rated, they go."""
    start = deletion_rerate_start(records=records)
    if start is None:
        return 0
    gone = {r.pk for r in records if isinstance(r, Event)}
    return sum(1 for event in rerate_scope(start=start).events if event.pk not in gone)


def records_delete(
    *, records: Sequence[Any], user: Any = None, reason: str = "", what: str
) -> RatingRun | None:
    """Delete ``records`` one by one (each in the audit trail with ``user`` and
    ``reason``) and re-rate once from where they restart the chain. Refused
    (``rules.RecordRefused``) where the record's rules forbid it: an entry of a player
    with games in the event. ``what``: the run's words for it ("2 games deleted")."""
    for record in records:
        if isinstance(record, Entry) and (problem := entry_with_games_problem(record)):
            raise rules.RecordRefused(problem)
    who = audit_user(user)
    why = reason_kept(reason)
    with transaction.atomic():
        start = deletion_rerate_start(records=records)
        for record in records:
            if who is not None:
                record._history_user = who
            if why:
                record._change_reason = why
            record.delete()
        if start is None:
            return None
        return ratings_update(
            RerateRequest(start=start, user=user, reason=f"{what}: {why}" if why else what)
        )
