"""JSON in and out, as ../shared/engine-io.md fixes it.

Parsing collects every problem with its field path (``events[0].games[3].score``)
instead of stopping at the first, so an officer fixes a file in one pass.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import date
from typing import Any

from .base import (
    STATE_FIELDS,
    EngineError,
    Event,
    EventResult,
    Game,
    GameLine,
    PlayerChange,
    PlayerState,
    RatingResult,
)

TITLES = ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")
ACF_STATUSES = ("new", "unrated", "provisional", "confirmed")
ECF_CATEGORIES = ("full", "partial")
_SCORES = {1: 1.0, 0.5: 0.5, 0: 0.0}
_DATE_FIELDS = ("born", "last_played")
_NUMBER_FIELDS = ("rating", "avg_opp", "score", "points", "rapid_rating")


def _is_number(value: object) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
    )


def _parse_date(value: object, path: str, problems: list[str]) -> date | None:
    if not isinstance(value, str):
        problems.append(f"{path}: must be a date YYYY-MM-DD, got {value!r}")
        return None
    try:
        return date.fromisoformat(value) if len(value) == 10 else _bad_date()
    except ValueError:
        problems.append(f"{path}: must be a date YYYY-MM-DD, got {value!r}")
        return None


def _bad_date() -> date:
    raise ValueError


def parse_player(raw: object, path: str, problems: list[str]) -> PlayerState | None:
    if not isinstance(raw, dict):
        problems.append(f"{path}: must be an object")
        return None
    values: dict[str, Any] = {}
    for key, value in raw.items():
        where = f"{path}.{key}"
        if key not in STATE_FIELDS:
            problems.append(f"{where}: unknown field")
        elif key == "id":
            if not isinstance(value, str) or not value:
                problems.append(f"{where}: must be a non-empty string")
            else:
                values["id"] = value
        elif value is None:
            continue
        elif key in _NUMBER_FIELDS:
            if not _is_number(value):
                problems.append(f"{where}: must be a number, got {value!r}")
            else:
                values[key] = float(value)
        elif key == "games":
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                problems.append(f"{where}: must be a whole number of games, got {value!r}")
            else:
                values[key] = value
        elif key == "guest":
            if not isinstance(value, bool):
                problems.append(f"{where}: must be true or false, got {value!r}")
            else:
                values[key] = value
        elif key in _DATE_FIELDS:
            day = _parse_date(value, where, problems)
            if day is not None:
                values[key] = day
        elif key == "gender":
            if value not in ("M", "F"):
                problems.append(f"{where}: must be M or F, got {value!r}")
            else:
                values[key] = value
        elif key == "title":
            if value not in TITLES:
                problems.append(f"{where}: must be one of {', '.join(TITLES)}, got {value!r}")
            else:
                values[key] = value
        elif key == "status":
            if value not in ACF_STATUSES:
                problems.append(
                    f"{where}: must be one of {', '.join(ACF_STATUSES)}, got {value!r}"
                )
            else:
                values[key] = value
        elif key == "category":
            if value not in ECF_CATEGORIES:
                problems.append(f"{where}: must be full or partial, got {value!r}")
            else:
                values[key] = value
    if "id" not in values:
        if "id" not in raw:
            problems.append(f"{path}.id: required")
        return None
    return PlayerState(**values)


def parse_events(raw: object, problems: list[str]) -> list[Event]:
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
        for key in raw_event:
            if key not in ("id", "date", "games", "period", "name"):
                problems.append(f"{path}.{key}: unknown field")
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
    append = games.append
    scores = _SCORES
    for j, g in enumerate(raw):
        # The fast path: a well-formed game costs a handful of checks.
        if type(g) is dict and len(g) <= 4:
            a = g.get("a")
            b = g.get("b")
            s = g.get("score")
            r = g.get("round")
            if (
                type(a) is str
                and type(b) is str
                and a
                and b
                and a != b
                and type(s) in (int, float)
                and s in scores
                and (r is None or type(r) is int)
                and len(g) == 2 + ("score" in g) + ("round" in g)
            ):
                append(Game(a, b, scores[s], r))
                continue
        _game_problems(g, f"{path}[{j}]", problems)
    return tuple(games)


def _game_problems(g: object, path: str, problems: list[str]) -> None:
    if not isinstance(g, dict):
        problems.append(f"{path}: must be an object")
        return
    for key in g:
        if key not in ("a", "b", "score", "round"):
            problems.append(f"{path}.{key}: unknown field")
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
    if r is not None and (not isinstance(r, int) or isinstance(r, bool)):
        problems.append(f"{path}.round: must be a whole number, got {r!r}")


def parse_input(document: object) -> tuple[str, dict[str, object], list[PlayerState], list[Event]]:
    """Check a whole input document; raise EngineError listing every problem."""
    from . import SYSTEMS  # the registry imports the systems, which import this module's peers

    problems: list[str] = []
    if not isinstance(document, dict):
        raise EngineError(["(document): must be a JSON object"])
    for key in document:
        if key not in ("system", "params", "players", "events"):
            problems.append(f"{key}: unknown field")
    system = document.get("system")
    if system not in SYSTEMS:
        problems.append(f"system: must be one of {', '.join(SYSTEMS)}, got {system!r}")
    params = document.get("params") or {}
    if not isinstance(params, dict):
        problems.append("params: must be an object")
        params = {}
    elif system in SYSTEMS:
        problems.extend(SYSTEMS[system].check_params(params))
    players: list[PlayerState] = []
    raw_players = document.get("players") or []
    if not isinstance(raw_players, list):
        problems.append("players: must be a list")
        raw_players = []
    seen: set[str] = set()
    for i, raw in enumerate(raw_players):
        player = parse_player(raw, f"players[{i}]", problems)
        if player is None:
            continue
        if player.id in seen:
            problems.append(f"players[{i}].id: {player.id!r} appears twice")
        seen.add(player.id)
        players.append(player)
    if "events" not in document:
        problems.append("events: required")
    events = parse_events(document.get("events", []), problems)
    if problems:
        raise EngineError(problems)
    assert isinstance(system, str)
    return system, params, players, events


# -- output -------------------------------------------------------------------


def _number(value: float | None) -> float | int | None:
    """Whole floats print as integers (1600, not 1600.0), the rest unchanged."""
    if value is None:
        return None
    if value == int(value) and abs(value) < 2**53:
        return int(value)
    return value


def player_to_json(player: PlayerState, display: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"id": player.id}
    for name in STATE_FIELDS[1:]:
        value = getattr(player, name)
        if value is None or (name == "guest" and value is False):
            continue
        if isinstance(value, date):
            out[name] = value.isoformat()
        elif isinstance(value, float):
            out[name] = _number(value)
        else:
            out[name] = value
    if "games" not in out:
        out["games"] = player.games
    if display is not None:
        out["display"] = display
    return out


def _line_to_json(line: GameLine) -> dict[str, Any]:
    out: dict[str, Any] = {
        "opponent": line.opponent,
        "score": _number(line.score),
        "opponent_rating": _number(line.opponent_rating),
    }
    if line.round is not None:
        out["round"] = line.round
    if line.expected is not None:
        out["expected"] = line.expected
    if line.change is not None:
        out["change"] = _number(line.change)
    if not line.rated:
        out["rated"] = False
    if line.detail:
        out.update(line.detail)
    return out


def change_to_json(change: PlayerChange, *, explain: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {
        "player": change.player,
        "before": _number(change.before),
        "after": _number(change.after),
        "display_before": change.display_before,
        "display_after": change.display_after,
    }
    out.update(change.detail)
    if explain:
        out["games"] = [_line_to_json(line) for line in change.games]
    return out


def event_to_json(event: EventResult, *, explain: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {"id": event.id}
    if event.period is not None:
        out["period"] = event.period
    out["changes"] = [change_to_json(c, explain=explain) for c in event.changes]
    return out


def result_to_json(result: RatingResult, *, explain: bool = True) -> dict[str, Any]:
    return {
        "system": result.system,
        "players": [player_to_json(p, result.displays[p.id]) for p in result.players],
        "events": [event_to_json(e, explain=explain) for e in result.events],
    }


def params_to_json(params: Mapping[str, object]) -> dict[str, object]:
    return dict(params)
