"""JSON in and out, as docs/engine-io.md fixes it.

Parsing collects every problem with its field path (``events[0].games[3].score``)
instead of stopping at the first, so an officer fixes a file in one pass.

Both directions are built for a million games: a well-formed list of games is checked
and turned into ``Game`` objects a column at a time (C-level ``map`` passes, no Python
call per game), and ``write_result`` writes the output the same way. Anything the fast
paths do not recognise takes the plain road, which gives the same answer.
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import signal
import sys
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import fields
from datetime import date
from functools import partial
from itertools import accumulate, chain, pairwise, repeat
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from operator import attrgetter, eq, is_not, itemgetter, not_
from operator import gt as operator_gt
from typing import IO, Any

import msgspec

from .base import (
    GAME_ROW_FIELDS,
    STATE_FIELDS,
    EngineError,
    Event,
    EventResult,
    Game,
    GameLine,
    GameRows,
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
#: Output-only player fields that an input may carry (the output fed back in): ignored.
_OUTPUT_ONLY_FIELDS = ("display",)
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_LARGEST_FLOAT = sys.float_info.max


def _is_number(value: object) -> bool:
    if type(value) is int:  # finite, but may be too big for a float
        return -_LARGEST_FLOAT <= value <= _LARGEST_FLOAT
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _parse_date(value: object, path: str, problems: list[str]) -> date | None:
    if isinstance(value, str) and _DATE.fullmatch(value):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    problems.append(f"{path}: must be a date YYYY-MM-DD, got {value!r}")
    return None


def parse_player(raw: object, path: str, problems: list[str]) -> PlayerState | None:
    if not isinstance(raw, dict):
        problems.append(f"{path}: must be an object")
        return None
    values: dict[str, Any] = {}
    for key, value in raw.items():
        where = f"{path}.{key}"
        if key not in STATE_FIELDS:
            if key in _OUTPUT_ONLY_FIELDS:
                if value is not None and not isinstance(value, str):
                    problems.append(f"{where}: must be a string, got {value!r}")
            else:
                problems.append(f"{where}: unknown field")
        elif key == "id":
            if not isinstance(value, str) or not value:
                problems.append(f"{where}: must be a non-empty string")
            else:
                values["id"] = sys.intern(value)  # the same object as in the games
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
        name = raw_event.get("name")
        if name is not None and not isinstance(name, str):
            problems.append(f"{path}.name: must be a string")
        games = _parse_games(raw_event.get("games"), f"{path}.games", problems)
        if day is not None:
            events.append(Event(id=event_id, date=day, games=games, period=period))
    return events


_get_a = itemgetter("a")
_get_b = itemgetter("b")
_get_score = itemgetter("score")
_not_none = partial(is_not, None)

if tuple(f.name for f in fields(Game)) == ("a", "b", "score", "round"):
    # Game is a frozen dataclass: its __init__ costs four object.__setattr__ calls a game.
    # Filling the slots column by column through their descriptors gives the same objects
    # at a third of the cost (the fields are all set; Game has no __post_init__).
    _GAME_SLOTS = tuple(getattr(Game, name).__set__ for name in ("a", "b", "score", "round"))

    def _make_games(columns: Sequence[Sequence[Any]]) -> tuple[Game, ...]:
        games = tuple(map(object.__new__, repeat(Game, len(columns[0]))))
        for set_slot, column in zip(_GAME_SLOTS, columns, strict=True):
            deque(map(set_slot, games, column), 0)
        return games

else:  # Game has changed shape: build games the ordinary way

    def _make_games(columns: Sequence[Sequence[Any]]) -> tuple[Game, ...]:
        return tuple(map(Game, *columns))


def _fast_games(raw: list[Any]) -> tuple[Game, ...] | None:
    """The games of a well-formed list, checked a column at a time; None if any is not."""
    if set(map(type, raw)) != {dict}:
        return None
    try:
        a = list(map(_get_a, raw))
        b = list(map(_get_b, raw))
        scores = list(map(_get_score, raw))
    except KeyError:
        return None
    # Every game has a, b and score: no other keys than round when the sizes add up.
    with_round = sum(map(dict.__contains__, raw, repeat("round")))
    if sum(map(len, raw)) != 3 * len(raw) + with_round:
        return None
    if set(map(type, a)) != {str} or set(map(type, b)) != {str}:
        return None
    if "" in a or "" in b or any(map(eq, a, b)):
        return None
    if not set(map(type, scores)) <= {int, float} or not set(scores) <= _SCORES.keys():
        return None
    rounds = list(map(dict.get, raw, repeat("round")))
    round_types = set(map(type, rounds))
    if not round_types <= {int, type(None)}:
        return None
    if int in round_types and min(filter(_not_none, rounds)) < 1:  # type: ignore[type-var,operator]
        return None
    # One string object per player id: less memory, and dict look-ups hit on identity.
    intern = sys.intern
    # One float object per score value, too: the game lines share them.
    scores = list(map(_SCORES.__getitem__, scores))
    return _make_games((list(map(intern, a)), list(map(intern, b)), scores, rounds))


# -- reading the document ---------------------------------------------------------
#
# ``load_document`` is ``json.loads`` for the command line, about three times faster on a
# big history: msgspec decodes it straight into typed structures (the games into small
# structs, C code throughout) and the games are checked and turned into ``Game``s a
# column at a time for the whole document at once. It only takes documents it can hand
# back exactly as ``json.loads`` and ``parse_input`` would see them: anything else (an
# unknown field, a value of another type, a game that breaks a rule, input that is not
# UTF-8, ...) is read again with ``json.loads``, so every problem is reported as before.


class _RawGame(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    a: str
    b: str
    score: float  # a JSON integer comes as a float, as ``float(score)`` makes it
    round: int | None = None


class _RawEvent(msgspec.Struct, forbid_unknown_fields=True):
    id: Any = msgspec.UNSET
    date: Any = msgspec.UNSET
    games: list[_RawGame] | msgspec.UnsetType = msgspec.UNSET
    period: Any = msgspec.UNSET
    name: Any = msgspec.UNSET


class _RawDocument(msgspec.Struct, forbid_unknown_fields=True):
    system: Any = msgspec.UNSET
    params: Any = msgspec.UNSET
    players: Any = msgspec.UNSET
    events: list[_RawEvent] | msgspec.UnsetType = msgspec.UNSET


_DECODER = msgspec.json.Decoder(_RawDocument)
_EVENT_FIELDS = tuple(_RawEvent.__struct_fields__)
_DOCUMENT_FIELDS = tuple(_RawDocument.__struct_fields__)


class _CheckedGames(tuple[Game, ...]):
    """An event's games as ``load_document`` made and checked them (``_parse_games``)."""


