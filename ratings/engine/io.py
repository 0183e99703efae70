"""The command line's JSON in and out, as docs/engine-io.md fixes it.

Reading collects every problem with its field path (``events[0].games[3].score``) instead
of stopping at the first, so an officer fixes a file in one pass. Players' states go
through ``codec``, as the web app's do. Writing turns the result into plain dicts
(``codec`` again) and msgspec encodes them, an event at a time.
"""

from __future__ import annotations

import json
import sys
from typing import IO, Any

import msgspec

from . import SYSTEMS
from .base import (
    EngineError,
    Event,
    EventResult,
    Game,
    PlayerState,
    RatingResult,
    RatingSystem,
)
from .codec import (
    _change_figures,
    _is_number,
    _parse_date,
    change_to_dict,
    state_from_dict,
    state_to_dict,
)

__all__ = ["load_document", "parse_input", "result_to_dict", "write_output"]

_SCORES = {1: 1.0, 0.5: 0.5, 0: 0.0}
_GAME_KEYS = frozenset(("a", "b", "score", "round"))
_EVENT_KEYS = frozenset(("id", "date", "games", "period", "name"))
_DOCUMENT_KEYS = frozenset(("system", "params", "players", "events"))


# -- reading -------------------------------------------------------------------------


def load_document(text: bytes) -> object:
    """The JSON document in ``text``, as ``json.loads`` reads it.

    msgspec decodes it (a few times faster on a big history); what msgspec declines (a
    byte order mark, ``NaN``, a number past a float, a lone surrogate escape, bad JSON) is
    read by ``json.loads``, which also gives the error for input that is not JSON.
    """
    try:
        return msgspec.json.decode(text)
    except (ValueError, RecursionError):  # msgspec's errors are ValueErrors
        return json.loads(text)


def parse_input(document: object) -> tuple[str, dict[str, object], list[PlayerState], list[Event]]:
    """Check a whole input document; raise EngineError listing every problem."""
    if not isinstance(document, dict):
        raise EngineError(["(document): must be a JSON object"])
    problems = [f"{key}: unknown field" for key in document if key not in _DOCUMENT_KEYS]
    system = document.get("system")
    if system is None:
        problems.append(f"system: required (one of {', '.join(SYSTEMS)})")
    elif not isinstance(system, str) or system not in SYSTEMS:
        # (a list or an object is no system either, and cannot be looked up as one)
        problems.append(f"system: must be one of {', '.join(SYSTEMS)}, got {system!r}")
    params = document.get("params")
    if params is None:
        params = {}
    elif not isinstance(params, dict):
        problems.append(f"params: must be an object, got {params!r}")
        params = {}
    else:
        too_big = [k for k, v in params.items() if type(v) is int and not _is_number(v)]
        problems += [f"params.{name}: must be a finite number" for name in too_big]
        if isinstance(system, str) and system in SYSTEMS:
            checked = {k: v for k, v in params.items() if k not in too_big}
            problems += SYSTEMS[system].check_params(checked)
    floored = isinstance(system, str) and system in SYSTEMS and SYSTEMS[system].has_floor
    known = SYSTEMS[system] if isinstance(system, str) and system in SYSTEMS else None
    players = _parse_players(document.get("players"), problems, floored=floored, system=known)
    if "events" not in document:
        problems.append("events: required")
    events = _parse_events(document.get("events", []), problems)
    if problems:
        raise EngineError(problems)
    assert isinstance(system, str)
    return system, params, players, events


