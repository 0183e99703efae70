"""What members read: the published list, member pages, reports, the calculator. No login.

Members in arrears and guests are rated like everyone else, but their ratings are not
published: these pages read ``Member.objects.published()`` and show nothing else to
the public. An officer sees everything, marked.
"""

from __future__ import annotations

import csv
import re
from collections import Counter, defaultdict
from typing import Any

from django.core.paginator import Paginator
from django.db.models import Case, F, JSONField, Q, QuerySet, When
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils import timezone
from django_tables2 import RequestConfig, Table

from .. import explain, reports, services
from ..charts import Point, period_points, rating_history_svg
from ..context_processors import club
from ..csvsafe import csv_safe, csv_safe_row
from ..filters import RatingListFilter
from ..forms import CalculatorGameFormSet, CalculatorPlayerForm
from ..models import ClubSettings, Entry, Event, Game, Member, RatingChange
from ..tables import (
    ActiveTable,
    ImproversTable,
    JuniorReportTable,
    ListPaginator,
    OfficerRatingTable,
    RatingListTable,
    ReportTable,
    change_html,
    reason_of,
)
from .officer import officer_required

PER_PAGE = 50


def _is_officer(request: HttpRequest) -> bool:
    return request.user.has_perm("ratings.officer")


def _csv(table: Table, filename: str) -> HttpResponse:
    """The table as the reader sees it, every row (not one page), as CSV."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    for row in table.as_values():
        writer.writerow(csv_safe_row(row))
    return response


def _wants_csv(request: HttpRequest) -> bool:
    return request.GET.get("_export") == "csv"


def home(request: HttpRequest) -> HttpResponse:
    system = ClubSettings.load().engine()
    recent = reports.rated_events()[:5]
    top = reports.published_ratings().filter(unrated=0)[:10]
    return render(
        request,
        "ratings/home.html",
        {"recent_events": recent, "top": top, "basis": reports.list_basis(system)},
    )


# -- the published list ---------------------------------------------------------------


def _club(request: HttpRequest) -> ClubSettings:
    """The club's settings, read once a request (the context processor reads these too)."""
    club(request)
    return request._club_settings  # type: ignore[attr-defined,no-any-return]


def _rating_list(request: HttpRequest, members: Any, table_class: type[Table], template: str):  # type: ignore[no-untyped-def]
    system = _club(request).engine()
    # Only the regions of the members this list can show: a region of unpublished members
    # alone would filter the public list down to nobody.
    regions = list(
        members.exclude(region="").values_list("region", flat=True).distinct().order_by("region")
    )
    filters = RatingListFilter(request.GET or None, queryset=members, regions=regions)
    # Filter first, then rank: "#" is the place among the members shown (e.g. the U16s).
    if _wants_csv(request):
        table = table_class(reports.with_ratings(filters.qs))
        RequestConfig(request, paginate=False).configure(table)  # the reader's order
        return _list_csv(
            table.data.data,
            officer=table_class is OfficerRatingTable,
            filename=f"rating-list-{timezone.localdate():%Y-%m-%d}.csv",
        )
    # One read of the list's order counts it, finds the page and ranks its rows
    # (``ListPaginator``); the page's members are then read by primary key.
    table = table_class(reports.with_ratings(filters.qs, ranked=False).only(*LIST_FIELDS))
    RequestConfig(
        request, paginate={"per_page": PER_PAGE, "paginator_class": ListPaginator}
    ).configure(table)
    export = request.GET.copy()
    export["_export"] = "csv"
    return render(
        request,
        template,
        {
            "table": table,
            "filter": filters,
            "system": system,
            "basis": reports.list_basis(system),
            "legend": reports.legend(system),
            "export_query": export.urlencode(),
            "filtered": any(v for k, v in request.GET.items() if k in filters.filters),
        },
    )


#: What a page of the list shows: every member's row is sorted, so none goes in it unread.
LIST_FIELDS = (
    "member_number",
    "name",
    "born",
    "region",
    "title",
    "is_guest",
    "merged_into",
    "rating_state__display",
    "rating_state__games",
    "rating_state__last_played",
    "rating_state__rating",
)


