"""The published list's row is defined once (``ratings/formats/list_row.py``): a column
added there alone shows in every place that reads the list (the live list, the officer's
list, a publication's page, every list CSV, the API's row), and a column the club's
settings hide shows in no table. The column here, a member's federation, is added to the
definition by the test and nowhere else."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from ratings.api import schemas
from ratings.formats import list_row
from ratings.formats.list_row import LIVE, PUBLICATION, ListColumn, ObjectRow, live_path
from ratings.models import PublicationEntry
from ratings.services import list_publish

from ..factories import MemberFactory, paid_up, rating_state

pytestmark = pytest.mark.django_db

FEDERATION = ListColumn(
    "federation",
    "Fed.",
    reads=("federation",),
    csv=("federation",),
    api=(("federation", str),),
    tables={LIVE: {"cell": "wide"}, PUBLICATION: {"cell": "wide"}},
)
HEADING = re.compile(r"<th[^>]*>\s*(<a [^>]*>)?Fed\.(</a>)?\s*</th>")
CELL = re.compile(r'<td class="[^"]*d-md-table-cell[^"]*">NZL</td>')


@pytest.fixture
def federation_column(monkeypatch):
    monkeypatch.setattr(list_row, "LIST_ROW", (*list_row.LIST_ROW, FEDERATION))


@pytest.fixture
def aroha(current_season):
    member = paid_up(MemberFactory(name="Aroha Tane", federation="NZL"), current_season)
    rating_state(member, rating=1700, display="1700", games=30)
    return member


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def download(client, url: str) -> str:
    return b"".join(client.get(url + "?_export=csv").streaming_content).decode()


def test_a_new_column_shows_on_the_live_list(client, federation_column, aroha):
    page = client.get(reverse("ratings:live-list")).content.decode()
    assert HEADING.search(page)
    assert CELL.search(page)


def test_a_new_column_shows_on_the_officers_list(officer_client, federation_column, aroha):
    page = officer_client.get(reverse("ratings:officer-ratings")).content.decode()
    assert HEADING.search(page)
    assert CELL.search(page)


def test_a_new_column_shows_on_a_publication(client, federation_column, aroha):
    list_publish(note="November")
    page = client.get(reverse("ratings:list")).content.decode()
    assert HEADING.search(page)
    assert CELL.search(page)


def test_a_new_column_is_written_in_every_list_csv(
    client, officer_client, federation_column, aroha
):
    live = rows(download(client, reverse("ratings:live-list")))
    officer = rows(download(officer_client, reverse("ratings:officer-ratings")))
    out = io.StringIO()
    call_command("export_ratings", stdout=out)
    command = rows(out.getvalue())
    list_publish(note="November")
    published = rows(download(client, reverse("ratings:list")))
    for written in (live, officer, command, published):
        assert [row["federation"] for row in written] == ["NZL"]


def test_a_new_column_is_a_field_of_the_apis_row(federation_column, aroha):
    described = schemas.list_row_fields().model_json_schema()
    assert described["properties"]["federation"]["type"] == "string"
    assert "federation" in described["required"]
    values = list_row.api_values(ObjectRow(aroha, live_path, {"rank": 1, "junior": "", "url": ""}))
    assert values["federation"] == "NZL"


def test_the_apis_row_is_the_rows_definition():
    served = schemas.ListRow.model_json_schema()["properties"]
    assert list(served) == list(list_row.api_fields())


def test_a_column_the_clubs_settings_hide_shows_in_no_table(client, monkeypatch, aroha):
    hidden = ListColumn(**{**FEDERATION.__dict__, "shown": lambda shown: False})
    monkeypatch.setattr(list_row, "LIST_ROW", (*list_row.LIST_ROW, hidden))
    assert not HEADING.search(client.get(reverse("ratings:live-list")).content.decode())
    list_publish(note="November")
    assert not HEADING.search(client.get(reverse("ratings:list")).content.decode())


def test_each_figure_of_the_list_is_frozen_in_a_publications_entries():
    # A publication is read as it was published: each figure a column reads there is an
    # entry's own field, copied when it was published (services/publishing.py).
    fields = {field.name for field in PublicationEntry._meta.get_fields()}
    assert fields >= list_row.FIGURES
    assert {list_row.publication_path(name) for name in list_row.FIGURES} <= fields
