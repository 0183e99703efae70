import datetime as dt

import pytest

from ratings import services
from ratings.models import Game, RatingChange, RatingState

pytestmark = pytest.mark.django_db


def test_rating_an_event_records_a_change_per_player_and_the_new_states(rated_event, alice, bob):
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    assert RatingChange.objects.count() == 2
    alice_state = RatingState.objects.get(member=alice)
    assert alice_state.rating == 1516.0
    assert alice_state.display == "1516"
    assert RatingState.objects.get(member=bob).rating == 1484.0


def test_rerating_from_an_earlier_event_gives_the_same_as_rating_from_scratch(
    rated_event, alice, bob, carol
):
    first = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)], date=dt.date(2026, 3, 2))
    rated_event([(1, bob, carol, Game.Result.DRAW)], date=dt.date(2026, 3, 9))
    rated_event([(1, carol, alice, Game.Result.BLACK_WIN)], date=dt.date(2026, 3, 16))
    game = first.games.get()
    game.result = Game.Result.BLACK_WIN
    game.save()
    services.ratings_rerate(start=first, reason="corrected")
    incremental = dict(RatingState.objects.values_list("member_id", "rating"))
    services.ratings_rerate(reason="from scratch")
    assert dict(RatingState.objects.values_list("member_id", "rating")) == incremental
    assert RatingChange.objects.count() == 6
