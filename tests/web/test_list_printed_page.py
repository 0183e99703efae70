"""The browser's own Print of a list page prints every row its header counts (issue 41).

A page of a list of at most ``PRINT_WHOLE_LIST_ROWS`` members carries the list's other
rows, hidden on screen and printed (``ratings/pages/list_print.py``); a page of a longer
list says on paper which members it holds, and names the whole list that its script loads
as printing starts."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from ratings import services

from ..factories import MemberFactory, paid_up, rating_state

pytestmark = pytest.mark.django_db

LIST = reverse("ratings:list")
NOTE = (
    "This prints the page shown: members 1–2 of 3."
    " For the whole list, all 3, use the page's Print button."
)


@pytest.fixture
def three_members(current_season):
    for number, name, rating, region in [
        ("A1", "Ann", 1900, "North"),
        ("B2", "Ben", 1800, "South"),
        ("C3", "Cat", 1700, "North"),
    ]:
        member = paid_up(
            MemberFactory(member_number=number, name=name, region=region), current_season
        )
        rating_state(member, rating=rating, display=str(rating), games=10)


def carried(page: str) -> list[list[str]]:
    """The names in each of the page's row groups hidden on screen and printed."""
    groups = re.findall(r'<tbody class="print-rest" hidden>(.*?)</tbody>', page, re.S)
    return [re.findall(r'<a href="/members/[^"]+">([^<]+)</a>', group) for group in groups]


def test_a_page_of_the_live_list_carries_the_members_before_and_after_it_for_print(
    client, three_members
):
    page = client.get(LIST, {"per_page": 1, "page": 2}).content.decode()
    assert carried(page) == [["Ann"], ["Cat"]]  # Ben is the page's own row, printed once


def test_a_page_of_the_published_list_carries_the_rest_of_the_list_for_print(
    client, three_members
):
    services.list_publish(note="")
    page = client.get(LIST, {"per_page": 2}).content.decode()
    assert "3 members listed" in page
    assert carried(page) == [["Cat"]]
    assert "This prints the page shown" not in page


def test_a_filtered_list_carries_only_the_members_its_filter_keeps(client, three_members):
    page = client.get(LIST, {"per_page": 1, "region": "North"}).content.decode()
    assert carried(page) == [["Cat"]]


def test_the_rest_is_carried_in_the_order_the_reader_sorted(client, three_members):
    page = client.get(LIST, {"per_page": 1, "sort": "name"}).content.decode()
    assert carried(page) == [["Ben", "Cat"]]


def test_a_list_longer_than_is_carried_says_on_paper_which_members_the_page_holds(
    client, three_members, settings
):
    settings.PRINT_WHOLE_LIST_ROWS = 2
    page = client.get(LIST, {"per_page": 2}).content.decode()
    assert carried(page) == []
    assert NOTE in page
    assert 'data-print-whole="?per_page=3&amp;page=1"' in page  # what the script loads


def test_a_page_of_a_long_published_list_says_so_too(client, three_members, settings):
    settings.PRINT_WHOLE_LIST_ROWS = 2
    services.list_publish(note="")
    page = client.get(LIST, {"per_page": 2}).content.decode()
    assert "members listed" in page  # the publication's header counts all three
    assert NOTE in page


def test_a_list_on_one_page_carries_nothing_and_says_nothing_of_pages(client, three_members):
    page = client.get(LIST).content.decode()
    assert carried(page) == []
    assert "This prints the page shown" not in page


@pytest.mark.parametrize("size", [60, 120])
def test_carrying_the_rest_takes_the_same_few_queries_however_many_members(
    client, current_season, django_assert_max_num_queries, size
):
    for n in range(size):
        member = paid_up(MemberFactory(name=f"Player {n:03}"), current_season)
        rating_state(member, rating=2000 - n, display=str(2000 - n), games=10)
    # The page's own 11, and the whole list read once as the Print button reads it: its
    # size, the ratings its rows span, its rows.
    with django_assert_max_num_queries(14):
        page = client.get(LIST, {"page": 2}).content.decode()
    table = page[page.index("<table") : page.index("</table>")]
    assert len(set(re.findall(r'<a href="(/members/[^"]+)">', table))) == size
