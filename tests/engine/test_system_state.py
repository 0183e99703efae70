"""A system's own state: declared in its module, read and written by the shared codec and
driver without either naming its fields (docs/development.md, "Adding a rating system")."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import ClassVar

import pytest

from ratings.engine import AcfState, EngineError, Event, EventResult, Game, PlayerState
from ratings.engine.base import NUMBER, RatingSystem, StateKind, with_changes
from ratings.engine.codec import state_from_dict, state_to_dict
from ratings.engine.io import parse_input, result_to_dict


@dataclass(frozen=True, slots=True)
class StreakState(PlayerState):
    """A made-up system's own field: the player's run of wins, and a word for it."""

    streak: float | None = None
    mood: str | None = None

    kinds: ClassVar[Mapping[str, StateKind]] = {"streak": NUMBER, "mood": ("hot", "cold")}


class Streak(RatingSystem[StreakState]):
    """Each win adds one to the streak; anything else ends it."""

    id = "streak-test"
    title = "Streak (a test's own system)"
    state_type = StreakState

    def rate_period(
        self, players: dict[str, StreakState], events: Sequence[Event], period: str | None
    ) -> list[EventResult]:
        for event in events:
            for game in event.games:
                for pid, won in ((game.a, game.score == 1.0), (game.b, game.score == 0.0)):
                    state = players[pid]
                    streak = (state.streak or 0.0) + 1 if won else 0.0
                    players[pid] = with_changes(
                        state, streak=streak, mood="hot" if won else "cold", games=state.games + 1
                    )
        return []

    def display(self, player: StreakState) -> str:
        return f"{player.streak or 0:g}"


EVENT = Event("e1", date(2026, 3, 4), (Game("ann", "bob", 1.0),))


def test_a_new_system_keeps_its_own_field_through_the_driver() -> None:
    result = Streak().rate([PlayerState("ann", 1500.0, 3)], [EVENT])
    ann = next(p for p in result.players if p.id == "ann")
    assert ann == StreakState("ann", 1500.0, 4, streak=1.0, mood="hot")


def test_a_new_systems_state_goes_through_the_codec_as_it_declares_it() -> None:
    state = StreakState("ann", 1500.0, 4, streak=2.0, mood="hot")
    data = json.loads(json.dumps(state_to_dict(state)))
    assert data == {"id": "ann", "rating": 1500, "games": 4, "streak": 2, "mood": "hot"}
    assert state_from_dict(data, system=Streak) == state


def test_the_codec_checks_a_new_systems_field_by_the_kind_it_declares() -> None:
    with pytest.raises(EngineError) as raised:
        state_from_dict({"id": "ann", "streak": "long", "mood": "warm"}, "p", Streak)
    assert raised.value.problems == [
        "p.streak: must be a number, got 'long'",
        "p.mood: must be hot or cold, got 'warm'",
    ]


def test_another_systems_field_is_unknown_to_a_system() -> None:
    with pytest.raises(EngineError, match=r"p\.status: unknown field"):
        state_from_dict({"id": "ann", "status": "confirmed"}, "p", Streak)


def test_a_field_declared_without_a_kind_is_refused_when_first_used() -> None:
    @dataclass(frozen=True, slots=True)
    class Careless(PlayerState):
        luck: float | None = None

    with pytest.raises(TypeError, match="Careless declares no kind for luck"):
        state_to_dict(Careless("ann"))


def test_a_state_from_another_system_keeps_what_the_two_share() -> None:
    acf = AcfState("ann", 1500.0, 30, born=date(2001, 2, 3), status="confirmed")
    assert Streak().own_state(acf) == StreakState("ann", 1500.0, 30, born=date(2001, 2, 3))


def test_a_stored_state_read_without_its_system_is_taken_whole_by_it() -> None:
    # A stored row's JSON carries no system: read alone, it comes back in the state type
    # that holds its fields, and the system that rates it loses none of them.
    data = {"id": "ann", "rating": 1500, "games": 4, "streak": 2}
    read = state_from_dict(data)
    assert Streak().prepare(read) == StreakState("ann", 1500.0, 4, streak=2.0)


def test_the_command_lines_document_reads_the_systems_own_fields() -> None:
    # The document names its system; its players are read as that system's states.
    _, _, players, _ = parse_input(
        {"system": "acf-1993", "players": [{"id": "ann", "status": "new"}], "events": []}
    )
    assert players == [AcfState("ann", status="new")]
    result = Streak().rate(players, [EVENT])
    written = {p["id"]: p for p in result_to_dict(result)["players"]}
    assert written["ann"]["streak"] == 1 and "status" not in written["ann"]