def _cell(value: Any) -> Any:
    """One cell of a streamed CSV as written: the one place cells pass on their way out."""
    return "" if value is None else csv_safe(value)


class _Lines:
    """A file for csv.writer that hands back what it is given."""

    def write(self, text: str) -> str:
        return text


#: The list's CSV columns (as the page's table heads them) and the fields they come from.
LIST_CSV = ("#", "Name", "Rating", "Games", "Last change", "Region", "Junior", "Last played")
OFFICER_LIST_CSV = ("#", "Name", "Rating", "Published?", *LIST_CSV[3:])
_LIST_FIELDS = (
    "rank",
    "unrated",
    "name",
    "rating_state__display",
    "rating_state__games",
    "last_change",
    "region",
    "born",
    "rating_state__last_played",
    "merged_into_id",
    "is_guest",
    "is_financial",
)


def _list_csv_rows(members: Any, *, officer: bool) -> Any:
    """The list's rows as the CSV has them, read in chunks straight from the query."""
    start = reports.year_start()
    rows = members.values_list(*_LIST_FIELDS).iterator(chunk_size=2000)
    for rank, unrated, name, display, games, change, region, born, played, *why in rows:
        row = [
            "" if unrated else rank,
            name,
            display,
            games,
            None if change is None else round(change),
            region,
            reports.age_group_of(born, start),
            played,
        ]
        if officer:
            merged, guest, financial = why
            row.insert(3, reason_of(merged=bool(merged), guest=guest, financial=financial))
        yield row


