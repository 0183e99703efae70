"""Period systems: a correction's ripple (services/period_ripple.py) = a full re-rate.

Random club histories under acf-1993, glicko-2 and ecf-2020 (with a short activity
window, with a rapid list of its own whose ratings stand in for new players' missing
standard ones, and members whose dummy opponent comes from a title or an age), rated as the officer
completes events and closes their periods; then random corrections (a result changed,
a game taken out) and late events (completed after later ones were rated), each
re-rated as the app does, naming the event with the change alone. Every stored figure
(ratings, the figures shown, game lines and breakdowns, each member's current state)
must equal a full re-rate's.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ratings import services
from ratings.models import (
    ClubSettings,
    Event,
    Game,
    Member,
    RatingChange,
    RatingList,
    RatingState,
)
from ratings.models.rating_lists import list_of
from ratings.rules.time_classes import RAPID, STANDARD

from ..savepoints import rolled_back

pytestmark = pytest.mark.django_db

FIRST_DAY = dt.date(2024, 1, 1)  # well in the past: every period is closed as it is used
RESULTS = ["1-0", "0-1", "1/2-1/2", "+/-"]

#: (system, its parameters, whether rapid is kept on a list of its own rated by it)
CLUBS = {
    "acf-1993": ("acf-1993", {}, False),
    "ecf-2020": ("ecf-2020", {}, False),
    # A two-month window: players lapse to new and come back within the history.
    "ecf-2020 short window": ("ecf-2020", {"activity_months": 2}, False),
    # New players' rapid ratings stand in for their dummy opponents.
    "ecf-2020 with rapid": ("ecf-2020", {}, True),
    # A period rated whole wherever a changed member plays in it (its reach "everyone").
    "glicko-2": ("glicko-2", {}, False),
}

# Few players, so that corrections reach into later periods through common opponents.
game_rows = st.tuples(
    st.integers(0, 6), st.integers(0, 6), st.sampled_from(RESULTS), st.integers(1, 3)
).filter(lambda g: g[0] != g[1])
event_rows = st.tuples(
    st.integers(0, 500), st.lists(game_rows, min_size=1, max_size=6), st.booleans()
)
edits = st.lists(
    st.one_of(
        st.tuples(st.just("result"), st.integers(0, 99), st.sampled_from(RESULTS)),
        st.tuples(st.just("delete"), st.integers(0, 99), st.none()),
        st.tuples(st.just("late"), st.integers(0, 99), event_rows),
    ),
    min_size=1,
    max_size=3,
)


def _members() -> list[Member]:
    """Seven members: new, rated, titled players and a junior (their dummy opponents)."""
    details: list[dict[str, Any]] = [
        {},
        {"initial_rating": 1600, "initial_games": 30},
        {"title": "FM"},
        {"initial_rating": 1400, "initial_games": 4},
        {"born": dt.date(2012, 5, 1)},
        {"initial_rating": 1900, "initial_games": 12, "title": "IM"},
        {"initial_rating": 1750, "initial_games": 40},
    ]
    return [
        Member.objects.create(member_number=f"P{i}", name=f"Player {i}", **d)
        for i, d in enumerate(details)
    ]


def _event(members: list[Member], row: tuple, number: int, rapid: bool) -> Event:
    day, games, is_rapid = row
    date = FIRST_DAY + dt.timedelta(days=day)
    event = Event.objects.create(
        name=f"Event {number}",
        start_date=date,
        end_date=date,
        rounds=3,
        time_class=RAPID if rapid and is_rapid else STANDARD,
    )
    for white, black, result, round_ in games:
        Game.objects.create(
            event=event, round=round_, white=members[white], black=members[black], result=result
        )
    return event


def _complete(event: Event) -> None:
    """As the officer does: completed, then rated by closing its period (the period's
    events ripple on), or at once in a period already closed (a late event)."""
    event.status = Event.Status.COMPLETE
    event.save()
    rating_list = list_of(event.time_class)
    assert rating_list is not None  # every time control here is rated
    period = services.period_for(event, ClubSettings.load().engine(rating_list), rating_list)
    if period is not None and not period.is_closed:
        services.period_close(period=period)
    else:
        services.ratings_rerate(
            services.RerateRequest(start=event, changed=event, reason="completed")
        )


@pytest.fixture
def members(db, club: str) -> list[Member]:
    """The club's system (and its rapid list) and its members: made once a test, each
    example rolled back to them (``rolled_back``)."""
    system_id, params, rapid = CLUBS[club]
    services.rating_system_set(system_id=system_id, params=params)
    if rapid:
        services.rating_list_set(
            rating_list=RatingList(
                time_class=RAPID,
                kept=RatingList.Kept.OWN,
                rating_system=system_id,
                system_params=params,
            )
        )
    return _members()


def _record(history: list, members: list[Member], rapid: bool) -> list[Event]:
    events = [_event(members, row, n, rapid) for n, row in enumerate(history)]
    for event in sorted(events, key=services.rating_key):
        _complete(event)
    return events


def _correct(members: list[Member], events: list[Event], edit: tuple, rapid: bool) -> None:
    kind, index, value = edit
    if kind == "late":  # an event played earlier than some rated ones, completed now
        event = _event(members, value, len(events), rapid)
        events.append(event)
        _complete(event)
        return
    event = events[index % len(events)]
    game = event.games.order_by("pk").first()
    if game is None:
        return
    if kind == "result":
        game.result = value
        game.save()
    else:
        game.delete()
    # As ``games_replace`` does: only this event's games changed.
    services.ratings_rerate(services.RerateRequest(start=event, changed=event, reason=kind))


def everything_stored() -> dict[str, Any]:
    """Every figure a re-rate stores: each change in full (its breakdown holds the game
    lines) and each member's current state."""
    return {
        "states": sorted(
            RatingState.objects.values_list(
                "member_id",
                "time_class",
                "rating",
                "display",
                "games",
                "state",
                "last_event",
                "last_played",
                "last_change",
                "usable",
            )
        ),
        "changes": sorted(
            RatingChange.objects.values_list(
                "event_id",
                "member_id",
                "time_class",
                "period",
                "before",
                "after",
                "display_before",
                "display_after",
                "played",
                "score",
                "state_after",
                "event_end",
                "event_start",
                "unsettled",
                "breakdown",
            ),
            key=lambda row: row[:3],  # one change a member, event and list
        ),
    }


