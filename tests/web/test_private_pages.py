"""The officer's and the administrator's pages are never cached, and a page a role
cannot act on is neither offered to it nor opened for it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from ratings.models import ClubSettings
from ratings.services.accounts import officer_create

from ..factories import MemberFactory
from .test_rerate import admin_form

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_officer(client):
    """An officer as ``create_officer`` makes one: staff, reads the club settings."""
    client.force_login(officer_create(username="olivia", password="correct-horse-42"))
    return client


@pytest.mark.parametrize(
    "url",
    [
        "/officer/",
        "/officer/members/",
        "/officer/ratings/",
        "/officer/events/",
        "/admin/",
        "/admin/ratings/member/",
    ],
)
def test_the_officers_and_admins_pages_are_never_stored(staff_officer, url) -> None:
    response = staff_officer.get(url)
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store, private"


def test_a_public_page_read_by_an_officer_is_never_stored(staff_officer) -> None:
    # An officer reads every rating on a member's page, withheld ones included.
    member = MemberFactory(member_number="A1")
    response = staff_officer.get(reverse("ratings:member", args=[member.member_number]))
    assert response["Cache-Control"] == "no-store, private"


def test_a_public_page_read_by_the_public_keeps_no_private_header(client) -> None:
    assert "no-store" not in client.get(reverse("ratings:list")).get("Cache-Control", "")


def test_the_login_page_is_never_stored(client) -> None:
    assert client.get(reverse("login"))["Cache-Control"] == "no-store, private"


def test_an_officer_cannot_open_the_confirmation_of_a_new_rating_system(
    staff_officer, admin_client
) -> None:
    club = ClubSettings.load()
    url = reverse("admin:ratings_clubsettings_change", args=[club.pk])
    data = {**admin_form(admin_client.get(url)), "rating_system": "st-charles"}

    response = staff_officer.post(url, data)

    assert response.status_code == 403
    assert "Only the club’s administrator changes the rating system" in response.content.decode()
    assert "Re-rate everything?" not in response.content.decode()
    assert ClubSettings.load().rating_system != "st-charles"


def test_the_administrator_still_gets_the_confirmation(admin_client) -> None:
    club = ClubSettings.load()
    url = reverse("admin:ratings_clubsettings_change", args=[club.pk])
    data = {**admin_form(admin_client.get(url)), "rating_system": "st-charles"}
    assert b"re-rates everything" in admin_client.post(url, data).content


def test_an_officers_settings_page_offers_no_save(staff_officer) -> None:
    club = ClubSettings.load()
    page = staff_officer.get(reverse("admin:ratings_clubsettings_change", args=[club.pk]))
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()
    assert not User.objects.get(username="olivia").has_perm("ratings.change_clubsettings")
