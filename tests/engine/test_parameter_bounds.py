"""Every number a club can set for a system has a range beside it in the engine, from the
system's own document; ``check_params`` (which every form and the command line ask)
refuses a value just past either end, accepts each end, and refuses NaN, infinities and
numbers no rating list could hold. At each end the system still rates."""

from __future__ import annotations

import math
from datetime import date

import pytest

from ratings.engine import SYSTEMS, Event, Game, PlayerState, get_system

NUMBERS = [
    (sid, p)
    for sid, cls in SYSTEMS.items()
    for p in cls.parameters
    if (p.choices is None and type(p.default) in (int, float)) or p.default is None
]
IDS = [f"{sid}.{p.name}" for sid, p in NUMBERS]
TEXTS = [
    (sid, p)
    for sid, cls in SYSTEMS.items()
    for p in cls.parameters
    if p.choices is None and isinstance(p.default, str)
]


def _problems(sid: str, name: str, value: object) -> list[str]:
    return [p.lstrip(".") for p in SYSTEMS[sid].check_params({name: value}, path="")]


def _step(value: float) -> float:
    """The smallest step a person would type past ``value``."""
    return 1 if float(value).is_integer() else 0.001


@pytest.mark.parametrize(("sid", "param"), NUMBERS, ids=IDS)
def test_every_number_has_a_range(sid, param) -> None:
    assert param.minimum is not None and param.maximum is not None
    assert param.minimum <= (param.default if param.default is not None else 0) <= param.maximum


@pytest.mark.parametrize(("sid", "param"), NUMBERS, ids=IDS)
def test_just_past_the_top_is_refused_and_the_top_accepted(sid, param) -> None:
    top = param.maximum
    assert _problems(sid, param.name, top) == []
    assert _problems(sid, param.name, top + _step(top)) == [
        f"{param.name}: must be at most {top:g}"
    ]


@pytest.mark.parametrize(("sid", "param"), NUMBERS, ids=IDS)
def test_just_under_the_bottom_is_refused_and_the_bottom_accepted(sid, param) -> None:
    bottom = param.minimum
    assert _problems(sid, param.name, bottom) == []
    assert _problems(sid, param.name, bottom - _step(bottom)) == [
        f"{param.name}: must be at least {bottom:g}"
    ]


@pytest.mark.parametrize(("sid", "param"), NUMBERS, ids=IDS)
@pytest.mark.parametrize(
    "value", [math.nan, math.inf, -math.inf, 1e11, 1e15, 10**400, -(10**400), -1e11]
)
def test_nan_infinity_huge_and_hugely_negative_are_refused(sid, param, value) -> None:
    assert _problems(sid, param.name, value)


@pytest.mark.parametrize(("sid", "param"), TEXTS, ids=[f"{s}.{p.name}" for s, p in TEXTS])
def test_a_text_longer_than_its_use_is_refused(sid, param) -> None:
    too_long = f"{param.name}: must be at most {param.longest} characters"
    assert too_long in _problems(sid, param.name, "x" * (param.longest + 1))


def test_a_bonus_row_past_any_tournament_is_refused() -> None:
    assert _problems("acf-1993", "bonus_rows", "6:1,1000000000:2")
    assert _problems("acf-1993", "bonus_rows", "6:1000")
    assert _problems("acf-1993", "bonus_rows", "6:1,1000:100") == []


@pytest.mark.parametrize(("sid", "param"), NUMBERS, ids=IDS)
@pytest.mark.parametrize("end", ["minimum", "maximum"])
def test_the_system_rates_at_either_end_of_a_range(sid, param, end) -> None:
    value = getattr(param, end)
    if type(param.default) is int:
        value = int(value)
    system = get_system(sid, {param.name: value})
    players = [PlayerState(id=i) for i in ("ann", "bob", "cat")]
    games = (Game("ann", "bob", 1.0, 1), Game("bob", "cat", 0.5, 2), Game("cat", "ann", 0.0, 3))
    result = system.rate(players, [Event(id="e1", date=date(2024, 3, 5), games=games)])
    assert all(len(shown) <= 12 for shown in result.displays.values())
