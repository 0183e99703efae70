"""A page of a long list, printed with the browser's own Print, says on paper that it is one
page of the list and how to print the whole: the sheet must not head 2 rows with "3 members
listed" and leave the third out unsaid."""

from __future__ import annotations

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
    for number, name, rating in [("A1", "Ann", 1900), ("B2", "Ben", 1800), ("C3", "Cat", 1700)]:
        member = paid_up(MemberFactory(member_number=number, name=name), current_season)
        rating_state(member, rating=rating, display=str(rating), games=10)


def test_a_page_of_the_published_list_says_on_paper_which_members_it_holds(client, three_members):
    services.list_publish(note="")
    page = client.get(LIST, {"per_page": 2}).content.decode()
    assert "members listed" in page  # the publication's header counts all three
    assert NOTE in page


def test_a_page_of_the_live_list_says_on_paper_which_members_it_holds(client, three_members):
    assert NOTE in client.get(LIST, {"per_page": 2}).content.decode()


def test_a_list_on_one_page_says_nothing_of_pages(client, three_members):
    assert "This prints the page shown" not in client.get(LIST).content.decode()
