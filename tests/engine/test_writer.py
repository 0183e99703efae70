"""The command line's writer: the result as dicts (``result_to_dict``), written as JSON."""

from __future__ import annotations

import io
import json

import pytest

from ratings.engine.base import EventResult, GameLine, PlayerChange, PlayerState, RatingResult
from ratings.engine.io import result_to_dict, write_output


def _result(lines: list[GameLine], player: str = "ann") -> RatingResult:
    change = PlayerChange(player, 1600.0, 1601.5, "1600", "1602", lines, {"k": 16.0})
    return RatingResult(
        system="nz-club-elo",
        players=[PlayerState(player, 1601.5, 3), PlayerState("bob", guest=True)],
        displays={player: "1602", "bob": "1500"},
        events=[EventResult("e1", None, [change]), EventResult("e2", "2024-03", [change])],
    )


LINES: dict[str, list[GameLine]] = {
    "usual": [GameLine("bob", 1.0, 1500.0, 0.6401, 5.76, True, 1, {"k": 16.0})] * 3,
    "optional fields missing on some lines": [
        GameLine("bob", 0.5, None, None, None, False, None, {"k": None}),
        GameLine("cy", 0.0, 1400.25, 0.25, -4.0, True, 3, {"k": 16.0}),
    ],
    "detail keys differ": [
        GameLine("bob", 1.0, 1500.0, detail={"a": 1, "b": 2}),
        GameLine("bob", 1.0, 1500.0, detail={}),
    ],
    "strings to escape": [
        GameLine('b"o\\b\u00e9\n\x00\u2028', -0.0, -0.0, detail={'q"uote': 1.5, "é": [1, 2]}),
    ],
    "a lone surrogate": [GameLine("\ud800", 1.0, 1500.0, 0.5, 8.0, True, 1, {"k": 16.0})],
    "big and tiny numbers": [
        GameLine("bob", 1.0, 2.0**60, 1e-7, 1e20, True, 10**20, {"k": 1e300}),
        GameLine("bob", 1.0, -(2.0**53), 1e-7, -1e20, True, 1, {"k": -1e-300}),
    ],
}


def _written(result: RatingResult, explain: bool) -> bytes:
    out = io.BytesIO()
    write_output(result, out, explain=explain)
    return out.getvalue()


@pytest.mark.parametrize("name", list(LINES))
@pytest.mark.parametrize("explain", [True, False])
def test_the_output_is_the_result_as_dicts(name: str, explain: bool) -> None:
    result = _result(LINES[name])
    text = _written(result, explain).decode("utf-8")  # valid UTF-8, surrogates escaped
    assert json.loads(text) == json.loads(json.dumps(result_to_dict(result, explain=explain)))


def test_whole_figures_are_written_as_integers() -> None:
    document = json.loads(_written(_result(LINES["usual"]), True))
    (change,) = document["events"][0]["changes"]
    assert '"before":1600,' in json.dumps(change, separators=(",", ":"))
    assert document["players"][0] == {"id": "ann", "rating": 1601.5, "games": 3, "display": "1602"}
    assert document["events"][1]["period"] == "2024-03" and "period" not in document["events"][0]


def test_no_explain_leaves_out_the_game_lines() -> None:
    document = json.loads(_written(_result(LINES["usual"]), False))
    assert all("games" not in c for e in document["events"] for c in e["changes"])
