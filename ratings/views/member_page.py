"""A member's page: rating, chart and games by event. Public for published members."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.db.models import (
    Case,
    F,
    When,
)
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from .. import figures, publication, reports, services
from ..charts import Point, day_before, period_points, rating_history_svg
from ..models import (
    ClubSettings,
    Entry,
    Event,
    JSONText,
    Member,
    RatingChange,
)
from ..period_names import label_name, period_name
from ..tables import (
    change_html,
)
from .common import club_of, is_officer, rating_list_of

# -- a member's page --------------------------------------------------------------------


#: Events a page of a member's history shows (with their games).
MEMBER_EVENTS_PER_PAGE = 25


class _ChartChange:
    """A rating change as the chart reads it: no breakdown, no state, no model."""

    __slots__ = ("after", "before", "display_before", "event", "period")

    def __init__(self, period: str, before: Any, after: Any, display_before: str, event: Any):
        self.period, self.before, self.after = period, before, after
        self.display_before, self.event = display_before, event


class _ChartEvent:
    __slots__ = ("end_date", "name", "pk", "start_date")

    def __init__(self, pk: int, name: str, start_date: Any, end_date: Any) -> None:
        self.pk, self.name, self.start_date, self.end_date = pk, name, start_date, end_date


def member_detail(request: HttpRequest, number: str) -> HttpResponse:
    """A member's rating, its whole history as a chart, and their events newest first,
    50 a page with the page's games. The same few queries however long the history: the
    chart reads one row per change (no breakdowns), the page reads its own events."""
    rating_list = rating_list_of(request)
    member = get_object_or_404(
        publication.annotate(Member.objects.with_financial())
        .with_state(rating_list)
        .select_related("rating_state", "merged_into"),
        # A number is one whatever its case (the unique constraint says so): r1001 is R1001.
        member_number__iexact=number,
    )
    if member.merged_into_id:
        return redirect(member.merged_into)
    if member.member_number != number:
        return redirect(member, permanent=True)
    club = club_of(request)
    if not publication.shown_on_public_pages(member, viewer=request.user, club=club):
        raise Http404("No such member.")
    system = club.engine(rating_list)
    published = member.is_published
    show_rating = published or is_officer(request)
    state = getattr(member, "rating_state", None)
    event_ids = list(
        Entry.objects.filter(member=member)
        .order_by("-event__end_date", "-event__start_date", "-event_id")
        .values_list("event_id", flat=True)
    )
    page = Paginator(event_ids, MEMBER_EVENTS_PER_PAGE).get_page(request.GET.get("page"))
    on_page = list(page.object_list)
    page_events = Event.objects.in_bulk(on_page)
    # Every change, for the chart, in one pass; the breakdowns of this page's only.
    rows = (
        RatingChange.objects.filter(member=member)
        .order_by("event_end", "event_start", "event_id")
        .annotate(
            page_breakdown=Case(
                When(event_id__in=on_page, then=F("breakdown")),
                default=None,
                output_field=JSONText(),
            )
        )
        .values_list(
            "time_class",
            "event_id",
            "event__name",
            "event_start",
            "event_end",
            "period",
            "before",
            "after",
            "display_before",
            "display_after",
            "played",
            "score",
            "page_breakdown",
        )
    )
    chart_changes = []
    by_event: dict[int, RatingChange] = {}
    for on_list, event_id, name, start, end, period, before, after, shown, *rest in rows:
        # The chart is the list's; the events below show each event's change on its own.
        shown_after = rest.pop(0)
        if on_list == rating_list:
            chart_event = _ChartEvent(event_id, name, start, end)
            chart_changes.append(_ChartChange(period, before, after, shown, chart_event))
        if event_id in page_events:
            played, score, breakdown = rest
            change = RatingChange(
                member=member,
                event=page_events[event_id],
                time_class=on_list,
                period=period,
                before=before,
                after=after,
                display_before=shown,
                display_after=shown_after,
                played=played,
                score=score,
                breakdown=breakdown or {},
            )
            # The change as shown (after less before, both as displayed), so they add up.
            change.change_html = change_html(  # type: ignore[attr-defined]
                figures.shown_change(shown, shown_after)
            )
            by_event[event_id] = change
    events = [(page_events[pk], by_event.get(pk)) for pk in on_page]
    page_changes = [by_event[pk] for pk in reversed(on_page) if pk in by_event]
    officer = is_officer(request)
    if show_rating and state is not None:
        # Each on its own list's system.
        services.changes_breakdown_fill(changes=page_changes, club=club_of(request))
    context: dict[str, Any] = {
        "member": member,
        "published": published,
        "show_rating": show_rating,
        "state": state,
        "events": events,
        "event_groups": _event_groups(events, system),
        "page": page,
        "page_range": page.paginator.get_elided_page_range(page.number, on_each_side=1, on_ends=1),
        "system": system,
        "membership": _membership(member) if officer else "",
        "officer": officer,
        "rating_list": rating_list,
    }
    if show_rating and state is not None:
        context.update(
            status=rating_status(state.display, system, state.last_played),
            status_meaning=reports.status_of(state.display, system),
            rating_is_figure=figures.is_figure(state.display),
            games=(games := _game_lines(page_changes, officer=officer, club=club)),
            # A game against an unpublished player shows no change: say why the games'
            # changes then fall short of the event's.
            withheld=any(game["hidden"] and game["rated"] for game in games),
            chart=_chart(member, chart_changes, system),
            legend=reports.legend(system),
            published_ratings=_published_ratings(member, rating_list),
        )
    return render(request, "ratings/public/member.html", context)


def _event_groups(
    events: list[tuple[Event, RatingChange | None]], system: Any
) -> list[dict[str, Any]]:
    """The member's events (newest first) as the table shows them.

    Per-event systems: one group per event. Period systems: one group per rating period,
    its events under it, and the period's change once. Every change of a period holds
    the whole period's before and after (by design), so shown on each event they would
    read as that many changes.
    """
    groups: list[dict[str, Any]] = []
    by_label: dict[str, dict[str, Any]] = {}
    for event, change in events:
        label = None
        if system.period_based:
            if change is not None and change.period:
                label = change.period
            elif event.rated:
                label = system.period_of(event.end_date)
        if label is None:
            groups.append({"period": None, "change": None, "events": [(event, change)]})
            continue
        group = by_label.get(label)
        if group is None:
            try:
                start, end = system.period_bounds(label)
            except Exception:  # a label the system cannot read: shown without its dates
                start = end = None
            group = by_label[label] = {
                "period": label,
                "name": period_name(system, label, start, end) if start else label,
                "start": start,
                "end": end,
                "change": None,
                "played": 0,
                "score": 0.0,
                "events": [],
            }
            groups.append(group)
        group["events"].append((event, change))
        if change is not None:
            group["change"] = group["change"] or change
            group["played"] += change.played
            group["score"] += change.score
    return groups


def rating_status(display: str, system: Any, last_played: Any = None) -> str:
    """The rating's status in a word or two, in the system's own terms ("provisional",
    "official", "partial", "confirmed"; "rated" where the system marks no difference),
    and whether the member is inactive."""
    meaning = reports.status_of(display, system)
    inactive = reports.status_of(display, system, last_played).removeprefix(meaning)
    return str(system.status_word(display)) + inactive  # "; inactive: last played …"


def _membership(member: Member) -> str:
    """For officers: why the member's rating is or is not published."""
    return str(member.membership_on().label)


