"""The club's choice of how unpublished members appear on public pages.

"Name them, withhold their ratings" (the default) is today's rule. "Keep them off public
pages": no public page, CSV or API answer carries an unpublished member's name, number or
member page; they are an "Unpublished player" in results, reports and crosstables. The
officer still sees everyone. ``test_publication`` crawls every public page under both
choices and every system; here, each path on its own.

The night of ``test_publication``: Alice and Carol paid up, Bob in arrears, Gus a guest.
"""

from __future__ import annotations

import csv
import io

import pytest
from django.core.cache import cache
from django.urls import reverse

from ratings.models import ClubSettings, Member
from ratings.rules import publication

from ..factories import paid_up
from .test_publication import (  # noqa: F401  (night: the fixture, shared)
    UNPUBLISHED,
    body,
    choose,
    named,
    night,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def kept_off(night):  # noqa: F811
    choose(ClubSettings.Unpublished.KEPT_OFF)
    return night


def test_naming_them_is_the_default(db):
    assert ClubSettings.load().unpublished_members == ClubSettings.Unpublished.NAMED
    assert not ClubSettings.load().keeps_unpublished_off


def test_named_unpublished_members_keep_their_names_on_public_pages(client, night):  # noqa: F811
    page = body(client.get(reverse("ratings:event", args=[night.pk])))
    assert {"Bob Brown", "Gus Guest"} <= named(page)
    assert client.get(reverse("ratings:member", args=["B2"])).status_code == 200


def test_kept_off_the_event_page_lists_them_as_unpublished_players(client, kept_off):
    page = body(client.get(reverse("ratings:event", args=[kept_off.pk])))
    assert page.count(publication.UNPUBLISHED_PLAYER) == 2
    assert "Alice Archer" in page and not named(page)


def test_kept_off_the_event_report_shows_unpublished_players(client, kept_off):
    page = body(client.get(reverse("ratings:event-report", args=[kept_off.pk])))
    assert publication.UNPUBLISHED_PLAYER in page
    assert "Alice Archer" in page and not named(page)
    assert reverse("ratings:member", args=["B2"]) not in page


def test_kept_off_the_crosstable_shows_unpublished_players(client, kept_off):
    page = body(client.get(reverse("ratings:event-crosstable", args=[kept_off.pk])))
    assert page.count(publication.UNPUBLISHED_PLAYER) == 2
    assert "Carol Chen" in page and not named(page)


def test_kept_off_the_crosstable_csv_has_no_name_or_number(client, kept_off):
    response = client.get(reverse("ratings:event-crosstable-csv", args=[kept_off.pk]))
    rows = list(csv.DictReader(io.StringIO(body(response))))
    players = {(row["Player"], row["Member number"]) for row in rows}
    assert players == {
        ("Alice Archer", "A1"),
        ("Carol Chen", "C3"),
        (publication.UNPUBLISHED_PLAYER, ""),
    }
    assert len(rows) == 4


def test_kept_off_their_member_page_is_not_found(client, kept_off):
    assert client.get(reverse("ratings:member", args=["B2"])).status_code == 404
    assert client.get(reverse("ratings:member", args=["G1"])).status_code == 404
    assert client.get(reverse("ratings:member-history-csv", args=["B2"])).status_code == 404
    assert client.get(reverse("ratings:member", args=["A1"])).status_code == 200


def test_kept_off_a_published_members_page_names_no_unpublished_opponent(client, kept_off):
    page = body(client.get(reverse("ratings:member", args=["A1"])))
    assert publication.UNPUBLISHED_PLAYER in page  # Alice played Bob and Gus
    assert "Carol Chen" in page and not named(page)


def test_kept_off_the_api_event_names_and_numbers_no_unpublished_player(client, kept_off):
    answer = client.get(f"/api/v1/events/{kept_off.pk}").json()
    players = {(p["name"], p["member"]) for p in answer["players"]}
    assert players == {
        ("Alice Archer", "A1"),
        ("Carol Chen", "C3"),
        (publication.UNPUBLISHED_PLAYER, None),
    }
    numbers = {g["white"] for g in answer["games"]} | {g["black"] for g in answer["games"]}
    assert numbers == {"A1", "C3", None}


def test_kept_off_the_api_answers_for_a_member_as_their_page_does(client, kept_off):
    assert client.get("/api/v1/members/B2").status_code == 404
    assert client.get("/api/v1/members/B2/history").status_code == 404
    assert client.get("/api/v1/members/A1").json()["member"] == "A1"


def test_kept_off_the_officer_sees_every_name(officer_client, kept_off):
    for name in ("event", "event-report", "event-crosstable"):
        page = body(officer_client.get(reverse(f"ratings:{name}", args=[kept_off.pk])))
        assert {"Bob Brown", "Gus Guest"} <= named(page), name
        assert publication.UNPUBLISHED_PLAYER not in page, name
    assert officer_client.get(reverse("ratings:member", args=["B2"])).status_code == 200


def test_kept_off_a_member_who_pays_is_named_again(client, kept_off, current_season):
    paid_up(Member.objects.get(member_number="B2"), current_season)
    cache.clear()
    page = body(client.get(reverse("ratings:event", args=[kept_off.pk])))
    assert "Bob Brown" in page and page.count(publication.UNPUBLISHED_PLAYER) == 1


def test_the_club_settings_form_explains_both_choices(admin_client, club):
    page = body(admin_client.get(reverse("admin:ratings_clubsettings_change", args=[club.pk])))
    for _value, label in ClubSettings.Unpublished.choices:
        assert label in page
    assert "Unpublished player" in page  # the help says how they then appear


def test_a_caller_holding_a_named_answer_gets_the_kept_off_one(client, night):  # noqa: F811
    url = f"/api/v1/events/{night.pk}"
    first = client.get(url)
    assert "Bob Brown" in body(first)
    club = ClubSettings.load()
    club.unpublished_members = ClubSettings.Unpublished.KEPT_OFF
    club.save()  # no cache.clear(): the answer kept for all moves with the settings
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and not named(body(again))


def test_a_page_kept_for_readers_follows_the_choice(client, night):  # noqa: F811
    url = reverse("ratings:event", args=[night.pk])
    assert "Bob Brown" in body(client.get(url))
    club = ClubSettings.load()
    club.unpublished_members = ClubSettings.Unpublished.KEPT_OFF
    club.save()  # no cache.clear(): saving the settings is enough
    assert not named(body(client.get(url)))
