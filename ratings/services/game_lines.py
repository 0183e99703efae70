"""A per-event system's game lines and figures, worked out again when a page asks.

A per-event system's rating change stores no breakdown (``breakdowns.breakdown_stored``):
the engine is deterministic and rates an event from its games and its players' states
before it alone, and the chain keeps those states (each player's previous change's
``state_after``, or the state they came in with). So rating the event again from them
gives the very lines and figures the re-rate had, at the cost of one event's rating and
one indexed lookup a player, in a few statements however many events a page shows.

A derived change whose before and after differ from the stored row's (its games or the
club's rules changed and the re-rate has not caught up yet) is not shown: its lines would
not add up to the row's change. The page then shows the event's change without its lines
until the re-rate writes the row again.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection

from ..breakdowns import breakdown_has_lines, breakdown_json
from ..engine import PlayerChange, PlayerState, RatingSystem
from ..models import Event, Member, RatingChange
from .chain import engine_events, member_initial_state, state_from_json

#: Events whose players' states are read in one statement.
EVENTS_AT_ONCE = 200


def _states_before(
    event_ids: Sequence[int], system: RatingSystem
) -> dict[int, dict[int, PlayerState]]:
    """Each rated player of each event: their state before it, the state after their
    previous change or (the event is their first rated one) the state they came in with.

    One statement for all the events, through ``raw()`` so that the members come with
    their states: one indexed lookup (``change_member_chain``) a player.
    """
    state = "p.state_after::text" if connection.vendor == "postgresql" else "p.state_after"
    marks = ", ".join(["%s"] * len(event_ids))
    out: dict[int, dict[int, PlayerState]] = {pk: {} for pk in event_ids}
    members = Member.objects.raw(
        f"SELECT m.*, c.event_id AS of_event, (SELECT {state} FROM ratings_ratingchange p "
        "WHERE p.member_id = c.member_id AND (p.event_end < c.event_end "
        "OR (p.event_end = c.event_end AND (p.event_start < c.event_start "
        "OR (p.event_start = c.event_start AND p.event_id < c.event_id)))) "
        "ORDER BY p.event_end DESC, p.event_start DESC, p.event_id DESC LIMIT 1) AS last_state "
        "FROM ratings_ratingchange c JOIN ratings_member m ON m.id = c.member_id "
        f"WHERE c.event_id IN ({marks})",
        list(event_ids),
    )
    for member in members:
        text = member.last_state  # type: ignore[attr-defined]
        out[member.of_event][member.pk] = (  # type: ignore[attr-defined]
            member_initial_state(member, system) if text is None else state_from_json(text)
        )
    return out


def event_changes_derive(
    *, events: Sequence[Event], system: RatingSystem
) -> dict[int, dict[int, PlayerChange]]:
    """The engine's changes of rated ``events`` of a per-event system, rated again from
    their players' states before each: event pk -> member pk -> change. An event with a
    player the chain has no change of (its games changed since) is left out."""
    assert not system.period_based, "a period system's lines are stored"
    out: dict[int, dict[int, PlayerChange]] = {}
    for at in range(0, len(events), EVENTS_AT_ONCE):
        batch = events[at : at + EVENTS_AT_ONCE]
        inputs = engine_events(batch)
        before = _states_before([e.pk for e in batch], system)
        for event in inputs:
            states = {str(pk): state for pk, state in before[int(event.id)].items()}
            if any(g.a not in states or g.b not in states for g in event.games):
                continue
            results = system.rate(states.values(), [event]).events
            changes = results[0].changes if results else []
            out[int(event.id)] = {int(change.player): change for change in changes}
    return out


def _agrees(change: PlayerChange, before: float | None, after: float | None) -> bool:
    def same(x: float | None, y: float | None) -> bool:
        return (x is None and y is None) or (
            x is not None and y is not None and math.isclose(x, y, rel_tol=0, abs_tol=1e-9)
        )

    return same(change.before, before) and same(change.after, after)


def changes_breakdown_fill(*, changes: Iterable[RatingChange], system: RatingSystem) -> None:
    """Give each of ``changes`` (with their events) its breakdown as stored, working out
    again those a per-event system did not store: in a few statements for them all."""
    wanted = [c for c in changes if not breakdown_has_lines(c.breakdown or {})]
    if not wanted or system.period_based:
        return
    events = {c.event_id: c.event for c in wanted}
    derived = event_changes_derive(events=list(events.values()), system=system)
    for change in wanted:
        found = derived.get(change.event_id, {}).get(change.member_id)
        if found is not None and _agrees(found, change.before, change.after):
            change.breakdown = breakdown_json(found)


def event_breakdowns(
    *, event: Event, changes: Sequence[dict[str, Any]], system: RatingSystem
) -> dict[int, dict[str, Any]]:
    """The stored-form breakdowns of one event's saved ``changes`` (dicts with player,
    before, after and breakdown) that a per-event system did not store: member pk ->
    breakdown."""
    if system.period_based or all(breakdown_has_lines(c["breakdown"] or {}) for c in changes):
        return {}
    derived = event_changes_derive(events=[event], system=system).get(event.pk, {})
    out = {}
    for change in changes:
        found = derived.get(change["player"])
        if found is not None and _agrees(found, change["before"], change["after"]):
            out[change["player"]] = breakdown_json(found)
    return out
