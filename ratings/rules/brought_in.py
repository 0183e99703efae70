"""A rating brought in is kept or refused, never dropped: every form and file that takes
one (the member's form, an event's newcomer, the members file, the admin, a tournament
file's new players) asks the club's system what it needs besides the figure and refuses
the rating, naming what is missing, when it lacks it. Without this a system that reads
the games behind a rating (acf-1993, ecf-2020) would start the player as new, silently.

The words a rating brought in carries (acf-1993's status, ecf-2020's category) are kept
on the member in one form whatever the system, ``Member.brought_in``: a mapping of each
word's name (``engine.BroughtInField.name``) to its value, blanks left out. The systems
declare their words; nothing here names one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine import brought_in_fields
from ..engine.base import RatingSystem

#: The member's field keeping the words brought in with a rating, by name.
STANDING = "brought_in"

#: A rating brought in and what a system reads with it: the games, its words.
BROUGHT_IN_FIELDS = ("initial_rating", "initial_games", STANDING)

#: Each field blank, as a new member's record holds it.
BLANK: dict[str, Any] = {"initial_rating": None, "initial_games": 0, STANDING: {}}


def tidy_standing(standing: Mapping[str, Any] | None) -> dict[str, str]:
    """``standing`` as the record keeps it: blanks left out, names in order, so two
    records with the same words hold the same text (the database compares them)."""
    return {name: str(value) for name, value in sorted((standing or {}).items()) if value}


def standing_problems(
    rating: float | None, games: int | None, standing: Mapping[str, Any] | None
) -> dict[str, str]:
    """What is wrong with the words brought in with a rating, by word name: each must be
    one a system reads, and one of its values; each describes a rating, so needs one;
    some weigh the games behind it, so need them."""
    known = {field.name: field for field in brought_in_fields()}
    problems = {}
    for name, value in tidy_standing(standing).items():
        field = known.get(name)
        if field is None:
            problems[name] = f"No rating system reads “{name}” with a rating brought in."
        elif problem := field.problem(value, rating=rating, games=games or 0):
            problems[name] = problem
    return problems


def brought_in_problem(system: RatingSystem, fields: Mapping[str, Any]) -> str | None:
    """What is wrong with the rating brought in that ``fields`` (a member's
    ``initial_rating``, ``initial_games`` and ``brought_in``; absent ones blank) give,
    for ``system``: the message naming what it lacks, or None."""
    kind = system.brought_in_standing
    standing = (fields.get(STANDING) or {}).get(kind) if kind else None
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
