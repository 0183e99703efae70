"""The list's pages stay the same few queries however long the list, and rank as ever."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.backends.utils import CursorWrapper
from django.http import StreamingHttpResponse
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from ratings import services
from ratings.models import (
    Member,
    PublishedListFigures,
    RatingState,
    Subscription,
    listing,
)
from ratings.models.ranking import PublishedRanking
from ratings.presentation.list_paginator import ListPaginator
from ratings.rules.names import name_key

from ..factories import MemberFactory, rating_state

pytestmark = pytest.mark.django_db

LIST = reverse("ratings:list")
OFFICER_LIST = reverse("ratings:officer-ratings")


@pytest.fixture(autouse=True)
def _too_long_to_carry_for_print(settings):
    """These small clubs stand for the long lists this file is about: over
    ``PRINT_WHOLE_LIST_ROWS``, so a page carries no rows for the browser's Print and reads
    only its own (test_list_printed_page.py checks what a short list carries)."""
    settings.PRINT_WHOLE_LIST_ROWS = 0


def club_of(count: int, season, start: int = 0, regions: tuple[str, ...] = ("North",)) -> None:
    """Members rated in steps of 10 with ties (three to a rating), some unrated ("Unr"),
    some in arrears, one a guest; a fifth of them women, a third under 16 this year, a
    few with no date of birth (in no age group). Made in a few statements, as a members
    file's import makes them (its bulk writes forget the list's figures): a member at a
    time cost 10 ms each, a third of this file's time."""
    year = timezone.localdate().year
    numbers = range(start, start + count)
    members = Member.objects.bulk_create(
        Member(
            member_number=f"S{n:04d}",
            name=f"Player {n:04d}",
            name_key=name_key(f"Player {n:04d}"),
            region=regions[n % len(regions)],
            gender="F" if n % 5 == 1 else "M",
            born=None if n % 13 == 6 else dt.date(year - (14 if n % 3 == 0 else 40), 3, 1),
            is_guest=n % 11 == 5,
        )
        for n in numbers
    )
    services.member_states_create(members=members)
    Subscription.objects.bulk_create(
        Subscription(member=member, season=season)
        for n, member in zip(numbers, members, strict=True)
        if n % 7 != 3
    )
    states = {
        state.member_id: state
        for state in RatingState.objects.filter(member__in=members, time_class="standard")
    }
    for n, member in zip(numbers, members, strict=True):
        state = states[member.pk]
        state.rating = 2000 - 10 * (n // 3)
        state.usable = n % 9 != 4
        state.display = str(int(state.rating)) if state.usable else "Unr"
        state.games = 20
    RatingState.objects.bulk_update(states.values(), ["rating", "usable", "display", "games"])
    services.list_figures_forget()


def ranks_on(client, url: str, **query: object) -> list[tuple[str, str]]:
    cache.clear()  # the page as built (a kept copy has no context to read the table from)
    response = client.get(url, query)
    return [
        (row.record.name, row.get_cell_value("rank") or "")
        for row in response.context["table"].page
    ]


def windowed(members) -> dict[str, str]:
    return {m.name: ("" if m.unrated else str(m.rank)) for m in listing.with_ratings(members)}


@pytest.mark.parametrize("sort", ["", "rating", "-rating", "rank", "-rank", "name", "-games"])
def test_a_page_ranks_its_rows_as_the_whole_list_would(client, current_season, sort):
    club_of(130, current_season)
    expected = windowed(Member.objects.published())
    seen = {}
    for page in (1, 2, 3):
        query = {"page": page, **({"sort": sort} if sort else {})}
        for name, rank in ranks_on(client, LIST, **query):
            seen[name] = rank
    assert seen == expected
    assert len(set(expected.values()) - {""}) < len(expected)  # ties share a place


def test_the_officer_list_places_the_published_as_the_published_list_does_and_no_one_else(
    officer_client, current_season
):
    club_of(70, current_season)
    published = windowed(Member.objects.published())
    expected = {m.name: published.get(m.name, "") for m in Member.objects.listable()}
    seen = dict(
        ranks_on(officer_client, OFFICER_LIST) + ranks_on(officer_client, OFFICER_LIST, page=2)
    )
    assert seen == expected


@pytest.mark.parametrize("sort", ["", "name", "-last_played"])
def test_a_page_too_long_to_rank_in_the_database_is_placed_the_same(
    client, current_season, sort, monkeypatch
):
    """The print view's whole list on one page is placed from the published ratings read
    once, not ranked in the database: the same places either way."""
    club_of(40, current_season)
    query = {"per_page": 40, **({"sort": sort} if sort else {})}
    ranked = ranks_on(client, LIST, **query)
    assert len(ranked) > 10
    monkeypatch.setattr(PublishedRanking, "MOST_RANKED", 10)
    assert ranks_on(client, LIST, **query) == ranked
    assert ranked == [(n, windowed(Member.objects.published())[n]) for n, _ in ranked]


def count_queries(client, url: str, **query: object) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, query)
        if isinstance(response, StreamingHttpResponse):
            b"".join(response.streaming_content)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize(
    "url, query",
    [
        (LIST, {}),
        (LIST, {"page": 2}),
        (LIST, {"page": -1, "sort": "name"}),
        (LIST, {"region": "North", "sort": "-rating", "page": 2}),
        (LIST, {"_export": "csv"}),
        (OFFICER_LIST, {"page": 2}),
        (OFFICER_LIST, {"_export": "csv"}),
    ],
)
def test_the_list_takes_the_same_queries_with_ten_times_the_members(
    officer_client, current_season, url, query
):
    club_of(60, current_season)
    few = count_queries(officer_client, url, **query)
    club_of(540, current_season, start=60)
    # No more: the whole list's page reads its unrated members only when it reaches them
    # (all 60's first page does; the first page of 600 is all usable ratings).
    assert count_queries(officer_client, url, **query) <= few


