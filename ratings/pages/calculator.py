"""The public rating calculator: what a result would do to a rating, saving nothing."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.utils import timezone

from ..engine import Event as EngineEvent
from ..engine import Game as EngineGame
from ..engine import PlayerState
from ..models import ClubSettings, Member, RatingState
from ..rules.time_classes import STANDARD
from ..services.chain import member_initial_state, state_from_json

#: A typed opponent's rating is taken as an established one: this many games.
CALCULATOR_TYPED_GAMES = 30


def calculator_states(*, members: Iterable[Member]) -> dict[int, PlayerState]:
    """Members as the engine would see them now on the standard list (their stored states),
    in one query: the calculator works out standard games."""
    system = ClubSettings.load().engine()
    members = list(members)
    stored = dict(
        RatingState.objects.filter(member__in=members, time_class=STANDARD).values_list(
            "member_id", "state"
        )
    )
    states = {}
    for member in members:
        data = stored.get(member.pk)
        states[member.pk] = state_from_json(data) if data else member_initial_state(member, system)
    return states


def calculator_typed(*, key: str, rating: float, games: int) -> PlayerState:
    """A typed rating as the engine would take it."""
    state = PlayerState(id=key, rating=rating, games=games)
    return ClubSettings.load().engine().brought_in(state, since=timezone.localdate())


def calculator_rate(*, player: PlayerState, games: Sequence[tuple[PlayerState, float]]) -> Any:
    """What ``player`` would gain from ``games`` (opponent, score) today, saving nothing.

    Returns the engine's PlayerChange: before, after, the displays and one line per game.
    """
    system = ClubSettings.load().engine()
    states = {player.id: player}
    for opponent, _ in games:
        states.setdefault(opponent.id, opponent)
    event = EngineEvent(
        id="what-if",
        date=timezone.localdate(),
        games=tuple(
            EngineGame(player.id, opponent.id, score, number)
            for number, (opponent, score) in enumerate(games, 1)
        ),
    )
    result = system.rate(states.values(), [event])
    return next(c for c in result.events[0].changes if c.player == player.id)
