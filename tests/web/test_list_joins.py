"""The list's pages join the list's members rather than naming them: however many members
a club has, no statement the page sends grows with them (a 60,000-member club's live list
once sent one statement naming every member, 820 kB of SQL, 15 s a page)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from ratings.models import Member, RatingState, Season, Subscription, listing

from ..conftest import made_once_for_the_class

pytestmark = pytest.mark.django_db

MEMBERS = 3000
REGIONS = ["North", "South", "East", "West"]


def a_club_of(count: int, season) -> None:
    """``count`` members, most paid up and rated, some juniors and women, four regions:
    made in a few statements (bulk), as an import of a members file makes them."""
    Member.objects.bulk_create(
        Member(
            member_number=f"B{n:05d}",
            name=f"Player {n:05d}",
            name_key=f"player {n:05d}",
            region=REGIONS[n % 4],
            gender="F" if n % 5 == 0 else "M",
            born=dt.date(2014, 1, 1) if n % 6 == 0 else dt.date(1980, 1, 1),
        )
        for n in range(count)
    )
    members = list(Member.objects.filter(member_number__startswith="B"))
    Subscription.objects.bulk_create(
        Subscription(member=m, season=season) for n, m in enumerate(members) if n % 7 != 3
    )
    RatingState.objects.filter(member__in=members).delete()
    RatingState.objects.bulk_create(
        RatingState(
            member=m,
            time_class="standard",
            rating=rating_of(n),
            display=str(rating_of(n)),
            usable=True,
            games=20,
        )
        for n, m in enumerate(members)
    )


def rating_of(n: int) -> int:
    """A few hundred rated apart, the rest tied at one rating (as a members file brings
    them in at the club's starting rating): the list's weakest end is one long tie."""
    return 2400 - n if n < 300 else 1500


#: The longest statement a page may send: a page's worth of names, not the club's.
MOST_SQL = 20_000
#: The longest list of values a statement may carry: a page's rows (the list's 50, the
#: print view's longer pages are read by offset).
MOST_VALUES = 60


def longest_in_list(sql: str) -> int:
    lists = re.findall(r"\bIN \(([^()]*)\)", sql)
    return max((len(values.split(",")) for values in lists), default=0)


def statements_of(client, url: str) -> list[str]:
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return [q["sql"] for q in queries.captured_queries]


LIVE = reverse("ratings:live-list")
PAGES = [
    LIVE,
    LIVE + "?page=30",
    LIVE + "?region=North",
    LIVE + "?age=U14",
    LIVE + "?women=on",
    LIVE + "?sort=name",
    LIVE + "?sort=rating",
    LIVE + "?sort=-rating",
    reverse("ratings:list"),
]
OFFICER_PAGES = [
    reverse("ratings:officer-ratings"),
    reverse("ratings:officer-ratings") + "?sort=rating",
    reverse("ratings:officer-members"),
    reverse("ratings:officer-members") + "?status=arrears",
    reverse("ratings:member", args=["B00400"]),
]


@pytest.fixture(scope="class")
def big_club(django_db_setup, django_db_blocker) -> Iterator[None]:
    """The club of ``MEMBERS``, made once for the pages of the class (made for each
    page, it was 14 times 1 to 3.5 s of set-up)."""
    with made_once_for_the_class(django_db_blocker):
        a_club_of(MEMBERS, Season.for_day(timezone.localdate()))
        yield


@pytest.mark.usefixtures("big_club")
class TestAClubOfThousands:
    @pytest.mark.parametrize("url", PAGES)
    def test_no_statement_of_a_list_page_names_the_clubs_members(self, client, url):
        statements = statements_of(client, url)
        assert max(len(sql) for sql in statements) < MOST_SQL
        assert max(longest_in_list(sql) for sql in statements) <= MOST_VALUES

    @pytest.mark.parametrize("url", OFFICER_PAGES)
    def test_no_statement_of_an_officers_page_names_the_clubs_members(self, officer_client, url):
        statements = statements_of(officer_client, url)
        assert max(len(sql) for sql in statements) < MOST_SQL
        assert max(longest_in_list(sql) for sql in statements) <= MOST_VALUES


def test_a_page_inside_a_long_tie_at_the_weak_end_places_its_rows_as_the_whole_list_does(
    client, current_season
):
    a_club_of(400, current_season)  # the weakest hundred tied at 1500
    published = Member.objects.published()
    expected = {m.name: str(m.rank) for m in listing.with_ratings(published)}
    cache.clear()
    response = client.get(LIVE, {"sort": "-rating"})
    rows = response.context["table"].page
    assert {row.record.name: str(row.get_cell_value("rank")) for row in rows} == {
        row.record.name: expected[row.record.name] for row in rows
    }
    assert {str(row.get_cell_value("rank")) for row in rows} == {expected["Player 00399"]}
