"""Addresses a page writes many of, worked out once a page rather than once a link."""

from __future__ import annotations

from collections.abc import Callable

from django.urls import reverse

#: A member id no club reaches, reversed in place of the real ones.
_ANY_PK = 987654321


def officer_member_urls() -> Callable[[object], str]:
    """Each member's record (``ratings:officer-member``) by member id, the address reversed
    once: ``reverse`` walks the URL table each time (some 25-50 microseconds), and the
    officer's members page links 250 records (its fifty rows, its hundred possible
    duplicates' pairs). A member's id is a whole number: the address needs no escaping."""
    before, _, after = reverse("ratings:officer-member", kwargs={"pk": _ANY_PK}).rpartition(
        str(_ANY_PK)
    )
    return lambda pk: f"{before}{pk}{after}"
