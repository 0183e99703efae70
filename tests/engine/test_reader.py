"""``io.load_document``: msgspec's decoding for the command line, with ``json.loads``'s result.

Whatever it reads, ``parse_input`` must see what it would see from ``json.loads``: the same
players, events and games, or the same problems (a document msgspec does not take is read
again with ``json.loads``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from ratings.engine.base import EngineError
from ratings.engine.io import load_document, parse_input

from .test_cli import BAD, EXAMPLE


def _parsed(document: object) -> object:
    try:
        return parse_input(document)
    except EngineError as error:
        return ("problems", error.problems)


def _same_as_json_loads(text: str | bytes) -> None:
    data = text.encode() if isinstance(text, str) else text
    try:
        expected = _parsed(json.loads(data))
    except (ValueError, RecursionError) as error:
        with pytest.raises(type(error)):
            load_document(data)
        return
    got = _parsed(load_document(data))
    assert got == expected
    if isinstance(expected, tuple) and expected[0] != "problems":
        # Equal games, and of the same types (a score 1 is the float 1.0 either way).
        for event_got, event_expected in zip(got[3], expected[3], strict=True):
            for mine, theirs in zip(event_got.games, event_expected.games, strict=True):
                assert list(map(type, _values(mine))) == list(map(type, _values(theirs)))
                assert repr(mine) == repr(theirs)


def _values(game: Any) -> list[Any]:
    return [game.a, game.b, game.score, game.round]


def _doc(games: list[Any], **event: Any) -> str:
    return json.dumps(
        {
            "system": "nz-club-elo",
            "players": [{"id": "ann", "rating": 1600, "games": 40, "display": "1600"}],
            "events": [{"id": "e1", "date": "2024-03-02", "games": games, **event}],
        }
    )


GOOD: dict[str, str | bytes] = {
    "the contract example": json.dumps(EXAMPLE),
    "no players, params or rounds": json.dumps(
        {"system": "nscl", "events": [{"id": "e", "date": "2024-01-01", "games": []}]}
    ),
    "ints, floats and minus zero as scores": (
        '{"system":"st-charles","events":[{"id":"e","date":"2024-01-01","games":['
        '{"a":"x","b":"y","score":1},{"a":"x","b":"y","score":0.5},'
        '{"a":"x","b":"y","score":-0},{"a":"y","b":"x","score":-0.0},'
        '{"a":"y","b":"x","score":1.0,"round":null},{"a":"y","b":"x","score":0e3,"round":7}]}]}'
    ),
    "a key given twice (the last counts)": (
        '{"system":"nz-club-elo","events":[{"id":"e","date":"2024-01-01","games":['
        '{"a":"x","b":"y","score":1,"a":"z"}]}],"system":"nscl"}'
    ),
    "escapes and non-ASCII ids": _doc([{"a": 'Ann\u00e9 \\"x"', "b": "\u4e2d\n", "score": 0}]),
    "event name and period": _doc([{"a": "ann", "b": "bob", "score": 1}], name="N", period="P"),
    "a huge round": _doc([{"a": "ann", "b": "bob", "score": 1, "round": 10**30}]),
    "whitespace around": " \n" + json.dumps(EXAMPLE, indent=2) + "\n",
    "a byte order mark": b"\xef\xbb\xbf" + json.dumps(EXAMPLE).encode(),
    "a lone surrogate": _doc([{"a": "\ud800", "b": "bob", "score": 1}]),
    "a huge number": _doc([{"a": "ann", "b": "bob", "score": 1}]).replace("1600", "1e999"),
}


@pytest.mark.parametrize("case", list(GOOD))
def test_a_document_reads_as_json_loads_reads_it(case: str) -> None:
    _same_as_json_loads(GOOD[case])


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_document_gives_the_same_problems(case: str) -> None:
    _same_as_json_loads(BAD[case][0])


@pytest.mark.parametrize(
    "game",
    [
        {"a": "x", "b": "y", "score": 2},
        {"a": "x", "b": "y", "score": 1e400},
        {"a": "x", "b": "x", "score": 1},
        {"a": "", "b": "y", "score": 1},
        {"a": "x", "b": "y", "score": 1, "round": 0},
        {"a": "x", "b": "y", "score": 1, "round": 1.0},
        {"a": "x", "b": "y", "score": 1, "board": 1},
        {"a": "x", "b": "y"},
        {"a": "x", "b": "y", "score": None},
    ],
)
def test_a_bad_game_among_good_ones_gives_the_same_problems(game: dict[str, Any]) -> None:
    good = {"a": "x", "b": "y", "score": 0.5, "round": 1}
    text = json.dumps(
        {
            "system": "nz-club-elo",
            "events": [
                {"id": "e1", "date": "2024-01-01", "games": [good, good]},
                {"id": "e2", "date": "2024-01-02", "games": [good, game, good]},
            ],
        }
    )
    _same_as_json_loads(text)
