"""Who is published: the one rule every public page, report, calculator and export reads.

A member's rating is public if and only if they are a listed, financial member:

- not a guest (guests play and are rated, but are not members),
- not merged into another record (the survivor's record is the one published),
- and a subscription covers the day (today unless a report says otherwise).

Everyone else (members in arrears, guests) is rated like everyone else: their names and
scores appear, their ratings nowhere, nor any figure that would give one away. An
officer sees every rating, the unpublished ones marked. A club may keep them off its
public pages altogether (its setting, ``keeps_off``): then the public reads each of them
as an "Unpublished player" (``kept_off``, ``as_shown``), and their own page is not found.

The rule is written once, as a query condition (``rule``); the queryset filter
(``published``, also ``Member.objects.published()``), the annotation (``annotate``), the
set of an event's published players and the officer's reasons all read it, so that no
page can drift from the list. ``tests/web/test_publication.py`` holds every public URL
of ``ratings/urls.py`` to it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import models
from django.db.models import Exists, ExpressionWrapper, OuterRef, Q
from django.utils import timezone

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    from ..models import ClubSettings, Event, Member, MemberQuerySet

#: The permission of those who see every rating, published or not.
OFFICER_PERMISSION = "ratings.officer"


def seasons_covering(day: dt.date) -> Any:
    """The seasons covering ``day`` (their pks): a subscription to one of them makes a
    member financial that day. Two days covered by the same seasons have the same
    financial members."""
    from ..models import Season

    return Season.objects.filter(start__lte=day, end__gte=day).values("pk")


def financial(day: dt.date | None = None, *, among: Any = None, each: bool = False) -> Q:
    """Financial on ``day`` (default today): a subscription's season covers it.

    The paid-up members are one list the database makes once (``pk IN (...)``): the
    seasons covering the day first (a handful), then their members down the
    (season, member) index, not every subscription ever paid.

    ``among``: the members asked about, where a page asks about a few (a member's page,
    their opponents): their pks or a query of them. The list is then made of their
    subscriptions alone, down the (member, season) index, rather than of every paid-up
    member's (some 17,600 rows hashed at 20,000 members, for one member's answer).

    ``each``: asked of each member in turn, down the (member, season) index, for a query
    that stops at its first published member (whether a region has one): the list of
    every paid-up member is not made for it.
    """
    from ..models import Subscription

    paid = Subscription.objects.filter(season__in=seasons_covering(day or timezone.localdate()))
    if each:
        return Q(Exists(paid.filter(member=OuterRef("pk"))))
    if among is not None:
        paid = paid.filter(member__in=among)
    return Q(pk__in=paid.values("member_id"))


def rule(day: dt.date | None = None, *, among: Any = None, each: bool = False) -> Q:
    """The rule as a condition on members: not a guest, not merged, financial on ``day``
    (``among``, ``each``: as ``financial``'s)."""
    return Q(merged_into__isnull=True, is_guest=False) & financial(day, among=among, each=each)


def published(
    members: MemberQuerySet,
    day: dt.date | None = None,
    *,
    among: Any = None,
    each: bool = False,
) -> MemberQuerySet:
    """The members of ``members`` whose ratings the public may see (``among``, ``each``:
    as ``financial``'s).

    They are annotated ``is_financial`` (true): the tables that mark why a member is or is
    not published read it.
    """
    return members.filter(rule(day, among=among, each=each)).annotate(
        is_financial=models.Value(True, output_field=models.BooleanField())
    )


def published_members(day: dt.date | None = None, *, among: Any = None) -> MemberQuerySet:
    """Every member whose rating the public may see (``among``: of those members, as
    ``financial``'s)."""
    from ..models import Member

    members = Member.objects.all() if among is None else Member.objects.filter(pk__in=among)
    return published(members, day, among=among)


def annotate(
    members: MemberQuerySet, day: dt.date | None = None, *, among: Any = None
) -> MemberQuerySet:
    """``members`` each annotated ``is_published``: whether the public may see their
    rating. ``among``: as ``financial``'s, for a few ``members``."""
    return members.annotate(
        is_published=ExpressionWrapper(rule(day, among=among), output_field=models.BooleanField())
    )


def published_ids(ids: Iterable[int], day: dt.date | None = None) -> set[int]:
    """Which of these members' ratings the public may see, in one query."""
    from ..models import Member

    ids = list(ids)
    return set(
        Member.objects.filter(pk__in=ids).filter(rule(day, among=ids)).values_list("pk", flat=True)
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


# -- the club's choice: name unpublished members, or keep them off public pages ----------

#: How a member the club keeps off public pages appears there, in results, reports and
#: crosstables: they played, so their games and points stay, but not who they are.
UNPUBLISHED_PLAYER = "Unpublished player"


@dataclass(frozen=True)
class UnpublishedPlayer:
    """A member kept off public pages, as a page reads a member: a name that says only
    that, no number and no member page.

    ``pk`` is the member's own, for the page's sums (points by player) while it builds:
    no public page or answer prints it.
    """

    pk: int
    name: str = UNPUBLISHED_PLAYER
    member_number: str = ""
    is_guest: bool = False

    def get_absolute_url(self) -> str:
        return ""

    def __str__(self) -> str:
        return self.name


def keeps_off(club: ClubSettings | None = None) -> bool:
    """Whether the club keeps unpublished members off its public pages (its setting)."""
    from ..models import ClubSettings

    club = club or ClubSettings.load()
    return club.unpublished_members == ClubSettings.Unpublished.KEPT_OFF


def kept_off(
    ids: Iterable[int],
    *,
    viewer: AbstractBaseUser | AnonymousUser,
    club: ClubSettings | None = None,
    day: dt.date | None = None,
) -> set[int]:
    """Which of these members ``viewer`` reads as an "Unpublished player": the unpublished
    ones when the club keeps them off public pages; nobody for an officer, or when the
    club names them."""
    if sees_every_rating(viewer) or not keeps_off(club):
        return set()
    ids = {pk for pk in ids if pk is not None}
    return ids - published_ids(ids, day)


def shown_on_public_pages(
    member: Member,
    *,
    viewer: AbstractBaseUser | AnonymousUser,
    club: ClubSettings | None = None,
) -> bool:
    """Whether ``viewer`` may read this member's own page (and its CSV and API answer):
    not when the club keeps unpublished members off public pages, unless an officer."""
    return not kept_off([member.pk], viewer=viewer, club=club)


def as_shown(member: Member | None, hidden: set[int]) -> Member | UnpublishedPlayer | None:
    """``member`` as a page shows them: an ``UnpublishedPlayer`` if kept off (``kept_off``)."""
    if member is not None and member.pk in hidden:
        return UnpublishedPlayer(pk=member.pk)
    return member


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

#: Game-line figures worked from the opponent's rating, from which it is worked back:
#: st-charles' shift ((theirs - own) / 25), ecf-2020's difference and its offset.
OPPONENT_DERIVED_LINE_KEYS = OPPONENT_RATING_KEYS | {"shift", "d", "d_offset"}

#: A change's figures (the engine's breakdown keys) summed or averaged over the
#: opponents' ratings: with one withheld among them, the others shown give it back
#: ("Average opponent 1798.33" beside two shown ratings, nz-club-elo's "Expected").
#: Shown as withheld, not worked over the published opponents alone, so a figure on a
#: page is always the one the engine used (docs/architecture.md, "Who sees what").
OPPONENT_DERIVED_DETAIL = frozenset(
    ("expected", "avg_opp", "AR", "D", "D_table", "P", "Se", "Rp", "pass1_avg_opp", "sum_offsets")
)

#: What a page shows in place of a figure that would give a withheld rating away.
WITHHELD = "withheld"


def withhold_unpublished(
    rows: list[dict[str, Any]], event: Event, *, user: AbstractBaseUser | AnonymousUser
) -> None:
    """An event's rating rows (``change_rows``) as ``user`` may see them.

    Members in arrears and guests played, so their names stay, but not their ratings.
    An officer sees every rating; the unpublished ones are marked. The public sees none
    of them: not their own figures, nor their rating on an opponent's game lines, nor a
    figure it is worked back from: the expected score of a game against them, a line's
    shift or difference, and the change's figures over the opponents (average opponent,
    expected score in all) once one of them is withheld. A published player's own
    figures (before, after, each game's change) stay: they are theirs to check.
    """
    shown = published_players(event)
    officer = sees_every_rating(user)
    for row in rows:
        member = row["member"]
        is_shown = member is not None and member.pk in shown
        row["unpublished"] = officer and not is_shown
        if officer or is_shown:
            met_withheld = False
            for game in row["games"]:
                opponent = game["opponent"]
                if not officer and (opponent is None or opponent.pk not in shown):
                    met_withheld = True
                    game["opponent_rating"] = None
                    game["expected"] = None
                    game["figure_used"] = None  # says the rating held
                    # A line's own figure that is the opponent's rating (acf-1993's
                    # rating held from before the 336 rule) or is worked from it goes
                    # with it.
                    game["extra"] = [
                        "–" if key in OPPONENT_DERIVED_LINE_KEYS else text
                        for key, text in zip(
                            game.get("extra_keys", ()), game["extra"], strict=True
                        )
                    ]
            if met_withheld:
                row["expected"] = None
                row["breakdown"] = [
                    (label, WITHHELD if key in OPPONENT_DERIVED_DETAIL else text)
                    for key, (label, text) in zip(
                        row.get("breakdown_keys", ()), row["breakdown"], strict=True
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
