"""A result is spelled the same way in a results file and in a pasted round."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from ratings.models import Event, Game
from ratings.rules import results
from ratings.services import result_imports

from ..factories import EventFactory

pytestmark = pytest.mark.django_db

R = Game.Result

#: Every spelling docs/commands.md gives for import_results (and a few a score sheet uses).
GAMES = [
    ("1-0", R.WHITE_WIN),
    ("0-1", R.BLACK_WIN),
    ("1/2-1/2", R.DRAW),
    ("½-½", R.DRAW),
    ("0.5-0.5", R.DRAW),
    ("=-=", R.DRAW),
    ("=", R.DRAW),
    ("1/2", R.DRAW),
    ("+/-", R.WHITE_FORFEIT_WIN),
    ("-/+", R.BLACK_FORFEIT_WIN),
    ("-/-", R.DOUBLE_FORFEIT),
    ("1-0 nr", R.WHITE_WIN_UNRATED),
    ("0-1 nr", R.BLACK_WIN_UNRATED),
    ("1/2-1/2 nr", R.DRAW_UNRATED),
    ("½-½ nr", R.DRAW_UNRATED),
    ("1-0 NR", R.WHITE_WIN_UNRATED),
]
BYES = [
    ("bye", R.BYE),
    ("half-bye", R.HALF_BYE),
    ("zero-bye", R.ZERO_BYE),
    ("absent", R.ZERO_BYE),
]


@pytest.fixture
def club_night(alice, bob, carol):
    event = EventFactory(name="Club night", rounds=3, kind=Event.Kind.SWISS)
    for member in (alice, bob, carol):
        event.entries.create(member=member)
    return event


def paste(client, event, text):
    url = reverse("ratings:officer-round-paste", args=[event.pk])
    return client.post(url, {"round": 1, "text": text})


def preview(response) -> list[tuple[str, str | None, str]]:
    assert "preview" in response.context, response.context["form"].errors
    return [
        (p.white.name, p.black.name if p.black else None, p.result)
        for p in response.context["preview"]
    ]


@pytest.mark.parametrize(("spelling", "result"), GAMES)
def test_a_pasted_game_takes_every_spelling_of_a_results_file(
    officer_client, club_night, spelling, result
):
    response = paste(officer_client, club_night, f"Alice Archer - Bob Brown {spelling}")
    assert preview(response) == [("Alice Archer", "Bob Brown", result)]


@pytest.mark.parametrize(("spelling", "result"), BYES)
def test_a_pasted_bye_takes_every_spelling_of_a_results_file(
    officer_client, club_night, spelling, result
):
    response = paste(officer_client, club_night, f"Carol Chen {spelling}")
    assert preview(response) == [("Carol Chen", None, result)]


def test_an_unrated_result_after_a_first_name_is_read_as_the_result(officer_client, club_night):
    response = paste(officer_client, club_night, "Alice Archer - Bob 1-0 nr")
    assert preview(response) == [("Alice Archer", "Bob Brown", R.WHITE_WIN_UNRATED)]


@pytest.mark.parametrize(("spelling", "result"), GAMES)
def test_a_results_file_takes_every_spelling(alice, bob, spelling, result):
    # Round 2 a rated game: an event of forfeits alone is refused (nothing to rate).
    text = (
        f"event,date,round,white,black,result\nE,2026-03-03,1,A1,B2,{spelling}\n"
        "E,2026-03-03,2,B2,A1,1-0\n"
    )
    events, problems = result_imports.results_check(text)
    assert problems == []
    assert events[0].rows[0].result == result


@pytest.mark.parametrize(("spelling", "result"), BYES)
def test_a_results_file_takes_every_spelling_of_a_bye(alice, bob, spelling, result):
    # Round 2 a rated game: an event of byes alone is refused (nothing to rate).
    text = (
        f"event,date,round,white,black,result\nE,2026-03-03,1,A1,,{spelling}\n"
        "E,2026-03-03,2,B2,A1,1-0\n"
    )
    events, problems = result_imports.results_check(text)
    assert problems == []
    assert events[0].rows[0].result == result


def test_a_pasted_unknown_result_lists_the_words_one_may_paste(officer_client, club_night):
    response = paste(officer_client, club_night, "Alice Archer - Bob Brown 2-0")
    message = response.context["form"].errors["text"][0]
    assert message.startswith("Line 1: “2-0” is not a result. Allowed: 1-0, ½-½ (or 1/2-1/2")
    assert "1-0 nr, ½-½ nr, 0-1 nr" in message
    assert "bye, half-bye" in message
    # The round page's labels are not words one can paste.
    assert "not rated," not in message and "Bye (1)" not in message


def test_every_word_the_message_offers_can_be_pasted(officer_client, club_night):
    message = results.allowed_results()
    for prose in ("forfeits:", "not rated:", "byes:", "(any game result, then “nr”)", "(or"):
        message = message.replace(prose, ",")
    words = [w.strip() for w in re.split(r"[,;)]", message) if w.strip()]
    assert {"1-0", "½-½", "0-1", "-/-", "1-0 nr", "bye", "zero-bye"} <= set(words)
    for word in words:
        result = results.read_result(word)
        line = f"Carol Chen {word}" if result in Game.BYES else f"A1 - B2 {word}"
        assert preview(paste(officer_client, club_night, line))[0][2] == result, word


def test_every_result_is_named_spelled_scored_and_written_in_the_vocabulary():
    every = set(Game.Result.values)
    assert set(results.LABELS) == set(results.SHORT_LABELS) == every
    assert set(results.SPELLINGS) == set(results.READS.values()) == every
    assert set(results.POINTS) == every
    assert set(results.TRF_CODES) | set(results.TRF_BYE_CODES) == every
    assert set(results.PLAYED + results.UNRATED + results.FORFEITS + results.BYES) == every


def test_a_result_flipped_twice_is_itself():
    assert all(results.flipped(results.flipped(r)) == r for r in Game.Result.values)
    assert all(
        results.POINTS[results.flipped(r)] == results.POINTS[r][::-1]
        for r in Game.Result.values
        if r not in results.BYES
    )
