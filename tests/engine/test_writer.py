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
from ratings.engine.base import EventResult, GameLine, PlayerChange, PlayerState, RatingResult
from ratings.engine.io import (
    StreamingRenderer,
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
