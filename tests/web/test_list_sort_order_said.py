"""A sorted list says its order to a screen reader: the sorted column's header carries
aria-sort, naming the order of the values as read down the column."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from ..factories import MemberFactory, paid_up, rating_state

pytestmark = pytest.mark.django_db

LIST = reverse("ratings:list")


@pytest.fixture
def club(current_season):
    for number, name, rating in [("A1", "Ann North", 1900), ("B2", "Ben South", 1800)]:
        member = paid_up(MemberFactory(member_number=number, name=name), current_season)
        rating_state(member, rating=rating, display=str(rating), games=10)


def sorted_headers(html: str) -> dict[str, str]:
    """Each header that has aria-sort: its link's words, and the order it says."""
    return {
        header: order
        for order, header in re.findall(
            r'<th [^>]*aria-sort="(\w+)"[^>]*>\s*<a [^>]*>([^<]+)</a>', html
        )
    }


def test_the_list_strongest_first_says_its_ratings_descend(client, club):
    assert sorted_headers(client.get(LIST).content.decode()) == {"Rating": "descending"}


def test_the_list_weakest_first_says_its_ratings_ascend(client, club):
    html = client.get(LIST, {"sort": "-rating"}).content.decode()
    assert sorted_headers(html) == {"Rating": "ascending"}


def test_the_list_by_place_says_its_places_ascend(client, club):
    assert sorted_headers(client.get(LIST, {"sort": "rank"}).content.decode()) == {
        "#": "ascending"
    }


def test_the_list_by_name_z_to_a_says_its_names_descend(client, club):
    html = client.get(LIST, {"sort": "-name"}).content.decode()
    assert sorted_headers(html) == {"Name": "descending"}


def test_the_officers_members_by_name_say_their_names_ascend(officer_client, club):
    html = officer_client.get(reverse("ratings:officer-members")).content.decode()
    assert sorted_headers(html) == {"Name": "ascending"}
