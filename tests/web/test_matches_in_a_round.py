"""A player meets one opponent a round; several games against that one opponent in the
round are a match (a knockout's 4.1, 4.2 ...; a league meet), recorded and rated game by
game on every path that checks the rule."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

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
    other = Game(event=first.event, round=2, white=first.white, black=MemberFactory(), result="1-0")
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
