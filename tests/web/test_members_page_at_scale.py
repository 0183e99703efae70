"""The officer's members page reads its own page, whatever the club's size: its rows,
the filters' counts in one query, and the possible duplicates no further than it shows."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings import services
from ratings.models import Member, name_search
from ratings.pages.register import EVERYONE, register
from ratings.services import members as member_services
from ratings.views import officer_members

from ..factories import MemberFactory, paid_up, rating_state
from .test_list_at_scale import RowsRead

pytestmark = pytest.mark.django_db

MEMBERS = reverse("ratings:officer-members")


def register_of(count: int, season, start: int = 0) -> None:
    """Members in threes of one name (possible duplicates), some in arrears, some
    guests, some rated."""
    for n in range(start, start + count):
        member = MemberFactory(member_number=f"R{n:04d}", name=f"Ann Player{n // 3:04d}")
        if n % 7 != 3:
            paid_up(member, season)
        if n % 11 == 5:
            member.is_guest = True
            member.save()
        if n % 2:
            rating_state(member, rating=1500 + n, display=str(1500 + n), games=10)


@pytest.fixture
def few_shown(monkeypatch):
    """A page showing three possible duplicates, the names held twice read four at a time."""
    monkeypatch.setattr(officer_members, "DUPLICATES_SHOWN", 3)
    monkeypatch.setattr(member_services, "NAMES_A_BATCH", 4)


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"page": 3},
        {"status": "arrears"},
        {"status": "financial", "page": 2},
        {"status": "guest"},
        {"sort": "-rating"},
        {"sort": "member_number", "page": 2},
        {"q": "ann"},
    ],
)
def test_the_members_page_reads_the_same_rows_with_three_times_the_members(
    officer_client, current_season, monkeypatch, few_shown, query
):
    register_of(60, current_season)
    rows_read = RowsRead(monkeypatch)
    few_rows, few_queries = rows_read.of(officer_client, MEMBERS, per_page=5, **query)
    register_of(120, current_season, start=60)
    rows, queries = rows_read.of(officer_client, MEMBERS, per_page=5, **query)
    assert (rows, queries) == (few_rows, few_queries)
    assert rows < 60  # of 180 members


def test_the_filters_count_the_members_each_shows(officer_client, current_season):
    register_of(30, current_season)
    page = officer_client.get(MEMBERS, {"q": "ann"})
    shown = {key: count for key, _, count in page.context["filters"]}
    assert shown == {
        key: services.members_with_membership(Member.objects.active(), status=key).count()
        for key in services.MEMBERSHIP_FILTERS
    }
    assert page.context["table"].paginator.count == 30


def test_a_filters_pages_hold_its_members_alone_in_name_order(officer_client, current_season):
    register_of(30, current_season)
    seen = []
    for number in (1, 2):  # four members in arrears of 30
        page = officer_client.get(MEMBERS, {"status": "arrears", "page": number, "per_page": 2})
        seen += [row.record.member_number for row in page.context["table"].page]
    arrears = services.members_with_membership(Member.objects.active(), status="arrears").order_by(
        "name", "member_number"
    )
    assert seen == [m.member_number for m in arrears]


def test_the_possible_duplicates_shown_are_the_first_of_them_all_and_one_more_says_so(
    officer_client, current_season, few_shown
):
    register_of(30, current_season)
    everyone = services.members_possible_duplicates()
    page = officer_client.get(MEMBERS)
    assert page.context["possible_duplicates"] == everyone[:3]
    assert page.context["more_duplicates"]
    assert "And more, listed here as these are merged" in page.content.decode()


def test_a_few_possible_duplicates_are_all_shown(officer_client, current_season):
    register_of(6, current_season)
    page = officer_client.get(MEMBERS)
    assert page.context["possible_duplicates"] == services.members_possible_duplicates()
    assert len(page.context["possible_duplicates"]) == 6  # two names, three pairs each
    assert not page.context["more_duplicates"]


@pytest.fixture
def instructions(db):
    """SQLite's virtual machine instructions (in hundreds) while ``of`` renders a page: what
    the database does for it, rows the page never reads back included, whatever the load."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's own count of its work")
    ticks = [0]

    def tick() -> int:
        ticks[0] += 1
        return 0

    def of(client, url: str, **query: object) -> int:
        cache.clear()
        connection.ensure_connection()
        connection.connection.set_progress_handler(tick, 100)
        ticks[0] = 0
        try:
            assert client.get(url, query).status_code == 200
        finally:
            connection.connection.set_progress_handler(None, 0)
        return ticks[0]

    return of


def test_the_filters_counts_do_not_count_the_members_as_the_club_grows(
    officer_client, current_season, few_shown, instructions
):
    """The counts are kept with the published lists' figures and moved by each member's
    and payment's write: the page does the same work with three times the members (it
    counted every member, and listed every paid-up one, on each view)."""
    services.list_figures_keep()
    register_of(60, current_season)
    few = instructions(officer_client, MEMBERS, per_page=5)
    register_of(120, current_season, start=60)
    # The same work give or take a tick of SQLite's progress handler (a hundred
    # instructions: the session's and the figures' rows read a little differently in a
    # long run, 12 against 11); counting the members doubled it (49 against 23).
    assert instructions(officer_client, MEMBERS, per_page=5) <= few + 2


