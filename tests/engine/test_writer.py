"""The fast JSON writer against the plain one, on lines of every odd shape it may meet."""

from __future__ import annotations

import io
import json
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from ratings.engine import get_system, rate
from ratings.engine.base import (
    EventResult,
    GameLine,
    GameRows,
    PlayerChange,
    PlayerState,
    RatingResult,
)
from ratings.engine.io import (
    StreamingRenderer,
    _Encoder,
    _structured_events_json,
    iter_result_json,
    parse_input,
    render_result,
    result_to_json,
)


def _plain(result: RatingResult, explain: bool = True) -> str:
    document = result_to_json(result, explain=explain)
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))


def _result(lines: list[GameLine]) -> RatingResult:
    change = PlayerChange("ann", 1600.0, 1601.5, "1600", "1602", lines, {"k": 16.0})
    return RatingResult(
        system="nz-club-elo",
        players=[PlayerState("ann", 1601.5, 3)],
        displays={"ann": "1602"},
        events=[EventResult("e1", None, [change])],
    )


LINES: dict[str, list[GameLine]] = {
    "usual": [GameLine("bob", 1.0, 1500.0, 0.6401, 5.76, True, 1, {"k": 16.0})] * 3,
    "int and float that are equal": [
        GameLine("bob", 1.0, 1500.0, 0.5, 8.0, True, 1, {"k": 16.0}),
        GameLine("bob", 1.0, 1500.0, 0.5, 8.0, True, 1, {"k": 16}),
        GameLine("bob", 1, 1500, 1, 8, True, 2.0, {"k": True}),  # type: ignore[arg-type]
    ],
    "optional fields missing on some lines": [
        GameLine("bob", 0.5, None, None, None, False, None, {"k": None}),
        GameLine("cy", 0.0, 1400.25, 0.25, -4.0, True, 3, {"k": 16.0}),
        GameLine("dee", 0.5, 1400.0, None, 0.0, 0, None, {"k": "x"}),  # type: ignore[arg-type]
    ],
    "detail keys differ": [
        GameLine("bob", 1.0, 1500.0, detail={"a": 1, "b": 2}),
        GameLine("bob", 1.0, 1500.0, detail={"b": 2, "a": 1}),
        GameLine("bob", 1.0, 1500.0, detail={}),
    ],
    "keys that need escaping and shadow nothing": [
        GameLine('b"o\\b\u00e9', -0.0, -0.0, detail={'q"uote': 1.5, "é": [1, 2]}),
    ],
    "a detail key shadowing a fixed one": [
        GameLine("bob", 1.0, 1500.0, detail={"score": 3}),
    ],
    "unhashable and nested values": [
        GameLine("bob", 1.0, 1500.0, detail={"list": [1, {"a": None}]}),
        GameLine("bob", 1.0, 1500.0, detail={"list": [2]}),
    ],
    "big and tiny numbers": [
        GameLine("bob", 1.0, 2.0**60, 1e-7, 1e20, True, 10**20, {"k": 1e300}),
        GameLine("bob", 1.0, -(2.0**53), 1e-7, -1e20, True, 1, {"k": -1e-300}),
    ],
}


@pytest.mark.parametrize("name", list(LINES))
def test_the_fast_writer_writes_what_the_plain_one_does(name: str) -> None:
    result = _result(LINES[name])
    for explain in (True, False):
        assert "".join(iter_result_json(result, explain=explain)) == _plain(result, explain)


def _history(size: int) -> dict[str, Any]:
    players = [f"p{n}" for n in range(30)]
    events = []
    for e in range(size):
        games = [
            {"a": players[(e + i) % 30], "b": players[(e + i + 7) % 30], "score": (i % 3) / 2}
            for i in range(6)
        ]
        day = f"2024-{1 + e % 12:02d}-{1 + e % 28:02d}"
        events.append({"id": f"e{e}", "date": day, "games": games})
    return {"players": [{"id": "p1", "rating": 1700, "games": 40}], "events": events}


def _rows(lines: list[GameLine], shared: dict[str, Any] | None = None) -> GameRows:
    """The lines as GameRows: their detail shared (``shared``) or each line's own."""
    keys = () if shared is not None else tuple(lines[0].detail) if lines else ()
    values: list[Any] = []
    for line in lines:
        values += (line.opponent, line.score, line.opponent_rating, line.expected)
        values += (line.change, line.round, *(line.detail[key] for key in keys))
    return GameRows(values, {} if shared is None else shared, keys)


def _line(opponent: Any, *figures: Any, **detail: Any) -> GameLine:
    return GameLine(opponent, *figures[:4], True, figures[4], detail)


