"""A list's name in words on a page: "online rapid" for the key "online-rapid"."""

from __future__ import annotations

from django import template

from ..rules import rating_lists

register = template.Library()


@register.filter
def list_words(rating_list: str) -> str:
    """``rating_list``'s name as a sentence says it ("rapid", "online blitz")."""
    return rating_lists.list_words(rating_list)
