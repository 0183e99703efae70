"""How acf-1993's figures read on the pages and are stored: the labels of a change's
breakdown and of a game's line, its breakdown shapes (numbered for good), and the word
read with a rating brought in. Data, apart from the rules (``acf_1993.py``)."""

from __future__ import annotations

from .acf_standing import CONFIRMED, PROVISIONAL
from .base import RatingSystem
from .declarations import BroughtInField

SHARED_DETAIL_LABELS = RatingSystem.detail_labels

#: The figures of a change's breakdown in each form it takes (``breakdown_shapes``).
_STATUS = ("status_before", "status_after")
_ESTABLISHED = ("calculation", "NG", "Sa", "AR", "D", "D_table", "P", "Se", "BP", "Ri")
_NONE_RATED = ("calculation", "NG", "Sa", "AR", "D", "P", "Se", "BP", "Ri")
_PERFORMANCE = ("calculation", "played", "Sa", "NG", "TS", "AR", "percentage", "Dp", "Rp")
_LINE = ("held_from",)

#: The figures of a change, by the booklet's own letters where it has them.
DETAIL_LABELS = {
    "status_before": "Status before",
    "status_after": "Status after",
    "reset": "Rating reset",
    "calculation": "Calculation",
    **SHARED_DETAIL_LABELS,
    "NG": "Games (NG)",
    "Sa": "Score (Sa)",
    "TS": "Total score (TS)",
    "AR": "Average opponent (AR)",
    "D": "Rating difference (D)",
    "D_table": "Difference in the table",
    "P": "Expected a game (P)",
    "Se": "Expected score (Se)",
    "BP": "Bonus points (BP)",
    "Ri": "Change (Ri)",
    "percentage": "Percentage",
    "Dp": "Dp",
    "Rp": "Performance rating (Rp)",
}
#: The opponent's rating before the 336 rule held it, where it did.
LINE_LABELS = {"held_from": "Held from"}
RATING_LINE_FIGURES = frozenset({"held_from"})
#: A confirmed player's tournament; one with no game against a usable rating; a
#: partially rated player's performance rating, and the same after the period's
#: zero-score reset. Numbers 0 to 3, for good (``RatingSystem.breakdown_shapes``).
BREAKDOWN_SHAPES = {
    0: (_STATUS + _ESTABLISHED, _LINE),
    1: (_STATUS + _NONE_RATED, _LINE),
    2: (_STATUS + _PERFORMANCE, _LINE),
    3: ((*_STATUS, "reset", *_PERFORMANCE), _LINE),
}

#: The word read with a rating brought in besides its figure and games.
BROUGHT_IN_FIELDS = (
    BroughtInField(
        "status",
        "ACF status brought in",
        "ACF status",
        ((CONFIRMED, "Confirmed"), (PROVISIONAL, "Provisional")),
        "The status of the rating brought in (blank: from its games).",
    ),
)
