"""A member: public fields, the rating, its history and the published ratings, withheld
while the member is not published, as their page withholds them."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import Http404, HttpRequest, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from ninja import Query, Router
from ninja.errors import HttpError

from ..models import ClubSettings, Member
from ..models.rating_lists import lists_kept
from ..pages import members as pages
from ..pages.kept_off import shown_on_public_pages
from ..pages.members import rating_status
from ..rules.time_classes import STANDARD
from . import schemas
from .caching import cacheable
from .paging import Paging, page_of
from .schemas import ListKey

router = Router(tags=["members"])


TimeClass = ListKey


def _member(number: str, time_class: str = STANDARD) -> Member:
    if time_class not in lists_kept():
        raise HttpError(404, f"The club keeps no {time_class} list of its own.")
    members = Member.objects.with_state(time_class)
    return get_object_or_404(
        members.select_related("rating_state", "merged_into"),  # type: ignore[misc]  # with_state's FilteredRelation
        # A number is one whatever its case (the unique constraint says so): r1001 is R1001.
        member_number__iexact=number,
    )


def _shown(member: Member) -> None:
    """The member's answer as the public reads their page (the answer is cached for all):
    not found while the club keeps them off public pages."""
    # Asked before any redirect (the number's case, a merge), which would say the number
    # is someone's; a merged record answers as the member it joined.
    if not shown_on_public_pages(member.merged_into or member, viewer=AnonymousUser()):
        raise Http404  # as an unknown number answers


def _elsewhere(request: HttpRequest, member: Member, number: str, name: str) -> Any:
    """Where ``number`` is not this member's own answer: a merged record with the member
    it was merged into, a number in another case (r1001) with the member's own (R1001),
    as their page does, the query kept. None: the answer is here."""
    target = member.merged_into or member
    if target.member_number == number:
        return None
    url = reverse(f"api:{name}", args=[target.member_number])
    query = request.GET.urlencode()
    return HttpResponseRedirect(f"{url}?{query}" if query else url)


@router.get(
    "/members/{number}",
    response={200: schemas.Member, 404: schemas.Problem},
    url_name="member",
    summary="A member",
)
@cacheable
def member_detail(request: HttpRequest, number: str, time_class: TimeClass = "standard") -> Any:
    """A member by their number, their rating and published ratings on one list
    (``time_class``); a merged record redirects to the member it joined."""
    member = _member(number, time_class)
    _shown(member)
    if moved := _elsewhere(request, member, number, "member"):
        return moved
    published = member.is_published_on()
    state = getattr(member, "rating_state", None)
    rating = None
    published_ratings: list[dict[str, Any]] = []
    if published and state is not None:
        system = ClubSettings.load().engine(time_class)
        rating = {
            "rating": state.display,
            "games": state.games,
            "last_played": state.last_played,
            "status": rating_status(state.display, system, state.last_played),
        }
    if published:
        entries = pages.published_ratings(member=member, rating_list=time_class)
        published_ratings = [
            {
                "publication": entry.publication.slug,
                "date": entry.publication.day,
                "rank": entry.rank,
                "rating": entry.display,
                "games": entry.games,
            }
            for entry in entries
        ]
    return {
        "member": member.member_number,
        "name": member.name,
        "title": member.title,
        "region": member.region,
        "published": published,
        "rating": rating,
        "published_ratings": published_ratings,
        "url": request.build_absolute_uri(member.get_absolute_url()),
    }


@router.get(
    "/members/{number}/history",
    response={200: schemas.MemberHistory, 404: schemas.Problem},
    url_name="member-history",
    summary="A member's rating history",
)
@cacheable
def member_history(
    request: HttpRequest,
    number: str,
    paging: Query[Paging],
    time_class: TimeClass = "standard",
) -> Any:
    """The member's rated events on one list (``time_class``), newest first: the figures of
    their page's table."""
    member = _member(number, time_class)
    _shown(member)
    if moved := _elsewhere(request, member, number, "member-history"):
        return moved
    published = member.is_published_on()
    rows, place = page_of(pages.rating_changes(member=member, rating_list=time_class), paging)
    results = [pages.rating_change(row, published=published) for row in rows]
    return {**place, "member": member.member_number, "published": published, "results": results}
