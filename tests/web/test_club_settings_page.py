"""The club settings page in the officer's area: the administrator changes the club's
settings there (a new rating system after the switch's confirmation), the officer reads them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import ClubSettings, Game
from ratings.services.accounts import administrator_create

pytestmark = pytest.mark.django_db

URL = reverse("ratings:officer-settings")


@pytest.fixture
def admin_client(client):
    client.force_login(administrator_create(username="root", password="root-pass-42"))
    return client


def settings_form(**changes: str) -> dict[str, str]:
    club = ClubSettings.load()
    data = {
        "name": club.name,
        "rating_system": club.rating_system,
        "system_params": "{}",
        "season_start_month": str(club.season_start_month),
        "time_zone": club.time_zone,
        "unpublished_members": club.unpublished_members,
        "city": "",
        "federation": "",
        "chief_arbiter": "",
        "deputy_arbiters": "",
    }
    data.update(changes)
    return data


def test_the_administrator_changes_the_clubs_name_and_time_zone(admin_client):
    response = admin_client.post(
        URL, settings_form(name="Hillcrest Chess Club", time_zone="Pacific/Auckland")
    )
    assert response["Location"] == URL
    club = ClubSettings.load()
    assert (club.name, club.time_zone) == ("Hillcrest Chess Club", "Pacific/Auckland")


def test_a_bad_time_zone_is_refused_at_its_field_and_nothing_is_saved(admin_client):
    response = admin_client.post(URL, settings_form(name="Renamed", time_zone="Mars/Olympus"))
    assert response.status_code == 200
    assert "Mars/Olympus" in str(response.context["form"].errors["time_zone"])
    assert ClubSettings.load().name != "Renamed"


def test_a_new_rating_system_is_asked_about_before_anything_is_re_rated(
    admin_client, rated_event, alice, bob
):
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    response = admin_client.post(URL, settings_form(rating_system="st-charles"))
    assert "re-rate 1 event" in response.content.decode()
    assert ClubSettings.load().rating_system == "nz-club-elo"


def test_a_confirmed_new_rating_system_is_switched_to(admin_client, rated_event, alice, bob):
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    admin_client.post(URL, {**settings_form(rating_system="st-charles"), "confirm": "1"})
    assert ClubSettings.load().rating_system == "st-charles"


def test_the_officer_reads_the_settings_without_a_save_button(officer_client):
    page = officer_client.get(URL)
    assert page.status_code == 200
    assert page.context["form"].fields["name"].disabled
    assert "Only the club's administrator changes these settings" in page.content.decode()


def test_the_officer_may_not_change_the_settings(officer_client):
    assert officer_client.post(URL, settings_form(name="Renamed")).status_code == 403
    assert ClubSettings.load().name != "Renamed"


def test_the_choice_for_unpublished_members_says_a_withheld_rating_can_be_worked_out(
    admin_client,
):
    page = admin_client.get(URL).content.decode()
    assert "can work out a withheld rating" in page
