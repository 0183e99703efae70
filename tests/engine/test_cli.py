"""The command line's contract (docs/engine-io.md), run as other tools run it.

``python -m ratings.engine [FILE]``: FILE, standard input, or ``-``; exit 0 and JSON on
standard output; on bad input exit 2, nothing on standard output and one line per problem
on standard error naming the field by its path; never a traceback.

Most cases call the command line in the test's own process (``main`` with byte streams:
the same bytes and exit status, without a Python start each). A few run it as a process,
so reading a file, standard input and ``-``, the exit status and the UTF-8 on the way out
are checked across the process boundary too, and give the same bytes as in-process.
"""

from __future__ import annotations

import gc
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ratings.engine import SYSTEMS
from ratings.engine.__main__ import main
from ratings.engine.base import EngineError
from ratings.engine.io import parse_input

ROOT = Path(__file__).resolve().parents[2]

EXAMPLE: dict[str, Any] = {
    "system": "nz-club-elo",
    "params": {},
    "players": [{"id": "ann", "rating": 1600, "games": 40}, {"id": "gus", "guest": True}],
    "events": [
        {
            "id": "e1",
            "date": "2024-03-02",
            "games": [{"a": "ann", "b": "gus", "score": 1, "round": 1}],
        }
    ],
}


def _bytes(stdin: bytes | str | None) -> bytes:
    return stdin.encode() if isinstance(stdin, str) else (stdin or b"")


def engine(*args: str, stdin: bytes | str | None = None) -> subprocess.CompletedProcess[bytes]:
    """The command line run in this process: its exit status and the bytes it wrote."""
    out, err = io.BytesIO(), io.BytesIO()
    status = main(list(args), io.BytesIO(_bytes(stdin)), out, err)
    return subprocess.CompletedProcess(list(args), status, out.getvalue(), err.getvalue())


def engine_process(
    *args: str, stdin: bytes | str | None = None, cwd: Path = ROOT
) -> subprocess.CompletedProcess[bytes]:
    """``python -m ratings.engine`` as a process (a Python start: kept for a few cases)."""
    return subprocess.run(
        [sys.executable, "-m", "ratings.engine", *args],
        input=_bytes(stdin),
        capture_output=True,
        cwd=cwd,
        timeout=120,
        check=False,
    )


def ok(run: subprocess.CompletedProcess[bytes]) -> dict[str, Any]:
    assert run.returncode == 0, run.stderr.decode()
    assert run.stderr == b""
    out: dict[str, Any] = json.loads(run.stdout.decode("utf-8"))
    return out


def by_id(output: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["id"]: p for p in output["players"]}


# -- input from a file, standard input or '-' ------------------------------------------------


def test_reads_a_file_named_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "in.json"
    path.write_text(json.dumps(EXAMPLE))
    ann = by_id(ok(engine_process(str(path))))["ann"]
    assert (ann["rating"], ann["display"], ann["games"]) == (1605.76, "1606", 41)


def test_reads_standard_input_without_a_file() -> None:
    assert ok(engine_process(stdin=json.dumps(EXAMPLE)))["system"] == "nz-club-elo"


def test_reads_standard_input_for_a_dash(tmp_path: Path) -> None:
    path = tmp_path / "in.json"
    path.write_text(json.dumps(EXAMPLE))
    assert ok(engine_process("-", stdin=json.dumps(EXAMPLE))) == ok(engine(str(path)))


def test_the_contract_example_gives_the_documented_output() -> None:
    out = ok(engine(stdin=json.dumps(EXAMPLE)))
    players = by_id(out)
    assert players["ann"] == {"id": "ann", "rating": 1605.76, "games": 41, "display": "1606"}
    assert players["gus"]["guest"] is True and players["gus"]["rating"] == 1500
    (event,) = out["events"]
    assert event["id"] == "e1"
    ann = next(c for c in event["changes"] if c["player"] == "ann")
    assert (ann["before"], ann["after"]) == (1600, 1605.76)
    assert ann["games"][0]["opponent"] == "gus"