def _list_csv(members: Any, *, officer: bool, filename: str) -> StreamingHttpResponse:
    """The list, every row in the reader's order, streamed: rows are written as they are
    read, 500 to a chunk, never held all at once."""

    def chunks() -> Any:
        writer = csv.writer(_Lines())
        yield writer.writerow(OFFICER_LIST_CSV if officer else LIST_CSV)
        lines = []
        for row in _list_csv_rows(members, officer=officer):
            lines.append(writer.writerow([_cell(value) for value in row]))
            if len(lines) == 500:
                yield "".join(lines)
                lines = []
        yield "".join(lines)

    response = StreamingHttpResponse(chunks(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def published_list(request: HttpRequest) -> HttpResponse:
    return _rating_list(
        request, Member.objects.published(), RatingListTable, "ratings/public/list.html"
    )


@officer_required
def officer_list(request: HttpRequest) -> HttpResponse:
    """Everyone the engine rates, members in arrears and guests too, each marked."""
    return _rating_list(
        request,
        Member.objects.with_financial(),
        OfficerRatingTable,
        "ratings/public/officer_list.html",
    )


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
    member = get_object_or_404(
        Member.objects.with_financial().select_related("rating_state", "merged_into"),
        member_number=number,
    )
    if member.merged_into_id:
        return redirect(member.merged_into)
    system = _club(request).engine()
    published = member.is_financial and not member.is_guest
    show_rating = published or _is_officer(request)
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
                output_field=JSONField(),
            )
        )
        .values_list(
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
    for event_id, name, start, end, period, before, after, shown, shown_after, *rest in rows:
        chart_event = _ChartEvent(event_id, name, start, end)
        chart_changes.append(_ChartChange(period, before, after, shown, chart_event))
        if event_id in page_events:
            played, score, breakdown = rest
            change = RatingChange(
                member=member,
                event=page_events[event_id],
                period=period,
                before=before,
                after=after,
                display_before=shown,
                display_after=shown_after,
                played=played,
                score=score,
                breakdown=breakdown or {},
            )
            change.change_html = change_html(change.change)  # type: ignore[attr-defined]
            by_event[event_id] = change
    events = [(page_events[pk], by_event.get(pk)) for pk in on_page]
    page_changes = [by_event[pk] for pk in reversed(on_page) if pk in by_event]
    officer = _is_officer(request)
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
    }
    if show_rating and state is not None:
        context.update(
            status=rating_status(state.display, system, state.last_played),
            status_meaning=reports.status_of(state.display, system),
            games=(games := _game_lines(page_changes, officer=officer)),
            # A game against an unpublished player shows no change: say why the games'
            # changes then fall short of the event's.
            withheld=any(game["hidden"] and game["rated"] for game in games),
            chart=_chart(member, chart_changes),
            legend=reports.legend(system),
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
    if not display:
        word = "no rating yet"
    elif not meaning or meaning.startswith("the member's rating"):
        word = "rated"
    else:
        word = re.split(r"[:;]", meaning, maxsplit=1)[0].strip()
        word = re.sub(r"^(a|an) ", "", word)
        word = re.sub(r" rating$", "", word)
    inactive = reports.status_of(display, system, last_played).removeprefix(meaning)
    return word + inactive  # "; inactive: last played …" when it has been a year


def _membership(member: Member) -> str:
    """For officers: why the member's rating is or is not published."""
    if member.is_guest:
        return "guest"
    return "financial" if member.is_financial else "in arrears"


def _game_lines(changes: list[RatingChange], *, officer: bool) -> list[dict[str, Any]]:
    """Every game of the member's rated events, newest first, opponents resolved in one query."""
    ids = {
        int(line["opponent"])
        for change in changes
        for line in change.detail.get("games", [])
        if str(line.get("opponent", "")).isdigit()
    }
    opponents = {m.pk: m for m in Member.objects.with_financial().filter(pk__in=ids)}
    lines = []
    for change in reversed(changes):
        for line in change.detail.get("games", []):
            opponent = (
                opponents.get(int(line["opponent"])) if str(line["opponent"]).isdigit() else None
            )
            # An opponent's rating is theirs: not shown while they are not published. Nor is
            # what would give it away with the member's own rating: the expected score and
            # the game's own change. (The event's total change is the member's, and public.)
            visible = officer or (
                opponent is not None and opponent.is_financial and not opponent.is_guest
            )
            game_change = services.game_line_change(line=line)
            lines.append(
                {
                    "event": change.event,
                    "round": line.get("round"),
                    "opponent": opponent,
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


def _chart(member: Member, changes: list[Any]) -> str:
    """One point per rated event; for period systems one per rating period (every change
    of a period holds the period's after, so one point per event would repeat it)."""
    if any(c.period for c in changes):
        points = period_points(changes)
    else:
        points = []
        if changes and changes[0].before is not None and changes[0].display_before:
            first = changes[0].event
            points.append(Point(first.start_date, changes[0].before, "before " + first.name))
        for change in changes:
            if change.after is not None:
                points.append(Point(change.event.end_date, change.after, change.event.name))
    return rating_history_svg(points, title=f"Rating history of {member.name}")


def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The players by place (points from the games, then name), each with score and games;
    ratings and changes for the published players (an officer: everyone, marked)."""
    event = get_object_or_404(Event, pk=pk)
    shown = set(
        Member.objects.published().filter(entries__event=event).values_list("pk", flat=True)
    )
    officer = _is_officer(request)
    changes = {c.member_id: c for c in event.rating_changes.all()}
    points: dict[int, float] = defaultdict(float)
    games: dict[int, int] = defaultdict(int)
    for white, black, result in event.games.values_list("white_id", "black_id", "result"):
        white_points, black_points = Game.POINTS[result]
        points[white] += white_points
        games[white] += 1
        if black is not None:
            points[black] += black_points
            games[black] += 1
    members = sorted(
        Member.objects.filter(entries__event=event), key=lambda m: (-points[m.pk], m.name)
    )
    sharing = Counter(points[m.pk] for m in members)
    players = []
    place = 0
    for index, member in enumerate(members, start=1):
        if index == 1 or points[member.pk] != points[members[index - 2].pk]:
            place = index  # players on the same points share the first of their places
        change = changes.get(member.pk)
        published = member.pk in shown
        visible = change is not None and (officer or published)
        players.append(
            {
                "member": member,
                "place": f"{place}=" if sharing[points[member.pk]] > 1 else str(place),
                "points": points[member.pk],
                "games": games[member.pk],
                "change": change if visible else None,
                "change_html": change_html(change.change) if visible and change else "",
                "rated": change,
                "unpublished": change is not None and not published,
            }
        )
    return render(
        request,
        "ratings/public/event.html",
        {"event": event, "players": players, "has_ratings": bool(changes)},
    )


# -- reports ---------------------------------------------------------------------------


REPORT_TABLES: dict[str, type[Table]] = {
    "under-20": JuniorReportTable,
    "under-16": JuniorReportTable,
    "under-12": JuniorReportTable,
    "improvers": ImproversTable,
    "active": ActiveTable,
}


def report_index(request: HttpRequest) -> HttpResponse:
    system = ClubSettings.load().engine()
    return render(
        request,
        "ratings/public/reports.html",
        {"reports": reports.REPORTS.values(), "basis": reports.list_basis(system)},
    )


def report_detail(request: HttpRequest, slug: str) -> HttpResponse:
    report = reports.REPORTS.get(slug)
    if report is None:
        raise Http404("No such report.")
    system = ClubSettings.load().engine()
    span = reports.report_window(system, request.GET.get("since"))
    rows = report.rows(span)
    if slug != "active":
        rows = rows[: reports.TOP]
    table = REPORT_TABLES.get(slug, ReportTable)(rows)
    if _wants_csv(request):
        return _csv(table, f"{slug}-{timezone.localdate():%Y-%m-%d}.csv")
    export = request.GET.copy()
    export["_export"] = "csv"
    return render(
        request,
        "ratings/public/report.html",
        {
            "report": report,
            "table": table,
            "span": span,
            "system": system,
            "basis": reports.list_basis(system),
            "since_choices": reports.SINCE_CHOICES if not system.period_based else {},
            "since": request.GET.get("since", "3"),
            "export_query": export.urlencode(),
            "today": timezone.localdate(),
        },
    )


# -- the calculator --------------------------------------------------------------------


def _calculator_members(officer: bool) -> QuerySet[Member]:
    """The members one may pick: the published ones (an officer: everyone rated)."""
    members = Member.objects.published() if not officer else Member.objects.active()
    return members.listable().exclude(rating_state__display="")


#: The most members the search box offers at once, and the fewest letters it searches on.
SEARCH_LIMIT = 20
SEARCH_MIN = 2


def member_search(request: HttpRequest) -> JsonResponse:
    """The calculator's search box: up to 20 members one may pick whose name (every word
    typed) or number matches ``q``, with their rating as the list shows it."""
    query = request.GET.get("q", "").strip()[:60]
    if len(query) < SEARCH_MIN:
        return JsonResponse({"members": []})
    members = _calculator_members(_is_officer(request))
    for word in query.split():
        members = members.filter(Q(name__icontains=word) | Q(member_number__iexact=word))
    # Names that begin as typed first ("ben ch": Ben Chen before Ben Archer).
    first = Case(
        When(Q(name__istartswith=query) | Q(member_number__iexact=query), then=0), default=1
    )
    rows = (
        members.annotate(first=first)
        .order_by("first", "name", "member_number")
        .values_list("member_number", "name", "rating_state__display")[:SEARCH_LIMIT]
    )
    found = [
        {"number": number, "name": name, "rating": display, "label": f"{name} ({number})"}
        for number, name, display in rows
    ]
    return JsonResponse({"members": found})


def _initial(request: HttpRequest) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The answers so far, put back into fresh forms with one more game row."""
    get = request.GET
    player = {f: get.get(f"p-{f}", "") for f in ("member", "rating", "games")}
    try:
        count = min(int(get.get("g-TOTAL_FORMS", 0)), 39)
    except ValueError:
        count = 0
    games = [
        {f: get.get(f"g-{i}-{f}", "") for f in ("opponent", "rating", "result")}
        for i in range(count)
    ]
    return player, [*games, {}]


def calculator(request: HttpRequest) -> HttpResponse:
    """What if I beat her? A GET form, so a what-if can be bookmarked and shared."""
    members = _calculator_members(_is_officer(request))
    outcome = None
    if "add" in request.GET:
        player_initial, games_initial = _initial(request)
        player_form = CalculatorPlayerForm(initial=player_initial, members=members, prefix="p")
        formset = CalculatorGameFormSet(
            initial=games_initial, prefix="g", form_kwargs={"members": members}
        )
        formset.extra = 0
    elif "go" in request.GET:
        player_form = CalculatorPlayerForm(request.GET, members=members, prefix="p")
        formset = CalculatorGameFormSet(request.GET, prefix="g", form_kwargs={"members": members})
        if player_form.is_valid() and formset.is_valid():
            outcome = _calculate(player_form.cleaned_data, formset)
            if outcome is None:
                player_form.add_error(
                    "member", "You cannot play yourself: choose another opponent."
                )
    else:
        player_form = CalculatorPlayerForm(members=members, prefix="p")
        formset = CalculatorGameFormSet(prefix="g", form_kwargs={"members": members})
    return render(
        request,
        "ratings/public/calculator.html",
        {
            "player_form": player_form,
            "formset": formset,
            "outcome": outcome,
            "system": ClubSettings.load().engine(),
        },
    )


def _calculate(player: dict[str, Any], formset: Any) -> dict[str, Any] | None:
    rows = [f.cleaned_data for f in formset.forms if not f.is_blank]
    picked = {row["opponent"].pk: row["opponent"] for row in rows if row["opponent"] is not None}
    labels = {pk: f"{m.name} ({m.rating_state.display})" for pk, m in picked.items()}
    if player["member"] is not None:
        if player["member"].pk in picked:
            return None
        picked[player["member"].pk] = player["member"]
    states = services.calculator_states(members=picked.values())
    if player["member"] is not None:
        me = states[player["member"].pk]
    else:
        me = services.calculator_typed(key="you", rating=player["rating"], games=player["games"])
    games = []
    names = {}
    for number, row in enumerate(rows, 1):
        if row["opponent"] is not None:
            opponent = states[row["opponent"].pk]
            names[opponent.id] = labels[row["opponent"].pk]
        else:
            opponent = services.calculator_typed(
                key=f"typed-{number}",
                rating=row["rating"],
                games=services.CALCULATOR_TYPED_GAMES,
            )
            names[opponent.id] = f"a player rated {row['rating']:g}"
        games.append((opponent, float(row["result"])))
    change = services.calculator_rate(player=me, games=games)
    columns = explain.line_columns([line.detail for line in change.games], change.detail)
    lines = [
        {
            "opponent": names.get(line.opponent, line.opponent),
            "opponent_rating": line.opponent_rating,
            "score": line.score,
            "expected": line.expected,
            "change": services.game_line_change(line={**line.detail, "change": line.change}),
            "rated": line.rated,
            "extra": [explain.line_text(key, line.detail.get(key)) for key in columns],
        }
        for line in change.games
    ]
    detail = {k: v for k, v in change.detail.items() if isinstance(v, int | float | str)}
    delta = None
    if change.before is not None and change.after is not None:
        delta = change.after - change.before
    return {
        "change": change,
        "lines": lines,
        "detail": detail,
        "breakdown": explain.breakdown_items(detail),
        "columns": [explain.line_label(key) for key in columns],
        "delta": delta,
    }


urlpatterns = [
    path("", home, name="home"),
    path("ratings/", published_list, name="list"),
    path("members/<str:number>/", member_detail, name="member"),
    path("events/<int:pk>/", event_detail, name="event"),
    path("reports/", report_index, name="reports"),
    path("reports/<slug:slug>/", report_detail, name="report"),
    path("calculator/", calculator, name="calculator"),
    path("calculator/members/", member_search, name="member_search"),
    path("officer/ratings/", officer_list, name="officer-ratings"),
]
