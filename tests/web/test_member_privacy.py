"""Privacy of unpublished members on public pages: kept off, their numbers answer as
numbers no one has; named, no figure a public page shows gives their withheld rating back;
the officer's copy of everything held about a member, and erasing one.

The night of ``test_publication``: Alice and Carol paid up, Bob (B2) in arrears, Gus (G1)
a guest.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import ClubSettings, Member

from .test_publication import body, choose, night  # noqa: F401  (night: the fixture, shared)

pytestmark = pytest.mark.django_db

#: A number no member has.
NOBODY = "ZZ999"


@pytest.fixture
def kept_off(night):  # noqa: F811
    choose(ClubSettings.Unpublished.KEPT_OFF)
    return night


def answer(client, url: str) -> tuple[int, str]:
    response = client.get(url)
    return response.status_code, body(response)


# -- kept off: their numbers answer as numbers no one has ---------------------------------


@pytest.mark.parametrize("number", ["B2", "b2", "G1", "g1"])
@pytest.mark.parametrize(
    "page", ["ratings:member", "ratings:member-history-csv"], ids=["page", "history"]
)
def test_kept_off_their_pages_answer_as_a_number_no_one_has(client, kept_off, page, number):
    assert answer(client, reverse(page, args=[number])) == answer(
        client, reverse(page, args=[NOBODY])
    )


@pytest.mark.parametrize("number", ["B2", "b2", "G1", "g1"])
@pytest.mark.parametrize("path", ["/api/v1/members/{}", "/api/v1/members/{}/history"])
def test_kept_off_the_api_answers_for_them_as_for_a_number_no_one_has(
    client, kept_off, path, number
):
    assert answer(client, path.format(number)) == answer(client, path.format(NOBODY))


def test_kept_off_a_merged_record_of_theirs_answers_as_a_number_no_one_has(client, kept_off):
    bob = Member.objects.get(member_number="B2")
    Member.objects.create(member_number="B2X", name="Bob Brown (duplicate)", merged_into=bob)
    assert answer(client, reverse("ratings:member", args=["B2X"])) == answer(
        client, reverse("ratings:member", args=[NOBODY])
    )


def test_kept_off_a_published_members_number_in_another_case_still_finds_them(client, kept_off):
    response = client.get(reverse("ratings:member", args=["a1"]))
    assert response.status_code == 301
    assert response["Location"] == reverse("ratings:member", args=["A1"])