def test_output_is_utf8_json_and_keeps_non_ascii_names() -> None:
    doc = {"system": "nz-club-elo", "events": [_event("e1", "2024-01-01", ("Zoë", "Đorđe", 1))]}
    run = engine_process(stdin=json.dumps(doc, ensure_ascii=False))
    assert "Zoë".encode() in run.stdout
    assert set(by_id(ok(run))) == {"Zoë", "Đorđe"}
    assert run.stdout == engine(stdin=json.dumps(doc, ensure_ascii=False)).stdout


def test_a_lone_surrogate_in_an_id_still_gives_valid_utf8_json() -> None:
    text = json.dumps(
        {"system": "nz-club-elo", "events": [_event("e1", "2024-01-01", ("x", "y"))]}
    )
    text = text.replace('"x"', '"\\ud800x"')
    run = engine_process(stdin=text)
    out = ok(run)
    assert "\ud800x" in by_id(out)
    assert run.stdout == engine(stdin=text).stdout


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_every_system_rates_from_the_command_line(system: str) -> None:
    doc = {"system": system, "events": _history()}
    out = ok(engine(stdin=json.dumps(doc)))
    assert out["system"] == system
    assert {p["id"] for p in out["players"]} == {"ann", "bob", "cat", "dan"}
    assert all(isinstance(p["display"], str) for p in out["players"])


# -- players not listed, output fed back, --no-explain -----------------------------------


def test_players_not_listed_are_new_players() -> None:
    doc = {
        "system": "nz-club-elo",
        "players": [{"id": "ann", "rating": 1600, "games": 40}],
        "events": [_event("e1", "2024-01-01", ("ann", "newbie", 0))],
    }
    newbie = next(
        c
        for c in ok(engine(stdin=json.dumps(doc)))["events"][0]["changes"]
        if c["player"] == "newbie"
    )
    assert newbie["before"] == 1500
    assert newbie["k"] == 32


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_output_fed_back_as_input_gives_the_same_result_as_rating_at_once(system: str) -> None:
    events = _history()
    first, second = events[:3], events[3:]  # 2022 and 2024: different periods for any system
    at_once = ok(engine(stdin=json.dumps({"system": system, "events": events})))
    half = ok(engine(stdin=json.dumps({"system": system, "events": first})))
    rest = ok(
        engine(stdin=json.dumps({"system": system, "players": half["players"], "events": second}))
    )
    assert by_id(rest) == by_id(at_once)
    assert half["events"] + rest["events"] == at_once["events"]


def test_no_explain_leaves_out_the_per_game_breakdown_only() -> None:
    doc = {"system": "nz-club-elo", "events": _history()}
    full = ok(engine(stdin=json.dumps(doc)))
    short = ok(engine("--no-explain", stdin=json.dumps(doc)))
    assert short["players"] == full["players"]
    for event_short, event_full in zip(short["events"], full["events"], strict=True):
        for change_short, change_full in zip(
            event_short["changes"], event_full["changes"], strict=True
        ):
            assert "games" not in change_short
            assert change_short == {k: v for k, v in change_full.items() if k != "games"}


def test_extreme_but_valid_numbers_are_rated_not_crashed_on() -> None:
    doc = {
        "system": "nz-club-elo",
        "players": [{"id": "big", "rating": 1e300}, {"id": "small", "rating": 0}],
        "events": [_event("e1", "2024-01-01", ("big", "small", 0), ("big", "x", 1))],
    }
    out = ok(engine(stdin=json.dumps(doc)))
    assert by_id(out)["big"]["rating"] == 1e300


@pytest.mark.parametrize("system", ["acf-1993", "nscl"])
def test_a_rating_below_0_is_read_for_a_system_without_a_floor(system: str) -> None:
    # Their ratings can fall below 0, and one run's output is the next run's input.
    doc = {**EXAMPLE, "system": system, "params": {}, "players": [{"id": "ann", "rating": -100}]}
    _, _, players, _ = parse_input(doc)
    assert players[0].rating == -100


@pytest.mark.parametrize("system", [s for s, cls in SYSTEMS.items() if cls.has_floor])
def test_a_rating_below_0_is_refused_for_a_system_with_a_floor(system: str) -> None:
    doc = {**EXAMPLE, "system": system, "params": {}, "players": [{"id": "ann", "rating": -0.5}]}
    with pytest.raises(EngineError) as refused:
        parse_input(doc)
    assert refused.value.problems == [
        "players[0].rating: must be at least 0 (this system has a floor), got -0.5"
    ]