@pytest.mark.parametrize("club", sorted(CLUBS))
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(history=st.lists(event_rows, min_size=2, max_size=7), corrections=edits)
@example(  # a correction whose change reaches a player two periods on
    history=[
        (10, [(0, 1, "1-0", 1)], False),
        (70, [(1, 2, "1-0", 1)], False),
        (200, [(2, 3, "0-1", 1)], True),
    ],
    corrections=[("result", 0, "0-1")],
)
@example(  # ecf-2020: a change reaching a fully rated player through two new ones' passes
    history=[
        (10, [(1, 5, "1-0", 1)], False),
        (40, [(1, 0, "1-0", 1), (0, 2, "1/2-1/2", 2), (2, 6, "0-1", 3)], False),
    ],
    corrections=[("result", 0, "0-1")],
)
@example(  # a late event in a period the chain did not have, between two rated ones
    history=[(10, [(0, 1, "0-1", 1)], False), (300, [(0, 2, "1-0", 1)], False)],
    corrections=[("late", 0, (150, [(0, 3, "0-1", 1)], False))],
)
@example(  # acf-1993: a game taken out of the first period
    history=[
        (0, [(0, 1, "1-0", 1), (0, 1, "1-0", 1)], False),
        (60, [(0, 1, "1-0", 1), (1, 5, "1-0", 1)], False),
    ],
    corrections=[("delete", 0, None)],
)
@example(  # acf-1993: a late event opens a period between a zero score and the next game
    history=[(10, [(0, 1, "0-1", 1)], False), (300, [(0, 2, "1-0", 1)], False)],
    corrections=[("late", 0, (150, [(3, 4, "1-0", 1)], False))],
)
def test_a_period_systems_ripple_stores_what_a_full_re_rate_stores(
    members, club, history, corrections
):
    rapid = CLUBS[club][2]
    with rolled_back():
        events = _record(history, members, rapid)
        for edit in corrections:
            _correct(members, events, edit, rapid)
        rippled = everything_stored()
        services.ratings_rerate(services.RerateRequest(reason="from scratch"))
        assert everything_stored() == rippled
