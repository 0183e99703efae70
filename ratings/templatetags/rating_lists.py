"""A list's name in words on a page: "online rapid" for the key "online-rapid"."""

from __future__ import annotations

from django import template

from ..models import ClubSettings, Event
from ..models.rating_lists import event_list_of
from ..rules import rating_lists

register = template.Library()


@register.filter
def list_words(rating_list: str) -> str:
    """``rating_list``'s name as a sentence says it ("rapid", "online blitz")."""
    return rating_lists.list_words(rating_list)


@register.filter
def online_list_words(event: Event) -> str:
    """The list an online event is rated on, in words ("online rapid list"); "" when the
    club does not rate its online games (or it was played over the board)."""
    rating_list = event_list_of(event) if event.online else None
    if rating_list is None or _before_online_play(event, rating_list):
        return ""
    return f"{rating_lists.list_words(rating_list)} list"


def _before_online_play(event: Event, rating_list: str) -> str:
    """The day the list's system starts rating online play, in words, when ``event``
    ended before it (ecf-2020's online method took effect later than its board one);
    "" otherwise. The re-rate leaves such an event unrated (``chain.rateable_q``)."""
    system = ClubSettings.load().engine(rating_list)
    start = system.online_rated_from
    if start is None or event.end_date >= start:
        return ""
    words = rating_lists.list_words(rating_list)
    return f"the {words} list counts online play from {start:%-d %B %Y} ({system.title})"


@register.filter
def online_play_words(event: Event) -> str:
    """Where an online event's games count, as a sentence goes on after "played
    online; ": the list it is rated on, the day its list's system starts rating online
    play when it was played before, or that the club does not rate online games."""
    rating_list = event_list_of(event)
    if rating_list is None:
        return "the club does not rate online games"
    if before := _before_online_play(event, rating_list):
        return f"not rated: {before}"
    return f"rated on the {rating_lists.list_words(rating_list)} list"