# -- bad input -------------------------------------------------------------------------------


def _event(event_id: str, day: str, *games: tuple[Any, ...]) -> dict[str, Any]:
    return {
        "id": event_id,
        "date": day,
        "games": [
            {"a": g[0], "b": g[1], "score": g[2] if len(g) > 2 else 0.5, "round": r}
            for r, g in enumerate(games, 1)
        ],
    }


def _history() -> list[dict[str, Any]]:
    return [
        _event("e1", "2022-02-05", ("ann", "bob", 1), ("cat", "dan", 0.5)),
        _event("e2", "2022-02-19", ("ann", "cat", 0), ("bob", "dan", 1)),
        _event("e3", "2022-03-05", ("ann", "dan", 0.5), ("bob", "cat", 0)),
        _event("e4", "2024-05-04", ("dan", "ann", 1), ("cat", "bob", 1)),
        _event("e5", "2024-05-18", ("ann", "bob", 0.5), ("dan", "cat", 0)),
    ]


def _with(**changes: Any) -> str:
    doc = json.loads(json.dumps(EXAMPLE))
    doc.update(changes)
    return json.dumps(doc)


def _player(**fields: Any) -> str:
    return _with(players=[{"id": "ann", **fields}])


def _game(**fields: Any) -> str:
    game = {"a": "ann", "b": "bob", "score": 1, "round": 1, **fields}
    return _with(events=[{"id": "e1", "date": "2024-03-02", "games": [game]}])


def _event_with(**fields: Any) -> str:
    return _with(events=[{"id": "e1", "date": "2024-03-02", "games": [], **fields}])


def _four_games_the_last_scored_2() -> str:
    games = [{"a": "ann", "b": f"p{i}", "score": 1} for i in range(3)]
    games.append({"a": "ann", "b": "p3", "score": 2})
    return _with(events=[{"id": "e1", "date": "2024-03-02", "games": games}])


