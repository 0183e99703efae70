"""Privacy of unpublished members on public pages: kept off, their numbers answer as
numbers no one has; named, no figure a public page shows gives their withheld rating back;
the officer's copy of everything held about a member, and erasing one.

The night of ``test_publication``: Alice and Carol paid up, Bob (B2) in arrears, Gus (G1)
a guest.
"""

from __future__ import annotations

import csv
import io
import math

import pytest
from django.core.cache import cache
from django.urls import reverse

from ratings import services
from ratings.models import ClubSettings, Member, RatingChange
from ratings.rules.publication import WITHHELD

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


# -- named: no figure on a public page gives a withheld rating back --------------------------


def rating_before(member_number: str, event) -> float:  # type: ignore[no-untyped-def]
    return RatingChange.objects.get(member__member_number=member_number, event=event).before


def worked_back(own: float, expected: float) -> float:
    """The opponent's rating an Elo expected score gives back: E = 1 / (1 + 10^(d/400))."""
    return own + 400 * math.log10(1 / expected - 1)


def alices_games(client, event, viewer_client=None):  # type: ignore[no-untyped-def]
    report = (viewer_client or client).get(reverse("ratings:event-report", args=[event.pk]))
    (alice,) = [row for row in report.context["rows"] if row["member"].name == "Alice Archer"]
    return alice


def test_named_bobs_rating_cannot_be_worked_back_from_the_public_report(client, night):  # noqa: F811
    bob = rating_before("B2", night)
    alice = alices_games(client, night)
    against_bob = [g for g in alice["games"] if g["opponent"].member_number == "B2"]
    guesses = [
        worked_back(rating_before("A1", night), g["expected"])
        for g in against_bob
        if g["expected"] is not None
    ]
    assert against_bob and not [guess for guess in guesses if abs(guess - bob) < 3]


def test_named_the_expected_score_against_a_published_opponent_is_still_shown(client, night):  # noqa: F811
    alice = alices_games(client, night)
    (against_carol,) = [g for g in alice["games"] if g["opponent"].member_number == "C3"]
    assert against_carol["expected"] is not None


def test_named_the_expected_score_in_all_is_withheld_once_a_withheld_opponent_counts(
    client,
    night,  # noqa: F811
):
    alice = alices_games(client, night)
    assert alice["expected"] is None
    assert ("Expected score", WITHHELD) in alice["breakdown"]


def test_named_the_officer_still_sees_the_expected_score_against_bob(officer_client, night):  # noqa: F811
    alice = alices_games(officer_client, night)
    (against_bob,) = [g for g in alice["games"] if g["opponent"].member_number == "B2"]
    assert against_bob["expected"] is not None
    assert ("Expected score", WITHHELD) not in alice["breakdown"]


def test_named_the_member_page_and_its_history_csv_withhold_the_expected_score_alike(
    client,
    night,  # noqa: F811
):
    page = client.get(reverse("ratings:member", args=["A1"]))
    on_page = {g["opponent"].member_number: g["expected"] for g in page.context["games"]}
    history = body(client.get(reverse("ratings:member-history-csv", args=["A1"])))
    in_csv = {r["Opponent number"]: r["Expected"] for r in csv.DictReader(io.StringIO(history))}
    assert on_page["B2"] is None and in_csv["B2"] == ""
    assert on_page["C3"] is not None and in_csv["C3"] != ""


@pytest.fixture
def acf_night(night):  # noqa: F811
    """The night rated under acf-1993 (its past periods closed by the switch)."""
    services.rating_system_set(system_id="acf-1993")
    cache.clear()
    return night


def test_named_an_average_opponent_counting_a_withheld_rating_is_withheld(client, acf_night):
    alice = alices_games(client, acf_night)
    figures = dict(alice["breakdown"])
    assert figures["Average opponent (AR)"] == WITHHELD


def test_the_club_settings_say_what_naming_them_still_lets_a_reader_work_out(admin_client):
    club = ClubSettings.load()
    page = body(admin_client.get(reverse("admin:ratings_clubsettings_change", args=[club.pk])))
    assert "a reader who knows the system can still work out an unpublished member" in page
    assert "so no rating change can be tied to them" in page