def load_document(text: bytes) -> object:
    """``json.loads(text)``, faster for a well-formed history (see above).

    A list of games comes back already checked, as Game objects: ``parse_input`` takes it
    as it is. Raises what ``json.loads`` raises.
    """
    try:
        raw = _DECODER.decode(text)
    except (ValueError, RecursionError):  # msgspec's errors are ValueErrors
        return json.loads(text)
    games = _checked_games(raw.events)
    if games is None:
        return json.loads(text)
    document = _set_fields(raw, _DOCUMENT_FIELDS)
    if not isinstance(raw.events, msgspec.UnsetType):
        events = []
        for event in raw.events:
            fields = _set_fields(event, _EVENT_FIELDS)
            if "games" in fields:
                fields["games"] = _CheckedGames(next(games))
            events.append(fields)
        document["events"] = events
    return document


def _set_fields(struct: msgspec.Struct, names: tuple[str, ...]) -> dict[str, Any]:
    values = map(getattr, repeat(struct), names)
    return {k: v for k, v in zip(names, values, strict=True) if v is not msgspec.UNSET}


def _checked_games(
    events: list[_RawEvent] | msgspec.UnsetType,
) -> Iterator[tuple[Game, ...]] | None:
    """Each event's games (events without any skipped), if every game is well-formed."""
    if isinstance(events, msgspec.UnsetType):
        return iter(())
    per_event = [e.games for e in events if not isinstance(e.games, msgspec.UnsetType)]
    raw = list(chain.from_iterable(per_event))
    a = list(map(_raw_a, raw))
    b = list(map(_raw_b, raw))
    if "" in a or "" in b or any(map(eq, a, b)):
        return None
    scores = list(map(_raw_score, raw))
    if not set(scores) <= _SCORES.keys():
        return None
    scores = list(map(_SCORES.__getitem__, scores))  # one float object per value
    rounds = list(map(_raw_round, raw))
    if any(map(_below_one, filter(_not_none, rounds))):
        return None
    intern = sys.intern
    games = _make_games((list(map(intern, a)), list(map(intern, b)), scores, rounds))
    return _split(games, list(map(len, per_event)))


def _split(games: tuple[Game, ...], sizes: list[int]) -> Iterator[tuple[Game, ...]]:
    start = 0
    for size in sizes:
        yield games[start : start + size]
        start += size


_raw_a = attrgetter("a")
_raw_b = attrgetter("b")
_raw_score = attrgetter("score")
_raw_round = attrgetter("round")
_below_one = partial(operator_gt, 1)


def _parse_games(raw: object, path: str, problems: list[str]) -> tuple[Game, ...]:
    if type(raw) is _CheckedGames:
        return tuple(raw)
    if raw is None:
        problems.append(f"{path}: required")
        return ()
    if not isinstance(raw, list):
        problems.append(f"{path}: must be a list")
        return ()
    if not raw:
        return ()
    fast = _fast_games(raw)
    if fast is not None:
        return fast
    games: list[Game] = []
    for j, g in enumerate(raw):
        if _game_problems(g, f"{path}[{j}]", problems):
            continue
        games.append(Game(g["a"], g["b"], _SCORES[g["score"]], g.get("round")))
    return tuple(games)


def _game_problems(g: object, path: str, problems: list[str]) -> bool:
    """Report what is wrong with one game; True when anything is."""
    count = len(problems)
    if not isinstance(g, dict):
        problems.append(f"{path}: must be an object")
        return True
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
    if r is not None and (not isinstance(r, int) or isinstance(r, bool) or r < 1):
        problems.append(f"{path}.round: must be a whole number from 1, got {r!r}")
    return len(problems) > count


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
    if system is None:
        problems.append(f"system: required (one of {', '.join(SYSTEMS)})")
    elif system not in SYSTEMS:
        problems.append(f"system: must be one of {', '.join(SYSTEMS)}, got {system!r}")
    params = document.get("params")
    if params is None:
        params = {}
    elif not isinstance(params, dict):
        problems.append(f"params: must be an object, got {params!r}")
        params = {}
    else:
        too_big = [
            name for name, value in params.items() if type(value) is int and not _is_number(value)
        ]
        for name in too_big:
            problems.append(f"params.{name}: must be a finite number")
        if system in SYSTEMS:
            problems.extend(
                SYSTEMS[system].check_params({k: v for k, v in params.items() if k not in too_big})
            )
    players: list[PlayerState] = []
    raw_players = document.get("players")
    if raw_players is None:
        raw_players = []
    elif not isinstance(raw_players, list):
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


# -- fast output ----------------------------------------------------------------
#
# ``write_result`` writes exactly the text of
# ``json.dumps(result_to_json(result), ensure_ascii=False, separators=(",", ":"))``
# without building a dict per game line. It takes the events a batch at a time, pulls
# each field of all their game lines out as one column, turns each column into JSON text
# through caches (a rating, an expected score or a player id is encoded once, not once
# per line) and joins the pieces: C-level passes over columns instead of Python code per
# line. Lines or changes of a shape it does not handle (a detail key shadowing a fixed
# one, a field None on some lines only, values that are not plain numbers or strings, ...)
# go through ``change_to_json``, one event at a time.


def _fail(value: object) -> object:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


if c_make_encoder is not None:
    # json.dumps builds a new C encoder on every call; one made once does the same work.
    _encode = c_make_encoder(None, _fail, encode_basestring, None, ":", ",", False, False, True)

    def _dumps(value: object) -> str:
        return "".join(_encode(value, 0))

else:  # pragma: no cover - CPython always has the C encoder
    _slow_dumps = json.JSONEncoder(
        ensure_ascii=False, separators=(",", ":"), check_circular=False
    ).encode

    def _dumps(value: object) -> str:
        return _slow_dumps(value)


_FIXED_LINE_KEYS = frozenset(
    ("opponent", "score", "opponent_rating", "round", "expected", "change", "rated")
)
_CHANGE_FIELDS = ("player", "before", "after", "display_before", "display_after")
_FIXED_CHANGE_KEYS = frozenset((*_CHANGE_FIELDS, "games"))
_NONE = type(None)
_ROW = len(GAME_ROW_FIELDS)
_SAFE_WHOLE = 2.0**53
_CACHE_LIMIT = 500_000
_BATCH_LINES = 20_000
#: Some UTF-8 output: msgspec's bytes are passed on as views, not copied.
Buffer = bytes | memoryview
_GAMES = ',"games":['
_CLOSE_GAMES = "]}"


