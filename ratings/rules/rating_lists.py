"""The club's rating lists: one a time control kept on a list of its own.

Standard play is always a list. Rapid and blitz are rated with it (one list, as most
clubs keep), on a list of their own (a rating chain of its own, with its own system,
as the ECF and FIDE keep them), or not at all: ``RatingList`` says which. Every derived
row (a member's state, a rating change, a run, a period, a publication) names the list
it belongs to by its time class.

Games played online (``Event.online``) are on no over-the-board list: the club rates
those of a time class on a list of their own ("online-rapid", ``places_of_play``), with
its own system, or not at all (the default): a ``RatingList`` row with ``online`` says
which. An online list is a rating chain like any other: its own publications, page, CSV,
API listing and member-page section.

Here the lists' names; which lists the club keeps, and which events each rates, are read
from its ``RatingList`` rows by ``ratings.models.rating_lists``.
"""

from __future__ import annotations

from .places_of_play import LIST_CHOICES
from .time_classes import BLITZ, RAPID, STANDARD

ORDER = (STANDARD, RAPID, BLITZ)
NAMES = dict(LIST_CHOICES)
#: Every list a club may keep, in the order pages show them: over the board, then online.
LIST_ORDER = tuple(NAMES)


def list_name(rating_list: str) -> str:
    return f"{NAMES.get(rating_list, rating_list)} list"


def list_words(rating_list: str) -> str:
    """The list's name inside a sentence: "rapid", "online blitz"."""
    return NAMES.get(rating_list, rating_list).lower()


def list_query(rating_list: str) -> str:
    """The query string a page of ``rating_list`` carries ("" for standard)."""
    return "" if rating_list == STANDARD else f"?list={rating_list}"
