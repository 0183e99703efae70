"""Numbers past any bound, JSON nested thousands deep and control characters in an
address: each refused where it was typed, with a message, and nothing saved."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from ratings.models import Comparison, Member

from ..factories import MemberFactory

pytestmark = pytest.mark.django_db

HEADER = "id,name,born,gender,region,title,fide_id,membership,rating,games"


def _preview(client, text: str):
    sent = SimpleUploadedFile("members.csv", text.encode())
    client.post(reverse("ratings:officer-import-register"), {"file": sent})
    return client.get(reverse("ratings:officer-import-register-preview"))


def test_a_members_games_past_any_bound_is_a_problem_of_its_line(officer_client) -> None:
    page = _preview(officer_client, f"{HEADER}\nR7001,Ana Tuilagi,,,,,,,2000,{10**30}\n")
    problems = [str(p) for p in page.context["problems"]]
    assert any("line 2" in p and "games" in p and "100,000" in p for p in problems), problems


def test_confirming_a_file_with_games_past_any_bound_saves_nothing(officer_client) -> None:
    _preview(officer_client, f"{HEADER}\nR7001,Ana Tuilagi,,,,,,,2000,{10**30}\n")
    response = officer_client.post(reverse("ratings:officer-import-register-preview"))
    assert response.status_code == 200
    assert not Member.objects.exists()


def test_a_line_cut_short_clears_nothing_and_names_the_missing_columns(officer_client) -> None:
    MemberFactory(member_number="R1001", name="Mikhail Petrov", initial_rating=2326)
    page = _preview(officer_client, f"{HEADER}\nR1001,Mikhail Pet\n")
    problems = [str(p) for p in page.context["problems"]]
    assert problems == [
        "line 2: 2 cells, but the header has 10: no cell for born, gender, region, title, "
        "fide_id, membership, rating, games (an empty cell, with its comma, clears a field)"
    ]
    officer_client.post(reverse("ratings:officer-import-register-preview"))
    member = Member.objects.get()
    assert (member.name, member.initial_rating) == ("Mikhail Petrov", 2326)


def test_empty_cells_present_still_clear_their_fields(officer_client) -> None:
    MemberFactory(member_number="R1001", name="Mikhail Petrov", region="Southbank")
    _preview(officer_client, f"{HEADER}\nR1001,Mikhail Petrov,,,,,,,,\n")
    officer_client.post(reverse("ratings:officer-import-register-preview"))
    assert Member.objects.get().region == ""


def test_parameters_nested_thousands_deep_are_refused_at_their_field(officer_client) -> None:
    response = officer_client.post(reverse("ratings:compare"), {"params_nz_club_elo": "[" * 5000})
    assert response.status_code == 200
    assert response.context["form"].errors["params_nz_club_elo"] == [
        "Not parameters: nested more than 20 deep: parameters never are."
    ]
    assert not Comparison.objects.exists()


A_NUMBER_OF_5000_DIGITS = '{"floor": ' + "9" * 5000 + "}"  # Python's int() refuses 4,300


def test_a_parameter_of_thousands_of_digits_is_refused_at_its_field(officer_client) -> None:
    response = officer_client.post(
        reverse("ratings:compare"), {"params_nz_club_elo": A_NUMBER_OF_5000_DIGITS}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["params_nz_club_elo"] == [
        "Not parameters: a number of more than 30 digits."
    ]
    assert not Comparison.objects.exists()


def test_the_settings_page_refuses_a_parameter_of_thousands_of_digits_at_its_field(
    client,
) -> None:
    from ratings.models import ClubSettings
    from ratings.services.accounts import administrator_create

    client.force_login(administrator_create(username="root", password="root-pass-42"))
    club = ClubSettings.load()
    form = {
        "name": club.name,
        "rating_system": club.rating_system,
        "system_params": A_NUMBER_OF_5000_DIGITS,
        "season_start_month": str(club.season_start_month),
        "time_zone": club.time_zone,
        "unpublished_members": club.unpublished_members,
    }
    response = client.post(reverse("ratings:officer-settings"), form)
    assert response.status_code == 200
    assert response.context["form"].errors["system_params"] == [
        "Not parameters: a number of more than 30 digits."
    ]
    assert ClubSettings.load().system_params == club.system_params


@pytest.mark.parametrize(
    "url",
    [
        "/members/R10%0013/",
        "/members/R10%0013/history.csv",
        "/members/R10%1b13/",
        "/api/v1/members/R1%00",
        "/api/v1/publications/2026-01-01%00",
    ],
)
def test_a_control_character_in_an_address_is_not_found(client, url) -> None:
    assert client.get(url).status_code == 404


@pytest.mark.parametrize(
    "url",
    [
        "/events/?q=a%00b",
        "/calculator/members/?q=%00",
        "/api/v1/events?name=a%00",
        "/ratings/?region=%1b",
        "/officer/members/?q=%00",
        "/officer/subscriptions/renew/?q=%00",
    ],
)
def test_a_control_character_in_a_query_is_a_bad_request(officer_client, url) -> None:
    response = officer_client.get(url)
    assert response.status_code == 400
    assert "control character" in response.content.decode()


@pytest.mark.parametrize("url", ["/api/v1/events?name=a%00", "/api/v1/members/R10%0013"])
def test_the_read_api_refuses_a_control_character_in_json(client, url) -> None:
    response = client.get(url)
    assert response.status_code in (400, 404)
    assert "control character" in response.json()["detail"]


def test_a_query_with_ordinary_text_is_read_as_ever(client) -> None:
    assert client.get("/events/?q=Club%20night").status_code == 200


# -- A system's parameters past their range: refused at the field, nothing saved or run. ------


@pytest.mark.parametrize("value", ["1e11", "1e15", "-5", "NaN", "Infinity", "1e400", "3001"])
def test_a_floor_past_its_range_is_refused_at_the_club_settings_field(admin_client, value) -> None:
    from ratings.models import ClubSettings, RatingRun

    from .test_rerate import admin_form

    club = ClubSettings.load()
    url = reverse("admin:ratings_clubsettings_change", args=[club.pk])
    data = {**admin_form(admin_client.get(url)), "system_params": f'{{"floor": {value}}}'}
    response = admin_client.post(url, {**data, "_confirm_rerate": "1", "_save": "Yes"})
    assert response.status_code == 200
    assert "system_params" in response.context["adminform"].form.errors
    assert ClubSettings.load().system_params == {}
    assert not RatingRun.objects.exists()


def test_a_floor_at_the_top_of_its_range_is_saved(admin_client) -> None:
    from ratings.models import ClubSettings

    from .test_rerate import admin_form

    club = ClubSettings.load()
    url = reverse("admin:ratings_clubsettings_change", args=[club.pk])
    data = {**admin_form(admin_client.get(url)), "system_params": '{"floor": 3000}'}
    admin_client.post(url, {**data, "_confirm_rerate": "1", "_save": "Yes"})
    assert ClubSettings.load().system_params == {"floor": 3000}


def test_a_rapid_list_s_k_past_its_range_is_refused_at_its_field(admin_client) -> None:
    from ratings.models import RatingList

    response = admin_client.post(
        reverse("admin:ratings_ratinglist_add"),
        {
            "time_class": "rapid",
            "kept": "own",
            "rating_system": "nz-club-elo",
            "system_params": '{"k_new": 101}',
        },
    )
    assert response.status_code == 200
    assert "k_new: must be at most 100" in str(response.context["adminform"].form.errors)
    assert not RatingList.objects.exists()


@pytest.mark.parametrize("value", ["1e11", "-1", "NaN", "1e400"])
def test_a_comparison_s_parameter_past_its_range_is_refused_at_its_box(
    officer_client, value
) -> None:
    response = officer_client.post(
        reverse("ratings:compare"), {"params_st_charles": f'{{"floor": {value}}}'}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["params_st_charles"]
    assert not Comparison.objects.exists()


def test_the_command_refuses_a_floor_past_its_range_and_switches_nothing() -> None:
    from django.core.management import CommandError, call_command

    from ratings.models import ClubSettings

    with pytest.raises(CommandError, match="floor: must be at most 3000"):
        call_command("set_rating_system", "st-charles", "--params", '{"floor": 1e11}')
    assert ClubSettings.load().rating_system == "nz-club-elo"