class _Encoder:
    """Column encoders and their caches, for one output."""

    def __init__(self) -> None:
        self.strings: dict[str, str] = {}
        self.whole: dict[float | int | None, str] = {None: "null"}  # as ``_number`` prints
        self.floats: dict[float | None, str] = {None: "null"}  # as they are
        self.ints: dict[int | None, str] = {None: "null"}
        self.templates: dict[tuple[Any, ...], tuple[str, ...] | None] = {}
        # The game lines' caches, filled on a miss (see ``_fast_line_texts``).
        self.line_strings = _LineCache(_string_text)
        self.line_whole = _LineCache(_whole_text)
        self.line_typed: dict[tuple[str, type | None], _LineCache] = {}
        self.line_formatters: dict[tuple[Any, ...], Callable[..., list[str]] | None] = {}
        # A change's string fields, each cache holding the keys' text around the value.
        self.head_caches = (
            _LineCache(_string_text, '{"player":', '{"player":null,"before":', ',"before":'),
            _LineCache(_string_text, ',"display_before":', ',"display_before":null'),
            _LineCache(_string_text, ',"display_after":', ',"display_after":null'),
        )
        self.head_typed: dict[tuple[str, type | None], _LineCache] = {}
        # The structured path (``_structured_events_json``): its struct types, and the
        # strings msgspec is known to write as json does.
        self.structs: dict[tuple[Any, ...], type[msgspec.Struct]] = {}
        self.alike = _Alike()
        self.numbers = _Numbers()

    @staticmethod
    def _cached(
        cache: dict[Any, str], column: Sequence[Any], encode: Callable[[list[Any]], list[str]]
    ) -> list[str]:
        texts = list(map(cache.get, column))
        if None not in texts:
            return texts  # type: ignore[return-value]
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        missing = list(dict.fromkeys([v for v, t in zip(column, texts, strict=True) if t is None]))
        cache.update(zip(missing, encode(missing), strict=True))
        return list(map(cache.__getitem__, column))

    def strings_column(self, column: Sequence[Any]) -> list[str] | None:
        if set(map(type, column)) != {str}:
            return None
        return self._cached(self.strings, column, _encode_strings)

    def column(self, column: Sequence[Any], *, whole: bool) -> list[str] | None:
        """JSON text of each value (whole floats as integers if ``whole``); None: can't."""
        types = set(map(type, column))
        if whole:
            if not types <= {float, int, _NONE}:
                return None
            numbers = [v for v in column if v is not None] if _NONE in types else column
            if numbers and not -_SAFE_WHOLE < min(numbers) <= max(numbers) < _SAFE_WHOLE:
                return None
            return self._cached(self.whole, column, _encode_whole)
        if types <= {float, _NONE}:
            return self._cached(self.floats, column, _encode_numbers)
        if types <= {int, _NONE}:
            return self._cached(self.ints, column, _encode_numbers)
        if types == {str}:
            return self._cached(self.strings, column, _encode_strings)
        if types <= {bool, _NONE, float, int, str}:
            return list(map(_dumps, column))
        return None


class _Unsupported(Exception):
    """A value the game lines' fast formatter does not take: the column path is used."""


class _AbsentType:
    """The type of ``_ABSENT``, a detail key's value where a change does not have it."""


_ABSENT = _AbsentType()


class _LineCache(dict[Any, str]):
    """Value -> JSON text (after ``prefix``), computed on a miss; None gives ``none``.

    A cache keyed by value is exact only where equal values print alike: the whole-number
    cache (1, 1.0 and True all print as 1 there, as ``_number`` has it), strings, and one
    per field and type for the others (only values of that exact type look it up).
    """

    def __init__(
        self, text: Callable[[Any], str], prefix: str = "", none: str = "null", suffix: str = ""
    ) -> None:
        super().__init__({None: none, _ABSENT: ""})
        self.text = text
        self.prefix = prefix
        self.none = none
        self.suffix = suffix

    def reset(self) -> None:
        self.clear()
        self[None] = self.none
        self[_ABSENT] = ""  # a detail key some changes lack (see ``_change_heads``)

    def __missing__(self, value: Any) -> str:
        text = self[value] = self.prefix + self.text(value) + self.suffix
        return text


def _whole_text(value: Any) -> str:
    """``_number``'s text of a number: whole floats as integers (and -0.0 as 0)."""
    kind = type(value)
    if kind is float:
        if value.is_integer() and -_SAFE_WHOLE < value < _SAFE_WHOLE:
            return int.__repr__(int(value))
        if math.isfinite(value):
            return float.__repr__(value)
    elif kind is int or kind is bool:
        return int.__repr__(int(value))
    raise _Unsupported(value)


def _float_text(value: Any) -> str:
    if type(value) is float and math.isfinite(value):
        return float.__repr__(value)
    raise _Unsupported(value)


def _int_text(value: Any) -> str:
    if type(value) is int:
        return int.__repr__(value)
    raise _Unsupported(value)


def _bool_text(value: Any) -> str:
    if type(value) is bool:
        return "true" if value else "false"
    raise _Unsupported(value)


def _none_text(value: Any) -> str:
    raise _Unsupported(value)  # None itself is in every cache


def _string_text(value: Any) -> str:
    if type(value) is str:
        text: str = encode_basestring(value)
        return text
    raise _Unsupported(value)


_TYPED_TEXT: dict[type, Callable[[Any], str]] = {
    float: _float_text,
    int: _int_text,
    str: _string_text,
    bool: _bool_text,
    _NONE: _none_text,
}


def _encode_strings(values: list[str]) -> list[str]:
    return list(map(encode_basestring, values))


def _encode_numbers(values: list[Any]) -> list[str]:
    # Numbers (and null) never contain a comma: one C-level dump for the lot.
    return _dumps(values)[1:-1].split(",")


def _encode_whole(values: list[Any]) -> list[str]:
    """As ``_number`` prints them: 1600.0 as 1600 (and -0.0 as 0)."""
    texts = list(map(str.removesuffix, _encode_numbers(values), repeat(".0")))
    while "-0" in texts:
        texts[texts.index("-0")] = "0"
    return texts


def _assemble(fragments: Sequence[str], columns: Sequence[Sequence[str]]) -> list[str]:
    """Per row: fragments[0] + columns[0][i] + fragments[1] + ... + fragments[-1]."""
    pieces: list[Iterable[str]] = []
    for fragment, column in zip(fragments, columns, strict=False):
        pieces.append(repeat(fragment))
        pieces.append(column)
    pieces.append(repeat(fragments[-1]))
    return list(map("".join, zip(*pieces, strict=False)))  # the repeats are endless


def _present(column: Sequence[Any]) -> bool | None:
    """True: no value is None; False: every value is; None: a mix."""
    if None not in column:
        return True
    return False if column.count(None) == len(column) else None


def _column_of(name: str, rows: Sequence[Any]) -> list[Any]:
    return list(map(attrgetter(name), rows))


def _exact_text(value: Any) -> str:
    """A detail value of a type other than its field's usual one, printed as it is."""
    if value is None or type(value) in (bool, int, float, str):
        return _dumps(value)
    raise _Unsupported(value)


def _line_formatter(keys: tuple[str, ...], types: tuple[type, ...]) -> Callable[..., list[str]]:
    """A function writing game lines' JSON texts, one f-string a line, no column passes.

    Every line is checked as it is written: a line whose detail keys are not ``keys`` (in
    that order), or with a value the caches do not take, raises KeyError or _Unsupported,
    and the caller takes the column path. The optional fields' caches print their key with
    the value and nothing for None, so lines with and without them mix freely. The source
    holds only names: keys and texts come in as arguments.
    """
    fields = [
        '{{"opponent":{_S[line.opponent]},"score":{_W[line.score]},'
        '"opponent_rating":{_W[line.opponent_rating]}',
        "{_RC[x] if (x := line.round).__class__ is int else _RX(x)}",
        "{_EC[x] if (x := line.expected).__class__ is float else _EX(x)}",
        "{_CC[line.change]}{_RATED[line.rated]}{_KEYS[(*(d := line.detail),)]}",
    ]
    for i in range(len(types)):
        fields.append(f"{{_DC{i}[x] if (x := d[_K{i}]).__class__ is _T{i} else _DO{i}(x)}}")
    params = ["lines", "_S", "_W", "_RC", "_RX", "_EC", "_EX", "_CC", "_RATED", "_KEYS"]
    for i in range(len(keys)):
        params += [f"_K{i}", f"_T{i}", f"_DC{i}", f"_DO{i}"]
    body = "".join(fields) + "}}"
    source = f"def format_lines({', '.join(params)}):\n    return [f'{body}' for line in lines]\n"
    namespace: dict[str, Any] = {}
    exec(source, namespace)  # our own source: names only
    formatter: Callable[..., list[str]] = namespace["format_lines"]
    return formatter


