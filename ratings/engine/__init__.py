"""The rating engine: the club rating systems as pure functions, no Django.

``SYSTEMS`` is the one registry: the web app asks it for its choices (``system_choices``,
read when a form or a check needs them, never frozen into a migration) and the command
line (``python -m ratings.engine``) looks systems up in it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .acf_1993 import Acf1993
from .acf_standing import AcfState
from .base import (
    BroughtInField,
    EngineError,
    Event,
    EventResult,
    FigureUsed,
    Game,
    GameLine,
    Parameter,
    PlayerChange,
    PlayerState,
    RatingResult,
    RatingSystem,
    StatusChange,
    rated_games,
)
from .ecf_2020 import Ecf2020
from .ecf_standing import EcfState
from .glicko_2 import Glicko2, GlickoState
from .nscl import Nscl
from .nz_club_elo import NzClubElo
from .st_charles import StCharles

SYSTEMS: dict[str, type[RatingSystem[Any]]] = {
    system.id: system for system in (NzClubElo, StCharles, Acf1993, Nscl, Ecf2020, Glicko2)
}


def system_choices() -> list[tuple[str, str]]:
    """Every system as a choice, (id, title), in the registry's order: the model fields'
    ``choices`` (a callable, so that a system added here needs no migration)."""
    return [(system_id, cls.title) for system_id, cls in SYSTEMS.items()]


def brought_in_fields() -> tuple[BroughtInField, ...]:
    """Every word any system reads with a rating brought in, once each by name, in the
    registry's order: what a member's record may keep and the members file may carry
    (a system added to ``SYSTEMS`` brings its own)."""
    seen: dict[str, BroughtInField] = {}
    for system in SYSTEMS.values():
        for field in system.brought_in_fields:
            seen.setdefault(field.name, field)
    return tuple(seen.values())


#: The system a new club starts on.
DEFAULT_SYSTEM = "nz-club-elo"


def get_system(system_id: str, params: Mapping[str, object] | None = None) -> RatingSystem[Any]:
    try:
        cls = SYSTEMS[system_id]
    except KeyError:
        raise EngineError([f"system: unknown rating system {system_id!r}"]) from None
    return cls(params)


def rate(
    system_id: str,
    *,
    players: Iterable[PlayerState] = (),
    events: Sequence[Event],
    params: Mapping[str, object] | None = None,
) -> RatingResult:
    """Rate ``events`` in order, starting from ``players``' states."""
    return get_system(system_id, params).rate(players, events)


__all__ = [
    "DEFAULT_SYSTEM",
    "SYSTEMS",
    "AcfState",
    "BroughtInField",
    "EcfState",
    "EngineError",
    "Event",
    "EventResult",
    "FigureUsed",
    "Game",
    "GameLine",
    "GlickoState",
    "Parameter",
    "PlayerChange",
    "PlayerState",
    "RatingResult",
    "RatingSystem",
    "StatusChange",
    "brought_in_fields",
    "get_system",
    "rate",
    "rated_games",
    "system_choices",
]
