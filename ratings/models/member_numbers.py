"""The club's member numbers: whether one is taken, and the next free ones in the club's
own pattern (every number the site gives or suggests)."""

from __future__ import annotations

import re

from .members import Member


def number_taken(number: str, *, besides: Member | None = None) -> bool:
    """Whether another member has ``number`` in any case (A1 and a1 are one number)."""
    others = Member.objects.filter(member_number__iexact=number)
    if besides is not None and besides.pk is not None:
        others = others.exclude(pk=besides.pk)
    return others.exists()


def suggested_member_number() -> str:
    """The next free number in the club's own pattern (``next_member_numbers``)."""
    return next_member_numbers(1)[0]


def next_member_numbers(count: int) -> list[str]:
    """``count`` free numbers in the club's own pattern, after the highest in use: every
    number the site gives or suggests (the add form's, the event's quick form's for a
    member or a guest, an import's new players'), so the club has one pattern.

    The pattern is the one most of the club's members (guests aside, unless there are
    only guests) are numbered in: letters then digits, the digits' width kept ("R1062" →
    "R1063", "0099" → "0100"); a club with no numbered member starts at 1. A number
    taken in any case (a guest's, another pattern's) is passed over.
    """
    numbered = re.compile(r"^([A-Za-z]*)(\d+)$")
    rows = list(Member.objects.values_list("member_number", "is_guest"))
    taken = {number.lower() for number, _ in rows}
    members = [number for number, guest in rows if not guest] or [n for n, _ in rows]
    patterns: dict[tuple[str, int], list[int]] = {}
    for number in members:
        if m := numbered.match(number):
            patterns.setdefault((m.group(1), len(m.group(2))), []).append(int(m.group(2)))
    if not patterns:
        prefix, width, candidate = "", 1, 1
    else:
        (prefix, width), used = max(
            patterns.items(), key=lambda item: (len(item[1]), max(item[1]))
        )
        candidate = max(used) + 1
    found: list[str] = []
    while len(found) < count:
        number = f"{prefix}{candidate:0{width}d}"
        if number.lower() not in taken:
            found.append(number)
        candidate += 1
    return found
