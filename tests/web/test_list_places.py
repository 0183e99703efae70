"""The lists' "#" is one thing: the member's place on the whole published list, by rating.

A filter or a search chooses which rows are shown, never renumbers them; the list's
download and ``manage.py export_ratings`` are one file with one set of columns.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ..factories import MemberFactory, paid_up, rating_state

pytestmark = pytest.mark.django_db

LIST = reverse("ratings:list")
OFFICER_LIST = reverse("ratings:officer-ratings")


@pytest.fixture
def club(current_season):
    """Five published members (two tied), one unrated, one in arrears rated above all."""
    people = [
        ("A1", "Ann North", "North", 1900, "1900"),
        ("B2", "Ben South", "South", 1800, "1800"),
        ("C3", "Cat North", "North", 1700, "1700"),
        ("D4", "Dan South", "South", 1700, "1700"),
        ("E5", "Eve North", "North", 1600, "1600p"),
        ("F6", "Fay North", "North", 1500, "Unr"),
    ]
    for number, name, region, rating, display in people:
        member = paid_up(
            MemberFactory(member_number=number, name=name, region=region), current_season
        )
        rating_state(member, rating=rating, display=display, games=10, usable=display != "Unr")
    arrears = MemberFactory(member_number="Z9", name="Zed Arrears", region="North")
    rating_state(arrears, rating=2000, display="2000", games=10)


def places(response) -> dict[str, str]:
    return {
        row.record.name: row.get_cell_value("rank") or "" for row in response.context["table"].page
    }


def test_the_whole_list_numbers_each_member_by_rating_ties_sharing_a_place(client, club):
    assert places(client.get(LIST)) == {
        "Ann North": "1",
        "Ben South": "2",
        "Cat North": "3",
        "Dan South": "3",
        "Eve North": "5",
        "Fay North": "",
    }


def test_a_filtered_list_keeps_each_members_place_on_the_whole_list(client, club):
    assert places(client.get(LIST, {"region": "South"})) == {"Ben South": "2", "Dan South": "3"}


def test_a_search_keeps_each_members_place_on_the_whole_list(client, club):
    assert places(client.get(LIST, {"name": "eve"})) == {"Eve North": "5"}


def test_a_list_sorted_by_name_keeps_each_members_place(client, club):
    shown = places(client.get(LIST, {"sort": "name", "region": "North"}))
    assert shown == {"Ann North": "1", "Cat North": "3", "Eve North": "5", "Fay North": ""}


def test_the_download_of_a_filtered_list_keeps_the_same_places(client, club):
    response = client.get(LIST, {"region": "South", "_export": "csv"})
    lines = response.getvalue().decode().splitlines()
    assert [line.split(",")[:3] for line in lines[1:]] == [
        ["2", "B2", "Ben South"],
        ["3", "D4", "Dan South"],
    ]


def test_the_officer_list_numbers_only_the_published_by_their_published_place(
    officer_client, club
):
    shown = places(officer_client.get(OFFICER_LIST))
    assert shown["Zed Arrears"] == ""  # rated above everyone, but not on the published list
    assert shown["Ann North"] == "1"


def export(*args: str) -> str:
    out = io.StringIO()
    call_command("export_ratings", *args, stdout=out)
    return out.getvalue()


def test_the_lists_download_is_the_export_commands_file(client, club):
    download = client.get(LIST, {"_export": "csv"}).getvalue().decode()
    assert download == export()


def test_the_officer_lists_download_is_the_export_of_everyone(officer_client, club):
    download = officer_client.get(OFFICER_LIST, {"_export": "csv"}).getvalue().decode()
    assert download == export("--all")
    assert download.splitlines()[0].endswith(",unpublished")


@pytest.mark.parametrize(
    "sort", ["", "rating", "-rating", "rank", "-rank", "name", "-games", "region", "-last_played"]
)
def test_a_filtered_list_sorted_any_way_keeps_each_members_place(client, club, sort):
    query = {"region": "North", **({"sort": sort} if sort else {})}
    assert places(client.get(LIST, query)) == {
        "Ann North": "1",
        "Cat North": "3",
        "Eve North": "5",
        "Fay North": "",
    }


@pytest.mark.parametrize("sort", ["", "name", "-rating"])
def test_the_officer_list_sorted_any_way_keeps_each_members_place(officer_client, club, sort):
    shown = places(officer_client.get(OFFICER_LIST, {"sort": sort} if sort else {}))
    assert (shown["Zed Arrears"], shown["Cat North"], shown["Dan South"]) == ("", "3", "3")


def test_a_filtered_list_places_its_page_without_joining_the_whole_lists_window(client, club):
    # SQLite scans a window's rows once for every key joined to it: a region's page took
    # 13 s at 20,000 members, and minutes at 200,000. The page's members are picked out
    # of the ranked list (``IN``), which it ranks once.
    with CaptureQueriesContext(connection) as queries:
        response = client.get(LIST, {"region": "North"})
    ranked = [q["sql"] for q in queries.captured_queries if "RANK() OVER" in q["sql"]]
    assert len(ranked) == 1
    assert "JOIN (SELECT" not in ranked[0]
    assert places(response)["Cat North"] == "3"
