"""Addresses a page writes many of, worked out once a page rather than once a link:
``reverse`` walks the URL table each time (some 25-50 microseconds), and a page links
hundreds (the officer's members page 250 records, a member's page 125 opponents). The
address is reversed once with a stand-in for its one argument, and each link puts its
own in the stand-in's place."""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import quote

from django.urls import reverse
from django.utils.http import RFC3986_SUBDELIMS

#: A member id no club reaches, reversed in place of the real ones.
_ANY_PK = 987654321
#: What stands for a member number while the URL is reversed: no number is written so.
_ANY_NUMBER = "number.stand-in"
#: A member number as the record allows it (``Member.member_number``'s validator).
_NUMBER = re.compile(r"[\w.-]+")
#: What ``reverse`` leaves unquoted in a path argument.
_SAFE = RFC3986_SUBDELIMS + "/~:@"


def _around(name: str, stand_in: object) -> tuple[str, str]:
    """The URL ``name`` of ``stand_in``, cut where the stand-in stands."""
    head, _, tail = reverse(name, args=[stand_in]).rpartition(str(stand_in))
    return head, tail


def officer_member_urls() -> Callable[[object], str]:
    """Each member's record (``ratings:officer-member``) by member id. A member's id is a
    whole number: the address needs no quoting."""
    head, tail = _around("ratings:officer-member", _ANY_PK)
    return lambda pk: f"{head}{pk}{tail}"


def member_page_urls() -> Callable[[str], str]:
    """Each member's public page (``ratings:member``) by member number, quoted as
    ``reverse`` quotes it (a number the record would refuse is reversed on its own)."""
    head, tail = _around("ratings:member", _ANY_NUMBER)

    def url_of(number: str) -> str:
        if not _NUMBER.fullmatch(number):
            return reverse("ratings:member", args=[number])
        return head + quote(number, safe=_SAFE) + tail

    return url_of