def _parse_players(
    raw: object,
    problems: list[str],
    *,
    floored: bool,
    system: type[RatingSystem[Any]] | None,
) -> list[PlayerState]:
    """The players' states, each read as ``system``'s own (its fields and their kinds)."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        problems.append("players: must be a list")
        return []
    players: list[PlayerState] = []
    seen: set[str] = set()
    for i, data in enumerate(raw):
        try:
            player = state_from_dict(data, f"players[{i}]", system)
        except EngineError as error:
            problems += error.problems
            continue
        if player.id in seen:
            problems.append(f"players[{i}].id: {player.id!r} appears twice")
        if floored and player.rating is not None and player.rating < 0:
            # The web app refuses it too; only a system without a floor rates below 0.
            problems.append(
                f"players[{i}].rating: must be at least 0 (this system has a floor), "
                f"got {player.rating:g}"
            )
        seen.add(player.id)
        players.append(player)
    return players


def _parse_events(raw: object, problems: list[str]) -> list[Event]:
    if not isinstance(raw, list):
        problems.append("events: must be a list")
        return []
    events: list[Event] = []
    seen: set[str] = set()
    for i, raw_event in enumerate(raw):
        path = f"events[{i}]"
        if not isinstance(raw_event, dict):
            problems.append(f"{path}: must be an object")
            continue
        problems += [f"{path}.{key}: unknown field" for key in raw_event if key not in _EVENT_KEYS]
        event_id = raw_event.get("id")
        if not isinstance(event_id, str) or not event_id:
            problems.append(f"{path}.id: must be a non-empty string")
            event_id = f"#{i}"
        elif event_id in seen:
            problems.append(f"{path}.id: {event_id!r} appears twice")
        seen.add(event_id)
        day = None
        if "date" not in raw_event:
            problems.append(f"{path}.date: required")
        else:
            day = _parse_date(raw_event["date"], f"{path}.date", problems)
        period = raw_event.get("period")
        if period is not None and (not isinstance(period, str) or not period):
            problems.append(f"{path}.period: must be a non-empty string")
            period = None
        name = raw_event.get("name")
        if name is not None and not isinstance(name, str):
            problems.append(f"{path}.name: must be a string")
        games = _parse_games(raw_event.get("games"), f"{path}.games", problems)
        if day is not None:
            events.append(Event(id=event_id, date=day, games=games, period=period))
    return events


def _parse_games(raw: object, path: str, problems: list[str]) -> tuple[Game, ...]:
    if raw is None:
        problems.append(f"{path}: required")
        return ()
    if not isinstance(raw, list):
        problems.append(f"{path}: must be a list")
        return ()
    games: list[Game] = []
    intern = sys.intern  # one string object per player id: dict look-ups hit on identity
    for j, g in enumerate(raw):
        # The usual game, checked in one go; anything else is looked at field by field.
        if (
            type(g) is dict
            and g.keys() <= _GAME_KEYS
            and type(a := g.get("a")) is str
            and type(b := g.get("b")) is str
            and a
            and b
            and a != b
            and type(score := g.get("score")) in (int, float)
            and score in _SCORES
            and ((r := g.get("round")) is None or (type(r) is int and r >= 1))
        ):
            games.append(Game(intern(a), intern(b), _SCORES[score], r))
        else:
            _game_problems(g, f"{path}[{j}]", problems)
    return tuple(games)


def _game_problems(g: object, path: str, problems: list[str]) -> None:
    """Report what is wrong with one game."""
    if not isinstance(g, dict):
        problems.append(f"{path}: must be an object")
        return
    problems += [f"{path}.{key}: unknown field" for key in g if key not in _GAME_KEYS]
    for side in ("a", "b"):
        value = g.get(side)
        if not isinstance(value, str) or not value:
            problems.append(f"{path}.{side}: must be a player id (a non-empty string)")
    if isinstance(g.get("a"), str) and g.get("a") == g.get("b"):
        problems.append(f"{path}.b: a player cannot play themselves ({g['a']!r})")
    if "score" not in g:
        problems.append(f"{path}.score: required")
    else:
        s = g["score"]
        if isinstance(s, bool) or not isinstance(s, int | float) or s not in _SCORES:
            problems.append(f"{path}.score: must be 1, 0.5 or 0, got {s!r}")
    r = g.get("round")
    if r is not None and (not isinstance(r, int) or isinstance(r, bool) or r < 1):
        problems.append(f"{path}.round: must be a whole number from 1, got {r!r}")


# -- writing -------------------------------------------------------------------------


def _player_to_dict(result: RatingResult, player: PlayerState) -> dict[str, Any]:
    return {**state_to_dict(player), "display": result.displays[player.id]}


def _event_to_dict(event: EventResult, explain: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"id": event.id}
    if event.period is not None:
        out["period"] = event.period
    change = change_to_dict if explain else _change_figures
    out["changes"] = [change(c) for c in event.changes]
    return out


def result_to_dict(result: RatingResult, *, explain: bool = True) -> dict[str, Any]:
    """The output document (docs/engine-io.md) as plain dicts."""
    return {
        "system": result.system,
        "players": [_player_to_dict(result, p) for p in result.players],
        "events": [_event_to_dict(e, explain) for e in result.events],
    }


_ENCODER = msgspec.json.Encoder()


def _encode(value: object) -> bytes:
    try:
        return _ENCODER.encode(value)
    except (UnicodeEncodeError, OverflowError):
        # A lone surrogate (from a "\ud800" escape in the input) or an int past 64 bits:
        # json writes them (as ASCII, the surrogate escaped: still valid UTF-8 and JSON).
        return json.dumps(value, separators=(",", ":")).encode()


def write_output(result: RatingResult, out: IO[bytes], *, explain: bool = True) -> None:
    """Write ``result_to_dict(result)`` to ``out`` as JSON, an event at a time (a big
    history's output never sits whole in memory as dicts)."""
    players = [_player_to_dict(result, p) for p in result.players]
    out.write(b'{"system":' + _encode(result.system) + b',"players":' + _encode(players))
    out.write(b',"events":[')
    for i, event in enumerate(result.events):
        if i:
            out.write(b",")
        out.write(_encode(_event_to_dict(event, explain)))
    out.write(b"]}")
