"""The booklet's reports as queries: the top players, juniors and women, the improvers, the
active players by region, and the home page's words on the list.

Only published members (``Member.objects.published``: financial, not guests, not merged)
appear in anything here; each query is a fixed number of SQL statements whatever the size
of the club. The published list's own query (``with_ratings``, its size and regions, the
age groups) is ``ratings.models.listing``, which the layers below read too.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict, cast

from django.db.models import F, Q, QuerySet, Sum
from django.utils import timezone

from ..engine import RatingSystem
from ..models import ClubSettings, Member, MemberQuerySet, RatingChange, RatingPeriod
from ..models.listing import (
    NO_EVENT_RATED,
    born_after_for,
    is_inactive,
    list_basis,
    with_ratings,
)
from ..rules.time_classes import STANDARD
from ..words.figures import shown_change

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class Placed(TypedDict):
    """The home page's top ten: each member's usable rating (``with_ratings``) and the
    place given here."""

    rating_value: float
    rank: int


TOP = 20


def is_official(display: str) -> bool:
    """A plain number: not provisional, partial, unofficial or unrated."""
    return (display or "").isdigit()


def top_ten() -> list[WithAnnotations[Member, Placed]]:
    """The ten best usable published ratings, each with its place on the list.

    Placed here rather than by a window over every published member (which had the home
    page sort and rank the whole list for ten rows): a member's place is one more than the
    members rated above them, and all of those are among the ten read.
    """
    rows = with_ratings(Member.objects.published(), ranked=False)
    # ``unrated`` is with_ratings' annotation, which django-stubs cannot follow.
    members = cast(
        "list[WithAnnotations[Member, Placed]]",
        list(rows.filter(unrated=0)[:10]),  # type: ignore[misc]
    )
    for i, member in enumerate(members):
        if i and member.rating_value == members[i - 1].rating_value:
            member.rank = members[i - 1].rank  # a tie shares the place
        else:
            member.rank = i + 1
    return members


def list_standing(system: RatingSystem, time_class: str = STANDARD) -> str:
    """The home page's sentence on what the list stands on, true under every system: a
    per-event system's last rated event; a period system's last closed period, "at its
    close" only once its last day has passed (an officer may close one early), and the
    period now running, not yet closed, whose events count once it is."""
    if not system.period_based:
        basis = list_basis(system, time_class)
        if basis == NO_EVENT_RATED:
            return (
                "No event has been rated yet: the list fills in once the ratings officer "
                "rates the club's first event."
            )
        return f"The list stands {basis}."
    periods = RatingPeriod.objects.of_list(system, time_class)
    closed = periods.last_closed()
    today = timezone.localdate()
    running_label = system.period_of(today)
    running = (
        periods.labelled(running_label, system=system, time_class=time_class)
        if running_label
        else None
    )
    if running is not None and running.is_closed:
        running = None
    later = (
        f" The period now running, {running.name}, ends on {running.end:%-d %B %Y}; its "
        "events count once the ratings officer closes it."
        if running is not None and (closed is None or running.start > closed.end)
        else ""
    )
    if closed is None:
        return (
            "No rating period has been closed yet: the list fills in once the ratings "
            f"officer closes the club's first one.{later}"
        )
    dates = f"{closed.start:%-d %b %Y} – {closed.end:%-d %b %Y}"
    if closed.end < today:
        return f"The list stands at the close of rating period {closed.name} ({dates}).{later}"
    closed_on = timezone.localdate(closed.closed_at) if closed.closed_at else today
    return (
        f"The list stands on rating period {closed.name} ({dates}), closed on "
        f"{closed_on:%-d %B %Y}, before its last day.{later}"
    )


def legend(system: RatingSystem) -> list[tuple[str, str]]:
    """The markers the current system puts on the list, with what they mean (the
    system's own words, ``RatingSystem.legend``)."""
    return [(marker.example, marker.meaning) for marker in system.legend()]


# -- reports ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Span:
    """The stretch a report covers: a closed rating period, or a span of dates."""

    start: dt.date
    end: dt.date
    label: str


def months_before(day: dt.date, months: int) -> dt.date:
    month = day.month - months
    year = day.year + (month - 1) // 12
    month = (month - 1) % 12 + 1
    for d in (day.day, 30, 29, 28):
        try:
            return dt.date(year, month, min(d, day.day))
        except ValueError:
            continue
    raise AssertionError("unreachable")


SINCE_CHOICES = {"3": "3 months", "6": "6 months", "12": "12 months"}


def report_window(
    system: RatingSystem, since: str | None = None, time_class: str = STANDARD
) -> Span:
    """The period: the last closed one of the list for period systems, else the last 3
    (6, 12) months."""
    today = timezone.localdate()
    if system.period_based:
        period = RatingPeriod.objects.of_list(system, time_class).last_closed()
        if period is not None:
            return Span(period.start, period.end, f"rating period {period.name}")
    months = int(since) if since in SINCE_CHOICES else 3
    start = months_before(today, months)
    return Span(start, today, f"the last {months} months ({start:%-d %b %Y} – today)")


@dataclass
class Report:
    slug: str
    title: str
    about: str
    #: The report's rows for a window, on one list (time class).
    rows: Callable[[Span, str], Any]
    uses_window: bool = False


def top_players(
    members: MemberQuerySet | None = None, time_class: str = STANDARD
) -> QuerySet[Member]:
    members = members if members is not None else Member.objects.all()
    assert isinstance(members, MemberQuerySet)
    ranked = with_ratings(members.published(), time_class=time_class)
    return ranked.filter(unrated=0)  # type: ignore[misc]  # an annotation, not a field


def top_under(group: str, time_class: str = STANDARD) -> QuerySet[Member]:
    return top_players(Member.objects.filter(born__gt=born_after_for(group)), time_class)


def top_women(time_class: str = STANDARD) -> QuerySet[Member]:
    return top_players(Member.objects.filter(gender=Member.Gender.FEMALE), time_class)


def improvers(window: Span, time_class: str = STANDARD) -> list[dict[str, Any]]:
    """Published members by rating gained over the window, official ratings only.

    A gain runs from the rating shown before the member's first event in the window to
    the one shown after their last (their difference as shown, so it agrees with the
    member's page); players still provisional (or partial, or unofficial), and those with
    no rating shown when the window opened, are left out, as the booklet did.
    """
    changes = (
        RatingChange.objects.filter(
            time_class=time_class,
            member__in=Member.objects.published().values("pk"),
            event__end_date__gte=window.start,
            event__end_date__lte=window.end,
        )
        .order_by("member_id", "event__end_date", "event__start_date", "event_id")
        .values_list("member_id", "display_before", "display_after", "played")
    )
    first: dict[int, str] = {}
    last: dict[int, str] = {}
    played: dict[int, int] = {}
    for member_id, before, after, games in changes:
        first.setdefault(member_id, before)
        last[member_id] = after
        played[member_id] = played.get(member_id, 0) + games
    members = Member.objects.filter(pk__in=first).with_state(time_class)
    members = members.select_related("rating_state")  # type: ignore[misc]  # with_state's FilteredRelation
    rows = []
    for member in members:
        state = getattr(member, "rating_state", None)
        gain = shown_change(first[member.pk], last[member.pk])
        if state is None or gain is None or not is_official(state.display):
            continue
        rows.append(
            {
                "member": member,
                "name": member.name,
                "region": member.region,
                "display": state.display,
                "gain": round(gain),
                "games": played[member.pk],
            }
        )
    rows.sort(key=lambda r: (-r["gain"], r["name"]))
    for place, row in enumerate(rows, 1):
        row["rank"] = place
    return rows[:TOP]


def active_by_region(window: Span, time_class: str = STANDARD) -> QuerySet[Member]:
    """Published members who played rated games in the window, by region then rating."""
    in_window = Q(
        rating_changes__time_class=time_class,
        rating_changes__event__end_date__gte=window.start,
        rating_changes__event__end_date__lte=window.end,
    )
    return (
        Member.objects.published()
        .with_state(time_class)  # type: ignore[misc]  # with_state's FilteredRelation
        .filter(rating_state__isnull=False)
        .select_related("rating_state")
        .annotate(window_games=Sum("rating_changes__played", filter=in_window))
        .filter(window_games__gt=0)
        .order_by("region", F("rating_state__rating").desc(nulls_last=True), "name")
    )


REPORTS: dict[str, Report] = {
    r.slug: r
    for r in (
        Report(
            "top",
            "Top players",
            "The strongest published members.",
            lambda w, tc: top_players(time_class=tc),
        ),
        Report(
            "under-20",
            "Top under 20",
            "Age (on 1 January this year) under 20.",
            lambda w, tc: top_under("U20", tc),
        ),
        Report(
            "under-16",
            "Top under 16",
            "Age (on 1 January this year) under 16.",
            lambda w, tc: top_under("U16", tc),
        ),
        Report(
            "under-12",
            "Top under 12",
            "Age (on 1 January this year) under 12.",
            lambda w, tc: top_under("U12", tc),
        ),
        Report("women", "Top women", "The strongest women members.", lambda w, tc: top_women(tc)),
        Report(
            "improvers",
            "Top improvers",
            "Rating gained over the period. Provisional, partial and not-yet-official "
            "ratings are left out: they are still settling.",
            improvers,
            uses_window=True,
        ),
        Report(
            "active",
            "Active players by region",
            "Members who played rated games in the period, with the number of games.",
            active_by_region,
            uses_window=True,
        ),
    )
}


def club_system() -> RatingSystem:
    return ClubSettings.load().engine()


def status_of(display: str, system: RatingSystem, last_played: dt.date | None = None) -> str:
    """The words for a member's rating marker, as the legend gives them, plus inactivity."""
    marker = system.marker_of(display)
    meaning = marker.meaning if marker is not None else ("no rating yet" if not display else "")
    if is_inactive(last_played):
        meaning += f"; inactive: last played {last_played:%-d %b %Y}"
    return meaning