ROWS: dict[str, list[GameRows]] = {
    "usual, detail shared": [_rows(LINES["usual"], {"k": 16.0}), _rows([], {"k": 16.0})],
    "detail of each line's own": [
        _rows([_line("bob", 1.0, 1500, None, 21, 1, shift=0, rule="within-12")] * 2),
        _rows([_line("cy", 0.0, 1480.5, None, -2.5, None, shift=-3, rule="floor")]),
    ],
    "whole floats, ints and minus zero": [
        _rows(
            [_line("bob", 1, 1500.0, 0.5, 16.0, 2), _line("cy", 0.0, -0.0, 0.0, -0.0, 3)], {"k": 1}
        ),
        _rows([_line("bob", 1.0, 1500, 1.0, 16, 1)], {"k": 16}),
        _rows([_line("dee", 0.5, 2.0**53, 0.25, 2.0**52 + 1, 1)], {"k": 32.0}),
    ],
    "optional figures absent": [
        _rows([_line("bob", 0.5, None, None, None, None)], {"k": None}),
        _rows([_line("cy", 0.5, 1400.25, 0.1234, 0.01, None)], {"k": 16.0}),
    ],
    "strings to escape": [
        _rows([_line('b"o\\b\u00e9\n\x00\u2028', 1.0, 1500.0, 0.5, 8.0, 1)], {"k": "\u00e9\t"}),
        _rows([_line("\u00e9l\u00e8ve", 0.0, 1500.0, 0.5, -8.0, 1)], {"k": 'x"'}),
    ],
    "keys msgspec cannot name": [
        _rows([_line("bob", 1.0, 1500.0, 0.5, 8.0, 1)], {'q"uote': 1, "\u00e9": 2}),
    ],
    "a lone surrogate": [_rows([_line("\ud800", 1.0, 1500.0, 0.5, 8.0, 1)], {"k": 16.0})],
    "numbers past plain notation": [
        _rows([_line("bob", 1.0, 1e16, 1e-05, 2.0**60, 1)], {"k": 1e-300}),
        _rows([_line("cy", 1.0, 1e300, 0.00011, -1e20, 1)], {"k": 1e16}),
    ],
    "not a number": [
        _rows([_line("bob", 1.0, 1500.0, float("nan"), 8.0, 1)], {"k": float("inf")}),
        _rows([_line("cy", 1.0, 1500.0, 0.5, 8.0, 1)], {"k": float("-inf")}),
    ],
    "a detail key shadowing a fixed one": [
        _rows([_line("bob", 1.0, 1500.0, 0.5, 8.0, 1)], {"round": 2})
    ],
    "values of other kinds": [
        _rows([_line("bob", True, 1500.0, 0.5, 8.0, True)], {"k": [1]}),
        _rows([_line(7, 1.0, "1500", 0.5, 8.0, 1)], {"k": 16.0}),
    ],
}


@pytest.mark.parametrize("name", list(ROWS))
def test_game_rows_are_written_as_the_game_lines_they_stand_for(name: str) -> None:
    changes = [
        PlayerChange(f"p{i}", 1600.0 + i, 1601.25, "1600", "1601", rows, {"k": 16.0})
        for i, rows in enumerate(ROWS[name])
    ]
    result = RatingResult("nz-club-elo", [], {}, [EventResult("e1", None, changes)])
    for explain in (True, False):
        assert "".join(iter_result_json(result, explain=explain)) == _plain(result, explain)


def test_changes_whose_details_differ_in_keys_are_written_as_they_are() -> None:
    detail_sets = [
        {"k": 16.0, "played": 1},
        {"k": 16.0, "played": 1, "guest": True},  # a guest's change has one key more
        {"played": 1},
        {"played": 2, "k": 32.0},  # the keys in another order
    ]
    for count in (2, 3, 4):
        changes = [
            PlayerChange(f"p{i}", 1500.0, 1500.0, "1500", "1500", _rows([], {"k": 16.0}), detail)
            for i, detail in enumerate(detail_sets[:count])
        ]
        result = RatingResult("nz-club-elo", [], {}, [EventResult("e1", "2024-03", changes)])
        for explain in (True, False):
            assert "".join(iter_result_json(result, explain=explain)) == _plain(result, explain)


def test_game_rows_read_as_the_list_of_their_game_lines() -> None:
    shared = {"k": 16.0}
    rows = GameRows(["bob", 1.0, 1500.0, 0.64, 5.76, 1, "cy", 0.5, 1600.0, 0.5, 0.0, 2], shared)
    bob = GameLine("bob", 1.0, 1500.0, 0.64, 5.76, True, 1, {"k": 16.0})
    cy = GameLine("cy", 0.5, 1600.0, 0.5, 0.0, True, 2, {"k": 16.0})
    assert len(rows) == 2
    assert rows[0] == bob and rows[-1] == cy and rows[0:1] == [bob]
    assert list(rows) == [bob, cy] and rows == [bob, cy] and rows != [bob]
    assert rows[0].detail is shared and rows[1].detail is shared


