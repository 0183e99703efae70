"""Re-rating: rating an event records a change per player; corrections in the admin re-rate the
chain, and the result always equals a full re-rate (what a re-rate costs:
test_rerate_incremental.py)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse

from ratings import services
from ratings.models import (
    Event,
    Game,
    Member,
    RatingChange,
    RatingRun,
    RatingState,
)

from ..factories import MemberFactory

pytestmark = pytest.mark.django_db


# -- Corrections in the admin re-rate the chain: the result always equals a full re-rate. ----


START = dt.date(2025, 1, 7)


def ratings_now() -> dict[str, Any]:
    """Everything the ratings say: each member's state and every rating change."""
    return {
        "states": sorted(
            RatingState.objects.values_list(
                "member_id",
                "time_class",
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
                "time_class",
                "before",
                "after",
                "display_before",
                "display_after",
                "played",
                "score",
                "state_after",
                "event_end",
                "event_start",
                "unsettled",
                "breakdown",
            )
        ),
    }


def full_rerate() -> dict[str, Any]:
    services.ratings_rerate(services.RerateRequest(reason="from scratch, to compare"))
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
    if "change_reason" in form.fields:
        # A correction says why, as the admin requires of one (a test may say otherwise).
        data.setdefault("change_reason", "put right")
    return data


@pytest.fixture
def club_history(rated_event):
    """Twenty-five weekly club nights among eight members, rated."""
    members = [MemberFactory(name=f"Member {i}") for i in range(8)]
    events = []
    for week in range(25):
        day = START + dt.timedelta(weeks=week)
        shift = week % 4 * 2 + 1  # odd: each member once a round (evens meet odds)
        games = [
            (1, members[i], members[(i + shift) % 8], ("1-0", "0-1", "1/2-1/2")[(i + week) % 3])
            for i in range(0, 8, 2)
        ]
        events.append(rated_event(games, date=day, name=f"Week {week + 1}", rate=False))
    services.ratings_rerate(services.RerateRequest(reason="history loaded"))
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


# -- Rating an event records a change per player and the new states ----------------------


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
    services.ratings_rerate(services.RerateRequest(start=first, reason="corrected"))
    incremental = dict(RatingState.objects.values_list("member_id", "rating"))
    services.ratings_rerate(services.RerateRequest(reason="from scratch"))
    assert dict(RatingState.objects.values_list("member_id", "rating")) == incremental
    assert RatingChange.objects.count() == 6
