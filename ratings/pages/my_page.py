"""A member's own page, opened by their signed link: what their public page shows, and
what is for them alone: their rating even while withheld, their subscription for the
season and what to do about it, and which club mail they get."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from ..models import ClubSettings, Member, Membership, Season
from ..rules.mail import MAIL_KINDS
from ..rules.member_links import (
    EVERY_KIND,
    LinkBad,
    address_matches,
    my_page_token_read,
    unsubscribe_token,
    unsubscribe_token_read,
)
from ..rules.status_changes import member_status_changes
from . import members as member_pages


def my_page(*, member: Member, club: ClubSettings, rating_list: str) -> dict[str, Any]:
    """The page's data: the public page's as the public reads it (never more for an
    officer who opens a member's link) and ``own``, the member's alone."""
    found = member_pages.member_found(number=member.member_number, rating_list=rating_list)
    assert found is not None  # the link's member, just read
    public = member_pages.member_page(
        member=found, viewer=AnonymousUser(), club=club, rating_list=rating_list
    )
    # A member the club keeps off public pages: their own page is all theirs.
    context = public or {"member": found, "show_rating": False, "events": []}
    # Said once, for them alone, below ("own"), not again in the public part.
    context.pop("status_changes", None)
    system = club.engine(rating_list)
    state = getattr(found, "rating_state", None)
    if "games" in context and state is not None:
        context["status"] = member_pages.rating_status(state.display, system, state.last_played)
    today = timezone.localdate()
    membership = found.membership_on()
    context["own"] = {
        "state": state,
        "status": member_pages.rating_status(state.display, system, state.last_played)
        if state is not None and state.display
        else "",
        # Theirs even while withheld: when their status changes next, as the system says.
        "status_changes": member_status_changes(state, system, today=today),
        "withheld": not context.get("show_rating"),
        "membership": membership,
        "in_arrears": membership == Membership.ARREARS,
        "season": Season.objects.filter(start__lte=today, end__gte=today).first(),
        "paid_to": club.subscriptions_paid_to,
        "consented": found.mail_consent_at,
        "email": found.email,
        "kinds": [
            {
                "label": kind.label,
                "wanted": kind.key in (found.mail_wanted or []),
                "stop_token": unsubscribe_token(found, kind.key),
            }
            for kind in MAIL_KINDS
        ],
        "stop_all_token": unsubscribe_token(found, EVERY_KIND),
    }
    return context


def kind_label(kind: str) -> str:
    """What an unsubscribe link stops, in the member's form's words."""
    for each in MAIL_KINDS:
        if each.key == kind:
            return f"“{each.label}”"
    return "all club mail"


def _member_of(pk: str, digest: str) -> Member:
    member = Member.objects.filter(pk=pk).first() if pk.isdigit() else None
    if member is None or not address_matches(member, digest):
        raise LinkBad
    return member


def member_of_my_page_token(token: str) -> Member:
    """The member whose "my page" link this is; LinkExpired or LinkBad."""
    pk, digest = my_page_token_read(token)
    return _member_of(pk, digest)


def member_of_unsubscribe_token(token: str) -> tuple[Member, str]:
    """The member and the kind of message (or EVERY_KIND) this link withdraws; LinkBad."""
    pk, kind, digest = unsubscribe_token_read(token)
    return _member_of(pk, digest), kind
