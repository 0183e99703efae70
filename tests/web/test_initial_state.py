"""A member's state before their first event here, as each system takes it (ecf-2020 above all)."""

import pytest
from django.utils import timezone

from ratings import services
from ratings.engine import get_system
from ratings.engine.base import Event as EngineEvent
from ratings.engine.base import Game as EngineGame
from ratings.models import ClubSettings
from ratings.pages.calculator import calculator_typed

from ..factories import MemberFactory

pytestmark = pytest.mark.django_db

ECF = get_system("ecf-2020")


@pytest.mark.parametrize(
    ("rating", "games", "category", "shown"),
    [
        (None, 0, None, ""),
        (None, 12, None, ""),
        # A rating with no games behind it is no ECF rating: the player starts as new.
        (1500, 0, None, ""),
        (1500, 3, "partial", "1500P"),
        (1500, 9, "partial", "1500P"),
        (1500, 10, "full", "1500"),
    ],
)
def test_an_imported_rating_is_full_from_10_games_partial_below_and_none_without_games(
    rating, games, category, shown
):
    member = MemberFactory(initial_rating=rating, initial_games=games)
    state = services.member_initial_state(member, ECF)
    assert (state.category, ECF.display(state)) == (category, shown)
    assert state.last_played == (member.created.date() if category else None)


def rate_a_draw(newcomer_games: int) -> dict[str, dict]:
    """A member rated 1500 from ``newcomer_games`` games draws with an established 1500."""
    newcomer = MemberFactory(initial_rating=1500, initial_games=newcomer_games)
    regular = MemberFactory(initial_rating=1500, initial_games=40)
    players = {m.engine_id: services.member_initial_state(m, ECF) for m in (newcomer, regular)}
    day = timezone.localdate()
    event = EngineEvent(
        id="e", date=day, games=(EngineGame(newcomer.engine_id, regular.engine_id, 0.5, 1),)
    )
    [result] = ECF.rate_period(players, [event], ECF.period_of(day))
    changes = {c.player: c for c in result.changes}
    return {
        "newcomer": {
            "category": changes[newcomer.engine_id].detail["category_before"],
            "before": changes[newcomer.engine_id].display_before,
            "after": changes[newcomer.engine_id].after,
        },
        "regular": {"after": changes[regular.engine_id].after},
    }


def test_with_no_games_the_engine_rates_the_member_as_new_and_says_so():
    # Before: a "partial" 1500 over no games, shown as 1500P yet weighing nothing (the
    # P rating is over its games, here none), so a draw with a 1500 made it 1650P.
    rated = rate_a_draw(0)
    assert rated["newcomer"]["category"] == "new"
    assert rated["newcomer"]["before"] == ""
    # New: the dummy draw (adult default 1800) and the game, as for anyone new.
    assert rated["newcomer"]["after"] == 1650


def test_with_games_the_partial_rating_counts_for_them():
    rated = rate_a_draw(5)
    assert rated["newcomer"]["category"] == "partial"
    assert rated["newcomer"]["before"] == "1500P"
    assert 1500 < rated["newcomer"]["after"] < 1650


@pytest.mark.parametrize(("games", "category"), [(0, None), (4, "partial"), (30, "full")])
def test_the_calculator_takes_a_typed_rating_the_same_way(games, category):
    ClubSettings.objects.update_or_create(pk=1, defaults={"rating_system": "ecf-2020"})
    state = calculator_typed(key="you", rating=1500, games=games)
    assert state.category == category
