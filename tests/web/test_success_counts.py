"""A success message counts what the page it leads to will then show."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from ratings.formats import trf

from .test_officer_csv_import import confirm, preview, upload
from .test_officer_import import GROS
from .test_officer_import import confirm as trf_confirm
from .test_officer_import import upload as trf_upload

pytestmark = pytest.mark.django_db

# Three members paid or not as the file says, two whose membership it leaves alone (new:
# no season paid, so in arrears), one guest.
MEMBERS = (
    "id,name,born,title,fide_id,membership\n"
    "R1,Ana Tuilagi,2011-04-02,,,financial\n"
    "R2,Mikhail Petrov,1979-12-23,FM,4130545,arrears\n"
    "R3,Grace Kim,,,,financial\n"
    "R4,Liam O'Connor,,,,\n"
    "R5,Chen Li,,,,\n"
    "V1,Carlos Mendes,,,,guest\n"
)


def test_the_members_imports_counts_agree_with_the_members_page(officer_client, current_season):
    upload(officer_client, MEMBERS)
    response = confirm(officer_client)
    page = officer_client.get(response["Location"])
    (message,) = [str(m) for m in page.context["messages"]]
    assert "2 financial, 3 in arrears, 1 guest" in message
    filters = {key: count for key, _, count in page.context["filters"]}
    assert filters == {"financial": 2, "arrears": 3, "guest": 1}


def test_the_members_preview_shows_born_title_and_fide_id(officer_client):
    upload(officer_client, MEMBERS)
    text = preview(officer_client).content.decode()
    for head in ("Born", "Title", "FIDE id"):
        assert f'<th scope="col">{head}</th>' in text
    assert "23 Dec 1979" in text and ">FM<" in text and ">4130545<" in text


def test_a_trf_imports_message_counts_its_games_and_byes_apart(officer_client):
    games = trf.parse(GROS.read_bytes()).games()
    byes = sum(1 for game in games if game.black is None)
    trf_upload(officer_client)
    response = trf_confirm(officer_client)
    page = officer_client.get(response["Location"])
    (message,) = [str(m) for m in page.context["messages"]]
    counted = re.search(r"imported: 52 players, (\d+) games, (\d+) byes\.", message)
    assert counted, message
    assert (int(counted[1]), int(counted[2])) == (len(games) - byes, byes)
    assert (
        reverse("ratings:officer-event", args=[page.context["event"].pk]) == response["Location"]
    )
