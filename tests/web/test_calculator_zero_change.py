"""The calculator shows a change that rounds to nothing as "0": no sign, no colour."""

import pytest
from django.urls import reverse

from ratings import services

pytestmark = pytest.mark.django_db


def ask_with_changes(client, monkeypatch, *, game: float, event: float):  # type: ignore[no-untyped-def]
    """A draw between equals, with the game's and the event's change nudged to these."""
    real = services.calculator_rate

    def nudged(**kwargs):  # type: ignore[no-untyped-def]
        change = real(**kwargs)
        change.games[0].change = game
        change.after = change.before + event
        return change

    monkeypatch.setattr(services, "calculator_rate", nudged)
    data = {"go": "1", "g-TOTAL_FORMS": 1, "g-INITIAL_FORMS": 0, "p-rating": 1500}
    data.update({"p-games": 40, "g-0-rating": 1500, "g-0-result": "0.5"})
    return client.get(reverse("ratings:calculator"), data).content.decode()


def change_cell(html: str) -> str:
    row = html.split("a player rated 1500</td>")[1].split("</tr>")[0]
    return row.rsplit('<td class="rating">', 1)[1].split("</td>")[0]


@pytest.mark.parametrize("tiny", [0.004, -0.004])
def test_a_game_change_that_rounds_to_nothing_shows_as_0(client, club, monkeypatch, tiny):
    html = ask_with_changes(client, monkeypatch, game=tiny, event=0.0)
    assert change_cell(html) == "0"


def test_a_game_change_that_shows_keeps_its_sign_and_two_decimals(client, club, monkeypatch):
    html = ask_with_changes(client, monkeypatch, game=0.006, event=0.0)
    assert change_cell(html) == "+0.01"


def test_an_event_change_that_rounds_to_nothing_shows_as_0(client, club, monkeypatch):
    html = ask_with_changes(client, monkeypatch, game=0.0, event=0.04)
    assert "<span>(0)</span>" in html
    assert "(+0" not in html