def _game_lines(
    changes: list[RatingChange], *, officer: bool, club: ClubSettings
) -> list[dict[str, Any]]:
    """Every game of the member's rated events, newest first, opponents resolved in one
    query; an opponent the club keeps off public pages read as "Unpublished player"."""
    keep_off = not officer and publication.keeps_off(club)
    ids = {
        int(line["opponent"])
        for change in changes
        for line in change.detail.get("games", [])
        if str(line.get("opponent", "")).isdigit()
    }
    opponents = {m.pk: m for m in publication.annotate(Member.objects.filter(pk__in=ids))}
    lines = []
    for change in reversed(changes):
        for line in change.detail.get("games", []):
            opponent = (
                opponents.get(int(line["opponent"])) if str(line["opponent"]).isdigit() else None
            )
            # An opponent's rating is theirs: not shown while they are not published. Nor is
            # what would give it away with the member's own rating: the expected score and
            # the game's own change. (The event's total change is the member's, and public.)
            visible = officer or (opponent is not None and opponent.is_published)
            game_change = services.game_line_change(line=line)
            lines.append(
                {
                    "event": change.event,
                    "round": line.get("round"),
                    "opponent": (
                        publication.UnpublishedPlayer(pk=opponent.pk)
                        if keep_off and opponent is not None and not opponent.is_published
                        else opponent
                    ),
                    "opponent_rating": line.get("opponent_rating") if visible else None,
                    "score": line.get("score"),
                    "expected": line.get("expected") if visible else None,
                    # Tenths, as shown: a change of 0.04 is "0", not a green "+0".
                    "change": (
                        round(game_change, 1) + 0.0
                        if visible and game_change is not None
                        else None
                    ),
                    "hidden": not visible,
                    "rated": line.get("rated", True),
                }
            )
    return lines


#: Publications a member's page lists (newest first); the index has every one.
PUBLISHED_SHOWN = 24


def _published_ratings(member: Member, rating_list: str) -> list[Any]:
    """The member's ratings on the club's published lists of one list, newest first: one
    query."""
    return list(
        member.publication_entries.filter(publication__time_class=rating_list)
        .select_related("publication")
        .only(
            "rank",
            "display",
            "games",
            "publication__slug",
            "publication__day",
            "publication__published_at",
        )
        .order_by("-publication__published_at", "-publication_id")[:PUBLISHED_SHOWN]
    )


def _chart(member: Member, changes: list[Any], system: Any) -> str:
    """One point per rated event; for period systems one per rating period (every change
    of a period holds the period's after, so one point per event would repeat it)."""
    if any(c.period for c in changes):
        points = period_points(changes, lambda label: label_name(system, label))
    else:
        points = []
        if changes and changes[0].before is not None and changes[0].display_before:
            first = changes[0].event
            points.append(Point(day_before(first), changes[0].before, "before " + first.name))
        for change in changes:
            if change.after is not None:
                points.append(Point(change.event.end_date, change.after, change.event.name))
    return rating_history_svg(points, title=f"Rating history of {member.name}")
