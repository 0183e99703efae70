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

from collections.abc import Callable, Iterator, Sequence
from itertools import groupby
from typing import Any

from ..engine import EventResult, PlayerState, RatingSystem
from ..models import Event, Member, RatingChange
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
from .rerate_chain import LastChange, period_opening_moves
from .rerate_rows import chunks
from .ripple_reads import Stored, engine_event, games_of, stored_rows_of
from .ripple_walk import RippleWalk

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
    *, scope: RerateScope, system: RatingSystem[Any], changed: Event | None
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
    system: RatingSystem[Any],
    report: Callable[[int, str], None],
    time_class: str,
) -> tuple[int, int] | None:
    """Re-rate ``scope``, whose first period alone changed, as far as the change reaches.

    Returns the events and games rated, or None (nothing written) where the ripple
    cannot tell who the change reaches: take the full road then.
    """
    return PeriodRipple(scope=scope, system=system, report=report, time_class=time_class).rerate()


class PeriodRipple(RippleWalk):
    """The walk a step a rating period (``RippleWalk``): the first period rated whole, a
    later one only as far as the change reaches in it (``_reach``)."""

    def __init__(
        self,
        *,
        scope: RerateScope,
        system: RatingSystem[Any],
        report: Callable[[int, str], None],
        time_class: str,
    ) -> None:
        super().__init__(scope=scope, system=system, report=report, time_class=time_class)
        previous = (
            rateable_events(system, time_class)
            .filter(before_q(self.key))
            .order_by("-end_date", "-start_date", "-pk")
            .values_list("end_date", flat=True)
            .first()
        )
        self.previous_label = None if previous is None else system.period_of(previous)
        self.opens = period_opening_moves(system)
        self.changed: set[int] = set()  # members whose standing differs from the stored chain's
        self.known: dict[int, Standing] = {}  # member pk -> their standing as the walk stands
        self.where: dict[int, Event] = {}  # member pk -> the kept event of their last row
        self.index = -1  # the walk's index of the period being looked at
        self.stored_rows: dict[int, dict[int, Stored]] = {}
        self.row_ids: dict[tuple[int, int], int] = {}  # (event pk, member pk) -> row pk
        self.event_games: dict[int, list[tuple[int, int, str, int]]] = {}

    # -- standings -------------------------------------------------------------------------

    def _brought(self, standing: Standing, at: int) -> PlayerState:
        """The state a standing brings into the period of index ``at``."""
        value, since = standing
        state = value if isinstance(value, PlayerState) else state_from_json(value[0])
        if self.opens and at - since > 1:  # a period opened between: as it left them
            opened: PlayerState = self.system.period_opening(self.system.prepare(state))
            return opened
        return state

    def _from_before(self, member_ids: set[int]) -> None:
        """Standings of members first met, as they stood before the walk's start."""
        prior = last_changes_before(self.key, member_ids, self.time_class)
        for pk, change in prior.items():
            label = self.system.period_of(change.event_end)
            self.known[pk] = (change.state, PREVIOUS if label == self.previous_label else EARLIER)
        rest = sorted(member_ids - prior.keys())
        for chunk in chunks(rest):
            for member in Member.objects.filter(pk__in=chunk):
                initial = member_initial_state(member, self.system, self.time_class)
                self.known[member.pk] = (initial, EARLIER if self.previous_label else PREVIOUS)

    def _load(self, member_ids: set[int]) -> set[int]:
        """Make sure the walk knows these members' standings; the members."""
        missing = member_ids - self.known.keys()
        if missing:
            self._from_before(missing)
        return member_ids

    def _states_at(self, member_ids: set[int]) -> dict[int, PlayerState]:
        """The states these members bring into the period being rated."""
        return {pk: self._brought(self.known[pk], self.index) for pk in self._load(member_ids)}

    # -- the steps -------------------------------------------------------------------------

    def batch_read(self, batch: list[Event]) -> None:
        self.row_ids = {}
        self.stored_rows = stored_rows_of(batch, ids=self.row_ids)
        self.event_games = games_of(batch)

    def steps(self, batch: list[Event]) -> Iterator[list[Event]]:
        for _, group in groupby(batch, key=lambda e: self.system.period_of(e.end_date)):
            events = list(group)
            self.index += 1
            yield events

    def flush_due(self) -> bool:
        return len(self.rows) >= FLUSH_ROWS

    def step_take(self, step: list[Event]) -> bool:
        players = {pk for e in step for game in self.event_games[e.pk] for pk in game[:2]}
        stored: dict[int, Stored] = {}  # each member's row of the period (its last)
        for event in step:
            stored.update(self.stored_rows[event.pk])
        if self.index == 0 and self.opens and not stored and not self._opening_taken_in():
            return False
        if self.index > 0 and self.changed.isdisjoint(players):
            # Out of the ripple's reach: its rows stand, and say where its players are.
            self._rows_kept(step, reached=set())
        else:
            self._rate(step, players, stored)
        return True

    def _opening_taken_in(self) -> bool:
        """The walk's first period, perhaps one the chain did not have: its opening now
        changes those whose last period was the one before it. False where there is no
        period before it (initial states opened here: the full road)."""
        if self.previous_label is None:
            return False
        # Rare rows, read down their partial index alone and sorted out here: any
        # other condition in SQL (the list, the period) lets SQLite's planner walk
        # the whole table instead (0.4 s at 200,000 games, growing with them).
        unsettled = {
            member
            for member, list_, period in RatingChange.objects.filter(unsettled=True)
            .order_by()
            .values_list("member_id", "time_class", "period")
            if list_ == self.time_class and period == self.previous_label
        }
        self._from_before(unsettled - self.known.keys())
        self.changed |= unsettled
        self.touched |= unsettled
        return True

    def _rows_kept(self, events: list[Event], *, reached: set[int]) -> None:
        """The rows of a period's members out of reach stand, and say where they are."""
        for event in events:
            for pk, row in self.stored_rows[event.pk].items():
                if pk not in reached:
                    self.known[pk] = (row, self.index)
                    self.where[pk] = event

    def _rate(self, events: list[Event], players: set[int], stored: dict[int, Stored]) -> None:
        """Rate a period again as far as the change reaches in it."""
        index = self.index
        label = self.system.period_of(events[0].end_date)
        assert label is not None
        games = {e.pk: self.event_games[e.pk] for e in events}
        if index == 0:
            # Its games changed: every row of it is written again.
            everyone = reached = players | stored.keys()
        else:
            # Everyone out of reach of the changed members keeps their rows; only the
            # games of those reached and of the players their figures read are rated.
            everyone = players
            reached, support = _reach(
                self.system, self.changed & players, games, label, self._states_at
            )
            games = {
                pk: [g for g in rows_ if g[0] in support or g[1] in support]
                for pk, rows_ in games.items()
            }
        rated = {pk for rows_ in games.values() for game in rows_ for pk in game[:2]}
        self._load(everyone if index == 0 else rated)
        states = {str(pk): self._brought(self.known[pk], index) for pk in rated}
        if self.walk.reads_rapid:
            states.update(
                rapid_ratings_set(
                    states=states,
                    key=rating_key(events[0]),
                    member_ids=rated,
                    system=self.system,
                )
            )
        inputs = [engine_event(e, games[e.pk]) for e in events]
        result = self.system.rate(list(states.values()), inputs)
        after = {int(state.id): state for state in result.players if int(state.id) in reached}
        if index > 0:  # the rest keep their rows, and say where they are
            self._rows_kept(events, reached=reached)
        self._standings_after(reached, stored, after)
        self.touched |= reached
        self._rows_write(events, result.events, reached)
        self.events_rated += len(events)
        self.games_rated += sum(len(self.event_games[e.pk]) for e in events)

    def _standings_after(
        self, reached: set[int], stored: dict[int, Stored], after: dict[int, PlayerState]
    ) -> None:
        """Each member reached changed or not after the period: changed where their new
        state differs from the one stored after it."""
        for pk in reached:
            old = stored.get(pk)
            if pk in after:
                new: Standing = (after[pk], self.index)
                same = self.stored_same(pk, None if old is None else old[0], after[pk])
                self.where.pop(pk, None)
            else:
                # Taken out of the period: back to where they stood before it.
                new = self.known[pk]
                same = False
            if same:
                self.changed.discard(pk)
            else:
                self.changed.add(pk)
            self.known[pk] = new

    def _rows_write(
        self, events: list[Event], results: Sequence[EventResult], reached: set[int]
    ) -> None:
        """The period's new rows: every row of the first, the reached members' of a later
        one (their old rows deleted at the next flush, the others' kept)."""
        if self.index == 0:
            self.rows_add(events, self.walk.change_rows(events, results))
            return
        kept = [
            EventResult(r.id, r.period, [c for c in r.changes if int(c.player) in reached])
            for r in results
        ]
        # Each event's stored rows met with those reached, not every member reached
        # looked up in every event (a period's sixty events by thousands reached).
        ids = self.row_ids
        doomed = [
            ids[event.pk, pk]
            for event in events
            for pk in self.stored_rows[event.pk].keys() & reached
        ]
        self.rows_replace(doomed, self.walk.change_rows(events, kept))

    def current_standings(
        self,
    ) -> tuple[set[int], dict[int, PlayerState], dict[int, LastChange]]:
        periods = self.index + 1
        # Members whose last row the walk did not see (taken out of a period, or met only
        # by a period's opening): their last row as it stands now.
        unseen = {pk for pk in self.touched if pk not in self.where and pk not in self.walk.last}
        states = {pk: self._brought(self.known[pk], periods) for pk in self.touched}
        last: dict[int, LastChange] = {}
        for pk in self.touched - unseen:
            if pk in self.where:  # last seen in a period out of reach: its stored row
                row = self.known[pk][0]
                event = self.where[pk]
                last[pk] = (event.pk, event.end_date, row[1], row[2])
            else:
                last[pk] = self.walk.last[pk]
        return unseen, states, last


def _reach(
    system: RatingSystem[Any],
    seeds: set[int],
    games: dict[int, list[tuple[int, int, str, int]]],
    label: str,
    states_of: Callable[[set[int]], dict[int, PlayerState]],
) -> tuple[set[int], set[int]]:
    """Of a period whose games are as stored, where only ``seeds`` bring other states
    into it than the stored chain's: the players whose figures may differ, and the
    players all of whose games must be rated to give those figures exactly.

    acf-1993 rates a player from their own state and their opponents' ratings as the
    period opened, glicko-2 from their own figures and their opponents' μj and φj as it
    opened: the seeds and their opponents, from their own games. ecf-2020's P
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
