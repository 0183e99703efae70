"""The published list's query: who is on a rating list, with what rating, in what order.

The live list, the officer's list, the ranking (``ratings.models.ranking``), the list's
figures, publishing and the members' mail all read the list through these: the published
members (``MemberQuerySet.published``) with their rating state on one list
(``with_ratings``), its usable ratings (``with_usable_rating``), its size and regions, and
the age groups the list filters by. The booklet's reports read them too
(``ratings.pages.reports``). Each is a fixed number of SQL statements whatever the size of
the club.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    Min,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
    Window,
)
from django.db.models.functions import Coalesce, Rank
from django.utils import timezone

from ..rules.time_classes import STANDARD
from .events import Event, RatingPeriod
from .members import Member, MemberQuerySet, age_on
from .rating import RatingChange, RatingState

if TYPE_CHECKING:
    from ..engine import RatingSystem

#: The booklet's junior reports: age at the start of the year under 20, 16 and 12.
AGE_GROUPS = {"U20": 20, "U16": 16, "U12": 12}


def year_start(day: dt.date | None = None) -> dt.date:
    day = day or timezone.localdate()
    return dt.date(day.year, 1, 1)


def born_after_for(group: str, day: dt.date | None = None) -> dt.date:
    """Under N at the start of the year = born after 1 January, N years before it."""
    start = year_start(day)
    return dt.date(start.year - AGE_GROUPS[group], 1, 1)


def age_group(member: Member, day: dt.date | None = None) -> str:
    """The youngest group a member is in ("U12"), or "" for an adult or unknown age."""
    return age_group_of(member.born, year_start(day))


def age_group_of(born: dt.date | None, start: dt.date) -> str:
    """``age_group`` from a birth date and the year's first day (``year_start``)."""
    age = age_on(born, start)
    if age is None:
        return ""
    fitting = [g for g, limit in AGE_GROUPS.items() if age < limit]
    return fitting[-1] if fitting else ""


def with_ratings(
    members: MemberQuerySet, *, ranked: bool = True, time_class: str = STANDARD
) -> QuerySet[Member]:
    """Members with a rating state, annotated for sorting: usable ratings first, highest first.

    Left out: new players yet to play (no rated event, no games, no starting rating).

    ``rank`` is the place among the members given (ties share a place); members
    without a usable rating have none. ``ranked=False`` leaves it out: ranking is a
    window over every member, which a page of the list does not need
    (``list_paginator.ListPaginator`` ranks a page).
    """
    rows = (
        members.listable(time_class)
        # ``rating_state``: the FilteredRelation of ``with_state`` (the stubs cannot see it)
        .select_related("rating_state")  # type: ignore[misc]
        .annotate(
            unrated=Case(
                When(rating_state__rating__isnull=True, then=Value(1)),
                When(rating_state__usable=True, then=Value(0)),
                default=Value(1),
                output_field=IntegerField(),
            ),
            rating_value=Coalesce(F("rating_state__rating"), Value(0.0)),
            last_change=F("rating_state__last_change"),
        )
    )
    if ranked:
        rows = rows.annotate(
            rank=Window(Rank(), order_by=[F("unrated").asc(), F("rating_value").desc()]),
        )
    return rows.order_by("unrated", "-rating_value", "name")


#: A usable rating (``with_ratings``' ``unrated`` 0), on the joined state's own columns
#: as ``with_state_columns`` names them.
USABLE = Q(state_rating__isnull=False, state_usable=True)


def with_state_columns(rows: QuerySet[Member]) -> QuerySet[Member]:
    """``with_ratings``' rows with the joined state's rating and usable flag named
    (``state_rating``, ``state_usable``), read through the list's one join: conditions on
    them (``USABLE``) are plain columns, which the (list, rating) index serves and the
    planner can count, where a test of the ``unrated`` CASE had PostgreSQL guess a handful
    of rows (and sort every member) and SQLite evaluate it for every member."""
    return rows.alias(
        state_rating=F("rating_state__rating"), state_usable=F("rating_state__usable")
    )


def with_usable_rating(rows: QuerySet[Member]) -> QuerySet[Member]:
    """``with_ratings``' rows with a usable rating (``unrated`` 0)."""
    return with_state_columns(rows).filter(USABLE)


