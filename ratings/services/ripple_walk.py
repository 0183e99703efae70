"""The walk both ripples take (``ripple.py`` for per-event systems, ``period_ripple.py``
for period systems): from the changed place forward over the chain, a step at a time,
rating a step again only where a member the change reached plays in it, and stopping
to rate where every changed member's state is back to the one stored.

What the two share is here: the batches read in order, the rows held and flushed (the
rewritten events' old rows deleted, the new ones inserted), the progress reported, the
events and games counted, and the touched members' current states written at the end.
What differs is a ``RippleWalk`` subclass's: what a step is (an event, or a rating
period's events), what it reads of a batch, how it rates a step or passes it by, when
its rows are flushed, and each touched member's current state and last row.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from django.db import connection

from ..engine import PlayerState, RatingSystem
from ..engine.codec import state_to_dict
from ..models import Event, Member, RatingChange
from ..words.counts import count_phrase
from .chain import Position, RerateScope
from .rerate_chain import AFTER_ALL, Chain, LastChange, event_batches
from .rerate_rows import CHANGE_COLUMNS, _collector_paused, chunks, insert_rows


def same_state(stored: Any, state: dict[str, Any]) -> bool:
    """Whether a stored row's state (JSON, or text some backends hand back) is ``state``
    (as ``state_to_dict`` gives it)."""
    value = json.loads(stored) if isinstance(stored, str) else stored
    return bool(value == state)


class RippleWalk:
    """One ripple's walk over ``scope``, whose first step alone changed.

    ``rerate`` walks it: the events and games rated, or None (nothing written) where the
    walk cannot tell who the change reaches and the full road must be taken. A subclass
    says what a step is and how it is rated (``batch_read``, ``steps``, ``step_take``),
    when the rows held are written (``flush_due``) and what each touched member's
    current standing is at the end (``current_standings``).
    """

    def __init__(
        self,
        *,
        scope: RerateScope,
        system: RatingSystem[Any],
        report: Callable[[int, str], None],
        time_class: str,
    ) -> None:
        assert scope.key is not None, "a ripple walks on from a place in the chain"
        self.scope = scope
        self.key: Position = scope.key
        self.system = system
        self.report = report
        self.time_class = time_class
        #: Builds the rows; ``walk.last``: each member's last row it writes.
        self.walk = Chain(system, scope.key, time_class)
        self.touched: set[int] = set()  # members whose current state is written again
        self.pending: list[int] = []  # events whose rows are rewritten, not yet flushed
        #: Rows (their pks) rewritten one member at a time, deleted at the next flush.
        self.doomed: list[int] = []
        self.rows: list[tuple[Any, ...]] = []
        self.events_rated = 0
        self.games_rated = 0

    # -- what a subclass says ------------------------------------------------------------

    def batch_read(self, batch: list[Event]) -> None:
        """Read what the steps of ``batch`` need before the first is taken."""
        raise NotImplementedError

    def steps(self, batch: list[Event]) -> Iterator[list[Event]]:
        """``batch`` cut into the walk's steps, in the chain's order."""
        raise NotImplementedError

    def step_take(self, step: list[Event]) -> bool:
        """Rate ``step`` again where the change reaches it, or pass it by; False where the
        walk cannot tell who it reaches (before anything is written)."""
        raise NotImplementedError

    def flush_due(self) -> bool:
        """Whether the rows held are to be written now."""
        raise NotImplementedError

    def current_standings(
        self,
    ) -> tuple[set[int], dict[int, PlayerState], dict[int, LastChange]]:
        """At the end: the touched members whose last row is read as it now stands, and
        the current states and last rows of the others as the walk knows them."""
        raise NotImplementedError

    def stored_same(self, member_id: int, stored: Any, state: PlayerState) -> bool:
        """Whether a member's new ``state`` is the one their stored row holds (``stored``:
        its state, JSON or text; None for no row). The state as JSON is kept for the row
        that writes it (``Chain.change_rows``), not worked out twice."""
        if stored is None:
            return False
        as_dict = state_to_dict(state)
        self.walk.state_dicts[member_id] = (state, as_dict)
        return same_state(stored, as_dict)

    # -- the walk ------------------------------------------------------------------------

    def rerate(self) -> tuple[int, int] | None:
        """Walk the scope: the events and games rated, or None for the full road."""
        total = len(self.scope.events)
        done = 0
        # The collector held off, as for a full re-rate (``_collector_paused``): its full
        # passes over the heap were a sixth of a glicko-2 correction's CPU.
        with _collector_paused() as collector:
            for batch in event_batches(self.scope.events, self.system):
                self.batch_read(batch)
                for step in self.steps(batch):
                    if not self.step_take(step):
                        return None
                    if self.flush_due():
                        self.flush()
                collector.batch_done()
                done += len(batch)
                self.report(
                    10 + 80 * done // max(total, 1),
                    f"Looked at {done} of {count_phrase(total, 'event')}",
                )
            self.flush()
            self.report(92, "Saving current ratings")
            self.current_states_write()
        return self.events_rated, self.games_rated

    def rows_add(self, events: Sequence[Event], rows: list[tuple[Any, ...]]) -> None:
        """Rows of ``events`` to write, every old row of which goes at the next flush."""
        self.rows.extend(rows)
        self.pending.extend(event.pk for event in events)

    def rows_replace(self, row_ids: Sequence[int], rows: list[tuple[Any, ...]]) -> None:
        """Rows to write in place of the stored rows ``row_ids``, which go at the next flush."""
        self.rows.extend(rows)
        self.doomed.extend(row_ids)

    def flush(self) -> None:
        """Write the rows held: the old rows they replace deleted first, in a few
        statements (whole events by event, single rows by pk), then the new inserted."""
        for chunk in chunks(self.pending):
            RatingChange.objects.filter(event__in=chunk, time_class=self.time_class).delete()
        table = RatingChange._meta.db_table
        with connection.cursor() as cursor:
            for chunk in chunks(sorted(self.doomed)):
                cursor.execute(
                    f"DELETE FROM {table} WHERE id IN ({', '.join(['%s'] * len(chunk))}) "
                    "AND time_class = %s",
                    [*chunk, self.time_class],
                )
        insert_rows(RatingChange, CHANGE_COLUMNS, self.rows)
        self.pending.clear()
        self.doomed.clear()
        self.rows.clear()

    def current_states_write(self) -> None:
        """Rewrite the touched members' current states, once the walk's rows are written."""
        taken_in, states, last = self.current_standings()
        final = Chain(self.system, AFTER_ALL, self.time_class)
        final.state_dicts = self.walk.state_dicts  # the states the walk turned into JSON
        # Their last row, wherever it is now (the walk's rows are written by now).
        final.take_in(taken_in)
        rest = self.touched - taken_in
        final.touched |= rest
        for chunk in chunks(sorted(rest)):
            active = Member.objects.filter(pk__in=chunk).active()
            final.active.update(active.values_list("pk", flat=True))
        final.states.update((str(pk), state) for pk, state in states.items())
        final.last.update(last)
        final.write_states(everyone=False)