class RowsRead:
    """The rows the database hands back to Python while it is on (every fetch of every
    cursor), and the queries: what a page costs, whatever the machine's load."""

    def __init__(self, monkeypatch) -> None:
        self.rows = 0
        counter = self

        def fetchone(cursor):
            row = cursor.cursor.fetchone()
            counter.rows += row is not None
            return row

        def fetchmany(cursor, size=None):
            rows = cursor.cursor.fetchmany() if size is None else cursor.cursor.fetchmany(size)
            counter.rows += len(rows)
            return rows

        def fetchall(cursor):
            rows = cursor.cursor.fetchall()
            counter.rows += len(rows)
            return rows

        for method in (fetchone, fetchmany, fetchall):
            monkeypatch.setattr(CursorWrapper, method.__name__, method, raising=False)

    def of(self, client, url: str, **query: object) -> tuple[int, int]:
        """The rows read and the queries made to GET ``url`` (rendered, no kept copy)."""
        cache.clear()
        self.rows = 0
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, query)
        assert response.status_code == 200
        return self.rows, len(queries)


@pytest.mark.parametrize(
    "url, query",
    [
        (LIST, {}),
        (LIST, {"sort": "-rating", "page": 2}),
        (LIST, {"region": "North"}),
        (LIST, {"region": "North", "sort": "name", "page": 3}),
        (LIST, {"region": "North", "sort": "-last_played"}),
        (OFFICER_LIST, {"page": 2}),
        (OFFICER_LIST, {"sort": "name"}),
    ],
)
def test_a_list_page_reads_its_own_rows_not_every_members(
    officer_client, current_season, monkeypatch, url, query
):
    """Filtered, sorted, counted and placed in the database: with three times the members,
    the same queries and no more rows read than a page's (never every listed member's
    keys). A page's rows come back, then the places of those of them with a published
    rating: how many of those varies with who is on the page, never with the club."""
    club_of(60, current_season)
    rows_read = RowsRead(monkeypatch)
    few_rows, few_queries = rows_read.of(officer_client, url, per_page=10, **query)
    club_of(120, current_season, start=60)
    rows, queries = rows_read.of(officer_client, url, per_page=10, **query)
    assert queries == few_queries
    assert rows <= few_rows + 10
    assert rows < 60  # of 180 members, some 110 of them listed


@pytest.mark.parametrize(
    "query", [{"sort": "name", "page": 2}, {"sort": "-name", "page": 3}, {"sort": "-games"}]
)
def test_the_whole_list_sorted_another_way_is_read_in_one_pass_and_never_ranked_again(
    officer_client, current_season, monkeypatch, query
):
    """The whole list by name or games: a page's ratings span the list, so its places
    come from the one pass that reads the list's keys (one a listed member), never from a
    second pass ranking the whole list (twice the database's work)."""
    club_of(60, current_season)
    rows_read = RowsRead(monkeypatch)
    few_rows, few_queries = rows_read.of(officer_client, LIST, per_page=10, **query)
    few_listed = listing.with_ratings(Member.objects.published(), ranked=False).count()
    club_of(120, current_season, start=60)
    with CaptureQueriesContext(connection) as captured:
        rows, queries = rows_read.of(officer_client, LIST, per_page=10, **query)
    listed = listing.with_ratings(Member.objects.published(), ranked=False).count()
    assert queries == few_queries
    assert rows - few_rows == listed - few_listed
    assert not [q for q in captured.captured_queries if " OVER (" in q["sql"]]


