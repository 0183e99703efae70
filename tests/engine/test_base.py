"""The shared plumbing in ratings.engine.base: copying a state and exact rounding."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from ratings.engine.base import round_half_up, with_changes
from ratings.engine.ecf_standing import EcfState

FULL = EcfState(
    id="ann", rating=1.0, games=2, guest=True, born=date(2010, 5, 6), gender="F",
    title="WCM", category="partial", avg_opp=3.0, points=5.0, last_played=date(2023, 1, 2),
    rapid_rating=6.0, rapid_category="full", rapid_last_played=date(2022, 12, 3),
)  # fmt: skip


def test_with_changes_is_dataclasses_replace() -> None:
    assert with_changes(FULL) == FULL
    assert with_changes(FULL, games=9, rating=None) == replace(FULL, games=9, rating=None)
    assert with_changes(FULL, category="full") == replace(FULL, category="full")
    with pytest.raises(TypeError):
        with_changes(FULL, bogus=1)


@pytest.mark.parametrize(
    ("value", "ndigits", "expected"),
    [
        (2.5, 0, 3.0),
        (-2.5, 0, -3.0),
        (0.5, 0, 1.0),
        (2.675, 2, 2.68),  # the float is 2.67499999...; its repr is 2.675
        (1011.4999999999999, 0, 1011.0),  # noise from arithmetic is not absorbed
        (1234.5, -1, 1230.0),
        (2.0**60, 0, 2.0**60),
    ],
)
def test_round_half_up_does_what_its_docstring_says(
    value: float, ndigits: int, expected: float
) -> None:
    assert round_half_up(value, ndigits) == expected