def test_game_rows_give_each_line_its_own_detail_after_the_shared_one() -> None:
    rows = GameRows(["bob", 1.0, 1500, None, 21, 1, 0, "within-12"], {"k": 1}, ("shift", "rule"))
    (line,) = rows
    assert line == GameLine(
        "bob", 1.0, 1500, None, 21, True, 1, {"k": 1, "shift": 0, "rule": "within-12"}
    )
    assert list(line.detail) == ["k", "shift", "rule"]


def test_game_rows_made_later_work_their_values_out_once_when_first_read() -> None:
    calls = []

    def build() -> list[Any]:
        calls.append(1)
        return ["bob", 1.0, 1500.0, 0.64, 5.76, 1, "cy", 0.5, 1600.0, 0.5, 0.0, 2]

    rows = GameRows.later(build, 2, {"k": 16.0})
    assert len(rows) == 2 and not calls  # counting the lines does not work them out
    assert rows == GameRows(build(), {"k": 16.0})
    assert rows.values == build() and rows[1].opponent == "cy"
    assert len(calls) == 3  # once for ``rows``, twice for the comparisons here


def test_game_rows_made_later_with_the_wrong_number_of_values_are_an_error() -> None:
    rows = GameRows.later(lambda: ["bob", 1.0, 1500.0, None, None, 1], 2, {})
    with pytest.raises(ValueError, match="6 values for 2 lines"):
        list(rows)


@pytest.mark.parametrize("system", ["nz-club-elo", "st-charles", "nscl", "acf-1993", "ecf-2020"])
@pytest.mark.parametrize("explain", [True, False])
@pytest.mark.parametrize("chunk_lines", [1, 7, 50, 10_000])
def test_streaming_in_forked_processes_gives_the_same_bytes(
    system: str, explain: bool, chunk_lines: int
) -> None:
    document = {"system": system, **_history(60)}
    system_id, params, players, events = parse_input(document)
    serial = b"".join(
        render_result(rate(system_id, players=players, events=events), explain=explain)
    )
    renderer = StreamingRenderer(
        explain=explain, chunk_lines=chunk_lines, min_lines=0, stream=True
    )
    result = get_system(system_id, params).rate(players, events, on_period=renderer.rated)
    assert b"".join(renderer.finish(result)) == serial
    assert renderer.forks > 0 or chunk_lines == 10_000


@pytest.mark.parametrize("target", ["file", "pipe", "memory"])
def test_streaming_writes_the_same_bytes_to_a_file_a_pipe_or_memory(
    target: str, tmp_path: Path
) -> None:
    system_id, params, players, events = parse_input({"system": "nz-club-elo", **_history(40)})
    serial = b"".join(render_result(rate(system_id, players=players, events=events)))
    renderer = StreamingRenderer(chunk_lines=5, min_lines=0)
    result = get_system(system_id, params).rate(players, events, on_period=renderer.rated)
    if target == "memory":
        memory = io.BytesIO()
        renderer.write(result, memory)
        written = memory.getvalue()
    elif target == "file":
        with open(tmp_path / "out.json", "wb") as handle:
            renderer.write(result, handle)
        written = (tmp_path / "out.json").read_bytes()
    else:
        reader = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert reader.stdin is not None and reader.stdout is not None
        with ThreadPoolExecutor(1) as pool:
            output = pool.submit(reader.stdout.read)
            renderer.write(result, reader.stdin)
            reader.stdin.close()
            written = output.result()
        reader.wait()
    assert renderer.forks > 0
    assert written == serial


@pytest.mark.parametrize(
    ("name", "taken"),
    [
        ("usual, detail shared", True),
        ("detail of each line's own", True),
        ("whole floats, ints and minus zero", True),
        ("strings to escape", True),
        ("keys msgspec cannot name", False),
        ("a lone surrogate", False),
        ("numbers past plain notation", False),
        ("not a number", False),
        ("values of other kinds", False),
    ],
)
def test_msgspec_writes_only_what_it_writes_as_json_does(name: str, taken: bool) -> None:
    # The structured path (msgspec) must decline what it would write differently; the
    # test above holds whatever path is taken to the plain writer's bytes.
    changes = [
        PlayerChange(f"p{i}", 1600.0, 1601.25, "1600", "1601", rows, {"k": 16.0})
        for i, rows in enumerate(ROWS[name])
    ]
    events = [EventResult("e1", None, changes)]
    written = _structured_events_json(events, True, _Encoder())
    assert (written is not None) is taken
