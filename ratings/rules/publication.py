"""Who is published: the one rule every public page, report, calculator and export reads.

A member's rating is public if and only if they are a listed, financial member:

- not a guest (guests play and are rated, but are not members),
- not merged into another record (the survivor's record is the one published),
- and a subscription covers the day (today unless a report says otherwise).

Everyone else (members in arrears, guests) is rated like everyone else: their names and
scores appear, their ratings nowhere, nor any figure that would give one away. An
officer sees every rating, the unpublished ones marked.

The rule is written once, as a query condition (``rule``); the queryset filter
(``published``, also ``Member.objects.published()``), the annotation (``annotate``), the
set of an event's published players and the officer's reasons all read it, so that no
page can drift from the list. ``tests/web/test_publication.py`` holds every public URL
of ``ratings/urls.py`` to it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.db import models
from django.db.models import ExpressionWrapper, Q
from django.utils import timezone

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    from ..models import Event, Member, MemberQuerySet

#: The permission of those who see every rating, published or not.
OFFICER_PERMISSION = "ratings.officer"


def financial(day: dt.date | None = None) -> Q:
    """Financial on ``day`` (default today): a subscription's season covers it.

    The paid-up members are one list the database makes once (``pk IN (...)``): the
    seasons covering the day first (a handful), then their members down the
    (season, member) index, not every subscription ever paid.
    """
    from ..models import Season, Subscription

    day = day or timezone.localdate()
    seasons = Season.objects.filter(start__lte=day, end__gte=day).values("pk")
    return Q(pk__in=Subscription.objects.filter(season__in=seasons).values("member_id"))


def rule(day: dt.date | None = None) -> Q:
    """The rule as a condition on members: not a guest, not merged, financial on ``day``."""
    return Q(merged_into__isnull=True, is_guest=False) & financial(day)


def published(members: MemberQuerySet, day: dt.date | None = None) -> MemberQuerySet:
    """The members of ``members`` whose ratings the public may see.

    They are annotated ``is_financial`` (true): the tables that mark why a member is or is
    not published read it.
    """
    return members.filter(rule(day)).annotate(
        is_financial=models.Value(True, output_field=models.BooleanField())
    )


def published_members(day: dt.date | None = None) -> MemberQuerySet:
    """Every member whose rating the public may see."""
    from ..models import Member

    return published(Member.objects.all(), day)


def annotate(members: MemberQuerySet, day: dt.date | None = None) -> MemberQuerySet:
    """``members`` each annotated ``is_published``: whether the public may see their rating."""
    return members.annotate(
        is_published=ExpressionWrapper(rule(day), output_field=models.BooleanField())
    )


def published_ids(ids: Iterable[int], day: dt.date | None = None) -> set[int]:
    """Which of these members' ratings the public may see, in one query."""
    from ..models import Member

    return set(
        Member.objects.filter(pk__in=list(ids)).filter(rule(day)).values_list("pk", flat=True)
    )


def is_published(member: Member) -> bool:
    """Whether the public may see this member's rating today (one query)."""
    return bool(published_ids([member.pk]))


def published_players(event: Event) -> set[int]:
    """The players of ``event`` whose ratings the public may see (as on the published list)."""
    from ..models import Member

    return set(
        Member.objects.filter(entries__event=event).filter(rule()).values_list("pk", flat=True)
    )


def sees_every_rating(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Officers see every rating (the unpublished ones marked); everyone else, the rule's."""
    from django.contrib.auth.models import AnonymousUser, PermissionsMixin

    return isinstance(user, PermissionsMixin | AnonymousUser) and user.has_perm(OFFICER_PERMISSION)


#: Why a merged record's rating is not published: it is not a member's any more.
MERGED = "no: merged into another record"


def reason_of(*, merged: bool, guest: bool, financial: bool) -> str:
    """Why a member's rating is (not) published, in the words of the officer's list: the
    rule's three conditions, in the order an officer would fix them."""
    from ..models import Membership

    if merged:
        return MERGED
    membership = Membership.of(guest=guest, financial=financial)
    if membership != Membership.FINANCIAL:
        return f"no: {membership.label}"
    return "published"


def reason(member: Member) -> str:
    """``reason_of`` for a member read with ``is_financial`` (``with_financial``)."""
    return reason_of(
        merged=bool(member.merged_into_id),
        guest=member.is_guest,
        financial=bool(getattr(member, "is_financial", False)),
    )


#: Game-line figures that are the opponent's rating itself, however the system names it.
OPPONENT_RATING_KEYS = frozenset(("opponent_rating", "held_from"))


def withhold_unpublished(
    rows: list[dict[str, Any]], event: Event, *, user: AbstractBaseUser | AnonymousUser
) -> None:
    """An event's rating rows (``change_rows``) as ``user`` may see them.

    Members in arrears and guests played, so their names stay, but not their ratings.
    An officer sees every rating; the unpublished ones are marked. The public sees none
    of them: not their own figures, nor their rating on an opponent's game lines. A
    published player's working is shown whole (expected score, each game's change, the
    breakdown), all but the unpublished opponent's rating itself.
    """
    shown = published_players(event)
    officer = sees_every_rating(user)
    for row in rows:
        member = row["member"]
        is_shown = member is not None and member.pk in shown
        row["unpublished"] = officer and not is_shown
        if officer or is_shown:
            for game in row["games"]:
                opponent = game["opponent"]
                if not officer and (opponent is None or opponent.pk not in shown):
                    game["opponent_rating"] = None
                    # A line's own figure that is the opponent's rating (acf-1993's
                    # rating held from before the 336 rule) goes with it.
                    game["extra"] = [
                        "–" if key in OPPONENT_RATING_KEYS else text
                        for key, text in zip(
                            game.get("extra_keys", ()), game["extra"], strict=True
                        )
                    ]
            continue
        row.update(
            hidden=True,
            before=None,
            after=None,
            change=None,
            expected=None,
            games=[],
            breakdown=[],
        )
