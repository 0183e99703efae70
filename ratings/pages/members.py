"""A member's pages as data: their page (rating, chart, events and games), their history
as the CSV gives it, and the published ratings beside it.

Every function here applies the publication rule as it builds (``ratings.rules.publication``):
the public gets a published member's rating and history only, and no unpublished
opponent's rating nor what would give it away; an officer gets everything. When the club
keeps unpublished members off public pages, their page is not found and they are an
"Unpublished player" as a published member's opponent. The page, the member history CSV
and the API's member answers are built here alike.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.paginator import Paginator
from django.db.models import Case, F, OuterRef, Subquery, Value, When
from django.db.models.functions import Lower
from django.utils import timezone

from .. import services
from ..engine import rated_games
from ..models import ClubSettings, Entry, Event, JSONText, Member, RatingChange
from ..presentation.charts import Point, day_before, period_points, rating_history_svg
from ..presentation.member_games import games_body
from ..presentation.tables import change_html
from ..rules import publication
from ..rules.period_names import label_name, period_name
from ..rules.status_changes import member_status_changes
from ..words import figures
from . import reports
from .fide import fide_figures
from .game_lines import changes_breakdown_fill
from .kept_off import keeps_off, shown_on_public_pages

Viewer = AbstractBaseUser | AnonymousUser

#: Events a page of a member's history shows (with their games).
MEMBER_EVENTS_PER_PAGE = 25
#: Publications a member's page lists (newest first); the index has every one.
PUBLISHED_SHOWN = 24


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


def member_found(*, number: str, rating_list: str) -> Member | None:
    """The member by number, whatever its case (the unique constraint says r1001 is
    R1001), read as their page needs them: published or not, state on ``rating_list``.

    Matched as the constraint compares (``Lower``), so the database reads its unique
    index; and with no order, for a row that is one of a kind (``first()`` would order by
    name, and PostgreSQL then walked the members by name to find it). Whether they are
    financial and published is asked of their own subscriptions (``among``), not of every
    paid-up member's."""
    by_number = Member.objects.alias(number_any_case=Lower("member_number")).filter(
        number_any_case=Lower(Value(number))
    )
    them = by_number.values("pk")
    found = (
        by_number.with_financial(among=them)
        .with_published(among=them)
        .with_state(rating_list)
        .select_related("rating_state", "merged_into", "fide_rating")  # type: ignore[misc]  # with_state's FilteredRelation
        .order_by()[:1]
    )
    return next(iter(found), None)


#: What a number no member has answers, and a member kept off public pages alike.
NO_SUCH_MEMBER = "No member has that number."


def member_shown(*, member: Member, viewer: Viewer, club: ClubSettings | None = None) -> bool:
    """Whether ``viewer`` may learn this number is someone's: not when the club keeps the
    member off public pages (nor a merged record of one, whose redirect would say so)."""
    target = member.merged_into or member
    return shown_on_public_pages(target, viewer=viewer, club=club)


def brought_in_shown(member: Member, system: Any) -> list[tuple[str, str]]:
    """The rating a member brought in, as the officer reads it on their page: the figure,
    its games and each word the club's system reads with it, labelled as the engine
    labels it (a word not given is worked out from the games). None brought in: nothing."""
    if member.initial_rating is None:
        return []
    shown = [
        ("Rating brought in", f"{member.initial_rating:g}"),
        ("Games before", str(member.initial_games)),
    ]
    for field in system.brought_in_fields:
        word = (member.brought_in or {}).get(field.name)
        shown.append(
            (field.label, dict(field.choices).get(word, word) if word else "from its games")
        )
    return shown


