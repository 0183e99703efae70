"""A fresh install starts its club on the first-run page, once; the demo stays in its own
database; an empty club's pages say what comes next."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from ratings.middleware import ClubTimeZoneMiddleware
from ratings.models import ClubSettings, Member

pytestmark = pytest.mark.django_db

START = reverse("ratings:club-start")


def form(**changes: str) -> dict[str, str]:
    data = {
        "name": "Hillcrest Chess Club",
        "rating_system": "acf-1993",
        "season_start_month": "7",
        "time_zone": "Pacific/Auckland",
        "username": "mere",
        "email": "mere@example.org",
        "password1": "knight-fork-1977",
        "password2": "knight-fork-1977",
    }
    data.update(changes)
    return data


def test_a_fresh_install_greets_its_visitor_with_the_first_run_page(client):
    response = client.get("/")
    assert response.status_code == 302 and response["Location"] == START
    page = client.get(START).content.decode()
    assert "Start your club" in page
    for label in ("Club name", "Rating system", "Season starts in", "Time zone", "Password"):
        assert re.search(rf"<label[^>]*>\s*{label}", page), label


def test_the_first_run_page_makes_the_club_and_its_officer(client):
    response = client.post(START, form())
    assert response.status_code == 302 and response["Location"] == reverse("ratings:officer-home")
    club = ClubSettings.load()
    assert (club.name, club.rating_system, club.season_start_month, club.time_zone) == (
        "Hillcrest Chess Club",
        "acf-1993",
        7,
        "Pacific/Auckland",
    )
    officer = User.objects.get()
    assert officer.username == "mere" and officer.check_password("knight-fork-1977")
    assert officer.has_perm("ratings.officer")
    home = client.get(reverse("ratings:officer-home"))  # logged in as the officer
    assert home.status_code == 200 and "Next: add your members" in home.content.decode()
    assert not Member.objects.exists()


def test_the_first_run_page_makes_its_login_the_clubs_administrator(client):
    client.post(START, form())
    mere = User.objects.get()
    assert mere.is_superuser and mere.is_staff
    assert set(mere.groups.values_list("name", flat=True)) == {
        "Administrators",
        "Ratings officers",
    }
    assert mere.has_perm("ratings.administer_club")


def test_the_first_run_page_is_gone_once_the_club_is_started(client):
    client.post(START, form())
    client.logout()
    assert client.get(START).status_code == 404
    assert client.post(START, form(username="intruder")).status_code == 404
    assert list(User.objects.values_list("username", flat=True)) == ["mere"]


def test_the_first_run_page_is_gone_where_any_login_exists(client, officer):
    assert client.get(START).status_code == 404
    assert client.get("/").status_code == 200


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"password2": "knight-fork-1978"}, "password2", "The two passwords differ"),
        ({"password1": "12345678", "password2": "12345678"}, "password1", "too common"),
        ({"name": "Hill\u202ecrest"}, "name", "invisible"),
        ({"time_zone": "Mars/Olympus_Mons"}, "time_zone", "Select a valid choice"),
        ({"rating_system": "glicko"}, "rating_system", "Select a valid choice"),
        ({"username": "mere lee"}, "username", "Enter a valid username"),
    ],
)
def test_the_first_run_page_refuses_bad_input_at_its_field(client, changes, field, message):
    response = client.post(START, form(**changes))
    assert response.status_code == 200
    assert message in " ".join(response.context["form"].errors[field])
    assert not User.objects.exists() and ClubSettings.load().name != "Hillcrest Chess Club"


def test_the_clubs_time_zone_is_every_requests(client):
    client.post(START, form(time_zone="Pacific/Kiritimati"))  # UTC+14
    seen = {}

    def view(request: HttpRequest) -> HttpResponse:
        seen["zone"] = timezone.get_current_timezone_name()
        return HttpResponse()

    ClubTimeZoneMiddleware(view)(RequestFactory().get("/"))
    assert seen["zone"] == "Pacific/Kiritimati"


@pytest.mark.parametrize(
    ("system", "sentence"),
    [
        ("nz-club-elo", "No event has been rated yet: the list fills in once"),
        ("st-charles", "No event has been rated yet: the list fills in once"),
        ("nscl", "No event has been rated yet: the list fills in once"),
        ("acf-1993", "No rating period has been closed yet: the list fills in once"),
        ("ecf-2020", "No rating period has been closed yet: the list fills in once"),
    ],
)
def test_an_empty_clubs_home_says_what_comes_next(client, officer, system, sentence):
    ClubSettings.objects.update_or_create(pk=1, defaults={"rating_system": system})
    page = client.get("/").content.decode()
    assert sentence in page
    assert "The list is no" not in page


SYSTEMS_AND_WHEN = [
    ("nz-club-elo", "played in a rated event"),
    ("st-charles", "played in a rated event"),
    ("nscl", "played in a rated event"),
    ("acf-1993", "played in a rated event whose rating period is closed"),
    ("ecf-2020", "played in a rated event whose rating period is closed"),
]


@pytest.mark.parametrize(("system", "when"), SYSTEMS_AND_WHEN)
def test_an_empty_clubs_pages_say_what_comes_next(officer_client, system, when):
    ClubSettings.objects.update_or_create(pk=1, defaults={"rating_system": system})
    said = {
        reverse("ratings:list"): f"No one is on the list yet: a member is listed once they have "
        f"{when} and paid this season's subscription.",
        reverse("ratings:officer-ratings"): f"No one is rated yet: a member is listed once they "
        f"have {when}, or brought a rating in.",
        reverse("ratings:officer-members"): "No members yet: add one (Add a member)",
        reverse("ratings:officer-renew"): "The club has no members yet:",
        reverse("ratings:report", args=["top"]): "No published member qualifies yet",
    }
    for url, sentence in said.items():
        page = officer_client.get(url).content.decode().replace("&#x27;", "'")
        assert sentence in page, url
        assert "No member matches." not in page and "Every member has paid" not in page, url


def test_a_filtered_list_that_finds_no_one_says_so(officer_client):
    page = officer_client.get(reverse("ratings:list"), {"name": "Zed"}).content.decode()
    assert "No member matches." in page
