"""ecf-2020: where a player stands at the start of the month being rated.

Their category (fully or partially rated while they have played within the activity
window, new otherwise, returning players included), whether they are a junior, the dummy
opponent a P rated player's games are joined by (by title, age, a lapsed full rating or a
current full rapid rating, less 100 for other time controls), and what a rated player
brings into a P rating. The month's three passes are ecf_2020.py's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any, ClassVar, NamedTuple

from .base import DATE, NUMBER, PlayerState, StateKind
from .ecf_offsets import cents
from .months import months_before

FULL = "full"
PARTIAL = "partial"
NEW = "new"

#: The parameter holding each FIDE title's dummy opponent rating.
TITLE_PARAMETERS = {
    "GM": "default_gm",
    "IM": "default_im",
    "FM": "default_fm",
    "CM": "default_cm",
    "WGM": "default_wgm",
    "WIM": "default_wim",
    "WFM": "default_wfm",
    "WCM": "default_wcm",
}


#: The categories a rated player holds (a new player holds none).
CATEGORIES = (FULL, PARTIAL)


@dataclass(frozen=True, slots=True)
class EcfState(PlayerState):
    """A player's ecf-2020 standing: their category (full, partial, None for new), the
    average opponent and points over ``games`` games, and their last game's day; and
    their rapid rating, its category and its holder's last rapid game, for the standard
    list to read (a current full one stands in as a new player's dummy opponent, where
    higher: docs/rating-systems.md)."""

    # In the order the command line has always written them (avg_opp before category).
    avg_opp: float | None = None
    category: str | None = None
    points: float | None = None
    last_played: date | None = None
    rapid_rating: float | None = None
    rapid_category: str | None = None
    rapid_last_played: date | None = None

    kinds: ClassVar[Mapping[str, StateKind]] = {
        "category": CATEGORIES,
        "avg_opp": NUMBER,
        "points": NUMBER,
        "last_played": DATE,
        "rapid_rating": NUMBER,
        "rapid_category": CATEGORIES,
        "rapid_last_played": DATE,
    }


class Prior(NamedTuple):
    """What a player brings into a P rating: games, opponents' total, points (halves)."""

    games: int
    total_cents: int
    half_points: int


NO_PRIOR = Prior(0, 0, 0)


def category_at(player: EcfState, window_start: date) -> str:
    """FULL, PARTIAL or NEW at the start of a month whose activity window opens then."""
    if player.category is None or player.rating is None:
        return NEW
    if player.last_played is not None and player.last_played < window_start:
        return NEW  # lapsed: returns as a new player
    return player.category


def is_junior(player: EcfState, first: date, params: Mapping[str, Any]) -> bool:
    age = player.age_on(first)
    return age is not None and age < int(params["junior_age"])


def dummy_rating(
    player: EcfState, first: date, params: Mapping[str, Any], titles_from: date | None
) -> float:
    """The dummy opponent's rating for a P-rated player in the month starting ``first``;
    the title defaults apply from the month starting ``titles_from`` (None: always)."""
    p = params
    standard = p["time_control"] == "standard"
    reduction = 0 if standard else int(p["other_time_control_reduction"])
    # A new player holding a full rating is a lapsed player: that rating is theirs.
    lapsed = player.rating if player.category == FULL else None
    title_parameter = TITLE_PARAMETERS.get(player.title or "")
    if titles_from is not None and first < titles_from:
        title_parameter = None  # before the title defaults took effect
    default: float
    if title_parameter is not None and lapsed is None:
        default = int(p[title_parameter])
        if p["reduce_titled_defaults"]:
            default -= reduction
    else:
        age = player.age_on(first)
        if age is not None and age < int(p["junior_age"]):
            default = int(p["junior_per_year"]) * age
        else:
            default = int(p["adult_default"])
        default -= reduction
    dummy = float(max(default, int(p["minimum_rating"])))
    if lapsed is not None and lapsed > dummy:
        dummy = lapsed
    rapid = rapid_standing(player, first, params)
    if rapid is not None and rapid > dummy:
        dummy = rapid
    return dummy


def rapid_standing(player: EcfState, first: date, params: Mapping[str, Any]) -> float | None:
    """The rapid rating that may stand in for the dummy of a player new to standard
    play in the month starting ``first``; None where there is none.

    The method takes "a current OTB rapid chess rating category K or A" for a player
    who "has never recorded a standard play result". This system keeps no category
    letters, only full, partial and new: we read it as a full rapid rating whose
    holder played rapid within the activity window before ``first`` (the window that
    keeps any rating current here), for standard play only and for a player with no
    standard games and no rating (docs/rating-systems.md).
    """
    rapid = player.rapid_rating
    if rapid is None or player.rapid_category != FULL:
        return None
    if params["time_control"] != "standard":
        return None
    if player.games != 0 or player.rating is not None:
        return None  # has played standard (or holds a rating there)
    window_start = months_before(first, int(params["activity_months"]))
    last = player.rapid_last_played
    if last is not None and last < window_start:
        return None  # lapsed: no longer current
    return rapid


def prior(player: EcfState) -> Prior:
    """A rated player's earlier games, opponents' total and points.

    A rating given without ``avg_opp`` / ``points`` stands for its games scored 50%
    against opponents of that rating (which, as a P rating, gives that rating back).
    """
    games = player.games
    if games == 0 or player.rating is None:
        return NO_PRIOR
    if player.avg_opp is None or player.points is None:
        return Prior(games, games * cents(player.rating), games)
    return Prior(games, games * cents(player.avg_opp), round(player.points * 2))


def brought_in_category(rating: float | None, games: int) -> str | None:
    """The category of a rating brought in from outside: taken as current.

    Full from 10 games and partial below, as the ECF rates. A rating with no games
    behind it is none (a new player): a partial rating is a performance over its games,
    so with none it would weigh nothing yet show and count as rated for opponents.
    """
    if rating is None or games <= 0:
        return None
    return "full" if games >= 10 else "partial"