def member_page(
    *,
    member: Member,
    viewer: Viewer,
    club: ClubSettings,
    rating_list: str,
    page_number: Any = None,
) -> dict[str, Any] | None:
    """A member's page: their rating, its whole history as a chart, and their events
    newest first, a page at a time with the page's games. ``member`` as ``member_found``
    reads them. None for a reader who may not have it: the public, when the club keeps
    unpublished members off public pages and this is one (their page is not found).

    The same few queries however long the history: the chart reads one row per change
    (no breakdowns), the page reads its own events."""
    if not shown_on_public_pages(member, viewer=viewer, club=club):
        return None
    system = club.engine(rating_list)
    officer = publication.sees_every_rating(viewer)
    published = member.is_published  # type: ignore[attr-defined]
    show_rating = published or officer
    state = getattr(member, "rating_state", None)
    event_ids = list(
        Entry.objects.filter(member=member)
        .order_by(
            _event_column("end_date").desc(), _event_column("start_date").desc(), "-event_id"
        )
        .values_list("event_id", flat=True)
    )
    page = Paginator(event_ids, MEMBER_EVENTS_PER_PAGE).get_page(page_number)
    on_page = list(page.object_list)
    page_events = Event.objects.in_bulk(on_page)
    chart_changes, by_event = _changes(member, rating_list, on_page, page_events)
    events = [(page_events[pk], by_event.get(pk)) for pk in on_page]
    page_changes = [by_event[pk] for pk in reversed(on_page) if pk in by_event]
    if show_rating and state is not None:
        # Each on its own list's system.
        changes_breakdown_fill(changes=page_changes, club=club)
        for change in page_changes:
            _count_games(change)
    data: dict[str, Any] = {
        "member": member,
        "published": published,
        "show_rating": show_rating,
        "state": state,
        "events": events,
        "event_groups": event_groups(events, system),
        "page": page,
        # A list: the pager under the events and the one under the games each read it (a
        # generator, the second read nothing and showed no page numbers).
        "page_range": list(
            page.paginator.get_elided_page_range(page.number, on_each_side=1, on_ends=1)
        ),
        "system": system,
        "officer": officer,
        "rating_list": rating_list,
        # FIDE's list is public, but beside a withheld club rating it would say too much.
        "fide": fide_figures(member) if show_rating else None,
        "brought_in": brought_in_shown(member, system) if officer else [],
    }
    if show_rating and state is not None:
        data.update(
            status_meaning=reports.status_of(state.display, system),
            # When the status changes next, as the system says: shown where the rating is.
            status_changes=member_status_changes(state, system, today=timezone.localdate()),
            rating_is_figure=figures.is_figure(state.display),
            games=(games := game_lines(page_changes, viewer=viewer, club=club)),
            games_body=games_body(games, member_pk=member.pk),
            figures_used=list(
                dict.fromkeys(g["figure_used"].why for g in games if g["figure_used"])
            ),
            # A game against an unpublished player shows no change: say why the games'
            # changes then fall short of the event's.
            withheld=any(game["hidden"] and game["rated"] for game in games),
            chart=_chart(member, chart_changes, system),
            legend=reports.legend(system),
            published_ratings=published_ratings(
                member=member, rating_list=rating_list, limit=PUBLISHED_SHOWN
            ),
        )
    return data


def _event_column(name: str) -> Subquery:
    """The column ``name`` of a row's event (an entry's, a change's), read by the event's
    key for each of the member's rows.

    Not a join: joined, PostgreSQL hashed every event of the club to sort a member's few
    hundred (a seq scan of 79,000 events at ten million games: 11-14 ms for the entries,
    20-40 ms for the changes), where each of theirs by its key is an index probe (2-4 ms
    for 840). SQLite walks either the same way."""
    return Subquery(Event.objects.filter(pk=OuterRef("event_id")).values(name))