_RATED_TEXT = {True: "", False: ',"rated":false'}


def _detail_cache(typed: dict[tuple[str, type | None], _LineCache], key: str, kind: type) -> Any:
    """The cache of detail ``key``'s values of type ``kind`` (key and value's text)."""
    cache = typed.get((key, kind))
    if cache is None:
        prefix = "," + encode_basestring(key) + ":"
        text = _TYPED_TEXT.get(kind, _exact_text)
        cache = typed[key, kind] = _LineCache(text, prefix, prefix + "null")
    return cache


def _other(typed: dict[tuple[str, type | None], _LineCache], key: str, value: Any) -> str:
    """A detail value not of its key's usual type: through the cache of its own type."""
    text: str = _detail_cache(typed, key, type(value))[value]
    return text


def _optional_text(name: str) -> Callable[[Any], str]:
    def text(value: Any) -> str:
        if value is None:
            return ""
        return f',"{name}":' + _exact_text(value)

    return text


_ROUND_OTHER = _optional_text("round")
_EXPECTED_OTHER = _optional_text("expected")


def _fast_line_texts(lines: Sequence[GameLine], enc: _Encoder) -> list[str] | None:
    """The lines' JSON texts in one pass, when they are of the usual kinds; else None."""
    first = lines[0].detail
    keys = tuple(first)
    # Each detail value's usual type: the first line's, or for a None there, the first
    # type found a few lines on (a None or another type still prints, a little slower).
    kinds = list(map(type, first.values()))
    if _NONE in kinds:
        for line in lines[1:50]:
            if len(line.detail) == len(kinds):
                values = line.detail.values()
                kinds = [
                    k if k is not _NONE else type(v) for k, v in zip(kinds, values, strict=True)
                ]
                if _NONE not in kinds:
                    break
    types = tuple(kinds)
    if (keys, types) in enc.line_formatters:
        formatter = enc.line_formatters[keys, types]
    else:
        plain_keys = all(type(k) is str for k in keys) and _FIXED_LINE_KEYS.isdisjoint(keys)
        formatter = _line_formatter(keys, types) if plain_keys else None
        enc.line_formatters[keys, types] = formatter
    if formatter is None:
        return None
    typed = enc.line_typed
    optional: tuple[tuple[str, type | None], ...] = (
        ("round", int),
        ("expected", float),
        ("change", None),
    )
    for name, kind in optional:
        if (name, kind) not in typed:
            text = _TYPED_TEXT[kind] if kind is not None else _whole_text
            typed[name, kind] = _LineCache(text, f',"{name}":', "")
    detail_args: list[Any] = []
    for key, kind in zip(keys, types, strict=True):
        detail_args += [key, kind, _detail_cache(typed, key, kind), partial(_other, typed, key)]
    for cache in (enc.line_strings, enc.line_whole, *typed.values()):
        if len(cache) > _CACHE_LIMIT:
            cache.reset()
    try:
        return formatter(
            lines,
            enc.line_strings,
            enc.line_whole,
            typed["round", int],
            _ROUND_OTHER,
            typed["expected", float],
            _EXPECTED_OTHER,
            typed["change", None],
            _RATED_TEXT,
            {keys: ""},
            *detail_args,
        )
    except (KeyError, TypeError, _Unsupported):  # TypeError: an unhashable value
        return None


def _line_texts(lines: Sequence[GameLine], enc: _Encoder) -> list[str] | None:
    """Each line's JSON text; None when some line has a shape the fast path does not take.

    A line's shape is which optional fields it has and its detail keys. Lines of one shape
    (the usual case: one system, one kind of line) are done in one go; mixed lines (say
    rated and unrated ones) are done a shape at a time and put back in order.
    """
    fast = _fast_line_texts(lines, enc)
    if fast is not None:
        return fast
    detail = _column_of("detail", lines)
    rounds = _column_of("round", lines)
    expected = _column_of("expected", lines)
    change = _column_of("change", lines)
    rated = _column_of("rated", lines)
    keys = set(map(tuple, detail))
    present = (_present(rounds), _present(expected), _present(change))
    kinds = set(rated)
    unrated = False if kinds <= {True} else True if kinds <= {False} else None
    if len(keys) == 1 and None not in present and unrated is not None:
        (detail_keys,) = keys
        shape = ("line", *present, unrated, detail_keys)
        return _line_group(lines, shape, detail, rounds, expected, change, enc)
    shapes = list(
        zip(
            map(is_not, rounds, repeat(None)),
            map(is_not, expected, repeat(None)),
            map(is_not, change, repeat(None)),
            map(not_, rated),
            map(tuple, detail),
            strict=True,
        )
    )
    groups: dict[tuple[Any, ...], list[int]] = {}
    for i, line_shape in enumerate(shapes):
        groups.setdefault(line_shape, []).append(i)
    texts: list[str] = [""] * len(lines)
    for line_shape, rows in groups.items():
        group = _line_group(
            [lines[r] for r in rows],
            ("line", *line_shape),
            [detail[r] for r in rows],
            [rounds[r] for r in rows],
            [expected[r] for r in rows],
            [change[r] for r in rows],
            enc,
        )
        if group is None:
            return None
        for row, text in zip(rows, group, strict=True):
            texts[row] = text
    return texts


def _line_group(
    lines: Sequence[GameLine],
    shape: tuple[Any, ...],
    detail: Sequence[dict[str, Any]],
    rounds: Sequence[Any],
    expected: Sequence[Any],
    change: Sequence[Any],
    enc: _Encoder,
) -> list[str] | None:
    """The JSON texts of lines all of ``shape``."""
    template = enc.templates.get(shape, ())
    if template == ():
        template = enc.templates[shape] = _line_template(shape)
    if template is None:
        return None
    _, has_round, has_expected, has_change, _, detail_keys = shape
    columns = [
        enc.strings_column(_column_of("opponent", lines)),
        enc.column(_column_of("score", lines), whole=True),
        enc.column(_column_of("opponent_rating", lines), whole=True),
    ]
    if has_round:
        columns.append(enc.column(rounds, whole=False))
    if has_expected:
        columns.append(enc.column(expected, whole=False))
    if has_change:
        columns.append(enc.column(change, whole=True))
    for key in detail_keys:
        columns.append(enc.column(list(map(itemgetter(key), detail)), whole=False))
    if None in columns:
        return None
    return _assemble(template, columns)  # type: ignore[arg-type]


