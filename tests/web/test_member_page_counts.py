"""A member page's games and score are the rated ones, as the event's report counts them;
a game the system left out is shown apart, labelled, never added into the score."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.urls import reverse

from ratings import services
from ratings.models import ClubSettings, Game, RatingChange

from ..factories import paid_up, pat_provisional

pytestmark = pytest.mark.django_db

WIN = Game.Result.WHITE_WIN
DRAW = Game.Result.DRAW


@pytest.fixture
def cup_with_an_unrated_game(current_season, rated_event, alice, bob, carol):
    """acf-1993. Alice (1800, confirmed) beats Bob, draws with Carol, and beats Pat,
    provisional from 8 games: a rating not yet used to rate others, so the booklet leaves
    Alice's game with Pat out. The period is closed."""
    services.rating_system_set(system_id="acf-1993")
    for member, rating in ((alice, 1800), (bob, 1700), (carol, 1600)):
        member.initial_rating, member.initial_games = rating, 30
        member.save()
        paid_up(member, current_season)
    pat = pat_provisional(current_season)
    event = rated_event(
        [(1, alice, bob, WIN), (2, carol, alice, DRAW), (3, alice, pat, WIN)],
        name="Autumn Cup",
        date=dt.date(2026, 3, 2),
        rounds=3,
        rate=False,
    )
    system = ClubSettings.load().engine()
    services.period_close(period=services.period_for(event, system))
    return event


def report_row(client, event, member):
    response = client.get(reverse("ratings:event-report", args=[event.pk]))
    return next(row for row in response.context["rows"] if row["member"] == member)


def member_page(client, member):
    return client.get(reverse("ratings:member", args=[member.member_number]))


def test_a_rating_change_stores_the_rated_games_and_their_score(cup_with_an_unrated_game, alice):
    change = RatingChange.objects.get(member=alice, event=cup_with_an_unrated_game)
    assert (change.played, change.score) == (2, 1.5)


def test_the_member_page_counts_the_games_and_score_the_report_counts(
    client, cup_with_an_unrated_game, alice
):
    row = report_row(client, cup_with_an_unrated_game, alice)
    group = member_page(client, alice).context["event_groups"][0]
    assert (group["played"], group["score"]) == (row["played"], row["score"]) == (2, 1.5)


def test_the_member_page_shows_a_game_the_system_left_out_apart_and_labelled(
    client, cup_with_an_unrated_game, alice
):
    response = member_page(client, alice)
    group = response.context["event_groups"][0]
    assert group["unrated"] == 1
    events_table = response.content.decode().split('class="table table-sm table-striped events"')[
        1
    ]
    assert "1 game not rated" in events_table.split("</table>")[0]


def test_a_game_the_system_left_out_still_shows_its_result_marked_not_rated(
    client, cup_with_an_unrated_game, alice
):
    games = member_page(client, alice).context["games"]
    assert [(g["opponent"].name, g["score"], g["rated"]) for g in games] == [
        ("Bob Brown", 1.0, True),
        ("Carol Chen", 0.5, True),
        ("Pat Provisional", 1.0, False),
    ]


def test_the_api_history_counts_the_games_and_score_the_member_page_counts(
    client, cup_with_an_unrated_game, alice
):
    history = client.get(f"/api/v1/members/{alice.member_number}/history").json()
    group = member_page(client, alice).context["event_groups"][0]
    assert [(row["games"], row["score"]) for row in history["results"]] == [
        (group["played"], group["score"])
    ]


def test_the_history_csv_marks_the_game_the_system_left_out(
    client, cup_with_an_unrated_game, alice
):
    response = client.get(reverse("ratings:member-history-csv", args=[alice.member_number]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [(row["Opponent"], row["Score"], row["Rated"]) for row in rows] == [
        ("Bob Brown", "1", "yes"),
        ("Carol Chen", "0.5", "yes"),
        ("Pat Provisional", "1", "no"),
    ]
