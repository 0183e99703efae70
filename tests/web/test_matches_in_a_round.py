"""A player meets one opponent a round; several games against that one opponent in the
round are a match (a knockout's 4.1, 4.2 ...; a league meet), recorded and rated game by
game on every path that checks the rule."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from ratings import services
from ratings.models import Event, Game, RatingChange, rules

from ..factories import EventFactory, GameFactory, MemberFactory

pytestmark = pytest.mark.django_db


def test_the_rule_allows_several_games_between_the_same_two_players_in_a_round():
    games = [(1, 10, 20), (1, 20, 10), (1, 10, 20), (1, 30, 40)]
    assert rules.twice_in_round_problems(games, names={}) == []


def test_the_rule_still_refuses_a_second_opponent_or_a_bye_beside_a_game():
    names = {10: "Ana Tuilagi", 20: "Ben Carter", 30: "Cara Diaz"}
    assert rules.twice_in_round_problems([(1, 10, 20), (1, 10, 30)], names=names) == [
        "Ana Tuilagi has two games in round 1: a player meets one opponent a round "
        "(several games against the same one are a match)."
    ]
    assert rules.twice_in_round_problems([(2, 10, None), (2, 10, 20)], names=names) != []


def test_a_second_game_of_a_match_passes_the_games_own_check():
    first = GameFactory(round=2)
    second = Game(event=first.event, round=2, white=first.black, black=first.white, result="0-1")
    second.full_clean()


def test_a_game_against_a_second_opponent_in_the_round_is_still_refused():
    first = GameFactory(round=2)
    other = Game(
        event=first.event, round=2, white=first.white, black=MemberFactory(), result="1-0"
    )
    with pytest.raises(ValidationError, match="has two games in round 2"):
        other.full_clean()


def test_a_match_entered_as_a_round_is_saved_and_rated_game_by_game():
    event = EventFactory(rounds=1)
    ana, ben = MemberFactory(name="Ana Tuilagi"), MemberFactory(name="Ben Carter")
    match = [
        Game(round=1, white=ana, black=ben, result=Game.Result.DRAW),
        Game(round=1, white=ben, black=ana, result=Game.Result.WHITE_WIN),
        Game(round=1, white=ana, black=ben, result=Game.Result.WHITE_WIN),
    ]
    services.games_replace(event=event, games=match, rounds=[1])
    services.event_complete(event=event)
    event.refresh_from_db()
    assert event.status == Event.Status.COMPLETE
    assert event.games.count() == 3
    assert RatingChange.objects.get(event=event, member=ana).played == 3


def _meet(alice, bob, carol, dave) -> Event:
    """An NSCL-style meet: one round, everyone entered."""
    event = EventFactory(name="League meet", start_date=dt.date(2026, 3, 2), rounds=1)
    for member in (alice, bob, carol, dave):
        event.entries.create(member=member)
    return event


def test_a_match_entered_on_the_round_page_is_saved_board_by_board(
    officer_client, alice, bob, carol, dave
):
    event = _meet(alice, bob, carol, dave)
    rows = [(alice, bob, "1-0"), (bob, alice, "1/2-1/2"), (carol, dave, "0-1")]
    data = {"g-TOTAL_FORMS": str(len(rows)), "g-INITIAL_FORMS": "0"}
    for i, (white, black, result) in enumerate(rows):
        data |= {f"g-{i}-white": white.pk, f"g-{i}-black": black.pk, f"g-{i}-result": result}
    officer_client.post(reverse("ratings:officer-round", args=[event.pk, 1]), data)
    assert event.games.filter(round=1).count() == 3


def test_a_match_pasted_as_a_round_is_saved_line_by_line(officer_client, alice, bob, carol, dave):
    event = _meet(alice, bob, carol, dave)
    text = "A1 - B2 1-0\nB2 - A1 1/2-1/2\nA1 - B2 0-1\nC3 - D4 1-0"
    officer_client.post(
        reverse("ratings:officer-round-paste", args=[event.pk]),
        {"round": 1, "text": text, "save": "1"},
    )
    assert event.games.filter(round=1).count() == 4


def test_a_player_pasted_against_a_second_opponent_is_still_refused(
    officer_client, alice, bob, carol, dave
):
    event = _meet(alice, bob, carol, dave)
    page = officer_client.post(
        reverse("ratings:officer-round-paste", args=[event.pk]),
        {"round": 1, "text": "A1 - B2 1-0\nA1 - C3 0-1", "save": "1"},
    )
    assert "Alice Archer is already paired on line 1" in page.content.decode()
    assert not event.games.exists()
