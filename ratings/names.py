"""Players' names as the club writes them: "Given Surname", whatever order a file uses."""

from __future__ import annotations


def given_surname(name: str) -> str:
    """ "Mirzoev, Azer" and "MIRZOEV, Azer" are "Azer Mirzoev": tournament files write the
    surname first (FIDE's order, often in capitals); the club's pages and lists write the
    given name first. A name without a comma is left as written (its order is unknown)."""
    name = " ".join(name.split())
    surname, comma, given = name.partition(",")
    surname, given = surname.strip(), given.strip()
    if not comma or not surname or not given:
        return name
    if surname.isupper() and not given.isupper():
        # Capitals mark the surname in FIDE's style, not how it is spelled.
        surname = surname.title()
    return f"{given} {surname}"