def test_the_kept_counts_are_the_counted_ones_and_a_search_is_counted(
    officer_client, current_season
):
    """Kept before the members came, moved by each of their writes: the same counts as
    the filters' own queries give, and a search's counted among the members it finds."""
    services.list_figures_keep()
    register_of(30, current_season)
    for query in ({}, {"q": "ann player0001"}):
        page = officer_client.get(MEMBERS, query)
        shown = {key: count for key, _, count in page.context["filters"]}
        found = Member.objects.active().filter(name_search(query.get("q", "")))
        assert shown == {
            key: services.members_with_membership(found, status=key).count()
            for key in services.MEMBERSHIP_FILTERS
        }


def club_of(count: int, start: int = 0) -> None:
    """``count`` more members, written at once (a members file's worth) with their name
    keys, and the table's statistics brought up to date, as autovacuum keeps them."""
    Member.objects.bulk_create(
        Member(member_number=f"B{n:05d}", name=f"Ann Player{n:05d}", name_key=f"ann player{n:05d}")
        for n in range(start, start + count)
    )
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {Member._meta.db_table}")


@pytest.fixture
def members_read(db):
    """The members PostgreSQL reads while ``of`` runs (its own count for this
    transaction: the table's rows scanned and fetched, its indexes' entries read): what a
    query costs inside the database, whatever the load."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's own count of the rows it reads")

    def read() -> int:
        # Index scans count the entries they read on the index, not on the table.
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_stat_get_xact_tuples_returned(%s::regclass)"
                " + pg_stat_get_xact_tuples_fetched(%s::regclass)"
                " + (SELECT coalesce(sum(pg_stat_get_xact_tuples_returned(indexrelid)), 0)"
                "    FROM pg_index WHERE indrelid = %s::regclass)",
                [Member._meta.db_table] * 3,
            )
            return int(cursor.fetchone()[0])

    def of(counted) -> int:
        before = read()
        counted()
        return read() - before

    return of


def test_a_name_search_reads_the_members_it_finds_not_every_member(members_read):
    """A search's counts (``pages.register``: one query) read the members whose name
    holds the word, down the name keys' trigrams, and the one whose number it is: a club
    three times the size, with the same Wexcombe in it, costs the same (it read every
    member's name key, ``LIKE '%wexcombe%'``). SQLite has no such index (skipped there).

    A surname no other test writes: a rolled-back test leaves its rows' index entries
    until VACUUM, and the bitmap scan reads those too (CI read 39 entries for "smith"
    after the tests of name matching had run on the same worker)."""
    MemberFactory(member_number="S1", name="Rosa Wexcombe")
    club_of(2000)
    few = members_read(lambda: register(query="wexcombe"))
    club_of(4000, start=2000)
    assert members_read(lambda: register(query="wexcombe")) == few
    assert few < 10
    assert register(query="wexcombe").counts[EVERYONE] == 1


@pytest.mark.parametrize("query", [{}, {"status": "arrears"}, {"q": "ann", "page": 2}])
def test_a_page_s_keys_are_read_with_nothing_joined_then_its_rows_whole(
    officer_client, current_season, query
):
    """The page's members are found in the table's order with no rating state joined (SQLite
    built a Bloom filter over every member's state to join them, for fifty rows), and
    only those members are read whole; the rows shown are the same."""
    register_of(30, current_season)
    with CaptureQueriesContext(connection) as captured:
        page = officer_client.get(MEMBERS, {**query, "per_page": 4})
    keys = [
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].startswith('SELECT "ratings_member"."id" AS "pk" FROM "ratings_member"')
        and "LIMIT" in q["sql"]
    ]
    assert len(keys) == 1
    assert "ratings_ratingstate" not in keys[0]
    shown = [row.record.member_number for row in page.context["table"].page]
    found = register(query=query.get("q", ""), status=query.get("status", "")).members
    start = 4 * (int(query.get("page", 1)) - 1)
    ordered = found.order_by("name", "pk")
    assert shown == [m.member_number for m in ordered[start : start + 4]]


def test_a_search_s_counts_ask_each_member_found_whether_they_paid(current_season):
    """Not the list of every paid-up member made for the few a name finds."""
    register_of(12, current_season)
    with CaptureQueriesContext(connection) as captured:
        counts = register(query="ann").counts
    counting = [q["sql"] for q in captured.captured_queries if "COUNT(" in q["sql"]]
    assert len(counting) == 1 and "EXISTS" in counting[0]
    assert counts == {
        key: services.members_with_membership(Member.objects.active(), status=key).count()
        for key in services.MEMBERSHIP_FILTERS
    } | {EVERYONE: 12}