def _line_template(shape: tuple[Any, ...]) -> tuple[str, ...] | None:
    _, has_round, has_expected, has_change, unrated, detail_keys = shape
    if not all(type(k) is str for k in detail_keys) or _FIXED_LINE_KEYS.intersection(detail_keys):
        return None
    names = ["opponent", "score", "opponent_rating"]
    names += ["round"] * has_round + ["expected"] * has_expected + ["change"] * has_change
    fragments = []
    before = "{"
    for name in names:
        fragments.append(f'{before}"{name}":')
        before = ","
    rated = ',"rated":false' if unrated else ""
    before = rated + ","
    for key in detail_keys:
        fragments.append(f"{before}{encode_basestring(key)}:")
        before = ","
    fragments.append("}" if detail_keys else rated + "}")
    return tuple(fragments)


def _detail_order(shapes: Iterable[tuple[Any, ...]]) -> tuple[str, ...] | None:
    """One key order holding every shape's keys in their own order; None if there is none.

    Changes whose details have different keys (nz-club-elo: a guest's has one more) are then
    written in one pass, a key missing from a change writing nothing.
    """
    order: list[Any] = []
    unique = list(dict.fromkeys(shapes))
    for keys in unique:
        order += [key for key in keys if key not in order]
    for keys in unique:
        at = [order.index(key) for key in keys]
        if at != sorted(at):
            return None
    if not all(type(k) is str for k in order) or _FIXED_CHANGE_KEYS.intersection(order):
        return None
    return tuple(order)


def _change_heads(changes: Sequence[PlayerChange], enc: _Encoder) -> list[str] | None:
    """Each change's JSON text up to (not including) its games and closing brace.

    Each field is a column turned into text through caches (a player's id with the keys
    around it, numbers through the cache the game lines use too); detail values go through
    one cache per key and type, a key a change lacks giving nothing. None when a value is
    not of a kind the caches take, or the changes' detail keys come in clashing orders.
    """
    details = _column_of("detail", changes)
    order = _detail_order(map(tuple, details))
    if order is None:
        return None
    player, display_before, display_after = enc.head_caches
    whole = enc.line_whole
    typed = enc.head_typed
    for cache in (*enc.head_caches, whole, *typed.values()):
        if len(cache) > _CACHE_LIMIT:
            cache.reset()
    count = len(changes)
    try:
        columns: list[Iterable[str]] = [
            list(map(player.__getitem__, _column_of("player", changes))),
            list(map(whole.__getitem__, _column_of("before", changes))),
            repeat(',"after":', count),
            list(map(whole.__getitem__, _column_of("after", changes))),
            list(map(display_before.__getitem__, _column_of("display_before", changes))),
            list(map(display_after.__getitem__, _column_of("display_after", changes))),
        ]
        for key in order:
            values = list(map(dict.get, details, repeat(key), repeat(_ABSENT)))
            kinds = set(map(type, values))
            kinds.discard(_AbsentType)
            if len(kinds) == 1:
                cache = _detail_cache(typed, key, kinds.pop())
                columns.append(list(map(cache.__getitem__, values)))
            else:
                columns.append(list(map(partial(_other, typed, key), values)))
    except (TypeError, _Unsupported):  # TypeError: an unhashable value
        return None
    return list(map("".join, zip(*columns, strict=True)))


def _change_texts(
    changes: Sequence[PlayerChange], explain: bool, enc: _Encoder
) -> list[str] | None:
    """Each change's JSON text; None when they are not all of shapes the fast path takes."""
    heads = _change_heads(changes, enc)
    if heads is None:
        return None
    if not explain:
        return [head + "}" for head in heads]
    per_change = _column_of("games", changes)
    lines = list(chain.from_iterable(per_change))
    games_texts: list[str] = []
    if lines:
        line_texts = _line_texts(lines, enc)
        if line_texts is None:
            return None
        start = 0
        for count in map(len, per_change):
            games_texts.append(",".join(line_texts[start : start + count]))
            start += count
    else:
        games_texts = [""] * len(changes)
    return list(
        map("".join, zip(heads, repeat(_GAMES), games_texts, repeat(_CLOSE_GAMES), strict=False))
    )


def _event_head(event: EventResult) -> str:
    head = '{"id":' + _dumps(event.id)
    if event.period is not None:
        head += ',"period":' + _dumps(event.period)
    return head + ',"changes":['


def _events_text(events: Sequence[EventResult], explain: bool, enc: _Encoder) -> str:
    """The JSON text of some events, comma-separated."""
    structured = _structured_events_json(events, explain, enc)
    if structured is not None:
        return structured[1:-1].decode()
    return _column_events_text(events, explain, enc)


def _events_utf8(events: Sequence[EventResult], explain: bool, enc: _Encoder) -> Buffer:
    """``_events_text`` as UTF-8, without copying what msgspec wrote."""
    structured = _structured_events_json(events, explain, enc)
    if structured is not None:
        return memoryview(structured)[1:-1]  # the events, without the list's brackets
    return _utf8(_column_events_text(events, explain, enc))


def _column_events_text(events: Sequence[EventResult], explain: bool, enc: _Encoder) -> str:
    """``_events_text`` by the column path (it takes every event)."""
    per_event = _column_of("changes", events)
    texts = _change_texts(list(chain.from_iterable(per_event)), explain, enc)
    if texts is None:
        if len(events) == 1:
            return _dumps(event_to_json(events[0], explain=explain))
        # Some event has a shape the fast path does not take: the others keep it.
        return ",".join(_events_text([event], explain, enc) for event in events)
    out = []
    start = 0
    for event, changes in zip(events, per_event, strict=True):
        count = len(changes)
        out.append(_event_head(event) + ",".join(texts[start : start + count]) + "]}")
        start += count
    return ",".join(out)


# -- the structured path ----------------------------------------------------------------
#
# Game lines kept as GameRows (nz-club-elo, st-charles, nscl), and changes without their
# game lines (``--no-explain``), are written by msgspec: each line and change becomes a
# small struct, made in C-level passes over columns, and msgspec writes the lot. It must
# give the bytes of the plain writer, so it only takes values msgspec writes exactly as
# ``json`` does: strings it escapes alike, floats in the range where both print the
# shortest digits in plain notation (1e-4 <= |x| < 1e16, or 0), ints, booleans and None;
# and the fields ``_number`` prints go through it first (whole floats as ints). Values are
# checked once each, through caches that live as long as the output (``_Alike``,
# ``_Numbers``). Anything else, and the path returns None: the column path writes those
# events.

#: The default of struct fields that are always written (no value is this object).
_ALWAYS = object()
_STRUCT_ENCODER = msgspec.json.Encoder()
_BAD_NAME = re.compile(r'["\\\x00-\x1f]')
#: Ints are cached only below this size: a float equal to a bigger one prints otherwise.
_PLAIN_INT = 2**53


def _float_alike(value: float) -> bool:
    """Whether msgspec writes this float as ``json`` does (not NaN, inf or exponents)."""
    magnitude = abs(value)
    return magnitude == 0.0 or 1e-4 <= magnitude < 1e16


