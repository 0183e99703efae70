"""Re-rating: rating an event records a change per player; corrections in the admin re-rate the
chain, and the result always equals a full re-rate; a re-rate costs what it rates."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings import services
from ratings.models import (
    ClubSettings,
    Event,
    Game,
    Member,
    RatingChange,
    RatingPeriod,
    RatingRun,
    RatingState,
)

from ..factories import EventFactory, GameFactory, MemberFactory

pytestmark = pytest.mark.django_db


# -- Corrections in the admin re-rate the chain: the result always equals a full re-rate. ----


START = dt.date(2025, 1, 7)


def ratings_now() -> dict[str, Any]:
    """Everything the ratings say: each member's state and every rating change."""
    return {
        "states": sorted(
            RatingState.objects.values_list(
                "member_id",
                "rating",
                "display",
                "games",
                "state",
                "last_event",
                "last_played",
                "last_change",
                "usable",
            )
        ),
        "changes": sorted(
            RatingChange.objects.values_list(
                "event_id",
                "member_id",
                "before",
                "after",
                "display_after",
                "played",
                "score",
                "state_after",
                "event_end",
                "event_start",
                "unsettled",
            )
        ),
    }


def full_rerate() -> dict[str, Any]:
    services.ratings_rerate(reason="from scratch, to compare")
    return ratings_now()


def admin_form(response) -> dict[str, Any]:
    """The POST data of an admin change page as it stands (main form and inlines)."""

    def put(data: dict[str, Any], bound: Any) -> None:
        value = bound.value()
        names = [bound.html_name]
        if bound.field.show_hidden_initial:  # as the browser sends it back
            names.append(bound.html_initial_name)
        for name in names:
            if isinstance(value, bool):
                if value:
                    data[name] = "on"
            elif value is not None:
                data[name] = value

    data: dict[str, Any] = {}
    form = response.context["adminform"].form
    for name in form.fields:
        put(data, form[name])
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        for key, value in formset.management_form.initial.items():
            data[f"{formset.prefix}-{key}"] = value
        for sub in formset.forms:
            for name in sub.fields:
                put(data, sub[name])
    return data


@pytest.fixture
def club_history(rated_event):
    """Twenty-five weekly club nights among eight members, rated."""
    members = [MemberFactory(name=f"Member {i}") for i in range(8)]
    events = []
    for week in range(25):
        day = START + dt.timedelta(weeks=week)
        shift = week % 7 + 1
        games = [
            (1, members[i], members[(i + shift) % 8], ("1-0", "0-1", "1/2-1/2")[(i + week) % 3])
            for i in range(0, 8, 2)
        ]
        events.append(rated_event(games, date=day, name=f"Week {week + 1}", rate=False))
    services.ratings_rerate(reason="history loaded")
    return events


def test_editing_one_game_twenty_events_back_gives_the_ratings_of_a_full_rerate(
    admin_client, club_history
):
    event = club_history[-21]
    game = event.games.first()
    url = reverse("admin:ratings_game_change", args=[game.pk])
    data = admin_form(admin_client.get(url))
    data["result"] = "0-1" if game.result != "0-1" else "1-0"
    before = ratings_now()
    assert admin_client.post(url, data).status_code == 302
    assert RatingRun.objects.latest("pk").from_event == event
    after = ratings_now()
    assert after != before
    assert after == full_rerate()


def test_correcting_a_game_in_its_event_page_re_rates_once_from_that_event(
    admin_client, club_history
):
    event = club_history[5]
    url = reverse("admin:ratings_event_change", args=[event.pk])
    data = admin_form(admin_client.get(url))
    data["games-0-result"] = "1/2-1/2" if data["games-0-result"] != "1/2-1/2" else "1-0"
    runs = RatingRun.objects.count()
    assert admin_client.post(url, data).status_code == 302
    assert RatingRun.objects.count() == runs + 1
    assert ratings_now() == full_rerate()


