"""A correction's ripple under a period system (acf-1993, ecf-2020): re-rate the corrected
event's rating period, and later periods only where a member it changed plays.

A period system rates a period as a whole, from the states its players bring into it:
ecf-2020 from their states alone (category, activity window, dummy opponent and rapid
standing are all read from the player's own state and the month, the rapid one from the
rapid list, which a correction on the standard list leaves alone); acf-1993 likewise,
but the opening of every period resets a partially-rated player on a score of 0, whether
they play or not. So, as the per-event ripple (``ripple.py``) does with events: the walk
re-rates the first period whole, and a member whose state after it differs from the one
stored is changed from there on. A later period is rated again only if a changed
member plays in it, and then only as far as the change can reach (``_reach``): the
games of the players whose figures may differ and of those whose P ratings their
figures read; everyone else's rows stand.

A member's standing is their last state and the period it is from. The state they bring
into a period is that state opened (``period_opening``) if a period of the chain lies
between the two, as a full re-rate passes every member through every period; their
current state likewise, if any period follows. A late event in a period the chain did
not have changes that for the members whose last period was the one before it: under a
system whose opening changes states they are taken as changed (re-rated where they next
play, their current state rewritten); with no period before it at all, the full road.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import groupby
from typing import Any

from ..engine import EventResult, PlayerState, RatingSystem
from ..engine.codec import state_to_dict
from ..models import Event, Member, RatingChange
from ..presentation.counts import count_phrase
from .chain import (
    RerateScope,
    before_q,
    last_changes_before,
    member_initial_state,
    rateable_events,
    rating_key,
    state_from_json,
)
from .rapid_standing import rapid_ratings_set
from .rerate_chain import AFTER_ALL, Chain, event_batches, period_opening_moves
from .rerate_rows import CHANGE_COLUMNS, chunks, insert_rows
from .ripple_reads import Stored, engine_event, games_of, stored_rows_of

#: A member's standing as the walk knows it: their state (a PlayerState, or a stored row)
#: and the walk's index of the period it is from (below 0: before the walk's first).
Standing = tuple[Any, int]
#: Rows held before they are written.
FLUSH_ROWS = 20_000
#: The index of a standing from the last period before the walk's first.
PREVIOUS = -1
#: The index of a standing from further back, with a period of the chain after it.
EARLIER = -2


def period_ripple_possible(
    *, scope: RerateScope, system: RatingSystem, changed: Event | None
) -> bool:
    """Whether a re-rate of ``scope`` after a change to ``changed`` alone may ripple: a
    period system, and ``changed`` in the first period the scope rates."""
    if changed is None or not system.period_based or scope.key is None or not scope.events:
        return False
    label = system.period_of(scope.events[0].end_date)
    for event in scope.events:
        if system.period_of(event.end_date) != label:
            return False
        if event.pk == changed.pk:
            return True
    return False


def period_ripple_rerate(
    *,
    scope: RerateScope,
    system: RatingSystem,
    report: Callable[[int, str], None],
    time_class: str,
) -> tuple[int, int] | None:
    """Re-rate ``scope``, whose first period alone changed, as far as the change reaches.

    Returns the events and games rated, or None (nothing written) where the ripple
    cannot tell who the change reaches: take the full road then.
    """
    assert scope.key is not None
    period_of = system.period_of
    previous = (
        rateable_events(system, time_class)
        .filter(before_q(scope.key))
        .order_by("-end_date", "-start_date", "-pk")
        .values_list("end_date", flat=True)
        .first()
    )
    previous_label = None if previous is None else period_of(previous)
    opens = period_opening_moves(system)
    opening = system.period_opening
    prepare = system.prepare

    walk = Chain(system, scope.key, time_class)  # builds the rows; ``walk.last``: rows it writes
    changed: set[int] = set()  # members whose standing differs from the stored chain's
    known: dict[int, Standing] = {}  # member pk -> their standing as the walk stands
    where: dict[int, Event] = {}  # member pk -> the kept event of their last row
    touched: set[int] = set()  # members whose current state is written again
    pending: list[int] = []
    rows: list[tuple[Any, ...]] = []
    events_rated = games_rated = done = 0
    total = len(scope.events)
    index = -1  # the walk's index of the period being looked at

    def flush() -> None:
        for chunk in chunks(pending):
            RatingChange.objects.filter(event__in=chunk, time_class=time_class).delete()
        insert_rows(RatingChange, CHANGE_COLUMNS, rows)
        pending.clear()
        rows.clear()

    def state_of(value: Any) -> PlayerState:
        return value if isinstance(value, PlayerState) else state_from_json(value[0])

    def brought(standing: Standing, at: int) -> PlayerState:
        """The state a standing brings into the period of index ``at``."""
        value, since = standing
        state = state_of(value)
        if opens and at - since > 1:  # a period opened between: as it left them
            return opening(prepare(state))
        return state

    def from_before(member_ids: set[int]) -> None:
        """Standings of members first met, as they stood before the walk's start."""
        prior = last_changes_before(scope.key, member_ids, time_class)
        for pk, change in prior.items():
            label = period_of(change.event_end)
            known[pk] = (change.state, PREVIOUS if label == previous_label else EARLIER)
        rest = sorted(member_ids - prior.keys())
        for chunk in chunks(rest):
            for member in Member.objects.filter(pk__in=chunk):
                initial = member_initial_state(member, system, time_class)
                known[member.pk] = (initial, EARLIER if previous_label else PREVIOUS)

    def load(member_ids: set[int]) -> set[int]:
        """Make sure the walk knows these members' standings; the members."""
        missing = member_ids - known.keys()
        if missing:
            from_before(missing)
        return member_ids

    def states_at(member_ids: set[int]) -> dict[int, PlayerState]:
        """The states these members bring into the period being rated."""
        return {pk: brought(known[pk], index) for pk in load(member_ids)}

    for batch in event_batches(scope.events, system):
        stored_rows = stored_rows_of(batch)
        event_games = games_of(batch)
        for _, group in groupby(batch, key=lambda e: period_of(e.end_date)):
            events = list(group)
            index += 1
            players = {pk for e in events for game in event_games[e.pk] for pk in game[:2]}
            stored: dict[int, Stored] = {}  # each member's row of the period (its last)
            for event in events:
                stored.update(stored_rows[event.pk])
            if index == 0 and opens and not stored:
                # Perhaps a period the chain did not have: its opening now changes those
                # whose last period was the one before it.
                if previous_label is None:
                    return None  # initial states opened here: the full road
                # Rare rows, read down their partial index alone and sorted out here: any
                # other condition in SQL (the list, the period) lets SQLite's planner walk
                # the whole table instead (0.4 s at 200,000 games, growing with them).
                unsettled = {
                    member
                    for member, list_, period in RatingChange.objects.filter(unsettled=True)
                    .order_by()
                    .values_list("member_id", "time_class", "period")
                    if list_ == time_class and period == previous_label
                }
                from_before(unsettled - known.keys())
                changed |= unsettled
                touched |= unsettled
            if index > 0 and changed.isdisjoint(players):
                # Out of the ripple's reach: its rows stand, and say where its players are.
                for event in events:
                    for pk, row in stored_rows[event.pk].items():
                        known[pk] = (row, index)
                        where[pk] = event
                done += len(events)
                continue
            label = period_of(events[0].end_date)
            assert label is not None
            games = {e.pk: event_games[e.pk] for e in events}
            if index == 0:
                # Its games changed: every row of it is written again.
                everyone = reached = players | stored.keys()
            else:
                # Everyone out of reach of the changed members keeps their rows; only the
                # games of those reached and of the players their figures read are rated.
                everyone = players
                reached, support = _reach(system, changed & players, games, label, states_at)
                games = {
                    pk: [g for g in rows_ if g[0] in support or g[1] in support]
                    for pk, rows_ in games.items()
                }
            rated = {pk for rows_ in games.values() for game in rows_ for pk in game[:2]}
            load(everyone if index == 0 else rated)
            states = {str(pk): brought(known[pk], index) for pk in rated}
            if walk.reads_rapid:
                states.update(
                    rapid_ratings_set(
                        states=states,
                        key=rating_key(events[0]),
                        member_ids=rated,
                        system=system,
                    )
                )
            inputs = [engine_event(e, games[e.pk]) for e in events]
            result = system.rate(list(states.values()), inputs)
            after = {int(state.id): state for state in result.players if int(state.id) in reached}
            if index > 0:  # the rest keep their rows, and say where they are
                for event in events:
                    for pk, row in stored_rows[event.pk].items():
                        if pk not in reached:
                            known[pk] = (row, index)
                            where[pk] = event
            for pk in reached:
                old = stored.get(pk)
                if pk in after:
                    new: Standing = (after[pk], index)
                    same = old is not None and _as_dict(old[0]) == state_to_dict(after[pk])
                    where.pop(pk, None)
                else:
                    # Taken out of the period: back to where they stood before it.
                    new = known[pk]
                    same = False
                if same:
                    changed.discard(pk)
                else:
                    changed.add(pk)
                known[pk] = new
            touched |= reached
            if index == 0:
                rows.extend(walk.change_rows(events, result.events))
                pending.extend(e.pk for e in events)
            else:
                kept = [
                    EventResult(r.id, r.period, [c for c in r.changes if int(c.player) in reached])
                    for r in result.events
                ]
                rows.extend(walk.change_rows(events, kept))
                for chunk in chunks(sorted(reached)):
                    RatingChange.objects.filter(
                        event__in=[e.pk for e in events], member__in=chunk, time_class=time_class
                    ).delete()
            events_rated += len(events)
            games_rated += sum(len(event_games[e.pk]) for e in events)
            done += len(events)
            if len(rows) >= FLUSH_ROWS:
                flush()
        report(
            10 + 80 * done // max(total, 1), f"Looked at {done} of {count_phrase(total, 'event')}"
        )
    flush()
    report(92, "Saving current ratings")
    periods = index + 1
    final = Chain(system, AFTER_ALL, time_class)
    # Members whose last row the walk did not see (taken out of a period, or met only by
    # a period's opening): their last row as it stands now.
    unseen = {pk for pk in touched if pk not in where and pk not in walk.last}
    final.take_in(unseen)
    rest = touched - unseen
    final.touched |= rest
    for chunk in chunks(sorted(rest)):
        active = Member.objects.filter(pk__in=chunk).active()
        final.active.update(active.values_list("pk", flat=True))
    for pk in touched:
        final.states[str(pk)] = brought(known[pk], periods)
    for pk in rest:
        if pk in where:  # last seen in a period out of reach: its stored row
            row = known[pk][0]
            event = where[pk]
            final.last[pk] = (event.pk, event.end_date, row[1], row[2])
        else:
            final.last[pk] = walk.last[pk]
    final.write_states(everyone=False)
    return events_rated, games_rated


