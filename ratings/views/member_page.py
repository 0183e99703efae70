"""A member's page: rating, chart and games by event. Public for published members.

The page is built by ``ratings.pages.members``; this view finds the member, follows a
merged record or a number in another case, and renders."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from ..pages import members as pages
from .common import club_of, is_officer, rating_list_of

# -- a member's page --------------------------------------------------------------------


def member_detail(request: HttpRequest, number: str) -> HttpResponse:
    """A member's rating, its whole history as a chart, and their events newest first,
    a page at a time with the page's games."""
    rating_list = rating_list_of(request)
    member = pages.member_found(number=number, rating_list=rating_list)
    # A member the club keeps off public pages answers as a number no one has, before any
    # redirect (its case, a merge) could tell the reader the number is someone's.
    if member is None or not pages.member_shown(
        member=member, viewer=request.user, club=club_of(request)
    ):
        raise Http404(pages.NO_SUCH_MEMBER)
    if member.merged_into is not None:  # no query unless merged_into_id is set
        return redirect(member.merged_into)
    if member.member_number != number:
        return redirect(member, permanent=True)
    context = pages.member_page(
        member=member,
        viewer=request.user,
        club=club_of(request),
        rating_list=rating_list,
        page_number=request.GET.get("page"),
    )
    if context is None:  # the club keeps this unpublished member off public pages
        raise Http404(pages.NO_SUCH_MEMBER)
    officer = is_officer(request)
    context["membership"] = str(member.membership_on().label) if officer else ""
    state = context["state"]
    if "games" in context:
        context["status"] = pages.rating_status(
            state.display, context["system"], state.last_played
        )
    # The public's page and the officer's are apart: the officer's adds the membership.
    template = "ratings/officer/member.html" if officer else "ratings/public/member.html"
    return render(request, template, context)