def rated_states(time_class: str = STANDARD) -> QuerySet[RatingState]:
    """Every member's state on the list of ``time_class`` that holds a rating, unordered:
    read down the (list, rating) index (``state_list_rating``) from either end."""
    return RatingState.objects.filter(time_class=time_class, rating__isnull=False).order_by()


def published_list_size(
    *, time_class: str, day: dt.date | None = None, among: Any = None
) -> tuple[int, int]:
    """The whole published list of ``time_class`` on ``day`` (default today): its members,
    and those of them with a usable rating, in one count of every published member
    (``among``: of these members alone, their share of it). Kept for the list's readers
    (``services.list_figures``)."""
    members = Member.objects.published(day, among=among)
    listed = with_state_columns(
        with_ratings(members, ranked=False, time_class=time_class)
    ).order_by()
    totals = listed.aggregate(listed=Count("pk"), usable=Count("pk", filter=USABLE))
    return totals["listed"], totals["usable"]


def published_regions(day: dt.date | None = None, *, of: Iterable[str] | None = None) -> list[str]:
    """The regions with a published member on ``day`` (default today), in order: the
    public list's filter offers these (a region of unpublished members alone would filter
    it down to nobody). Kept with the lists' sizes (``services.list_figures``); ``of``:
    which of these regions have one.

    Each region is asked for its first published member, found down the region index
    (``financial_condition``'s ``each``): the published members' regions read whole
    read every published member (136 ms at 200,000 on SQLite). A scalar subquery with
    its LIMIT, not EXISTS: PostgreSQL turns an EXISTS into a join that hashes every
    paid-up member, once a region."""
    named = Member.objects.exclude(region="")
    if of is not None:
        named = named.filter(region__in=list(of))
    first_of_each = named.values("region").annotate(first=Min("pk")).values("first")
    published = Member.objects.filter(region=OuterRef("region")).published(day, each=True)
    regions = (
        named.filter(pk__in=first_of_each)
        .annotate(first_published=Subquery(published.order_by().values("pk")[:1]))
        .filter(first_published__isnull=False)
    )
    # Sorted here, as the kept regions are (``services.list_figures``), whatever the
    # database's collation.
    return sorted(regions.values_list("region", flat=True).order_by())


def published_ratings(day: dt.date | None = None, time_class: str = STANDARD) -> QuerySet[Member]:
    return with_ratings(Member.objects.published(day), time_class=time_class)


def rated_events(time_class: str | None = None) -> QuerySet[Event]:
    """Events with ratings (on one list), newest first: read down the events' date index,
    each one checked for a change, so the newest are found without reading every change."""
    rated = RatingChange.objects.filter(event=OuterRef("pk"))
    if time_class is not None:
        rated = rated.filter(time_class=time_class)
    return Event.objects.filter(Exists(rated)).order_by("-end_date", "-start_date", "-pk")


#: What ``list_basis`` says of a list with nothing rated yet (by whether the system rates
#: by periods): the home page says what comes next in a sentence of its own.
NO_PERIOD_CLOSED = "no rating period has been closed yet"
NO_EVENT_RATED = "no event has been rated yet"


def list_basis(system: RatingSystem, time_class: str = STANDARD) -> str:
    """Which list this is: the list's last closed rating period, or its last rated event."""
    if system.period_based:
        period = RatingPeriod.objects.of_list(system, time_class).last_closed()
        if period is None:
            return NO_PERIOD_CLOSED
        return f"rating period {period.name} ({period.start:%-d %b %Y} – {period.end:%-d %b %Y})"
    event = rated_events(time_class)[:1]
    last = next(iter(event), None)
    if last is None:
        return NO_EVENT_RATED
    return f"after {last.name}, {last.end_date:%-d %b %Y}"


#: How long without a rated game before a rating is marked inactive on the lists.
INACTIVE_AFTER = dt.timedelta(days=365)


def is_inactive(last_played: dt.date | None) -> bool:
    """No rated game for a year: the rating stands, but may no longer tell the strength."""
    return last_played is not None and last_played < timezone.localdate() - INACTIVE_AFTER
