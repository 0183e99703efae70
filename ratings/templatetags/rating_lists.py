"""A list's name in words on a page: "online rapid" for the key "online-rapid"."""

from __future__ import annotations

from django import template

from ..models import Event
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
    rating_list = rating_lists.event_list_of(event) if event.online else None
    return "" if rating_list is None else f"{rating_lists.list_words(rating_list)} list"
