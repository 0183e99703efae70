"""acf-1993's settings: what a club may set, each with its default from the December 1993
booklet and the range it may take (``Parameter``). Apart from the rules (acf_1993.py) so
the system's module holds its rating rules alone; the rules read them as ``self.params``.
"""

from __future__ import annotations

from .acf_tables import DEFAULT_BONUS_ROWS
from .base import Parameter

PARAMETERS = (
    Parameter(
        "k",
        15.0,
        "rating points a confirmed player gains per point of Sa - Se",
        minimum=0,
        maximum=100,
    ),
    Parameter(
        "max_difference",
        336.0,
        "the 336 rule: an opponent's rating is held within this many points of a "
        "confirmed player's when rating them; null = no limit",
        minimum=0,
        nullable=True,
        maximum=3000,
    ),
    Parameter(
        "min_score",
        1 / 15,
        "lowest score fraction TS / NG that earns a rating (the booklet's 6.7 %, which "
        "it explains as 2 points from 30 games: 1/15)",
        minimum=0,
        maximum=1,
    ),
    Parameter(
        "publish_games",
        9,
        "rated games before a provisional rating is published and used to rate others",
        minimum=1,
        maximum=1000,
    ),
    Parameter("confirm_games", 30, "rated games for a confirmed rating", minimum=1, maximum=1000),
    Parameter(
        "bonus_rows",
        DEFAULT_BONUS_ROWS,
        "bonus points as 'games:margin' rows: a confirmed player with at least 'games' "
        "rated games in a tournament and Sa - Se above 'margin' gains "
        "K * (Sa - Se - margin); empty = no bonus points",
        longest=200,
    ),
    Parameter(
        "reset_zero_score",
        True,
        "at the start of each period a partially-rated player whose accumulated score "
        "is 0 starts again as a new player",
    ),
    Parameter(
        "decimals",
        2,
        "ratings and AR are kept to this many decimal places",
        minimum=0,
        maximum=6,
    ),
)
