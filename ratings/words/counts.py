"""A count with its noun, agreeing in number: "1 event", "2 events", "0 events". Every
message that counts things says it this way (templates use Django's ``pluralize``)."""

from __future__ import annotations


def count_phrase(n: int, word: str, plural: str | None = None) -> str:
    """ "1 game", "3 games"; ``plural`` for a word that does not take an s ("matches")."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"
