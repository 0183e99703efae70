"""A re-rate costs what it rates: the rows it writes are those of the members it touches.

Completing an event at the end of the history writes that event's changes and its
players' states, and nobody else's; a correction rewrites the members of the events
after it. Whatever it skips must already equal a full re-rate.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings import services
from ratings.models import (
    ClubSettings,
    Event,
    Game,
    RatingChange,
    RatingPeriod,
    RatingRun,
    RatingState,
)
from ratings.pages.events import saved_changes

from ..factories import EventFactory, GameFactory, MemberFactory
from .test_rerate import full_rerate, ratings_now

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_of_forty(rated_event):  # type: ignore[no-untyped-def]
    """Forty members, twenty of whom played two rated events."""
    members = [MemberFactory(initial_rating=1400 + 10 * n) for n in range(40)]
    for week in range(2):
        day = dt.date(2026, 1, 5) + dt.timedelta(weeks=week)
        pairs = [(1, members[i], members[i + 1], "1-0") for i in range(0, 20, 2)]
        rated_event(pairs, date=day, name=f"Week {week}")
    return members


def _state_writes(queries) -> list[str]:  # type: ignore[no-untyped-def]
    return [
        q["sql"]
        for q in queries
        if '"ratings_ratingstate"' in q["sql"] and q["sql"].startswith(("INSERT", "DELETE"))
    ]


def test_completing_an_event_at_the_end_writes_rows_for_its_players_only(
    club_of_forty, rated_event
):
    players = club_of_forty[20:24]
    untouched = dict(RatingState.objects.values_list("member_id", "updated"))
    event = rated_event(
        [(1, players[0], players[1], "1-0"), (1, players[2], players[3], "0-1")],
        date=dt.date(2026, 3, 2),
        rate=False,
    )
    run = services.event_complete(event=event)
    assert run is not None and run.events_rated == 1
    changed = {
        pk
        for pk, updated in RatingState.objects.values_list("member_id", "updated")
        if updated != untouched[pk]
    }
    assert changed == {m.pk for m in players}
    assert set(RatingChange.objects.filter(event=event).values_list("member_id", flat=True)) == {
        m.pk for m in players
    }
    incremental = ratings_now()
    services.ratings_rerate(services.RerateRequest(reason="from scratch"))
    assert ratings_now() == incremental


def test_completing_an_event_reads_and_writes_as_much_for_forty_members_as_for_four_hundred(
    club_of_forty, rated_event
):
    def queries_to_complete(date: dt.date) -> int:
        a, b = MemberFactory(), MemberFactory()
        event = rated_event([(1, a, b, "1-0")], date=date, rate=False)
        with CaptureQueriesContext(connection) as queries:
            services.event_complete(event=event)
        return len(queries)

    before = queries_to_complete(dt.date(2026, 3, 2))
    for _ in range(360):
        MemberFactory()
    assert queries_to_complete(dt.date(2026, 3, 9)) == before


def test_a_correction_rewrites_the_members_of_the_events_after_it_only(club_of_forty, rated_event):
    first = Event.objects.get(name="Week 0")
    outsider = club_of_forty[30]
    outsider_state = RatingState.objects.get(member=outsider).updated
    game = first.games.order_by("pk").first()
    game.result = "0-1"
    game.save()
    with CaptureQueriesContext(connection) as queries:
        services.ratings_rerate(services.RerateRequest(start=first, reason="corrected"))
    assert _state_writes(queries)
    assert RatingState.objects.get(member=outsider).updated == outsider_state
    incremental = ratings_now()
    services.ratings_rerate(services.RerateRequest(reason="from scratch"))
    assert ratings_now() == incremental


def test_a_member_added_with_a_rating_is_listed_at_once_with_it():
    newcomer = MemberFactory(initial_rating=1812, initial_games=40)
    state = RatingState.objects.get(member=newcomer)
    assert (state.rating, state.display, state.games) == (1812, "1812", 40)


def test_a_deleted_events_players_are_re_rated_without_it(club_of_forty):
    last = Event.objects.get(name="Week 1")
    position = services.rating_key(last)
    last.delete()
    services.ratings_rerate(services.RerateRequest(start=position, reason="event deleted"))
    incremental = ratings_now()
    services.ratings_rerate(services.RerateRequest(reason="from scratch"))
    assert ratings_now() == incremental


def test_acf_players_reset_by_a_later_periods_opening_are_re_rated_with_it(db):
    """acf-1993: a partially-rated player with a total score of 0 starts again as new at the
    opening of the next period, though they play no game in it."""
    services.rating_system_set(system_id="acf-1993", params={})
    system = ClubSettings.load().engine()
    loser, winners = (
        MemberFactory(),
        [MemberFactory(initial_rating=1500, initial_games=30) for _ in range(3)],
    )
    first = EventFactory(
        start_date=dt.date(2024, 1, 10), end_date=dt.date(2024, 1, 10), status="complete"
    )
    for n, winner in enumerate(winners, 1):
        GameFactory(event=first, round=n, white=winner, black=loser, result="1-0")
    services.periods_close_past(system=system, today=dt.date(2024, 3, 15))
    services.ratings_rerate(services.RerateRequest(start=first, reason="first period"))
    assert RatingChange.objects.get(member=loser).unsettled
    second = EventFactory(
        start_date=dt.date(2024, 3, 20), end_date=dt.date(2024, 3, 20), status="complete"
    )
    GameFactory(event=second, round=1, white=winners[0], black=winners[1], result="1-0")
    period = services.period_for(second, system)
    assert period is not None and period.label != RatingPeriod.objects.get().label
    services.period_close(period=period)
    incremental = ratings_now()
    services.ratings_rerate(services.RerateRequest(reason="from scratch"))
    assert ratings_now() == incremental


def test_acf_a_correction_brings_a_member_reset_in_a_period_between_back_as_new(db):
    """acf-1993: the reset comes at the first period's opening after the zero score, so
    a re-rate from a later period takes the member in as that opening left them: their
    next event's report says "new" before, as a full re-rate's does, and no reset."""
    services.rating_system_set(system_id="acf-1993", params={})
    loser = MemberFactory()
    winners = [MemberFactory(initial_rating=1500, initial_games=30) for _ in range(3)]

    def event_on(day: dt.date, games: list) -> Event:
        event = EventFactory(start_date=day, end_date=day, status="complete")
        for round_, (white, black, result) in enumerate(games, 1):
            GameFactory(event=event, round=round_, white=white, black=black, result=result)
        return event

    first = event_on(dt.date(2024, 1, 10), [(w, loser, "1-0") for w in winners])
    event_on(dt.date(2024, 3, 20), [(winners[0], winners[1], "1-0")])  # the loser away
    comeback = event_on(dt.date(2024, 8, 10), [(loser, winners[2], "1/2-1/2")])
    services.periods_close_past(system=ClubSettings.load().engine(), today=dt.date(2025, 1, 1))
    services.ratings_rerate(services.RerateRequest(start=first, reason="history"))
    services.ratings_rerate(services.RerateRequest(start=comeback, reason="corrected"))
    shown = {
        c["player"]: c["breakdown"]
        for c in saved_changes(comeback, system=ClubSettings.load().engine())
    }
    assert "reset" not in shown[loser.pk] and shown[loser.pk]["status_before"] == "new"
    incremental = ratings_now()
    assert full_rerate() == incremental


# -- a correction's ripple (services/ripple.py) ------------------------------------------


def _result_corrected(event: Event, result: str = "0-1", *, soon: bool = False) -> None:
    """The first game's result corrected as the round page saves it (``games_replace``)."""
    first = event.games.order_by("round", "board", "pk").first()
    games = [
        Game(
            round=g.round,
            board=g.board,
            white_id=g.white_id,
            black_id=g.black_id,
            result=result if g.pk == first.pk else g.result,
        )
        for g in event.games.filter(round=first.round).order_by("board", "pk")
    ]
    if soon:  # as a page saves it: a slow re-rate goes to the worker
        with services.rerates_for_a_page():
            services.games_replace(event=event, games=games, rounds=[first.round])
    else:
        services.games_replace(event=event, games=games, rounds=[first.round])


