"""The calculator's breakdown reads as words and numbers, not as Python values."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

CALCULATOR = reverse("ratings:calculator")


def breakdown(client, rating: int, games: int) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    response = client.get(
        CALCULATOR,
        {
            "go": "1",
            "p-rating": rating,
            "p-games": games,
            "g-TOTAL_FORMS": 1,
            "g-INITIAL_FORMS": 0,
            "g-0-rating": 1500,
            "g-0-result": "1",
        },
    )
    page = response.content.decode()
    listed = re.search(r'<dl class="[^"]*breakdown">(.*?)</dl>', page, re.S)
    assert listed, "no breakdown on the page"
    return re.findall(r"<dt[^>]*>(.*?)</dt><dd[^>]*>(.*?)</dd>", listed.group(1))


def test_a_yes_or_no_in_the_breakdown_reads_yes_or_no(client, club):
    club.rating_system = "st-charles"
    club.save()
    rows = breakdown(client, 1500, 40)
    assert ("Official", "yes") in rows
    assert not any(value in ("True", "False") for _, value in rows)


def test_the_breakdown_names_each_figure_and_rounds_it(client, club):
    rows = breakdown(client, 1500, 40)  # NZ club Elo: K 16, an equal opponent
    assert rows == [("K", "16"), ("Games", "1"), ("Score", "1"), ("Expected score", "0.5")]


def test_each_game_shows_the_systems_own_figures(client, club):
    club.rating_system = "st-charles"
    club.save()
    response = client.get(
        CALCULATOR,
        {
            "go": "1",
            "p-rating": 1500,
            "p-games": 40,
            "g-TOTAL_FORMS": 1,
            "g-INITIAL_FORMS": 0,
            "g-0-rating": 1600,
            "g-0-result": "1",
        },
    )
    outcome = response.context["outcome"]
    assert outcome["columns"] == ["Shift", "Rule"]
    assert outcome["lines"][0]["extra"] == ["+4", "formula"]  # (1600 - 1500) / 25
