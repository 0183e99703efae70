"""The rating calculator: what if I beat her? Nothing saved, the club's own system."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import Game, RatingChange, RatingRun, RatingState

from ..factories import paid_up

pytestmark = pytest.mark.django_db

CALCULATOR = reverse("ratings:calculator")


def ask(client, player: dict[str, object], games: list[dict[str, object]], **extra):  # type: ignore[no-untyped-def]
    data: dict[str, object] = {"go": "1", "g-TOTAL_FORMS": len(games), "g-INITIAL_FORMS": 0}
    data.update({f"p-{k}": v for k, v in player.items()})
    for i, game in enumerate(games):
        data.update({f"g-{i}-{k}": v for k, v in game.items()})
    data.update(extra)
    return client.get(CALCULATOR, data)


def test_a_typed_rating_beating_an_equal_gains_what_the_club_system_gives(client, club):
    response = ask(client, {"rating": 1500, "games": 40}, [{"rating": 1500, "result": "1"}])
    outcome = response.context["outcome"]
    assert outcome["change"].display_after == "1508"  # NZ club Elo: K 16 established
    assert outcome["detail"]["k"] == 16
    assert outcome["lines"][0]["expected"] == 0.5


def test_a_member_starts_from_their_stored_rating(client, rated_event, current_season, alice, bob):
    paid_up(alice, current_season)
    paid_up(bob, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    response = ask(client, {"member": "A1"}, [{"opponent": "Bob Brown", "result": "0.5"}])
    outcome = response.context["outcome"]
    assert outcome["change"].before == 1516.0
    assert outcome["lines"][0]["opponent"] == "Bob Brown (1484)"
    assert outcome["lines"][0]["opponent_rating"] == 1484.0


def test_the_calculator_saves_nothing(client, rated_event, current_season, alice, bob):
    paid_up(alice, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    before = (RatingRun.objects.count(), RatingChange.objects.count())
    state = RatingState.objects.get(member=alice).rating
    ask(client, {"member": alice.member_number}, [{"rating": 2400, "result": "1"}])
    assert (RatingRun.objects.count(), RatingChange.objects.count()) == before
    assert RatingState.objects.get(member=alice).rating == state


def test_a_result_must_be_one_half_or_nothing(client, club):
    response = ask(client, {"rating": 1500, "games": 40}, [{"rating": 1500, "result": "2"}])
    assert response.context["outcome"] is None
    assert response.context["formset"].forms[0].errors["result"] == ["A result is 1, ½ or 0."]


def test_a_rating_must_be_a_number(client, club):
    response = ask(
        client, {"rating": "fifteen hundred", "games": 40}, [{"rating": 1500, "result": "1"}]
    )
    assert response.context["player_form"].errors["rating"] == ["A rating is a number, e.g. 1450."]


def test_a_game_needs_an_opponent_and_a_result(client, club):
    response = ask(client, {"rating": 1500, "games": 10}, [{"rating": 1500}])
    assert response.context["formset"].forms[0].errors["result"] == ["A result is 1, ½ or 0."]


def test_at_least_one_game_is_needed(client, club):
    response = ask(client, {"rating": 1500, "games": 10}, [{}])
    assert response.context["formset"].non_form_errors() == ["Add at least one game."]


def test_a_typed_rating_needs_the_games_it_rests_on(client, club):
    response = ask(client, {"rating": 1500}, [{"rating": 1500, "result": "1"}])
    assert "games" in response.context["player_form"].errors


def test_members_in_arrears_cannot_be_looked_up_by_the_public(client, rated_event, alice, bob):
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    response = ask(client, {"member": "A1"}, [{"rating": 1500, "result": "1"}])
    assert response.context["outcome"] is None
    assert response.context["player_form"].errors["member"] == [
        "No rated member has the name or number A1: pick one from the list, or type a rating."
    ]


def test_add_a_game_brings_the_answers_back_with_one_more_row(client, club):
    response = client.get(
        CALCULATOR,
        {
            "add": "1",
            "p-rating": "1500",
            "p-games": "12",
            "g-TOTAL_FORMS": "1",
            "g-0-rating": "1600",
            "g-0-result": "1",
        },
    )
    formset = response.context["formset"]
    assert len(formset.forms) == 2
    assert formset.forms[0].initial["rating"] == "1600"
    assert response.context["player_form"].initial["games"] == "12"
