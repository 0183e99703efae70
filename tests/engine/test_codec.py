"""``ratings.engine.codec``: states to JSON and back, changes to JSON."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from ratings.engine import (
    SYSTEMS,
    AcfState,
    EcfState,
    EngineError,
    Event,
    Game,
    GameLine,
    GlickoState,
    PlayerChange,
    PlayerState,
)
from ratings.engine.base import state_fields
from ratings.engine.codec import change_to_dict, state_from_dict, state_to_dict

#: For each system's own state type, a state with every field set.
FULL: dict[type[PlayerState], PlayerState] = {
    AcfState: AcfState(
        id="ann", rating=1612.25, games=41, guest=True, born=date(2010, 5, 6), gender="F",
        title="WCM", status="provisional", avg_opp=1543.5, score=20.5,
    ),
    EcfState: EcfState(
        id="ann", rating=1612.25, games=41, guest=True, born=date(2010, 5, 6), gender="F",
        title="WCM", category="partial", avg_opp=1543.5, points=19.5,
        last_played=date(2023, 1, 2), rapid_rating=1700.0, rapid_category="full",
        rapid_last_played=date(2022, 11, 5),
    ),
    GlickoState: GlickoState(
        id="ann", rating=1612.25, games=41, guest=True, born=date(2010, 5, 6), gender="F",
        title="WCM", deviation=151.52, volatility=0.059996, last_played=date(2023, 1, 2),
    ),
}  # fmt: skip
EVERY_FIELD = [(t, name) for t in FULL for name in state_fields(t)[1:]]


def _through_json(state: PlayerState) -> PlayerState:
    return state_from_dict(json.loads(json.dumps(state_to_dict(state))))


@pytest.mark.parametrize("state_type", list(FULL), ids=lambda t: t.__name__)
def test_the_full_states_set_every_field(state_type: type[PlayerState]) -> None:
    full = FULL[state_type]
    assert [n for n in state_fields(state_type) if getattr(full, n) in (None, False)] == []


def test_every_system_state_type_has_a_full_state_here() -> None:
    assert {s.state_type for s in SYSTEMS.values()} - {PlayerState} == set(FULL)


def test_a_state_with_every_field_comes_back_through_json() -> None:
    data = state_to_dict(FULL[EcfState])
    assert data == {
        "id": "ann", "rating": 1612.25, "games": 41, "guest": True, "born": "2010-05-06",
        "gender": "F", "title": "WCM", "category": "partial", "avg_opp": 1543.5,
        "points": 19.5, "last_played": "2023-01-02", "rapid_rating": 1700,
        "rapid_category": "full", "rapid_last_played": "2022-11-05",
    }  # fmt: skip
    for full in FULL.values():
        assert _through_json(full) == full


@pytest.mark.parametrize(("state_type", "name"), EVERY_FIELD)
def test_each_field_alone_comes_back_read_by_its_system(
    state_type: type[PlayerState], name: str
) -> None:
    state = state_type(id="ann", **{name: getattr(FULL[state_type], name)})
    system = next(s for s in SYSTEMS.values() if s.state_type is state_type)
    data = json.loads(json.dumps(state_to_dict(state)))
    assert state_from_dict(data, system=system) == state


def test_fields_left_at_their_default_are_left_out_but_games() -> None:
    assert state_to_dict(PlayerState("ann")) == {"id": "ann", "games": 0}
    assert state_to_dict(PlayerState("ann", 1500.0, 3)) == {
        "id": "ann",
        "rating": 1500,
        "games": 3,
    }


def test_whole_ratings_are_written_as_integers_and_read_back_as_floats() -> None:
    data = state_to_dict(PlayerState("ann", 1500.0))
    assert type(data["rating"]) is int
    state = state_from_dict(data)
    assert type(state.rating) is float and state == PlayerState("ann", 1500.0)


def _events() -> list[Event]:
    ids = ["ann", "bob", "cat", "dan"]
    events = []
    for n, day in enumerate([date(2022, 2, 5), date(2022, 6, 4), date(2023, 3, 4)]):
        games = tuple(
            Game(ids[i], ids[(i + n + 1) % 4], (1.0, 0.5, 0.0)[(i + n) % 3], 1) for i in range(4)
        )
        events.append(Event(f"e{n}", day, games))
    return events


def _listed(system_id: str) -> list[PlayerState]:
    """Input states with the fields ``system_id`` keeps (and a few it ignores)."""
    born = date(2012, 1, 1)
    if system_id == "acf-1993":
        return [
            AcfState("ann", 1500.0, 40, status="confirmed"),
            AcfState("bob", None, 4, status="unrated", avg_opp=1400.0, score=1.5),
        ]
    if system_id == "ecf-2020":
        return [
            EcfState("ann", 1800.0, 30, category="full", avg_opp=1750.0, points=16.0,
                     last_played=date(2021, 12, 1)),
            EcfState("bob", None, 0, born=born, title="FM", rapid_rating=1900.0,
                     rapid_category="full", rapid_last_played=date(2021, 11, 6)),
        ]  # fmt: skip
    return [PlayerState("ann", 1600.0, 40, born=born, gender="F"), PlayerState("bob", guest=True)]


@pytest.mark.parametrize("system_id", list(SYSTEMS))
def test_every_state_a_system_keeps_comes_back_through_json(system_id: str) -> None:
    result = SYSTEMS[system_id]().rate(_listed(system_id), _events())
    states = list(result.players)
    states += [c.state for e in result.events for c in e.changes if c.state is not None]
    assert len(states) > 4
    for state in states:
        data = json.loads(json.dumps(state_to_dict(state)))
        assert state_from_dict(data, system=SYSTEMS[system_id]) == state


def test_a_display_key_is_ignored() -> None:
    assert state_from_dict({"id": "ann", "rating": 1606, "display": "1606"}) == PlayerState(
        "ann", 1606.0
    )


BAD_STATES: list[tuple[Any, list[str]]] = [
    ("ann", ["state: must be an object"]),
    ({"rating": 1500}, ["state.id: required"]),
    ({"id": ""}, ["state.id: must be a non-empty string"]),
    ({"id": 7}, ["state.id: must be a non-empty string"]),
    ({"id": "a", "colour": "white"}, ["state.colour: unknown field"]),
    ({"id": "a", "rating": "1600"}, ["state.rating: must be a number, got '1600'"]),
    ({"id": "a", "rating": True}, ["state.rating: must be a number, got True"]),
    ({"id": "a", "avg_opp": float("nan")}, ["state.avg_opp: must be a number, got nan"]),
    ({"id": "a", "games": -1}, ["state.games: must be a whole number of games, got -1"]),
    ({"id": "a", "games": 2.0}, ["state.games: must be a whole number of games, got 2.0"]),
    ({"id": "a", "guest": "yes"}, ["state.guest: must be true or false, got 'yes'"]),
    ({"id": "a", "born": "1990-02-30"}, ["state.born: must be a date YYYY-MM-DD, got '1990-"]),
    ({"id": "a", "last_played": 20240101}, ["state.last_played: must be a date YYYY-MM-DD"]),
    ({"id": "a", "gender": "X"}, ["state.gender: must be M or F, got 'X'"]),
    ({"id": "a", "title": "GMX"}, ["state.title: must be one of GM, IM, FM, CM, WGM"]),
    ({"id": "a", "status": "master"}, ["state.status: must be one of new, unrated, prov"]),
    ({"id": "a", "category": "half"}, ["state.category: must be full or partial, got 'half'"]),
    ({"id": "a", "rapid_category": "K"}, ["state.rapid_category: must be full or partial"]),
    ({"id": "a", "rapid_last_played": "2024"}, ["state.rapid_last_played: must be a date"]),
    ({"id": "a", "display": 1606}, ["state.display: must be a string, got 1606"]),
]  # fmt: skip


@pytest.mark.parametrize(("data", "problems"), BAD_STATES)
def test_bad_input_names_each_field_by_its_path(data: Any, problems: list[str]) -> None:
    with pytest.raises(EngineError) as raised:
        state_from_dict(data)
    assert len(raised.value.problems) == len(problems)
    for problem, start in zip(raised.value.problems, problems, strict=True):
        assert problem.startswith(start), problem


def test_every_problem_is_reported_at_once_under_the_given_path() -> None:
    with pytest.raises(EngineError) as raised:
        state_from_dict({"games": -1, "title": "X", "born": "soon"}, "players[3]")
    assert [p.split(":")[0] for p in raised.value.problems] == [
        "players[3].games",
        "players[3].title",
        "players[3].born",
        "players[3].id",
    ]


def test_nulls_are_the_defaults() -> None:
    assert state_from_dict({"id": "a", "rating": None, "born": None}) == PlayerState("a")


def test_a_change_is_written_with_its_breakdown_and_game_lines() -> None:
    lines = [
        GameLine("bob", 1.0, 1500.0, 0.6401, 5.76, True, 1, {"k": 16.0}),
        GameLine("cy", 0.5, None, None, None, False, None, {}),
        GameLine("dee", 0.0, 1450.5, None, -2.0, True, 3, {"rule": "floor"}),
    ]
    change = PlayerChange(
        "ann", 1600.0, 1603.76, "1600", "1604", lines, {"k": 16.0, "played": 3},
        state=PlayerState("ann", 1603.76, 43),
    )  # fmt: skip
    assert change_to_dict(change) == {
        "player": "ann",
        "before": 1600,
        "after": 1603.76,
        "display_before": "1600",
        "display_after": "1604",
        "k": 16.0,
        "played": 3,
        "games": [
            {"opponent": "bob", "score": 1, "opponent_rating": 1500, "round": 1,
             "expected": 0.6401, "change": 5.76, "k": 16.0},
            {"opponent": "cy", "score": 0.5, "opponent_rating": None, "rated": False},
            {"opponent": "dee", "score": 0, "opponent_rating": 1450.5, "round": 3, "change": -2,
             "rule": "floor"},
        ],
    }  # fmt: skip
    assert type(change_to_dict(change)["before"]) is int
    json.dumps(change_to_dict(change), allow_nan=False)  # JSON-ready as it is


@pytest.mark.parametrize("system_id", list(SYSTEMS))
def test_every_systems_changes_are_json_ready(system_id: str) -> None:
    result = SYSTEMS[system_id]().rate(_listed(system_id), _events())
    for event in result.events:
        for change in event.changes:
            data = change_to_dict(change)
            assert json.loads(json.dumps(data, allow_nan=False)) == data
            assert len(data["games"]) == len(change.games)
