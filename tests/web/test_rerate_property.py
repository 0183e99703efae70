"""For every rating system: re-rating from the earliest change = re-rating from scratch.

Random club histories (members, events on random dates, random games), rated event by
event as an officer would, then random corrections, each re-rated from the earliest
place it touched (as the admin does). The ratings must equal a full re-rate.
"""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ratings import services
from ratings.engine import SYSTEMS
from ratings.models import ClubSettings, Event, Game, Member

from ..savepoints import rolled_back
from .test_rerate import ratings_now

pytestmark = pytest.mark.django_db

FIRST_DAY = dt.date(2024, 1, 1)  # well in the past: period systems publish these periods
RESULTS = ["1-0", "0-1", "1/2-1/2", "+/-"]

# Few players, so that corrections reach into later events through common opponents.
game_rows = st.tuples(
    st.integers(0, 3), st.integers(0, 3), st.sampled_from(RESULTS), st.integers(1, 3)
).filter(lambda g: g[0] != g[1])
event_rows = st.tuples(st.integers(0, 600), st.lists(game_rows, min_size=1, max_size=6))
edits = st.lists(
    st.one_of(
        st.tuples(st.just("result"), st.integers(0, 99), st.sampled_from(RESULTS)),
        st.tuples(st.just("delete"), st.integers(0, 99), st.none()),
        st.tuples(st.just("move"), st.integers(0, 99), st.sampled_from([-300, -60, 60, 300])),
        st.tuples(st.just("unrate"), st.integers(0, 99), st.none()),
    ),
    min_size=1,
    max_size=3,
)


def club_of(system_id: str) -> list[Member]:
    """The club rating with ``system_id``, and its six players: made once a test, each
    example rolled back to it (``rolled_back``)."""
    services.rating_system_set(system_id=system_id, params={})
    # Ratings brought in with their games: established (acf-1993 rates a new player's
    # games only against rated opponents), provisional, and new players.
    return [
        Member.objects.create(
            member_number=f"P{i}", name=f"Player {i}", initial_rating=r, initial_games=g
        )
        for i, (r, g) in enumerate(
            [(None, 0), (1600, 40), (None, 0), (1400, 12), (1900, 60), (None, 0)]
        )
    ]


@pytest.fixture
def members(db, system_id: str) -> list[Member]:
    return club_of(system_id)


def _record(history: list, members: list[Member], system_id: str) -> list[Event]:
    events = []
    for day, games in history:
        date = FIRST_DAY + dt.timedelta(days=day)
        event = Event.objects.create(
            name=f"Event {len(events)}", start_date=date, end_date=date, rounds=3
        )
        for white, black, result, round_ in games:
            Game.objects.create(
                event=event,
                round=round_,
                white=members[white],
                black=members[black],
                result=result,
            )
        events.append(event)
    # Rated in the order they finished, as the officer completes them.
    for event in sorted(events, key=services.rating_key):
        event.status = Event.Status.COMPLETE
        event.save()
        if SYSTEMS[system_id].period_based:
            services.periods_close_past(system=SYSTEMS[system_id]())
        # As ``event_complete`` does: a newly rated event ripples on from its place.
        services.ratings_rerate(
            services.RerateRequest(start=event, changed=event, reason="completed")
        )
    return events


def _correct(events: list[Event], edit: tuple) -> None:
    """One correction, re-rated from the earliest place it touched."""
    kind, index, value = edit
    event = events[index % len(events)]
    event.refresh_from_db()
    old = services.rating_key(event)
    if kind in ("result", "delete"):
        game = event.games.order_by("pk").first()
        if game is None:
            return
        if kind == "result":
            game.result = value
            game.save()
        else:
            game.delete()
        # As ``games_replace`` does: only this event's games changed, so the re-rate
        # follows the change's ripple (period systems take the full road).
        services.ratings_rerate(services.RerateRequest(start=old, changed=event, reason=kind))
    elif kind == "move":
        day = max(FIRST_DAY, event.end_date + dt.timedelta(days=value))
        event.start_date = event.end_date = day
        event.save()
        system = ClubSettings.load().engine()
        services.periods_close_past(system=system)
        services.ratings_rerate(
            services.RerateRequest(start=min(old, services.rating_key(event)), reason=kind)
        )
    else:
        event.rated = not event.rated
        event.save()
        services.ratings_rerate(services.RerateRequest(start=old, reason=kind))


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(history=st.lists(event_rows, min_size=2, max_size=7), corrections=edits)
@example(  # an event moved later, past events its players played in
    history=[(10, [(0, 1, "1-0", 1)]), (40, [(1, 2, "1-0", 1)]), (90, [(0, 2, "0-1", 1)])],
    corrections=[("move", 0, 60)],
)
@example(  # an event moved earlier, before events its players played in
    history=[(10, [(0, 1, "1-0", 1)]), (40, [(1, 2, "1-0", 1)]), (90, [(0, 2, "0-1", 1)])],
    corrections=[("move", 2, -60)],
)
@example(  # the last event of a period unrated: the period is rated anew without it
    history=[(0, [(0, 1, "1-0", 1)]), (0, [(0, 1, "1-0", 1)])],
    corrections=[("unrate", 1, None)],
)
def test_re_rating_from_the_earliest_correction_equals_a_full_re_rate(
    members, system_id, history, corrections
):
    with rolled_back():
        events = _record(history, members, system_id)
        for edit in corrections:
            _correct(events, edit)
        incremental = ratings_now()
        services.ratings_rerate(services.RerateRequest(reason="from scratch"))
        assert ratings_now() == incremental


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
def test_a_full_re_rate_reports_its_progress_rising_to_the_end(members, system_id, monkeypatch):
    history = [(d * 9, [(d % 6, (d + 1) % 6, RESULTS[d % 4], 1)]) for d in range(30)]
    _record(history, members, system_id)
    monkeypatch.setattr("ratings.services.rerate_chain.BATCH_GAMES", 4)  # many batches
    reports: list[int] = []
    before = ratings_now()
    services.ratings_rerate(
        services.RerateRequest(reason="again"), progress=lambda pct, msg: reports.append(pct)
    )
    assert reports == sorted(reports) and reports[-1] == 100 and len(reports) > 5
    assert ratings_now() == before


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(history=st.lists(event_rows, min_size=2, max_size=7))
@example(  # a new player who scored nothing, reset as a later period opens (acf-1993)
    history=[(0, [(0, 1, "0-1", 1), (0, 4, "0-1", 2)]), (200, [(1, 3, "1-0", 1)])]
)
def test_a_full_re_rate_in_batches_equals_one_in_a_single_batch(
    members, system_id, history, monkeypatch
):
    """Each batch is rated from the states it can change (its players', and those a period's
    opening changes): a member out of a batch comes out of the whole as in one batch."""
    with rolled_back():
        _record(history, members, system_id)
        services.ratings_rerate(services.RerateRequest(reason="one batch"))
        whole = ratings_now()
        with monkeypatch.context() as patch:
            patch.setattr("ratings.services.rerate_chain.BATCH_GAMES", 1)  # a batch an event
            services.ratings_rerate(services.RerateRequest(reason="in batches"))
        assert ratings_now() == whole
