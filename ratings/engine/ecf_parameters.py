"""ecf-2020's settings: what a club may set, each with its default from the ECF's 2020
method and the range it may take (``Parameter``). Apart from the rules (ecf_2020.py) so
the system's module holds its rating rules alone; the rules read them as ``self.params``.
"""

from __future__ import annotations

from .base import Parameter

PARAMETERS = (
    Parameter(
        "activity_months",
        36,
        "a full or partial rating stays current while its holder has played within "
        "this many months before the month being rated",
        minimum=1,
        maximum=600,
    ),
    Parameter(
        "full_games",
        10,
        "a P rating is a full rating from this many games (the dummy draw not counted)",
        minimum=1,
        maximum=1000,
    ),
    Parameter("adult_default", 1800, "dummy opponent rating of an adult", minimum=0, maximum=3000),
    Parameter(
        "junior_age",
        18,
        "players younger than this (in whole years) are juniors",
        minimum=0,
        maximum=30,
    ),
    Parameter(
        "junior_per_year",
        100,
        "a junior's dummy opponent rating per year of age",
        minimum=0,
        maximum=300,
    ),
    Parameter("default_gm", 2500, "dummy opponent rating of a GM", minimum=0, maximum=3000),
    Parameter("default_im", 2350, "dummy opponent rating of an IM", minimum=0, maximum=3000),
    Parameter("default_fm", 2200, "dummy opponent rating of an FM", minimum=0, maximum=3000),
    Parameter("default_cm", 2050, "dummy opponent rating of a CM", minimum=0, maximum=3000),
    Parameter("default_wgm", 2200, "dummy opponent rating of a WGM", minimum=0, maximum=3000),
    Parameter("default_wim", 2100, "dummy opponent rating of a WIM", minimum=0, maximum=3000),
    Parameter("default_wfm", 2000, "dummy opponent rating of a WFM", minimum=0, maximum=3000),
    Parameter("default_wcm", 1800, "dummy opponent rating of a WCM", minimum=0, maximum=3000),
    Parameter(
        "time_control",
        "standard",
        "the time control these ratings are for: anything but 'standard' lowers the "
        "adult and junior dummy ratings, and a rapid rating never stands in",
        choices=("standard", "rapid", "blitz"),
    ),
    Parameter(
        "other_time_control_reduction",
        100,
        "how much lower the adult and junior dummy ratings are for other time controls",
        minimum=0,
        maximum=1000,
    ),
    Parameter(
        "reduce_titled_defaults",
        False,
        "also lower the titled players' dummy ratings for other time controls",
    ),
    Parameter(
        "title_defaults_from",
        "2024-09-01",
        "the titled players' dummy ratings apply to months starting on or after this "
        "date (YYYY-MM-DD; the method's 1 September 2024); before it a titled player "
        "has the adult or junior one; null = every month",
        nullable=True,
        longest=10,
    ),
    Parameter(
        "pass1_new_opponents",
        "default-rating",
        "in pass 1 a new opponent counts at their own dummy opponent rating "
        "('default-rating') or the game is left out of pass 1 ('exclude')",
        choices=("default-rating", "exclude"),
    ),
    Parameter(
        "score_offset",
        10,
        "K rating: a win's score offset (a loss: minus it)",
        minimum=0,
        maximum=100,
    ),
    Parameter("k_player", 20, "K rating: Player K", minimum=0, maximum=200),
    Parameter(
        "k_junior",
        40,
        "K rating: Player K of a junior whose rating goes up",
        minimum=0,
        maximum=200,
    ),
    Parameter(
        "k_month_cap",
        700,
        "K rating: Player K x games this month never exceeds this (K = cap / games)",
        minimum=1,
        maximum=10000,
    ),
    Parameter(
        "adjustment_a",
        0.0,
        "K rating: Adjustment A, added to every new rating",
        minimum=-1000,
        maximum=1000,
    ),
    Parameter(
        "adjustment_b",
        0.0,
        "K rating: Adjustment B, times the old rating, added to it",
        minimum=-1,
        maximum=1,
    ),
    Parameter(
        "minimum_rating",
        100,
        "no rating (nor dummy rating) below this",
        minimum=0,
        maximum=3000,
    ),
    Parameter("partial_mark", "P", "shown after a partial rating on the list", longest=3),
)
