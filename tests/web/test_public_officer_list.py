"""The officer's view of the list: everyone rated, with why each is (not) published."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import Game

from ..factories import MemberFactory, paid_up

pytestmark = pytest.mark.django_db

OFFICER_LIST = reverse("ratings:officer-ratings")


def reasons(response) -> dict[str, str]:
    from ratings.rules.publication import reason

    return {m.name: reason(m) for m in response.context["table"].page.object_list.data}


def test_the_officer_list_shows_everyone_marked_with_the_reason(
    officer_client, rated_event, current_season, alice, bob
):
    guest = paid_up(MemberFactory(name="Gus Guest", is_guest=True), current_season)
    paid_up(alice, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN), (1, guest, MemberFactory(), "1-0")])
    found = reasons(officer_client.get(OFFICER_LIST))
    assert found["Alice Archer"] == "published"
    assert found["Bob Brown"] == "no: in arrears"
    assert found["Gus Guest"] == "no: guest"


def test_the_officer_list_downloads_with_the_published_column(
    officer_client, rated_event, current_season, alice, bob
):
    paid_up(alice, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    lines = officer_client.get(OFFICER_LIST, {"_export": "csv"}).getvalue().decode().splitlines()
    assert lines[0].endswith(",last_played,unpublished")
    assert lines[2].startswith(",B2,Bob Brown,1484,") and lines[2].endswith(",arrears")


def test_the_public_cannot_open_the_officer_list(client):
    response = client.get(OFFICER_LIST)
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_the_reason_fits_a_phones_column_and_keeps_the_full_words_in_its_title(
    officer_client, rated_event, current_season, alice, bob
):
    paid_up(alice, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    html = officer_client.get(OFFICER_LIST).content.decode()
    assert '<span class="text-danger published-reason" title="no: in arrears">no: arrears' in html
    assert '<span class="text-success published-reason">yes</span>' in html


def test_the_officer_csv_neutralises_a_name_a_spreadsheet_would_run_as_a_formula(
    officer_client, rated_event, current_season, alice
):
    paid_up(alice, current_season)
    rated_event([(1, alice, MemberFactory(name="+1+cmd"), Game.Result.WHITE_WIN)])
    response = officer_client.get(OFFICER_LIST, {"_export": "csv"})
    text = b"".join(response.streaming_content).decode()
    assert ",'+1+cmd," in text
    assert ",+1+cmd," not in text