class _Alike(set[Any]):
    """Values msgspec writes exactly as ``json`` does, as found so far.

    Equal values share an entry (1, 1.0 and True), which is safe: only floats in the
    plain range and ints below ``_PLAIN_INT`` are kept, so a value equal to one kept prints
    alike in both too.
    """

    def holds(self, values: Iterable[Any]) -> bool:
        """Whether msgspec writes every one of ``values`` as ``json`` does."""
        if self.issuperset(values):
            return True
        for value in set(values).difference(self):
            kind = type(value)
            if kind is str:
                try:
                    if _STRUCT_ENCODER.encode(value) != _utf8(encode_basestring(value)):
                        return False
                except UnicodeEncodeError:  # a lone surrogate
                    return False
            elif kind is float:
                if not _float_alike(value):
                    return False
            elif kind is int:
                if not -_PLAIN_INT < value < _PLAIN_INT:
                    return False
            elif value is not None and kind is not bool and value is not msgspec.UNSET:
                return False
            self.add(value)
        if len(self) > _CACHE_LIMIT:
            self.clear()
        return True


class _Numbers(dict[Any, Any]):
    """A number -> what ``_number`` makes of it (whole floats as ints), for the numbers
    msgspec then writes as ``json`` does; raises _Unsupported for any other value."""

    def __init__(self) -> None:
        super().__init__({None: None})

    def reset(self) -> None:
        self.clear()
        self[None] = None

    def __missing__(self, value: Any) -> Any:
        kind = type(value)
        if kind is float:
            if not (_float_alike(value) or (value.is_integer() and abs(value) < _PLAIN_INT)):
                raise _Unsupported(value)
        elif (kind is not int and kind is not bool) or not -_PLAIN_INT < value < _PLAIN_INT:
            raise _Unsupported(value)
        number = self[value] = _number(value)
        return number


def _numbers(values: Iterable[Any], enc: _Encoder) -> list[Any] | None:
    """``values`` as ``_number`` gives them; None if msgspec would write one otherwise."""
    try:
        return list(map(enc.numbers.__getitem__, values))
    except (TypeError, _Unsupported):  # TypeError: an unhashable value
        return None


def _struct(
    enc: _Encoder, names: tuple[str, ...], optional: tuple[str, ...], always: tuple[str, ...]
) -> type[msgspec.Struct] | None:
    """A struct written as an object with keys ``names``, ``optional`` (left out when None)
    and ``always``, in that order; made positionally. None if msgspec cannot name a key."""
    key = (names, optional, always)
    struct = enc.structs.get(key)
    if struct is None:
        keys = (*names, *optional, *always)
        if len(set(keys)) != len(keys) or any(_BAD_NAME.search(k) for k in keys):
            return None
        defaults = [()] * len(names) + [(None,)] * len(optional) + [(_ALWAYS,)] * len(always)
        fields = [(f"f{i}", object, *default) for i, default in enumerate(defaults)]
        struct = enc.structs[key] = msgspec.defstruct(
            "Written",
            fields,
            omit_defaults=True,
            rename={f"f{i}": k for i, k in enumerate(keys)},
            gc=False,
        )
    return struct


def _structured_events_json(
    events: Sequence[EventResult], explain: bool, enc: _Encoder
) -> bytes | None:
    """The events as a JSON list, written by msgspec; None where it cannot."""
    per_event = _column_of("changes", events)
    changes = list(chain.from_iterable(per_event))
    if not changes:
        return None
    if len(enc.numbers) > _CACHE_LIMIT:
        enc.numbers.reset()
    alike = enc.alike
    games: list[Any] = []
    if explain:
        per_change = _column_of("games", changes)
        if set(map(type, per_change)) != {GameRows}:
            return None
        structured = _structured_games(per_change, enc)
        if structured is None:
            return None
        games = structured
    details = _column_of("detail", changes)
    order = _detail_order(map(tuple, details))
    if order is None:
        return None
    player, before, after, display_before, display_after = (
        _column_of(name, changes) for name in _CHANGE_FIELDS
    )
    before_numbers = _numbers(before, enc)
    after_numbers = _numbers(after, enc)
    if before_numbers is None or after_numbers is None:
        return None
    if not (alike.holds(player) and alike.holds(display_before) and alike.holds(display_after)):
        return None
    columns = [player, before_numbers, after_numbers, display_before, display_after]
    for key in order:
        values = list(map(dict.get, details, repeat(key), repeat(msgspec.UNSET)))
        try:
            if not alike.holds(values):
                return None
        except TypeError:  # an unhashable value
            return None
        columns.append(values)
    always = (*order, "games") if explain else order
    change_struct = _struct(enc, _CHANGE_FIELDS, (), always)
    event_struct = _struct(enc, ("id",), ("period",), ("changes",))
    if change_struct is None or event_struct is None:
        return None
    if explain:
        columns.append(games)
    written = list(map(change_struct, *columns))
    ids = _column_of("id", events)
    periods = _column_of("period", events)
    if not (alike.holds(ids) and alike.holds(periods)):
        return None
    starts = accumulate(map(len, per_event), initial=0)
    slices = [written[a:b] for a, b in pairwise(starts)]
    try:
        return _STRUCT_ENCODER.encode(list(map(event_struct, ids, periods, slices)))
    except (TypeError, ValueError, OverflowError, UnicodeEncodeError):
        return None


def _structured_games(per_change: Sequence[GameRows], enc: _Encoder) -> list[Any] | None:
    """Each change's game lines as structs (a list a change); None where it cannot."""
    keys = set(_column_of("keys", per_change))
    if len(keys) != 1:
        return None
    (own_keys,) = keys
    width = _ROW + len(own_keys)
    counts = _column_of("line_count", per_change)
    values = list(chain.from_iterable(_column_of("values", per_change)))
    if len(values) != width * sum(counts):
        return None
    # The shared detail dicts: one per change at most, often one for many changes.
    details = _column_of("detail", per_change)
    ids = list(map(id, details))
    unique = dict(zip(ids, details, strict=True))
    shapes = set(map(tuple, unique.values()))
    if len(shapes) != 1:
        return None
    (shared_keys,) = shapes
    detail_keys = (*shared_keys, *own_keys)
    if not all(type(k) is str for k in detail_keys) or _FIXED_LINE_KEYS.intersection(detail_keys):
        return None
    struct = _struct(enc, _ROW_NAMES, _ROW_OPTIONAL, detail_keys)
    if struct is None:
        return None
    alike = enc.alike
    detail_columns: list[Any] = []
    try:
        if shared_keys:
            shared = {i: tuple(d.values()) for i, d in unique.items()}
            if not alike.holds(chain.from_iterable(shared.values())):
                return None
            shared_values = list(map(shared.__getitem__, ids))  # a tuple a change
            for j in range(len(shared_keys)):
                values_j = map(itemgetter(j), shared_values)
                detail_columns.append(list(chain.from_iterable(map(repeat, values_j, counts))))
        for j in range(_ROW, width):
            column = values[j::width]
            if not alike.holds(column):
                return None
            detail_columns.append(column)
        opponent = values[0::width]
        expected = values[3::width]
        round_ = values[5::width]
        if not (alike.holds(opponent) and alike.holds(expected) and alike.holds(round_)):
            return None
    except TypeError:  # an unhashable value
        return None
    score = _numbers(values[1::width], enc)
    rating = _numbers(values[2::width], enc)
    change = _numbers(values[4::width], enc)
    if score is None or rating is None or change is None:
        return None
    lines = list(map(struct, opponent, score, rating, round_, expected, change, *detail_columns))
    starts = accumulate(counts, initial=0)
    return [lines[a:b] for a, b in pairwise(starts)]


