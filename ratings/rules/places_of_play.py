"""Where an event's games were played: over the board or online.

The rating bodies keep online play apart from play over the board (the ECF rates them on
lists of their own from September 2021; US Chess likewise): a game on a chess
server is a different game for a rating. The club records where an event was played
(``Event.online``) and rates online games of a time class on a list of their own, or
not at all (``rating_lists``): never on an over-the-board list.

A file exported by an online site says so by what the site writes in it; these read it,
each reason in words for the officer's preview, where the guess is shown and changed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .time_classes import CHOICES as TIME_CLASSES

#: What names a list of online play: "online-" and its time class ("online-rapid"), the
#: key every derived row (a state, a change, a run, a period, a publication) carries.
ONLINE_LIST_PREFIX = "online-"


def online_list(time_class: str) -> str:
    """The key of the list online games of ``time_class`` are rated on, when kept."""
    return f"{ONLINE_LIST_PREFIX}{time_class}"


def list_place(rating_list: str) -> tuple[str, bool]:
    """A list's time class and whether it rates online play: ("rapid", True) for
    "online-rapid", ("rapid", False) for "rapid"."""
    if rating_list.startswith(ONLINE_LIST_PREFIX):
        return rating_list.removeprefix(ONLINE_LIST_PREFIX), True
    return rating_list, False


#: Every list a club can keep, as the derived rows' choices: the time classes played over
#: the board, then each played online.
LIST_CHOICES = [
    *TIME_CLASSES,
    *((online_list(tc), f"Online {name.lower()}") for tc, name in TIME_CLASSES),
]
#: The longest list key ("online-standard"), the derived rows' list columns fit.
LIST_KEY_LENGTH = 16

#: The chess servers whose exports the club is sent, by the host their addresses name.
_SERVER_URL = re.compile(
    r"^https?://(?:[\w-]+\.)*(?P<host>lichess\.org|chess\.com)(?P<path>/\S*)?$", re.IGNORECASE
)
#: Lichess's variants that exist only on a server (Chess960 is played over the board too).
_SERVER_VARIANTS = frozenset(
    {
        "crazyhouse",
        "atomic",
        "antichess",
        "king of the hill",
        "three-check",
        "racing kings",
        "horde",
    }
)
#: What a TRF's 022 line (the place) or 032 line says for an event played on a server:
#: Lichess writes "Lichess" on 032; the club's own export writes "Online" on 022.
_ONLINE_PLACES = frozenset({"online", "internet", "lichess", "lichess.org", "chess.com"})


def _server_url(value: str) -> str | None:
    """The server a URL is on (lichess.org, chess.com), None for any other text; a
    broadcast's page (a board game relayed) is not a game on the server."""
    found = _SERVER_URL.match(value.strip())
    if found is None or (found["path"] or "").startswith("/broadcast"):
        return None
    return found["host"].lower()


def pgn_online_why(headers: Mapping[str, str]) -> str | None:
    """Why a PGN game's tags say it was played online, for the officer; None when they
    do not. A game a broadcast relays (Lichess's ``BroadcastURL``, ``BroadcastName``)
    was played over the board and only shown online."""
    if headers.get("BroadcastURL", "").strip() or headers.get("BroadcastName", "").strip():
        return None
    for tag in ("Site", "LichessURL", "Link"):
        value = headers.get(tag, "").strip()
        if host := _server_url(value):
            return f"its {tag} tag is {host}'s address ({value})"
    event = headers.get("Event", "").strip()
    if event.casefold().endswith(" arena"):
        return f'its Event tag "{event}" is a Lichess arena'
    variant = headers.get("Variant", "").strip()
    if variant.casefold() in _SERVER_VARIANTS:
        return f'its Variant tag "{variant}" is played on a chess server'
    return None


def trf_online_why(*, place: str, federation: str) -> str | None:
    """Why a TRF's header says its event was played online, for the officer; None when
    it does not: its place (line 022) a server's address or "Online", or a server named
    for its federation (Lichess writes ``032 Lichess``)."""
    if host := _server_url(place):
        return f"its place (line 022) is {host}'s address ({place.strip()})"
    if place.strip().casefold() in _ONLINE_PLACES:
        return f'its place (line 022) is "{place.strip()}"'
    if federation.strip().casefold() in _ONLINE_PLACES:
        return f'line 032 names "{federation.strip()}"'
    return None


#: What a TRF written by the club gives as the place of an online event (line 022), so
#: reading it back keeps the event online (``trf_online_why``).
ONLINE_PLACE = "Online"