def _row_pks(event: Event) -> set[int]:
    return set(RatingChange.objects.filter(event=event).values_list("pk", flat=True))


def test_a_correction_leaves_alone_a_later_event_none_of_whose_players_it_changed(
    club_of_forty, rated_event
):
    first = Event.objects.get(name="Week 0")
    strangers = club_of_forty[20:24]
    later = rated_event(
        [(1, strangers[0], strangers[1], "1-0"), (1, strangers[2], strangers[3], "0-1")],
        date=dt.date(2026, 3, 2),
        name="Strangers' night",
    )
    kept = _row_pks(later)
    _result_corrected(first)
    assert _row_pks(later) == kept
    incremental = ratings_now()
    services.ratings_rerate(services.RerateRequest(reason="from scratch"))
    assert ratings_now() == incremental


def test_a_correction_re_rates_a_later_event_where_a_player_it_changed_plays(
    club_of_forty, rated_event
):
    first = Event.objects.get(name="Week 0")
    corrected = first.games.order_by("round", "board", "pk").first()
    stranger = club_of_forty[30]
    later = rated_event(
        [(1, corrected.white, stranger, "1/2-1/2")], date=dt.date(2026, 3, 2), name="Later"
    )
    before = dict(RatingChange.objects.filter(event=later).values_list("member_id", "after"))
    kept = _row_pks(later)
    _result_corrected(first)
    assert _row_pks(later).isdisjoint(kept)
    after = dict(RatingChange.objects.filter(event=later).values_list("member_id", "after"))
    assert after[stranger.pk] != before[stranger.pk]  # the draw is now against a lower rating
    incremental = ratings_now()
    services.ratings_rerate(services.RerateRequest(reason="from scratch"))
    assert ratings_now() == incremental


def test_a_game_taken_out_of_an_event_takes_its_players_back_to_where_they_were(
    club_of_forty, rated_event
):
    first = Event.objects.get(name="Week 0")
    gone = first.games.order_by("round", "board", "pk").first()
    keep = [
        Game(
            round=g.round, board=g.board, white_id=g.white_id, black_id=g.black_id, result=g.result
        )
        for g in first.games.exclude(pk=gone.pk).order_by("board", "pk")
    ]
    services.games_replace(event=first, games=keep, rounds=[gone.round])
    assert not RatingChange.objects.filter(event=first, member=gone.white).exists()
    incremental = ratings_now()
    services.ratings_rerate(services.RerateRequest(reason="from scratch"))
    assert ratings_now() == incremental


def test_a_queued_correction_keeps_the_event_it_changed_for_the_worker(
    club_of_forty, settings, django_capture_on_commit_callbacks
):
    settings.RERATE_FOREGROUND_SECONDS = 0  # every re-rate to the worker (run at once here)
    first = Event.objects.get(name="Week 0")
    with django_capture_on_commit_callbacks(execute=True):
        _result_corrected(first, soon=True)
    run = RatingRun.objects.order_by("-pk").first()
    assert run.changed_event == first
    assert run.status == RatingRun.Status.DONE
    incremental = ratings_now()
    services.ratings_rerate(services.RerateRequest(reason="from scratch"))
    assert ratings_now() == incremental
