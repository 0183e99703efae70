"""Who is on the published list, as the published lists, publications and the API ask it.

Every call the publications and the read API make to the publication rule goes through
here, so the rule has one door: ``Member.objects.published()`` (financial, not a guest,
not merged) decides, as for the live list and the member pages.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from .models import Member, MemberQuerySet


def published_members(day: dt.date | None = None) -> MemberQuerySet:
    """The members whose ratings the public may see on ``day`` (default today)."""
    return Member.objects.published(day)


def published_among(member_ids: Iterable[int]) -> set[int]:
    """Which of these members the public may see today: one query."""
    ids = list(member_ids)
    if not ids:
        return set()
    return set(published_members().filter(pk__in=ids).values_list("pk", flat=True))


def is_published(member: Member) -> bool:
    return bool(published_among([member.pk]))