def _changes(
    member: Member, rating_list: str, on_page: list[int], page_events: dict[int, Event]
) -> tuple[list[_ChartChange], dict[int, RatingChange]]:
    """Every change of the member in one pass: the list's for the chart, and the page's
    events' (each event's own list) with their breakdowns."""
    rows = (
        RatingChange.objects.filter(member=member)
        .order_by("event_end", "event_start", "event_id")
        .annotate(
            event_name=_event_column("name"),
            page_breakdown=Case(
                When(event_id__in=on_page, then=F("breakdown")),
                default=None,
                output_field=JSONText(),
            ),
        )
        .values_list(
            "time_class",
            "event_id",
            "event_name",
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
                breakdown=breakdown or {},  # type: ignore[misc]  # the JSON as stored
            )
            # The change as shown (after less before, both as displayed), so they add up.
            change.change_html = change_html(  # type: ignore[attr-defined]
                figures.shown_change(shown, shown_after)
            )
            change.unrated = 0  # type: ignore[attr-defined]
            by_event[event_id] = change
    return chart_changes, by_event


def _count_games(change: RatingChange) -> None:
    """The change's games and score as the event's report counts them (the rated games
    only, ``engine.rated_games``), and apart, the games the system left out: read from its
    game lines where there are any (a row written before the two were told apart stored
    every game's score)."""
    lines = change.detail.get("games")
    if not lines:
        return
    change.played, change.score = rated_games(lines)
    change.unrated = len(lines) - change.played  # type: ignore[attr-defined]


def event_groups(
    events: list[tuple[Event, RatingChange | None]], system: Any
) -> list[dict[str, Any]]:
    """The member's events (newest first) as the table shows them.

    Per-event systems: one group per event. Period systems: one group per rating period,
    its events under it, and the period's change once. Every change of a period holds
    the whole period's before and after (by design), so shown on each event they would
    read as that many changes. A group counts its rated games and their score, and apart
    the games the system left out (``unrated``).
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
                "unrated": 0,
                "events": [],
            }
            groups.append(group)
        group["events"].append((event, change))
        if change is not None:
            group["change"] = group["change"] or change
            group["played"] += change.played
            group["score"] += change.score
            group["unrated"] += getattr(change, "unrated", 0)
    return groups


def game_lines(
    changes: list[RatingChange], *, viewer: Viewer, club: ClubSettings
) -> list[dict[str, Any]]:
    """Every game of the member's rated events, newest first, opponents resolved in one
    query. An officer gets every figure; the public no unpublished opponent's rating nor
    what would give it away, and no such opponent's name either when the club keeps them
    off public pages ("Unpublished player")."""
    officer = publication.sees_every_rating(viewer)
    keep_off = not officer and keeps_off(club)
    ids = {
        int(line["opponent"])
        for change in changes
        for line in change.detail.get("games", [])
        if str(line.get("opponent", "")).isdigit()
    }
    opponents = {m.pk: m for m in Member.objects.filter(pk__in=ids).with_published(among=ids)}
    lines = []
    systems: dict[str, Any] = {}
    for change in reversed(changes):
        # An opponent's rating as the system used it, where not the one held: its own
        # list's system says why.
        system = systems.get(change.time_class)
        if system is None:
            system = systems[change.time_class] = club.engine(change.time_class)
        for line in change.detail.get("games", []):
            opponent = (
                opponents.get(int(line["opponent"])) if str(line["opponent"]).isdigit() else None
            )
            # An opponent's rating is theirs: not shown while they are not published, nor
            # the expected score against them, which gives it back. The game's change is
            # the member's own, shown as on the event's report (``withhold_unpublished``).
            visible = officer or (opponent is not None and opponent.is_published)  # type: ignore[attr-defined]
            game_change = services.game_line_change(line=line)
            lines.append(
                {
                    "event": change.event,
                    "round": line.get("round"),
                    "opponent": (
                        publication.UnpublishedPlayer(pk=opponent.pk)
                        if keep_off and opponent is not None and not visible
                        else opponent
                    ),
                    "opponent_rating": line.get("opponent_rating") if visible else None,
                    "figure_used": system.opponent_figure(line) if visible else None,
                    "score": line.get("score"),
                    "expected": line.get("expected") if visible else None,
                    # Tenths, as shown: a change of 0.04 is "0", not a green "+0".
                    "change": (round(game_change, 1) + 0.0 if game_change is not None else None),
                    "hidden": not visible,
                    "rated": line.get("rated", True),
                }
            )
    return lines


def published_ratings(*, member: Member, rating_list: str, limit: int | None = None) -> list[Any]:
    """The member's entries on the club's published lists of one list, newest first, in
    one query. Only a published member's: the caller asks for them only then."""
    entries = (
        member.publication_entries.filter(publication__time_class=rating_list)
        .select_related("publication")
        .only(
            "rank",
            "display",
            "games",
            "publication__slug",
            "publication__day",
            "publication__published_at",
            "publication__time_class",
        )
        .order_by("-publication__published_at", "-publication_id")
    )
    return list(entries[:limit] if limit else entries)


def rating_changes(*, member: Member, rating_list: str) -> Any:
    """The member's rated events on one list, newest first, as rows for ``rating_change``:
    their page's table's figures (the API reads them a page at a time)."""
    return (
        RatingChange.objects.filter(member=member, time_class=rating_list)
        .order_by("-event_end", "-event_start", "-event_id")
        .values_list(
            "event_id",
            "event__name",
            "event_end",
            "period",
            "played",
            "score",
            "display_before",
            "display_after",
            "before",
            "after",
        )
    )


def rating_change(row: tuple[Any, ...], *, published: bool) -> dict[str, Any]:
    """One row of ``rating_changes``: the event, its rated games and score (as the event's
    report counts them), and the rating before and after, withheld when not ``published``."""
    event, name, day, period, played, score, shown_before, shown_after, before, after = row
    figured = published and before is not None and after is not None
    return {
        "event": event,
        "event_name": name,
        "date": day,
        "period": period,
        "games": played,
        "score": score,
        "rating_before": shown_before if published else None,
        "rating_after": shown_after if published else None,
        "change": figures.shown_change(shown_before, shown_after) if figured else None,
    }


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


# -- the member's history as a CSV -------------------------------------------------------

#: The member history's columns: one row a game (an event without games rated: one row).
#: Each rating is a number a spreadsheet sorts, its marker ("p", "4 R") in the next column,
#: as in the report CSVs.
HISTORY_CSV = (
    "Event",
    "Start",
    "End",
    "Rating period",
    "Rating before",
    "Marker before",
    "Rating after",
    "Marker after",
    "Round",
    "Opponent",
    "Opponent number",
    "Opponent rating",
    "Score",
    "Expected",
    "Change",
    "Rated",
)


def member_history(
    *, member: Member, viewer: Viewer, club: ClubSettings
) -> list[list[Any]] | None:
    """Every event of the member, newest first, with each game as their page lists it: the
    CSV's rows (``HISTORY_CSV``). None for a reader who may not have it: the public gets a
    published member's only (their page shows the others' events but no rating, so there
    is no history to give). ``member`` annotated ``is_published``."""
    officer = publication.sees_every_rating(viewer)
    if not officer and not member.is_published:  # type: ignore[attr-defined]
        return None
    entries = (
        Entry.objects.filter(member=member)
        .select_related("event")
        .order_by("-event__end_date", "-event__start_date", "-event_id")
    )
    events = [entry.event for entry in entries]
    changes = list(
        RatingChange.objects.filter(member=member)
        .select_related("event")
        .order_by("-event_end", "-event_start", "-event_id")
    )
    by_event = {change.event_id: change for change in changes}
    # Each on its own list's system.
    changes_breakdown_fill(changes=changes, club=club)
    # A rating change keeps its period's label: each list's system names it.
    systems = {tc: club.engine(tc) for tc in {c.time_class for c in changes if c.period}}
    games: dict[int, list[dict[str, Any]]] = {}
    for line in game_lines(changes, viewer=viewer, club=club):
        games.setdefault(line["event"].pk, []).append(line)
    rows = []
    for event in events:
        change = by_event.get(event.pk)
        own = [event.name, event.start_date, event.end_date]
        if change is None:
            own += ["", "", "", "", ""]
        else:
            period = change.period and label_name(systems[change.time_class], change.period)
            own += [
                period,
                *figures.rating_and_marker(change.display_before),
                *figures.rating_and_marker(change.display_after),
            ]
        if event.pk not in games:
            rows.append([*own, *[""] * 8])
        for game in games.get(event.pk, []):
            opponent = game["opponent"]
            rows.append(
                [
                    *own,
                    game["round"],
                    opponent.name if opponent else "",
                    opponent.member_number if opponent else "",
                    _figure(game["opponent_rating"], 0),
                    "" if game["score"] is None else f"{float(game['score']):g}",
                    _figure(game["expected"], 2),
                    game["change"],
                    "yes" if game["rated"] else "no",
                ]
            )
    return rows


def _figure(value: Any, places: int) -> Any:
    if value is None:
        return ""
    return round(float(value), places) if places else round(float(value))


def rating_status(display: str, system: Any, last_played: Any = None) -> str:
    """The rating's status in a word or two, in the system's own terms ("provisional",
    "official", "partial", "confirmed"; "rated" where the system marks no difference),
    and whether the member is inactive."""
    meaning = reports.status_of(display, system)
    inactive = reports.status_of(display, system, last_played).removeprefix(meaning)
    return str(system.status_word(display)) + inactive  # "; inactive: last played …"