def test_deleting_a_game_re_rates_from_its_event(admin_client, club_history):
    game = club_history[3].games.first()
    url = reverse("admin:ratings_game_delete", args=[game.pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 302
    assert not Game.objects.filter(pk=game.pk).exists()
    assert ratings_now() == full_rerate()


def test_deleting_games_from_the_list_re_rates_once(admin_client, club_history):
    games = [club_history[2].games.first(), club_history[9].games.first()]
    runs = RatingRun.objects.count()
    response = admin_client.post(
        reverse("admin:ratings_game_changelist"),
        {"action": "delete_selected", "_selected_action": [g.pk for g in games], "post": "yes"},
    )
    assert response.status_code == 302
    assert RatingRun.objects.count() == runs + 1
    assert ratings_now() == full_rerate()


def test_deleting_an_event_re_rates_from_where_it_stood(admin_client, club_history):
    event = club_history[4]
    url = reverse("admin:ratings_event_delete", args=[event.pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 302
    assert not Event.objects.filter(pk=event.pk).exists()
    assert ratings_now() == full_rerate()


@pytest.mark.parametrize("weeks", [-10, +10], ids=["earlier", "later"])
def test_moving_an_event_re_rates_from_the_earlier_of_its_old_and_new_dates(
    admin_client, club_history, weeks
):
    event = club_history[12]
    url = reverse("admin:ratings_event_change", args=[event.pk])
    data = admin_form(admin_client.get(url))
    day = event.end_date + dt.timedelta(weeks=weeks, days=1)
    data["start_date"] = data["end_date"] = day.isoformat()
    assert admin_client.post(url, data).status_code == 302
    event.refresh_from_db()
    assert event.end_date == day
    assert ratings_now() == full_rerate()


def test_unrating_an_event_takes_its_games_out_of_the_ratings(admin_client, club_history):
    event = club_history[8]
    url = reverse("admin:ratings_event_change", args=[event.pk])
    data = admin_form(admin_client.get(url))
    data.pop("rated")
    assert admin_client.post(url, data).status_code == 302
    assert not event.rating_changes.exists()
    assert ratings_now() == full_rerate()


def test_changing_a_members_starting_rating_re_rates_from_their_first_event(
    admin_client, club_history
):
    member = Member.objects.get(name="Member 3")
    url = reverse("admin:ratings_member_change", args=[member.pk])
    data = admin_form(admin_client.get(url))
    data["initial_rating"] = "1850"
    data["initial_games"] = "40"
    assert admin_client.post(url, data).status_code == 302
    assert ratings_now() == full_rerate()


def test_a_correction_to_a_draft_event_re_rates_nothing(admin_client, club_history, alice, bob):
    draft = Event.objects.create(name="Open", start_date=START, end_date=START, rounds=3)
    game = Game.objects.create(event=draft, round=1, white=alice, black=bob, result="1-0")
    url = reverse("admin:ratings_game_change", args=[game.pk])
    data = admin_form(admin_client.get(url))
    data["result"] = "0-1"
    runs = RatingRun.objects.count()
    assert admin_client.post(url, data).status_code == 302
    assert RatingRun.objects.count() == runs


# --  ----------------------------------------------------------------------------------------


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


# -- A re-rate costs what it rates: the rows it writes are those of the members it touches. ---


@pytest.fixture
def club_of_forty(rated_event):
    """Forty members, twenty of whom played two rated events."""
    members = [MemberFactory(initial_rating=1400 + 10 * n) for n in range(40)]
    for week in range(2):
        day = dt.date(2026, 1, 5) + dt.timedelta(weeks=week)
        pairs = [(1, members[i], members[i + 1], "1-0") for i in range(0, 20, 2)]
        rated_event(pairs, date=day, name=f"Week {week}")
    return members


def _state_writes(queries) -> list[str]:
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
    services.ratings_rerate(reason="from scratch")
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
        services.ratings_rerate(start=first, reason="corrected")
    assert _state_writes(queries)
    assert RatingState.objects.get(member=outsider).updated == outsider_state
    incremental = ratings_now()
    services.ratings_rerate(reason="from scratch")
    assert ratings_now() == incremental


def test_a_member_added_with_a_rating_is_listed_at_once_with_it():
    newcomer = MemberFactory(initial_rating=1812, initial_games=40)
    state = RatingState.objects.get(member=newcomer)
    assert (state.rating, state.display, state.games) == (1812, "1812", 40)


def test_a_deleted_events_players_are_re_rated_without_it(club_of_forty):
    last = Event.objects.get(name="Week 1")
    position = services.rating_key(last)
    last.delete()
    services.ratings_rerate(start=position, reason="event deleted")
    incremental = ratings_now()
    services.ratings_rerate(reason="from scratch")
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
    services.ratings_rerate(start=first, reason="first period")
    assert RatingChange.objects.get(member=loser).unsettled
    second = EventFactory(
        start_date=dt.date(2024, 3, 20), end_date=dt.date(2024, 3, 20), status="complete"
    )
    GameFactory(event=second, round=1, white=winners[0], black=winners[1], result="1-0")
    period = services.period_for(second, system)
    assert period is not None and period.label != RatingPeriod.objects.get().label
    services.period_close(period=period)
    incremental = ratings_now()
    services.ratings_rerate(reason="from scratch")
    assert ratings_now() == incremental
