"""Every list CSV (the live list's download, a publication's, the officer's, and
``export_ratings``) is one file: the same columns, every rating cell a number, its marker
in a column of its own."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from ratings import services
from ratings.formats.list_csv import COLUMNS, UNPUBLISHED_COLUMN
from ratings.models import ClubSettings

from ..factories import MemberFactory, paid_up, rating_state

pytestmark = pytest.mark.django_db

#: The displays the systems write (acf-1993's provisional "p" and "4 R", ecf-2020's partial
#: "P", st-charles's "*"), and the number and marker each becomes.
DISPLAYS = [
    ("A1", "1799p", "1799", "p"),
    ("B2", "1861P", "1861", "P"),
    ("C3", "398*", "398", "*"),
    ("D4", "1516", "1516", ""),
    ("E5", "4 R", "", "4 R"),
]


@pytest.fixture
def club(current_season):
    for number, display, figure, _marker in DISPLAYS:
        member = paid_up(
            MemberFactory(member_number=number, name=f"Player {number}"), current_season
        )
        rating = float(figure or 1000)
        rating_state(member, rating=rating, display=display, games=4, usable=bool(figure))


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def export(*args: str) -> str:
    out = io.StringIO()
    call_command("export_ratings", *args, stdout=out)
    return out.getvalue()


def documented_columns() -> list[str]:
    """The columns docs/commands.md's table lists under export_ratings, in its order."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "commands.md").read_text()
    section = text.split("### export_ratings", 1)[1].split("\n### ", 1)[0]
    return re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE)


def test_the_columns_are_those_the_commands_page_lists():
    assert ",".join(COLUMNS) == "rank,id,name,rating,marker,games,region,title,fide_id,last_played"
    assert documented_columns() == [*COLUMNS, UNPUBLISHED_COLUMN]


def test_each_rating_is_a_number_and_its_marker_stands_apart(club):
    written = {r["id"]: (r["rating"], r["marker"]) for r in rows(export("--all"))}
    assert written == {number: (figure, marker) for number, _d, figure, marker in DISPLAYS}
    for rating, _marker in written.values():
        assert rating == "" or float(rating)


def test_the_live_list_download_and_the_command_write_one_file(client, club):
    assert client.get(reverse("ratings:list"), {"_export": "csv"}).getvalue().decode() == export()


def test_a_publications_download_has_the_lists_columns_and_numbers(client, club, officer):
    ClubSettings.load()
    services.list_publish(note="Spring list", user=officer)
    text = client.get(reverse("ratings:list"), {"_export": "csv"}).getvalue().decode()
    assert text.splitlines()[0] == ",".join(COLUMNS)
    published = {r["id"]: (r["rating"], r["marker"]) for r in rows(text)}
    assert published["A1"] == ("1799", "p") and published["C3"] == ("398", "*")
