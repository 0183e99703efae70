"""A pasted round takes results as score sheets write them: "1 - 0", "1/2 - 1/2"."""

import pytest
from django.urls import reverse

from ratings.models import Event, Game

from ..factories import EventFactory

pytestmark = pytest.mark.django_db

R = Game.Result


@pytest.fixture
def club_night(alice, bob, carol, dave):
    event = EventFactory(name="Club night", rounds=3, kind=Event.Kind.SWISS)
    for member in (alice, bob, carol, dave):
        event.entries.create(member=member)
    return event


def paste(client, event, text):  # type: ignore[no-untyped-def]
    url = reverse("ratings:officer-round-paste", args=[event.pk])
    return client.post(url, {"round": 1, "text": text})


def preview(response):  # type: ignore[no-untyped-def]
    assert "preview" in response.context, response.context["form"].errors
    return [
        (p.white.name, p.black.name if p.black else None, p.result)
        for p in response.context["preview"]
    ]


@pytest.mark.parametrize(
    ("spelling", "result"),
    [
        ("1 - 0", R.WHITE_WIN),
        ("½ - ½", R.DRAW),
        ("1/2 - 1/2", R.DRAW),
        ("0 - 1 nr", R.BLACK_WIN_UNRATED),
        ("+ / -", R.WHITE_FORFEIT_WIN),
    ],
)
def test_a_pasted_result_may_have_spaces_around_its_dash_or_slash(
    officer_client, club_night, spelling, result
):
    response = paste(officer_client, club_night, f"Alice Archer - Bob Brown {spelling}")
    assert preview(response) == [("Alice Archer", "Bob Brown", result)]


def test_a_spaced_result_after_vs_leaves_the_names_whole(officer_client, club_night):
    response = paste(officer_client, club_night, "Alice Archer vs Bob Brown 1/2 - 1/2")
    assert preview(response) == [("Alice Archer", "Bob Brown", R.DRAW)]


def test_a_spaced_result_after_member_numbers_is_read(officer_client, club_night):
    response = paste(officer_client, club_night, "A1 - B2 1 - 0\nC3 - D4 0 - 1")
    assert preview(response) == [
        ("Alice Archer", "Bob Brown", R.WHITE_WIN),
        ("Carol Chen", "Dave Dunn", R.BLACK_WIN),
    ]


def test_a_spaced_unknown_result_is_named_whole_in_the_message(officer_client, club_night):
    response = paste(officer_client, club_night, "Alice Archer - Bob Brown 1 - 1")
    message = response.context["form"].errors["text"][0]
    assert message.startswith("Line 1: “1 - 1” is not a result. Allowed:")
    assert not club_night.games.exists()


def test_a_game_without_a_dash_between_the_players_says_how_to_write_it(
    officer_client, club_night
):
    response = paste(officer_client, club_night, "Alice Archer Bob Brown 1 - 0")
    assert response.context["form"].errors["text"] == [
        "Line 1: write it as “white - black result”."
    ]


# -- a line built to make a backtracking pattern run for ever is read at once -----------

ADVERSARIAL = [
    "A1 - B2 " + "-" * 30 + " x y",  # dashes the old pattern split every possible way
    "A1 - B2 " + "1-" * 15 + " x",
    "A1 - B2 " + "-" * 3000 + " x y",
    "A1 - B2 " + "1 - " * 750 + "x",
    "A1 " + " " * 3000 + "- B2 1/" + "/" * 3000,
    "a" * 3000 + " - " + "b" * 3000,
]


@pytest.mark.parametrize("line", ADVERSARIAL, ids=lambda line: f"{len(line)}-chars")
def test_a_line_built_to_backtrack_is_refused_at_once(officer_client, club_night, line):
    response = paste(officer_client, club_night, line)
    problems = response.context["form"].errors["text"]
    assert len(problems) == 1 and problems[0].startswith("Line 1:")
    assert not club_night.games.exists()


@pytest.mark.parametrize("line", ADVERSARIAL, ids=lambda line: f"{len(line)}-chars")
def test_the_paste_parser_reads_a_long_line_in_linear_time(line):
    from ratings.forms import paste_line_split, paste_unknown_result

    # Each of these took exponential time with the old pattern (a 40-character line, 30
    # seconds): here they are done before the test could notice any wait.
    assert paste_line_split(line) is None
    paste_unknown_result(line)


def test_a_long_line_that_ends_in_a_result_is_still_read(officer_client, club_night):
    response = paste(
        officer_client, club_night, "Alice   Archer  -   Bob Brown" + " " * 3000 + "1-0"
    )
    assert preview(response) == [("Alice Archer", "Bob Brown", R.WHITE_WIN)]
