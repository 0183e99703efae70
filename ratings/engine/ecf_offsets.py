"""ecf-2020's arithmetic in exact integers: the D offset table padded for a lookup by
index, halves-up rounding of a ratio, ratings in hundredths, and a K rated game's line
(its offsets and increment).

The rating differences' offsets are looked up millions of times in a history: an index
into a padded tuple instead of a clamp and a sign each time. ``ecf_2020`` checks
``fits_padded_table`` before trusting an index.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .base import GameLine
from .ecf_tables import D_MAX, D_OFFSET_FIFTHS, D_OFFSET_SIGNED

#: Rating differences the padded offset table takes (either way), far beyond any rating.
PAD = 8192
#: D_OFFSET_SIGNED indexed by D + D_MAX rounded half up, as the index int() truncates,
#: padded both ways: the top offset above, minus it below, reached by negative indices.
PADDED_OFFSETS: tuple[int, ...] = (
    *D_OFFSET_SIGNED,
    *[D_OFFSET_FIFTHS[D_MAX]] * PAD,
    *[-D_OFFSET_FIFTHS[D_MAX]] * PAD,
)


def fits_padded_table(ratings: Iterable[float]) -> bool:
    """Whether every difference between these ratings indexes ``PADDED_OFFSETS`` rightly."""
    values = list(ratings)
    if not values:
        return True
    spread = max(values) - min(values)
    return spread < PAD - 2  # (NaN compares False: not taken)


def round_ratio(num: int, den: int) -> int:
    """``num / den`` (den > 0) rounded to a whole number, halves up, in exact integers."""
    return (2 * num + den) // (2 * den)


def cents(value: float) -> int:
    """A rating (or a sum of them) in hundredths, as an exact integer."""
    return round(value * 100)


# -- a K rated game's line -----------------------------------------------------------

#: Each game line's own breakdown: null on a P rated player's lines.
LINE_KEYS = ("d", "d_offset", "score_offset", "increment")


def no_breakdown() -> dict[str, Any]:
    """A P rated player's line's breakdown: the K figures, null."""
    return dict.fromkeys(LINE_KEYS)


def k_line(
    opponent: str,
    score: float,
    round_: int | None,
    rating: float,
    own: float,
    offset: int,
    score_offset: int,
    k_num: int,
    k_den: int,
) -> GameLine:
    """A K rated player's line: D, the offsets (given in fifths) and the increment,
    (D offset + score offset) x K / 20 with K = k_num / k_den (to 4 places if a fraction)."""
    increment = (offset + score_offset) * k_num / (100 * k_den)
    if k_den != 1:
        increment = round(increment, 4)
    detail = {
        "d": plain(rating - own),
        "d_offset": offset / 5,
        "score_offset": score_offset // 5,
        "increment": increment,
    }
    return GameLine(opponent, score, rating, None, None, True, round_, detail)


def plain(value: float | None) -> float | int | None:
    """A whole float as an int (1850, not 1850.0) for the breakdown's JSON."""
    if value is not None and value == int(value):
        return int(value)
    return value