BAD: dict[str, tuple[str | bytes, str]] = {
    # case: (standard input, text one line of standard error must contain)
    "not JSON": ("{", "(document): not valid JSON"),
    "not UTF-8": (b'{"system": "\xff"}', "(document): not valid JSON"),
    "empty input": ("", "(document): not valid JSON"),
    "nested too deeply": ("[" * 100_000 + "]" * 100_000, "(document): not valid JSON"),
    "not an object": ("[1, 2]", "(document): must be a JSON object"),
    "unknown top-level field": (_with(colour="red"), "colour: unknown field"),
    "missing system": (json.dumps({"events": []}), "system: required"),
    "unknown system": (_with(system="fide"), "system: must be one of"),
    "system a list": (_with(system=[]), "system: must be one of"),
    "system an object": (_with(system={"id": "nscl"}), "system: must be one of"),
    "unknown param": (_with(params={"kk": 1}), "params.kk: unknown parameter for nz-club-elo"),
    "wrong param type": (_with(params={"k_new": "32"}), "params.k_new: must be a number"),
    "param not whole": (_with(params={"k_games": 30.5}), "params.k_games: must be a whole number"),
    "param below minimum": (_with(params={"floor": -1}), "params.floor: must be at least 0"),
    "param not a choice": (_with(params={"update": "round"}), "params.update: must be one of"),
    "param huge": (_with(params={"k_games": int("9" * 400)}), "params.k_games: must be a finite"),
    "params not an object": (_with(params=[]), "params: must be an object"),
    "missing events": (json.dumps({"system": "nz-club-elo"}), "events: required"),
    "events not a list": (_with(events={}), "events: must be a list"),
    "event not an object": (_with(events=[1]), "events[0]: must be an object"),
    "bad date": (_event_with(date="2024-13-01"), "events[0].date: must be a date YYYY-MM-DD"),
    "short date": (_event_with(date="2024-3-2"), "events[0].date: must be a date YYYY-MM-DD"),
    "week date": (_event_with(date="2024-W10-6"), "events[0].date: must be a date YYYY-MM-DD"),
    "number date": (_event_with(date=20240302), "events[0].date: must be a date YYYY-MM-DD"),
    "missing date": (
        _with(events=[{"id": "e1", "games": []}]),
        "events[0].date: required",
    ),
    "missing event id": (
        _with(events=[{"date": "2024-01-01", "games": []}]),
        "events[0].id: must be a non-empty string",
    ),
    "duplicate event id": (
        _with(
            events=[
                {"id": "e1", "date": "2024-01-01", "games": []},
                {"id": "e1", "date": "2024-01-02", "games": []},
            ]
        ),
        "events[1].id: 'e1' appears twice",
    ),
    "unknown event field": (_event_with(venue="hall"), "events[0].venue: unknown field"),
    "bad period": (_event_with(period=3), "events[0].period: must be a non-empty string"),
    "missing games": (
        _with(events=[{"id": "e1", "date": "2024-01-01"}]),
        "events[0].games: required",
    ),
    "games not a list": (_event_with(games={}), "events[0].games: must be a list"),
    "game not an object": (_event_with(games=[["ann", "bob", 1]]), "events[0].games[0]: must be"),
    "self-pairing": (_game(b="ann"), "events[0].games[0].b: a player cannot play themselves"),
    "missing player": (_game(b=None), "events[0].games[0].b: must be a player id"),
    "empty player id": (_game(a=""), "events[0].games[0].a: must be a player id"),
    "number player id": (_game(a=7), "events[0].games[0].a: must be a player id"),
    "bad score": (
        _four_games_the_last_scored_2(),
        "events[0].games[3].score: must be 1, 0.5 or 0, got 2",
    ),
    "score true": (_game(score=True), "events[0].games[0].score: must be 1, 0.5 or 0, got True"),
    "score string": (_game(score="1"), "events[0].games[0].score: must be 1, 0.5 or 0"),
    "score NaN": (
        '{"system":"nz-club-elo","events":[{"id":"e","date":"2024-01-01","games":'
        '[{"a":"x","b":"y","score":NaN}]}]}',
        "events[0].games[0].score: must be",
    ),
    "missing score": (_game(score=None), "events[0].games[0].score: must be 1, 0.5 or 0"),
    "round string": (_game(round="1"), "events[0].games[0].round: must be a whole number"),
    "round fraction": (_game(round=1.5), "events[0].games[0].round: must be a whole number"),
    "round zero": (_game(round=0), "events[0].games[0].round: must be a whole number from 1"),
    "round negative": (_game(round=-2), "events[0].games[0].round: must be a whole number"),
    "round true": (_game(round=True), "events[0].games[0].round: must be a whole number"),
    "unknown game field": (_game(board=3), "events[0].games[0].board: unknown field"),
    "players not a list": (_with(players={}), "players: must be a list"),
    "player not an object": (_with(players=["ann"]), "players[0]: must be an object"),
    "player without id": (_with(players=[{"rating": 1500}]), "players[0].id: required"),
    "duplicate player": (
        _with(players=[{"id": "ann"}, {"id": "ann"}]),
        "players[1].id: 'ann' appears twice",
    ),
    "unknown player field": (_player(colour="white"), "players[0].colour: unknown field"),
    "bad title": (_player(title="GMX"), "players[0].title: must be one of GM, IM"),
    "bad gender": (_player(gender="X"), "players[0].gender: must be M or F"),
    "bad status": (
        _with(system="acf-1993", players=[{"id": "ann", "status": "master"}]),
        "players[0].status: must be one of new, unrated",
    ),
    "bad category": (
        _with(system="ecf-2020", players=[{"id": "ann", "category": "half"}]),
        "players[0].category: must be full or partial",
    ),
    "another system's field": (
        _player(status="confirmed"),
        "players[0].status: unknown field",
    ),
    "negative games": (_player(games=-1), "players[0].games: must be a whole number of games"),
    "fractional games": (_player(games=2.5), "players[0].games: must be a whole number of games"),
    "rating string": (_player(rating="1600"), "players[0].rating: must be a number"),
    "rating huge": (_player(rating=int("9" * 400)), "players[0].rating: must be a number"),
    "rating below 0 with a floor": (
        _player(rating=-100),
        "players[0].rating: must be at least 0 (this system has a floor), got -100",
    ),
    "guest not bool": (_player(guest="yes"), "players[0].guest: must be true or false"),
    "bad birth date": (_player(born="1990-02-30"), "players[0].born: must be a date"),
    "bad display": (_player(display=1606), "players[0].display: must be a string"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_exits_2_with_one_line_per_problem_naming_the_field(case: str) -> None:
    stdin, expected = BAD[case]
    run = engine(stdin=stdin)
    assert run.returncode == 2, run.stderr.decode()
    assert run.stdout == b""
    err = run.stderr.decode()
    assert "Traceback" not in err
    lines = err.splitlines()
    assert lines and all(line.strip() for line in lines)
    assert any(expected in line for line in lines), err


NAMED_TWICE = json.dumps(
    {"system": "nz-club-elo", "players": [{"id": "Zoë\ud800"}, {"id": "Zoë\ud800"}], "events": []}
)
PROCESS_BAD = {
    # A fresh process's stack, not the test's, meets the recursion limit.
    "nested too deeply": BAD["nested too deeply"],
    # Standard error in UTF-8, the lone surrogate written as \ud800.
    "a non-ASCII id twice": (NAMED_TWICE, "players[1].id: 'Zoë\\ud800' appears twice"),
}


@pytest.mark.parametrize("case", list(PROCESS_BAD))
def test_a_process_given_bad_input_exits_2_writing_what_the_command_line_writes(
    case: str,
) -> None:
    stdin, expected = PROCESS_BAD[case]
    run = engine_process(stdin=stdin)
    assert (run.returncode, run.stdout) == (2, b"")
    assert any(expected in line for line in run.stderr.decode().splitlines()), run.stderr
    in_process = engine(stdin=stdin)
    assert (run.returncode, run.stdout, run.stderr) == (
        in_process.returncode,
        in_process.stdout,
        in_process.stderr,
    )


def test_every_problem_is_reported_at_once_one_line_each() -> None:
    doc = {
        "system": "nz-club-elo",
        "params": {"kk": 1},
        "players": [{"id": "ann", "games": -1, "title": "X"}],
        "events": [
            {"id": "e1", "date": "2024-1-1", "games": [{"a": "x", "b": "x", "score": 2}]},
        ],
    }
    run = engine(stdin=json.dumps(doc))
    assert run.returncode == 2 and run.stdout == b""
    lines = run.stderr.decode().splitlines()
    assert len(lines) == 6
    for path in (
        "params.kk:",
        "players[0].games:",
        "players[0].title:",
        "events[0].date:",
        "events[0].games[0].b:",
        "events[0].games[0].score:",
    ):
        assert sum(line.startswith(path) for line in lines) == 1, (path, lines)


def test_a_missing_file_exits_2_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    run = engine(str(missing))
    assert (run.returncode, run.stdout) == (2, b"")
    assert run.stderr.decode().splitlines() == [
        f"(file): cannot read {missing}: No such file or directory"
    ]


def test_a_directory_exits_2(tmp_path: Path) -> None:
    run = engine(str(tmp_path))
    assert (run.returncode, run.stdout) == (2, b"")
    assert run.stderr.decode().startswith("(file): cannot read")


# -- the command line itself ---------------------------------------------------------------


def test_help_goes_to_standard_output_with_exit_0() -> None:
    run = engine("--help")
    assert (run.returncode, run.stderr) == (0, b"")
    assert run.stdout.startswith(b"usage: python -m ratings.engine")
    assert b"--no-explain" in run.stdout


def test_an_unknown_option_exits_2_with_the_usage_on_standard_error() -> None:
    run = engine("--colour")
    assert (run.returncode, run.stdout) == (2, b"")
    assert run.stderr.decode().splitlines()[-1] == (
        "python -m ratings.engine: error: unrecognized arguments: --colour"
    )


def test_a_run_in_the_callers_process_leaves_its_garbage_collector_on() -> None:
    # The command line turns the cycle collector off for its own run, not for its caller.
    ok(engine(stdin=json.dumps(EXAMPLE)))
    assert gc.isenabled()
