"""The command line's reader fed arbitrary input (hypothesis): its own refusal, never a crash.

``python -m ratings.engine`` reads bytes, decodes JSON (``load_document``), checks the
document (``parse_input``) and rates it. Whatever comes in, each step either goes on or
refuses in the way the command line reports (a JSON error, an ``EngineError`` listing
problems by field path): nothing else is ever raised, so the command never prints a
traceback; and what it rates it writes as JSON that reads back.
"""

from __future__ import annotations

import io
import json
import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.engine import SYSTEMS, get_system
from ratings.engine.base import EngineError
from ratings.engine.io import load_document, parse_input, write_output

FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "80")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def anything_or(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly what the field should hold, sometimes any JSON value."""
    return st.one_of(strategy, strategy, strategy, json_values)


ids = anything_or(st.sampled_from(["ann", "bob", "cat", "dan", ""]))
dates = anything_or(st.sampled_from(["2024-03-02", "2024-02-30", "2024-3-2", "0001-01-01"]))
numbers = anything_or(
    st.one_of(st.integers(-(10**20), 10**20), st.floats(allow_nan=False, allow_infinity=False))
)

player = st.fixed_dictionaries(
    {"id": ids},
    optional={
        "rating": numbers,
        "games": anything_or(st.integers(-3, 500)),
        "guest": anything_or(st.booleans()),
        "born": dates,
        "gender": anything_or(st.sampled_from(["M", "F", "X"])),
        "title": anything_or(st.sampled_from(["GM", "IM", "WFM", "XX"])),
        "status": anything_or(st.sampled_from(["new", "unrated", "provisional", "confirmed"])),
        "category": anything_or(st.sampled_from(["full", "partial"])),
        "avg_opp": numbers,
        "score": numbers,
        "points": numbers,
        "last_played": dates,
    },
)
game = st.fixed_dictionaries(
    {"a": ids, "b": ids, "score": anything_or(st.sampled_from([1, 0.5, 0, 2]))},
    optional={"round": anything_or(st.integers(-1, 5))},
)
event = st.fixed_dictionaries(
    {"id": ids, "date": dates, "games": anything_or(st.lists(game, max_size=5))},
    optional={"period": anything_or(st.sampled_from(["2024-1", "x"]))},
)
documents = st.fixed_dictionaries(
    {
        "system": anything_or(st.sampled_from(sorted(SYSTEMS))),
        "events": anything_or(st.lists(event, max_size=4)),
    },
    optional={
        "players": anything_or(st.lists(player, max_size=4)),
        "params": anything_or(st.just({})),
    },
)


def _rate(document: object) -> None:
    """What the command line does with a decoded document, its refusals let through."""
    try:
        system_id, params, players, events = parse_input(document)
        result = get_system(system_id, params).rate(players, events)
    except EngineError as error:
        assert error.problems and all(isinstance(p, str) and p for p in error.problems)
        return
    out = io.BytesIO()
    write_output(result, out)
    written = json.loads(out.getvalue())
    assert written["system"] == system_id


@FUZZ
@given(data=st.one_of(st.binary(max_size=200), json_values.map(lambda v: json.dumps(v).encode())))
def test_any_bytes_are_a_document_or_a_json_error(data: bytes) -> None:
    try:
        document = load_document(data)
    except (ValueError, RecursionError):  # the command line's "(document): not valid JSON"
        return
    _rate(document)


@FUZZ
@given(document=documents)
def test_any_document_near_the_contract_is_rated_or_refused_by_field(document: Any) -> None:
    _rate(load_document(json.dumps(document).encode()))
