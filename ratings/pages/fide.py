"""What FIDE's rating list (as the club last read it, ``services.fide_lists``) says of
members, for the pages that show it beside the club's rating."""

from __future__ import annotations

from typing import Any

from ..models import FIDE_KINDS, FideRating, Member


def fide_figures(member: Member) -> dict[str, Any] | None:
    """What FIDE's list (as the club last read it) says of a member, to show beside the
    club's rating: each of FIDE's ratings with its list's month, title, federation."""
    try:
        row = member.fide_rating  # read with the member by ``member_found``
    except FideRating.DoesNotExist:
        return None
    if not row.is_of(member.fide_id):  # read for another id: not theirs
        return None
    return {
        "fide_id": row.fide_id,
        "title": row.shown_title,
        "federation": row.federation,
        "inactive": row.inactive,
        "ratings": [
            (kind, row.rating(kind), row.month(kind))
            for kind in FIDE_KINDS
            if row.month(kind) is not None
        ],
    }


def fide_ratings_of(member_ids: list[int], rating_list: str) -> dict[int, int | None]:
    """The members' FIDE ratings on FIDE's list of the same time control: one query."""
    if rating_list not in FIDE_KINDS:
        return {}
    rows = FideRating.objects.filter(member_id__in=member_ids).select_related("member")
    # Only rows read for the member's FIDE id as it stands (``FideRating.is_of``).
    return {
        row.member_id: row.rating(rating_list) for row in rows if row.is_of(row.member.fide_id)
    }
