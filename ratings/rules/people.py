"""People once: which records may be one person (a possible duplicate), for every preview
of a file that brings people in (members CSV, TRF, PGN) and the officer's members page.

Plain Python (no Django). Two records may be one person when they hold the same FIDE id,
or the same name (``names.name_key``: whatever its case, accents or order) and nothing
tells them apart: a date of birth or a FIDE id each, differing, says two people who share
a name. They are flagged, never merged: the officer looks and merges (and a merge can be
undone).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations

from .names import name_key


@dataclass(frozen=True)
class Person:
    """A record as the comparison reads it: ``ref`` is what the caller knows it by (a
    member's id, a file's line)."""

    ref: Hashable
    name: str
    born: dt.date | None = None
    fide_id: str = ""
    where: str = ""  # how the officer finds it: "line 4", "member R1003"
    #: The name's key where the record keeps it (a member's ``name_key``): not worked out
    #: again (the members page's hundred pairs: 538 names, a fifth of its time).
    known_key: str = ""

    @cached_property
    def key(self) -> str:
        # Kept once worked out: the comparison asks for it several times a person.
        return self.known_key or name_key(self.name)


@dataclass(frozen=True)
class PossibleDuplicate:
    """Two records that may be one person, and why."""

    first: Person
    second: Person
    why: str

    def __str__(self) -> str:
        return (
            f"{self.first.name} ({self.first.where}) and {self.second.name} "
            f"({self.second.where}) may be one person: {self.why}"
        )


def why_the_same(a: Person, b: Person) -> str | None:
    """Why ``a`` and ``b`` may be one person, or None when nothing says so or something
    tells them apart."""
    a_id, b_id = a.fide_id.lstrip("0"), b.fide_id.lstrip("0")
    if a_id and a_id == b_id:
        return "the same FIDE id"
    if a.key != b.key or not a.key:
        return None
    if a_id and b_id:
        return None  # two FIDE ids: two people of one name
    if a.born and b.born:
        return "the same name and date of birth" if a.born == b.born else None
    return "the same name"


def possible_duplicates(people: Iterable[Person]) -> list[PossibleDuplicate]:
    """Every pair among ``people`` that may be one person, in the order given. Only those
    sharing a name key or a FIDE id are compared: a club of 60,000 is not 60,000 squared."""
    people = list(people)
    groups: dict[str, list[Person]] = {}
    for person in people:
        groups.setdefault(f"name {person.key}", []).append(person)
        if fide_id := person.fide_id.lstrip("0"):
            groups.setdefault(f"id {fide_id}", []).append(person)
    order = {id(p): i for i, p in enumerate(people)}
    found: dict[tuple[int, int], PossibleDuplicate] = {}
    for group in groups.values():
        for a, b in combinations(group, 2):
            first, second = (a, b) if order[id(a)] < order[id(b)] else (b, a)
            pair = (order[id(first)], order[id(second)])
            if pair in found or (why := why_the_same(a, b)) is None:
                continue
            found[pair] = PossibleDuplicate(first, second, why)
    return [found[pair] for pair in sorted(found)]


def across(coming: Iterable[Person], recorded: Iterable[Person]) -> list[PossibleDuplicate]:
    """The pairs of a record coming in and one recorded that may be one person (the pairs
    within ``coming`` are ``possible_duplicates``)."""
    coming = list(coming)
    recorded = list(recorded)
    marked = {id(p) for p in coming}
    return [
        pair
        for pair in possible_duplicates([*coming, *recorded])
        if (id(pair.first) in marked) != (id(pair.second) in marked)
    ]
