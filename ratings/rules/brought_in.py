"""A rating brought in is kept or refused, never dropped: every form and file that takes
one (the member's form, an event's newcomer, the members file, the admin, a tournament
file's new players) asks the club's system what it needs besides the figure and refuses
the rating, naming what is missing, when it lacks it. Without this a system that reads
the games behind a rating (acf-1993, ecf-2020) would start the player as new, silently.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine.base import RatingSystem

#: Where each system's word for a rating brought in is kept on a member (``models``).
STANDING_FIELDS = {"status": "initial_acf_status", "category": "initial_ecf_category"}

#: A rating brought in and what a system reads with it: the games, its status or category.
BROUGHT_IN_FIELDS = ("initial_rating", "initial_games", *STANDING_FIELDS.values())

#: Each field blank, as a new member's record holds it.
BLANK = {"initial_rating": None, "initial_games": 0, **dict.fromkeys(STANDING_FIELDS.values(), "")}


def brought_in_problem(system: RatingSystem, fields: Mapping[str, Any]) -> str | None:
    """What is wrong with the rating brought in that ``fields`` (a member's
    ``initial_rating``, ``initial_games`` and standing fields; absent ones blank) give,
    for ``system``: the message naming what it lacks, or None."""
    kind = system.brought_in_standing
    standing = fields.get(STANDING_FIELDS[kind], "") if kind else ""
    missing = system.brought_in_missing(
        rating=fields.get("initial_rating"),
        games=fields.get("initial_games") or 0,
        standing=standing or None,
    )
    if missing is None:
        return None
    return (
        f"The club's system ({system.title}) keeps a rating brought in only with {missing}: "
        "give it, or leave the rating blank to start as a new player."
    )
