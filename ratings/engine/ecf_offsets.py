"""ecf-2020's arithmetic in exact integers: the D offset table padded for a lookup by
index, halves-up rounding of a ratio, ratings in hundredths, and a K rated game's line
(its offsets and increment).

The rating differences' offsets are looked up millions of times in a history: an index
into a padded tuple instead of a clamp and a sign each time. ``ecf_2020`` checks
``fits_padded_table`` before trusting an index.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

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


# -- a player's game lines ------------------------------------------------------------

#: Each game line's own breakdown: null on a P rated player's lines.
LINE_KEYS = ("d", "d_offset", "score_offset", "increment")


def p_lines(
    opponents: list[str],
    scores: list[float],
    rounds: list[int | None],
    ratings: Mapping[str, float],
) -> list[GameLine]:
    """A P rated player's lines: each opponent at the rating used, the K figures null.

    One call a player's month, not a line (a history has two lines a game); each line's
    breakdown its own dict, written out rather than made by a call.
    """
    return [
        GameLine(
            opponent,
            score,
            ratings[opponent],
            None,
            None,
            True,
            round_,
            {"d": None, "d_offset": None, "score_offset": None, "increment": None},
        )
        for opponent, score, round_ in zip(opponents, scores, rounds, strict=True)
    ]


def k_lines(
    opponents: list[str],
    scores: list[float],
    rounds: list[int | None],
    ratings: list[float],
    own: float,
    offsets: list[int],
    score_offsets: list[int],
    k_num: int,
    k_den: int,
) -> list[GameLine]:
    """A K rated player's lines: D, the offsets (given in fifths) and the increment,
    (D offset + score offset) x K / 20 with K = k_num / k_den (to 4 places if a fraction).

    One call a player's month, not a line, as ``p_lines``; D whole as an int (``plain``).
    """
    scale = 100 * k_den
    increments = [
        (offset + score_offset) * k_num / scale
        for offset, score_offset in zip(offsets, score_offsets, strict=True)
    ]
    if k_den != 1:
        increments = [round(increment, 4) for increment in increments]
    return [
        GameLine(
            opponent,
            score,
            rating,
            None,
            None,
            True,
            round_,
            {
                "d": int(d) if (d := rating - own) == int(d) else d,
                "d_offset": offset / 5,
                "score_offset": score_offset // 5,
                "increment": increment,
            },
        )
        for opponent, score, round_, rating, offset, score_offset, increment in zip(
            opponents, scores, rounds, ratings, offsets, score_offsets, increments, strict=True
        )
    ]


def plain(value: float | None) -> float | int | None:
    """A whole float as an int (1850, not 1850.0) for the breakdown's JSON."""
    if value is not None and value == int(value):
        return int(value)
    return value