#: A GameRows line's fields as the plain writer orders them (``_line_to_json``).
_ROW_NAMES = ("opponent", "score", "opponent_rating")
_ROW_OPTIONAL = ("round", "expected", "change")


def _size(event: EventResult, explain: bool) -> int:
    """Roughly how much output an event makes: its changes and their game lines."""
    changes = event.changes
    if not explain:
        return len(changes)
    games = _column_of("games", changes)
    try:  # GameRows count their lines without a call
        lines: int = sum(_column_of("line_count", games))
    except AttributeError:  # lists of GameLines
        lines = sum(map(len, games))
    return len(changes) + lines


def _batches(events: Sequence[EventResult], explain: bool) -> Iterator[list[EventResult]]:
    """The events in runs of about _BATCH_LINES lines of output."""
    batch: list[EventResult] = []
    lines = 0
    for event in events:
        batch.append(event)
        lines += _size(event, explain)
        if lines >= _BATCH_LINES:
            yield batch
            batch = []
            lines = 0
    if batch:
        yield batch


def _iter_events(
    events: Sequence[EventResult], explain: bool, enc: _Encoder, *, first: bool = True
) -> Iterator[str]:
    """The events' JSON texts, comma-separated, in pieces of about _BATCH_LINES lines."""
    for batch in _batches(events, explain):
        yield ("" if first else ",") + _events_text(batch, explain, enc)
        first = False


def _iter_events_utf8(
    events: Sequence[EventResult], explain: bool, enc: _Encoder, *, first: bool = True
) -> Iterator[Buffer]:
    """``_iter_events`` as UTF-8, the commas as pieces of their own (nothing is copied to
    join them): for writing to a file, or joining once."""
    for batch in _batches(events, explain):
        if not first:
            yield b","
        first = False
        yield _events_utf8(batch, explain, enc)


def _new_encoder(result: RatingResult) -> _Encoder:
    enc = _Encoder()
    enc.strings.update({pid: encode_basestring(pid) for pid in result.displays})
    return enc


def _head(result: RatingResult) -> str:
    players = _dumps([player_to_json(p, result.displays[p.id]) for p in result.players])
    return '{"system":' + _dumps(result.system) + ',"players":' + players + ',"events":['


def iter_result_json(result: RatingResult, *, explain: bool = True) -> Iterator[str]:
    """The output document as JSON text, in pieces (the same text as ``result_to_json``)."""
    yield _head(result)
    yield from _iter_events(result.events, explain, _new_encoder(result))
    yield "]}"


def write_result(
    result: RatingResult, write: Callable[[str], object], *, explain: bool = True
) -> None:
    for piece in iter_result_json(result, explain=explain):
        write(piece)


def _utf8(text: str) -> bytes:
    # A lone surrogate (from a "\ud800" escape in the input) can only sit inside a JSON
    # string: written back as the same escape, the output stays valid UTF-8 and JSON.
    return text.encode("utf-8", "backslashreplace")


def render_result(
    result: RatingResult, *, explain: bool = True, parallel: bool = False, min_lines: int = 100_000
) -> list[bytes]:
    """The output document as UTF-8 JSON, in pieces: ``iter_result_json``, encoded.

    With ``parallel`` (and ``os.fork``, and at least ``min_lines`` lines of output) a forked
    child renders the second half of the events while this process renders the first: on
    two cores the output of a big history takes half the time. The child hands its text
    back through an unlinked temporary file; if it fails, this process renders that half
    itself. The bytes are the same either way.
    """
    events = result.events
    sizes = [_size(event, explain) for event in events] if parallel else []
    total = sum(sizes)
    if not parallel or not hasattr(os, "fork") or len(events) < 2 or total < min_lines:
        return [_utf8(piece) for piece in iter_result_json(result, explain=explain)]
    mid = 0
    running = 0
    while mid < len(events) - 1 and running < total // 2:
        running += sizes[mid]
        mid += 1
    first, second = events[:mid], events[mid:]
    fd, path = tempfile.mkstemp(prefix="ratings-engine-")
    os.unlink(path)
    try:
        pid = os.fork()
        if pid == 0:  # the child: render the second half into the file, then vanish
            status = 1
            try:
                with os.fdopen(fd, "wb", closefd=False) as spool:
                    for piece in _iter_events_utf8(
                        second, explain, _new_encoder(result), first=False
                    ):
                        spool.write(piece)
                status = 0
            finally:
                os._exit(status)  # no atexit handlers, no flushing the parent's buffers
        enc = _new_encoder(result)
        pieces = [_utf8(_head(result))]
        pieces += map(bytes, _iter_events_utf8(first, explain, enc))
        _, status = os.waitpid(pid, 0)
        if status == 0:
            os.lseek(fd, 0, os.SEEK_SET)
            with os.fdopen(fd, "rb", closefd=False) as spool:
                pieces.append(spool.read())
        else:
            pieces += map(bytes, _iter_events_utf8(second, explain, enc, first=False))
    finally:
        os.close(fd)
    pieces.append(b"]}")
    return pieces


def expected_lines_of(events: Sequence[Event], *, explain: bool) -> int:
    """About how many lines of output rating ``events`` makes (a change per game side)."""
    sides = 2 * sum(len(event.games) for event in events)
    return 2 * sides if explain else sides


