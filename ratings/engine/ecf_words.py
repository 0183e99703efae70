"""How ecf-2020's figures read on the pages and are stored: the labels of a change's
breakdown and of a game's line, and its breakdown shapes (numbered for good). Data, apart
from the rules (``ecf_2020.py``)."""

from __future__ import annotations

#: The figures of a change's breakdown in each form it takes (``breakdown_shapes``).
_MONTH = ("category_before", "category_after", "pass", "month_games", "month_points")
_LINE = ("d", "d_offset", "score_offset", "increment")

#: The figures of a change, a pass and a month at a time.
DETAIL_LABELS = {
    "category_before": "Category before",
    "category_after": "Category after",
    "pass": "Calculation",
    "player_k": "K",
    "improving": "Improving",
    "month_games": "Games this month",
    "month_points": "Points this month",
    "total_games": "Games in all",
    "total_points": "Points in all",
    "dummy_rating": "Provisional rating",
    "avg_opp": "Average opponent",
    "p": "Score fraction (p)",
    "dp": "dp",
    "rating_a": "Rating (first pass)",
    "rating_b": "Rating (second pass)",
    "pass1_games_used": "First pass: games used",
    "pass1_total_games": "First pass: games",
    "pass1_avg_opp": "First pass: average opponent",
    "pass1_p": "First pass: score fraction",
    "pass1_dp": "First pass: dp",
    "sum_offsets": "Sum of offsets",
    "adjustment": "Adjustment",
}
#: D: the rating difference as the offset table reads it; its offset and the score's.
LINE_LABELS = {"d": "D", "d_offset": "D offset", "score_offset": "Score offset"}
SIGNED_LINE_FIGURES = frozenset({"d_offset", "score_offset"})
#: A P rating (new and partial players), a K rating (fully rated ones). Numbers 4
#: and 5, for good (``RatingSystem.breakdown_shapes``).
BREAKDOWN_SHAPES = {
    4: (
        (
            *_MONTH,
            "dummy_rating",
            "total_games",
            "total_points",
            "avg_opp",
            "p",
            "dp",
            "rating_a",
            "rating_b",
            "pass1_games_used",
            "pass1_total_games",
            "pass1_avg_opp",
            "pass1_p",
            "pass1_dp",
        ),
        _LINE,
    ),
    5: ((*_MONTH, "player_k", "improving", "sum_offsets", "adjustment"), _LINE),
}