STANDING_SORTS = [
    {"sort": "name", "page": 2},
    {"sort": "-name", "page": 3},
    {"sort": "-games"},
    {"sort": "region", "page": 2},
    {"sort": "-last_played"},
    {"sort": "last_change"},
    {"sort": "-rank", "page": 2},
]


@pytest.mark.parametrize("query", STANDING_SORTS)
def test_the_whole_list_sorted_another_way_reads_a_page_of_its_kept_standings(
    officer_client, current_season, monkeypatch, query
):
    """With each member's standing kept (the worker writes them): the whole list by
    name, games, region... reads its page's standings and their members, the same rows
    and queries with three times the members, never the list's keys."""
    club_of(60, current_season)
    services.list_figures_keep(standings=True)
    rows_read = RowsRead(monkeypatch)
    few_rows, few_queries = rows_read.of(officer_client, LIST, per_page=10, **query)
    club_of(120, current_season, start=60)
    services.list_figures_keep(standings=True)
    rows, queries = rows_read.of(officer_client, LIST, per_page=10, **query)
    assert (rows, queries) == (few_rows, few_queries)
    assert rows < 40  # of 180 members, some 110 of them listed


#: The list's filters the kept standings answer (region, age group, women), alone and
#: together, in the list's order and sorted another way.
FILTERED = [
    {"region": "South"},
    {"region": "South", "page": 2},
    {"region": "South", "sort": "name", "page": 2},
    {"region": "South", "sort": "-rating"},
    {"age": "U16"},
    {"age": "U16", "page": 2},
    {"age": "U16", "sort": "-games"},
    {"women": "on"},
    {"women": "on", "sort": "-last_played", "page": 2},
    {"women": "on", "region": "South", "sort": "-name"},
    {"age": "U20", "women": "on", "sort": "-rank"},
]


@pytest.mark.parametrize("query", FILTERED)
def test_a_filtered_page_reads_its_own_kept_standings_whatever_the_club_s_size(
    officer_client, current_season, monkeypatch, query
):
    """With each member's standing kept: a region's, the juniors' or the women's page (any
    order) counts and reads its page among the kept standings, and places each row by its
    kept place: the same rows read and queries with three times the members, and never
    the published list ranked or its ratings read."""
    club_of(60, current_season, regions=("North", "South"))
    services.list_figures_keep(standings=True)
    rows_read = RowsRead(monkeypatch)
    few_rows, few_queries = rows_read.of(officer_client, LIST, per_page=2, **query)
    club_of(120, current_season, start=60, regions=("North", "South"))
    services.list_figures_keep(standings=True)
    with CaptureQueriesContext(connection) as captured:
        rows, queries = rows_read.of(officer_client, LIST, per_page=2, **query)
    assert (rows, queries) == (few_rows, few_queries)
    # The members are read by primary key alone, the page's: never filtered, counted or
    # placed among every published member (the publication rule, a window over them).
    read = [q["sql"] for q in captured.captured_queries if 'FROM "ratings_member"' in q["sql"]]
    assert len(read) == 1
    assert "ratings_subscription" not in read[0] and " OVER (" not in read[0], read[0]


@pytest.mark.parametrize("query", STANDING_SORTS + FILTERED)
def test_a_page_of_the_kept_standings_is_the_page_the_list_reads_without_them(
    client, current_season, query
):
    club_of(90, current_season, regions=("North", "South", "North"))
    services.list_figures_keep(standings=True)
    kept = ranks_on(client, LIST, **query)
    PublishedListFigures.objects.update(figures=None)  # nothing kept: the list read
    assert ranks_on(client, LIST, **query) == kept


@pytest.mark.parametrize("reached", [5, 40, 8000])
@pytest.mark.parametrize("sort", ["", "-rating", "name", "-games"])
def test_a_filtered_page_is_placed_alike_from_either_end_of_the_ratings(
    client, current_season, monkeypatch, reached, sort
):
    """A filtered page's places are read from the nearer end of the ratings when few are
    above (or below) it, else from the whole list ranked: the whole list's places
    either way, ties sharing one."""
    club_of(130, current_season)
    for n in range(0, 130, 4):  # a quarter of the club moves to the South
        Member.objects.filter(member_number=f"S{n:04d}").update(region="South")
    monkeypatch.setattr(PublishedRanking, "MOST_REACHED", reached)
    expected = windowed(Member.objects.published())
    seen = {}
    for page in (1, 2, 3):
        query = {"region": "South", "page": page, **({"sort": sort} if sort else {})}
        for name, rank in ranks_on(client, LIST, per_page=10, **query):
            seen[name] = rank
    south = Member.objects.published().filter(region="South").values_list("name", flat=True)
    assert seen == {name: expected[name] for name in south}
    assert len(set(seen.values()) - {""}) < len(seen)  # ties share a place


