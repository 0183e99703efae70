"""The club's rating system and its lists: switching either re-rates, and the switch is
made with the ratings it brings (in the run's own transaction when the run is queued)."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import Count
from django.utils import timezone

from ..models import ClubSettings, Event, RatingList, RatingPeriod, RatingRun
from ..rules.time_classes import STANDARD
from .chain import rerate_scope
from .rapid_standing import rapid_feeds_standard
from .rerate import RerateRequest, ratings_lock_take
from .runs import page_waiting, ratings_rerate, rerate_in_the_page, run_queue
from .switches import rating_list_apply, rating_system_apply


def rating_system_set(
    *,
    system_id: str,
    params: dict[str, Any] | None = None,
    user: Any = None,
) -> RatingRun:
    """Switch the club to another system (or new parameters) and re-rate everything.

    The re-rate follows ``ratings_update``'s policy; one queued (too long for the page
    waiting, or behind a run going) takes the switch with it: the settings keep naming the
    old system, over the old ratings, until the run stores the new system's ratings and
    switches them in the same transaction (``rating_system_apply``).
    """
    pending = {"rating_system": system_id, "system_params": params or {}}
    reason = f"Rating system set to {system_id}"
    outermost = not connection.in_atomic_block
    estimate = None
    with transaction.atomic():
        # A run going: the switch waits for its turn behind it, unmade till then.
        free = ratings_lock_take(wait=outermost)
        club = ClubSettings.load()
        trial = copy.copy(club)
        trial.rating_system, trial.system_params = system_id, params or {}
        trial.full_clean()
        # What the switch rates is read with it made (a period system's past periods
        # closed: before that it has no events to rate, and the estimate would say 0
        # games), inside a savepoint undone if the re-rate goes to the background.
        # A run going: nothing is made here (its rows may be the run's till it ends).
        with transaction.atomic():
            if free:
                rating_system_apply(pending=pending, user=user)
                if page_waiting():
                    now, estimate = rerate_in_the_page(start=None, time_class=STANDARD)
                    if not now:
                        transaction.set_rollback(True)
                if not transaction.get_rollback():
                    return ratings_rerate(
                        RerateRequest(user=user, reason=reason, time_class=STANDARD)
                    )
        # The queued run is the switch's record: it commits with this transaction,
        # before anything is rated, and the worker makes the switch (``pending``).
        return run_queue(
            RerateRequest(user=user, reason=reason, time_class=STANDARD),
            estimate=estimate,
            pending=pending,
            system=system_id,
        )


@dataclass(frozen=True)
class SwitchScope:
    """What switching to ``system`` re-rates: ``events`` rated again now (a period
    system's past periods closed with them), ``waiting`` for the current period's close."""

    system: Any
    events: int
    waiting: int


def rating_system_switch_scope(*, system: Any) -> SwitchScope:
    """What a switch to ``system`` (an engine) would do, asked before it is confirmed: the
    admin's and the club settings page's confirmation read it."""
    waiting = 0
    if system.period_based:
        # Past periods will be closed (published) by the switch: count their events
        # too. The current period's events wait for the officer to close it.
        today = timezone.localdate()
        rated = Event.objects.filter(rated=True, status=Event.Status.COMPLETE)
        periods = {p.label: p for p in RatingPeriod.objects.of_events(rated, system=system)}
        events = 0
        ends = rated.order_by().values_list("end_date").annotate(count=Count("pk"))
        for end, count in ends:
            if periods[system.period_of(end)].has_ended(today):
                events += count
            else:
                waiting += count
    else:
        events = rerate_scope(start=None, system=system).count
    return SwitchScope(system=system, events=events, waiting=waiting)


def rating_list_set(*, rating_list: RatingList, user: Any = None) -> RatingRun:
    """Keep a time control as ``rating_list`` now says (with standard, a list of its own,
    not rated) and re-rate: every list when its events move from one chain to another;
    that list alone when it stays on a list of its own with another system or parameters
    (and the standard list with it, where that reads its ratings before or after).
    ``rating_list`` is the row as changed and not yet saved: the stored one says what
    it was.

    The re-rate follows ``ratings_update``'s policy; one queued takes the change with it:
    the lists stay as they were, over their ratings, until the run stores the new ratings
    and saves the change in the same transaction (``rating_list_apply``).
    """
    wanted = {
        "rating_list": {
            "time_class": rating_list.time_class,
            "online": rating_list.online,
            "kept": rating_list.kept,
            "rating_system": rating_list.rating_system,
            "system_params": rating_list.system_params,
        }
    }
    reason = f"{rating_list}: {rating_list.get_kept_display().lower()}"
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        # A run going: the change waits for its turn behind it, unmade till then.
        free = ratings_lock_take(wait=outermost)
        rating_list.full_clean()
        previous = RatingList.objects.filter(
            time_class=rating_list.time_class, online=rating_list.online
        ).first()
        fed_standard = rapid_feeds_standard()
        estimate = None
        # What the change re-rates, and how long it would take, is read with it made,
        # inside a savepoint undone if the re-rate goes to the background.
        with transaction.atomic():
            rating_list_apply(pending=wanted)
            own = RatingList.Kept.OWN
            time_class = None
            if rating_list.kept == own and previous is not None and previous.kept == own:
                # The same chain: no event moves. A standard list that read the rapid
                # one and reads it no longer is re-rated along (``rerate_lists`` adds it
                # when it reads it now).
                time_class = rating_list.key
                if fed_standard and not rapid_feeds_standard():
                    time_class = None
            if not free:
                transaction.set_rollback(True)
            elif page_waiting():
                now, estimate = rerate_in_the_page(start=None, time_class=time_class)
                if not now:
                    transaction.set_rollback(True)
            if not transaction.get_rollback():
                return ratings_rerate(
                    RerateRequest(user=user, reason=reason, time_class=time_class)
                )
        return run_queue(
            RerateRequest(user=user, reason=reason, time_class=time_class),
            estimate=estimate,
            pending=wanted,
            system=rating_list.rating_system
            if rating_list.kept == RatingList.Kept.OWN
            else ClubSettings.load().rating_system,
        )