def _as_dict(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _reach(
    system: RatingSystem,
    seeds: set[int],
    games: dict[int, list[tuple[int, int, str, int]]],
    label: str,
    states_of: Callable[[set[int]], dict[int, PlayerState]],
) -> tuple[set[int], set[int]]:
    """Of a period whose games are as stored, where only ``seeds`` bring other states
    into it than the stored chain's: the players whose figures may differ, and the
    players all of whose games must be rated to give those figures exactly.

    acf-1993 rates a player from their own state and their opponents' ratings as the
    period opened: the seeds and their opponents, from their own games. ecf-2020's P
    ratings ("A") read the opponents' ratings before the month; a P rating's "B" and
    its lines, the P rated opponents' "A"; a K rating, the P rated opponents' "B" and
    the others' ratings before the month: so a change goes as far as a K player behind
    two P players, and their figures need the games of the P players (and of theirs)
    they read. Any other system: everyone.
    """
    opponents: dict[int, set[int]] = {}
    for rows in games.values():
        for white, black, *_ in rows:
            opponents.setdefault(white, set()).add(black)
            opponents.setdefault(black, set()).add(white)

    def near(group: set[int]) -> set[int]:
        return group | {o for pk in group for o in opponents.get(pk, ())}

    if system.period_reach == "opponents":
        reached = near(seeds)
        return reached, reached
    by_performance = getattr(system, "rated_by_performance", None)
    if system.period_reach != "performance" or by_performance is None:
        everyone = set(opponents)
        return everyone, everyone
    known: dict[int, bool] = {}

    def p_rated(group: set[int]) -> set[int]:
        for pk, state in states_of(group - known.keys()).items():
            known[pk] = by_performance(state, label)
        return {pk for pk in group if known[pk]}

    pass_a = p_rated(near(seeds))  # their "A" may differ
    pass_b = p_rated(near(pass_a))  # their "B" and lines may differ
    reached = near(seeds) | pass_b | (near(pass_b) - p_rated(near(pass_b)))
    # Exact figures for those reached read the "B" of their P rated opponents, and those
    # the "A" of theirs: each from all their games.
    read_b = p_rated(near(reached))
    read_a = p_rated(near(read_b))
    return reached, reached | read_b | read_a