@pytest.mark.parametrize("url", [LIST, OFFICER_LIST])
def test_the_csv_streams_the_rows_of_the_pages_in_their_order(officer_client, current_season, url):
    club_of(160, current_season)
    response = officer_client.get(url, {"_export": "csv", "sort": "-rating"})
    assert isinstance(response, StreamingHttpResponse)
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="rating-list-')
    rows = list(csv.reader(io.StringIO(response.getvalue().decode())))
    assert rows[0][:3] == ["rank", "id", "name"]
    assert len(rows) > 100
    # And the page's rows, in the page's order.
    page = officer_client.get(url, {"sort": "-rating", "page": 2}).context["table"].page
    assert [row[2] for row in rows[51:101]] == [row.record.name for row in page]
    assert [row[0] for row in rows[51:101]] == [
        str(row.get_cell_value("rank") or "") for row in page
    ]


def whole_list(strongest_first: bool = True) -> list[tuple[str, str]]:
    """The whole published list in the rating order (``-rating``: weakest first, unrated
    last either way), each member with their place, as one query over everyone orders it."""
    members = listing.with_ratings(Member.objects.published())
    if not strongest_first:
        members = members.order_by("unrated", "rating_value", "name")
    return [(m.name, "" if m.unrated else str(m.rank)) for m in members]


def every_page(client, per_page: int, **query: object) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    page = 1
    while True:
        shown = ranks_on(client, LIST, per_page=per_page, page=page, **query)
        if not shown or (rows and shown[-1] == rows[-1]):  # past the last page: the last again
            return rows
        rows += shown
        page += 1


@pytest.mark.parametrize("sort", ["", "-rating"])
def test_the_rating_orders_pages_read_from_the_ends_are_the_whole_lists_rows_ties_placed(
    client, current_season, sort
):
    """Pages of 7 on a list of ties in threes: ties run over pages' edges, and the pages
    near each end are read from that end of the rating index."""
    club_of(130, current_season)
    query = {"sort": sort} if sort else {}
    assert every_page(client, 7, **query) == whole_list(strongest_first=sort != "-rating")


@pytest.mark.parametrize("sort", ["", "-rating"])
def test_the_rating_orders_pages_read_at_their_offsets_are_the_same(
    client, current_season, monkeypatch, sort
):
    """Deeper than ``MAX_FROM_END`` a page is read at its offset, its first rating's place
    counted: the same rows and places."""
    club_of(130, current_season)
    monkeypatch.setattr(ListPaginator, "MAX_FROM_END", 0)
    query = {"sort": sort} if sort else {}
    assert every_page(client, 7, **query) == whole_list(strongest_first=sort != "-rating")


def test_the_first_page_reads_deeper_when_the_highest_rated_are_not_published(
    client, current_season
):
    """The best-rated hundred are in arrears: the first page's members are found below
    them all the same."""
    club_of(60, current_season)
    for n in range(100):
        member = MemberFactory(member_number=f"Z{n:04d}", name=f"Arrears {n:04d}")
        rating_state(member, rating=3000 - n, display=str(3000 - n), games=20)
    first = ranks_on(client, LIST, per_page=7)
    assert first == whole_list()[:7]
    assert first[0] == ("Player 0000", "1")


@pytest.mark.parametrize("sort", ["", "-rating", "rank", "-rank"])
def test_the_rating_orders_pages_read_from_the_kept_standings_are_the_whole_lists_rows(
    client, current_season, sort
):
    """With each member's standing kept, the whole list in the rating order (either way,
    and "#" either way) reads each page among them, from the nearer end: the rows and
    places of the list read whole, ties running over the pages' edges."""
    club_of(130, current_season)
    services.list_figures_keep(standings=True)
    query = {"sort": sort} if sort else {}
    with CaptureQueriesContext(connection) as captured:
        pages = every_page(client, 7, **query)
    expected = whole_list(strongest_first=sort != "-rating")
    assert pages == (expected[::-1] if sort == "-rank" else expected)
    read = [q["sql"] for q in captured.captured_queries]
    standings = [sql for sql in read if 'FROM "ratings_liststanding"' in sql]
    assert len(standings) >= len(pages) // 7  # one a page at least
    assert not [sql for sql in read if 'FROM "ratings_ratingstate"' in sql]
