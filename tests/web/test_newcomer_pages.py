"""A newcomer who brings a rating is listed at once, under every system: on the public list
and the officer's, in export_ratings (and --all), and their page shows the rating, not
"No rating yet"; whether added on the officer's page or by import_members."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from ratings import services
from ratings.engine import SYSTEMS
from ratings.models import Member

pytestmark = pytest.mark.django_db

#: Forty games behind it: a rating every system lists as it stands (no provisional mark).
BROUGHT = {"initial_rating": "1812", "initial_games": "40"}


@pytest.fixture(params=sorted(SYSTEMS))
def system(request) -> str:  # type: ignore[no-untyped-def]
    services.rating_system_set(system_id=request.param)
    return str(request.param)


def added_on_the_officers_page(client, *, paid: bool) -> Member:  # type: ignore[no-untyped-def]
    data = {"name": "Nina Newcomer", "member_number": "N77", **BROUGHT}
    if paid:
        data["paid_tonight"] = "on"
    response = client.post(reverse("ratings:officer-member-add"), data)
    assert response.status_code == 302, response.content.decode()
    return Member.objects.get(member_number="N77")


def exported(*args: str) -> dict[str, dict[str, str]]:
    out = io.StringIO()
    call_command("export_ratings", *args, stdout=out)
    return {row["id"]: row for row in csv.DictReader(io.StringIO(out.getvalue()))}


def list_rows(response) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The list page's members, by name, with the row's text."""
    html = response.content.decode()
    rows = html.split("<tr")[1:]
    return {
        name: row
        for row in rows
        for name in ("Nina Newcomer", "Olga Import")
        if f">{name}<" in row
    }


def test_a_paid_newcomer_with_a_rating_is_on_the_public_list_at_once(
    client, officer_client, current_season, system
):
    added_on_the_officers_page(officer_client, paid=True)
    row = list_rows(client.get(reverse("ratings:list")))["Nina Newcomer"]
    assert "1812" in row


def test_a_newcomer_with_a_rating_is_on_the_officers_list_at_once(
    officer_client, current_season, system
):
    added_on_the_officers_page(officer_client, paid=False)
    row = list_rows(officer_client.get(reverse("ratings:officer-ratings")))["Nina Newcomer"]
    assert "1812" in row


def test_a_paid_newcomer_with_a_rating_is_in_export_ratings_at_once(
    officer_client, current_season, system
):
    added_on_the_officers_page(officer_client, paid=True)
    assert exported()["N77"]["rating"].startswith("1812")
    assert exported("--all")["N77"]["rating"].startswith("1812")


def test_a_newcomer_in_arrears_with_a_rating_is_in_export_ratings_all(
    officer_client, current_season, system
):
    added_on_the_officers_page(officer_client, paid=False)
    assert "N77" not in exported()
    assert exported("--all")["N77"]["rating"].startswith("1812")


def test_a_paid_newcomers_page_shows_the_rating_they_brought(
    client, officer_client, current_season, system
):
    added_on_the_officers_page(officer_client, paid=True)
    page = client.get(reverse("ratings:member", args=["N77"])).content.decode()
    assert "No rating yet" not in page
    assert "1812" in page


def test_a_newcomer_imported_by_import_members_is_listed_at_once(
    client, current_season, system, tmp_path
):
    path = tmp_path / "members.csv"
    path.write_text("id,name,rating,games,membership\nN78,Olga Import,1812,40,financial\n")
    call_command("import_members", str(path), stdout=io.StringIO())
    assert "1812" in list_rows(client.get(reverse("ratings:list")))["Olga Import"]
    assert exported()["N78"]["rating"].startswith("1812")
    page = client.get(reverse("ratings:member", args=["N78"])).content.decode()
    assert "No rating yet" not in page
    assert "1812" in page
