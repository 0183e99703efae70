"""ecf-2020's arithmetic in exact integers: the D offset table padded for a lookup by
index, halves-up rounding of a ratio, ratings in hundredths.

The rating differences' offsets are looked up millions of times in a history: an index
into a padded tuple instead of a clamp and a sign each time. ``ecf_2020`` checks
``fits_padded_table`` before trusting an index.
"""

from __future__ import annotations

from collections.abc import Iterable

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
