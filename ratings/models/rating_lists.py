"""The lists the club keeps, read from its ``RatingList`` rows (their names and the rule
itself: ``ratings.rules.rating_lists``): which lists it keeps, which list an event is
rated on, and which events a list rates, as a filter."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Q

from ..engine import RatingSystem
from ..rules.places_of_play import list_place, online_list
from ..rules.rating_lists import ORDER
from ..rules.time_classes import BLITZ, RAPID, STANDARD
from .club import ClubSettings, RatingList

if TYPE_CHECKING:
    from .events import Event


def _rows() -> list[tuple[str, bool, str]]:
    """Every list row the club has: (time class, played online, how it is kept), in one
    query, which every question below reads."""
    return list(RatingList.objects.values_list("time_class", "online", "kept"))


def _kept(rows: list[tuple[str, bool, str]] | None = None) -> dict[str, str]:
    """Each time class other than standard, played over the board: how it is kept
    (``RatingList.Kept``)."""
    kept: dict[str, str] = {RAPID: RatingList.Kept.STANDARD, BLITZ: RatingList.Kept.STANDARD}
    kept.update((tc, how) for tc, online, how in (_rows() if rows is None else rows) if not online)
    return kept


def _online_kept(rows: list[tuple[str, bool, str]] | None = None) -> set[str]:
    """The time classes whose online games are rated on a list of their own."""
    return {
        tc
        for tc, online, how in (_rows() if rows is None else rows)
        if online and how == RatingList.Kept.OWN
    }


def lists_kept() -> list[str]:
    """The lists the club keeps, standard first, then those of online play: each is its
    own rating chain."""
    rows = _rows()
    kept, online = _kept(rows), _online_kept(rows)
    return [
        STANDARD,
        *(tc for tc in ORDER[1:] if kept[tc] == RatingList.Kept.OWN),
        *(online_list(tc) for tc in ORDER if tc in online),
    ]


def list_of(time_class: str) -> str | None:
    """The list an event of ``time_class`` is rated in; None when it is not rated at all."""
    if time_class == STANDARD:
        return STANDARD
    kept = _kept().get(time_class, RatingList.Kept.STANDARD)
    if kept == RatingList.Kept.OWN:
        return time_class
    return STANDARD if kept == RatingList.Kept.STANDARD else None


def online_list_of(time_class: str) -> str | None:
    """The list online games of ``time_class`` are rated on: their own, when the club
    keeps it; None when it does not rate them (the default)."""
    return online_list(time_class) if time_class in _online_kept() else None


def event_list_of(event: Event) -> str | None:
    """The list ``event`` is rated on, by its time class and where it was played; None
    when the club does not rate its games (a time class not rated, or played online)."""
    if event.online:
        return online_list_of(event.time_class)
    return list_of(event.time_class)


def on_list(rating_list: str, *, prefix: str = "") -> Q:
    """The events ``rating_list`` rates, as a filter (``prefix``: the path to the event,
    e.g. "event__" for games): its time classes, played over the board, or its one time
    class played online for an online list."""
    _played, online = list_place(rating_list)
    return Q(**{f"{prefix}time_class__in": classes_of(rating_list), f"{prefix}online": online})


def classes_of(rating_list: str) -> list[str]:
    """The events' time classes a list rates: its own, and those kept with standard."""
    if rating_list != STANDARD:
        return [list_place(rating_list)[0]]
    kept = _kept()
    return [STANDARD, *(tc for tc in ORDER[1:] if kept[tc] == RatingList.Kept.STANDARD)]


def event_list_system(event: Event, club: ClubSettings | None = None) -> tuple[str, RatingSystem]:
    """The list an event counts on (standard for one not rated, whose pages
    still read as the club's) and that list's system (``club``: settings read already)."""
    rating_list = event_list_of(event) or STANDARD
    return rating_list, (club or ClubSettings.load()).engine(rating_list)