class StreamingRenderer:
    """Renders the output while the rating goes on, in forked processes (the command line).

    The rating is one sequential chain; rendering an event only needs that event's
    results. So, as each period is rated (``rated``, passed to ``RatingSystem.rate`` as
    ``on_period``), a forked child renders the stretch of events rated since the last
    child started into an unlinked temporary file, while this process rates on: on two
    cores most of the output is written by the time the rating ends. ``write`` (or
    ``finish``) then shares what is left between this process (taking stretches from the
    end) and children (taking them from the front), and writes (returns) the document:
    the same bytes as ``render_result``. A stretch whose child fails is rendered here.

    Without ``os.fork``, or below ``min_lines`` lines of output, it renders serially.
    ``expected_lines`` (a guess: ``expected_lines_of``) bounds a child's stretch.
    """

    def __init__(
        self,
        *,
        explain: bool = True,
        expected_lines: int = 0,
        chunk_lines: int = 50_000,
        min_lines: int = 100_000,
        stream: bool | None = None,
    ) -> None:
        self.explain = explain
        # Without the game lines the output is a fifth of the size: rendering it is not
        # worth the forks while rating (each costs about half a second of page copies on a
        # big history); one fork at the end shares it, as ``render_result`` does.
        self.stream = explain if stream is None else stream
        self.expected_lines = expected_lines  # about how many lines the output will have
        self.chunk_lines = chunk_lines
        self.min_lines = min_lines
        self.forking = hasattr(os, "fork")
        self._events: Sequence[EventResult] = ()
        self._sizes: list[int] = []  # lines of output of each event seen so far
        self._pending = 0  # lines of the events not yet handed out
        self._handed = 0  # events[:_handed] are rendered or being rendered
        self._child: tuple[int, int, int, int] | None = None  # pid, fd, start, end
        self._done: dict[int, tuple[int, bytes | int]] = {}  # start -> end, text or fd
        self.forks = 0

    # -- while rating ---------------------------------------------------------------

    def rated(self, events: Sequence[EventResult]) -> None:
        """The events rated so far (a list that grows; what is in it is final)."""
        self._events = events
        explain = self.explain
        sizes = self._sizes
        for index in range(len(sizes), len(events)):  # the new ones (no slice: O(n) a call)
            size = _size(events[index], explain)
            sizes.append(size)
            self._pending += size
        # Every fork costs this process copies of the pages it then writes to (shared
        # with the child until then): few, long stretches rather than many short ones.
        if not (self.forking and self.stream):
            return
        if self._pending < max(self.chunk_lines, self.expected_lines // 16):
            return
        if self._child is not None and not self._reap(block=False):
            return  # the child is still busy: its successor takes a longer stretch
        # A child takes what is waiting, up to an eighth of the output: a child still busy
        # with a long stretch when the rating ends would hold up the end.
        end = self._handed
        lines = 0
        most = max(self.chunk_lines, self.expected_lines // 8)
        while end < len(events) and lines < most:
            lines += self._sizes[end]
            end += 1
        self._fork(self._handed, end)

    # -- at the end -----------------------------------------------------------------

    def finish(self, result: RatingResult) -> list[bytes]:
        """The whole document, UTF-8, in pieces."""
        try:
            return [self._read(part) for part in self._complete(result)]
        finally:
            self.abort()

    def write(self, result: RatingResult, out: IO[bytes]) -> None:
        """Render what is left, then write the whole document to ``out``.

        The children's files go to ``out`` with ``os.sendfile`` where it can (no copy
        through this process); nothing is written before everything is rendered.
        """
        try:
            parts = self._complete(result)
            out.flush()
            for part in parts:
                if isinstance(part, bytes):
                    out.write(part)
                    continue
                out.flush()
                if not self._send(part, out):
                    out.write(self._read(part))
            out.flush()
        finally:
            self.abort()

    @staticmethod
    def _read(part: bytes | int) -> bytes:
        if isinstance(part, bytes):
            return part
        os.lseek(part, 0, os.SEEK_SET)
        with os.fdopen(part, "rb", closefd=False) as spool:
            return spool.read()

    @staticmethod
    def _send(fd: int, out: IO[bytes]) -> bool:
        """Copy a child's file to ``out`` in the kernel; False if that cannot be done."""
        try:
            target = out.fileno()
            size = os.fstat(fd).st_size
        except (AttributeError, OSError, ValueError):  # not a real file (say a BytesIO)
            return False
        offset = 0
        while offset < size:
            try:
                sent = os.sendfile(target, fd, offset, size - offset)
            except OSError as error:
                if offset == 0 and error.errno in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
                    return False  # sendfile cannot write there: the caller copies
                raise
            if sent == 0:
                raise OSError(errno.EIO, "sendfile: the file ended early")
            offset += sent
        return True

    def _complete(self, result: RatingResult) -> list[bytes | int]:
        """Render what is left: the document's parts, text or a child's file, in order."""
        events = result.events
        self.rated(events)
        explain = self.explain
        if not self._done and self._child is None and sum(self._sizes) < self.min_lines:
            return [_utf8(piece) for piece in iter_result_json(result, explain=explain)]
        # What is left, in about six stretches (two, not streaming: enough to share the
        # work, few forks):
        # children take them from the front, this process from the back, until they meet.
        stretches: deque[tuple[int, int]] = deque()
        start = self._handed
        lines = 0
        size = max(self.chunk_lines, sum(self._sizes[start:]) // (6 if self.stream else 2))
        for index in range(self._handed, len(events)):
            lines += self._sizes[index]
            if lines >= size:
                stretches.append((start, index + 1))
                start, lines = index + 1, 0
        if start < len(events):
            stretches.append((start, len(events)))
        while stretches:
            idle = self.forking and (self._child is None or self._reap(block=False))
            if idle and len(stretches) > 1:
                self._fork(*stretches.popleft())
            first, end = stretches.pop()
            self._done[first] = (end, self._render(first, end))
        # The head (every player's final state) while the last child may still be busy.
        parts: list[bytes | int] = [_utf8(_head(result))]
        if self._child is not None:
            self._reap(block=True)
        parts += [self._done[first][1] for first in sorted(self._done)]
        parts.append(b"]}")
        return parts

    def abort(self) -> None:
        """Stop any child and close its files (after an error, or when done)."""
        if self._child is not None:
            pid = self._child[0]
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except OSError:
                pass
            os.close(self._child[1])
            self._child = None
        for first, (end, text) in list(self._done.items()):
            if isinstance(text, int):
                os.close(text)
                self._done[first] = (end, b"")

    # -- the children ---------------------------------------------------------------

    def _pieces(self, start: int, end: int) -> Iterator[Buffer]:
        events = self._events[start:end]
        return _iter_events_utf8(events, self.explain, _Encoder(), first=start == 0)

    def _render(self, start: int, end: int) -> bytes:
        return b"".join(self._pieces(start, end))

    def _fork(self, start: int, end: int) -> None:
        if start >= end:
            return
        if end > self._handed:
            self._pending -= sum(self._sizes[self._handed : end])
            self._handed = end
        fd, path = tempfile.mkstemp(prefix="ratings-engine-")
        os.unlink(path)
        try:
            pid = os.fork()
        except OSError:
            os.close(fd)
            self._done[start] = (end, self._render(start, end))
            return
        if pid == 0:  # the child: render the stretch into the file, then vanish
            status = 1
            try:
                # Written piece by piece: the stretch's text is never all in memory.
                with os.fdopen(fd, "wb", closefd=False) as spool:
                    for piece in self._pieces(start, end):
                        spool.write(piece)
                status = 0
            finally:
                os._exit(status)  # no atexit handlers, no flushing the parent's buffers
        self.forks += 1
        self._child = (pid, fd, start, end)

    def _reap(self, *, block: bool) -> bool:
        """True when the child has finished (its stretch is then done, here if it failed)."""
        assert self._child is not None
        pid, fd, start, end = self._child
        done, status = os.waitpid(pid, 0 if block else os.WNOHANG)
        if done == 0:
            return False
        self._child = None
        if status == 0:
            self._done[start] = (end, fd)
        else:
            os.close(fd)
            self._done[start] = (end, self._render(start, end))
        return True
