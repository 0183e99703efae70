"""The rating report gives each player the figures to check their calculation by hand:
the system's breakdown for the event (K, bonuses, AR, Se ...) and each game's own figures
(offsets, the rule applied, a rating held by the 336 rule). The public sees none of the
figures that would give away the rating of an opponent the published list hides."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from ratings import services
from ratings.models import Game

from ..factories import paid_up

pytestmark = pytest.mark.django_db


def established(*members_and_ratings, season):  # type: ignore[no-untyped-def]
    for member, rating in members_and_ratings:
        member.initial_rating, member.initial_games = rating, 40
        member.save()
        paid_up(member, season)


def rows_of(client, event):  # type: ignore[no-untyped-def]
    response = client.get(reverse("ratings:event-report", args=[event.pk]))
    return {row["member"].name: row for row in response.context["rows"]}, response


def figures(page: str, name: str) -> list[tuple[str, str]]:
    """The label and value pairs under ``name``'s heading in the game-by-game section."""
    section = page.split(f'<h4 class="h6 mb-1">{name} ', 1)[1].split("<table", 1)[0]
    return re.findall(r"<dt>(.*?)</dt> <dd>(.*?)</dd>", section)


@pytest.fixture
def alice_beats_bob(rated_event, current_season, alice, bob):  # type: ignore[no-untyped-def]
    """Alice (1800) beats Bob (1700), both established and paid up."""
    established((alice, 1800), (bob, 1700), season=current_season)

    def rate(system: str):  # type: ignore[no-untyped-def]
        event = rated_event(
            [(1, alice, bob, Game.Result.WHITE_WIN)], date=dt.date(2026, 3, 2), rate=False
        )
        services.rating_system_set(system_id=system)
        return event

    return rate


def test_the_report_gives_each_player_their_k_and_expected_score(client, alice_beats_bob):
    event = alice_beats_bob("nz-club-elo")
    _, response = rows_of(client, event)
    shown = figures(response.content.decode(), "Alice Archer")
    assert ("K", "16") in shown
    assert ("Expected score", "0.64") in shown


def test_a_k_judged_once_for_the_event_is_not_repeated_on_every_game(client, alice_beats_bob):
    rows, _ = rows_of(client, alice_beats_bob("nz-club-elo"))
    assert rows["Alice Archer"]["columns"] == []


def test_st_charles_game_lines_show_the_shift_and_the_rule_in_words(client, alice_beats_bob):
    rows, response = rows_of(client, alice_beats_bob("st-charles"))
    alice = rows["Alice Archer"]
    assert alice["columns"] == ["Shift", "Rule"]
    assert alice["games"][0]["extra"] == ["-4", "formula"]  # (1700 - 1800) / 25
    assert not alice["has_expected"]  # St Charles has no expected score: no empty column
    assert '<th class="text-end">Shift</th>' in response.content.decode()


def test_ecf_game_lines_show_the_difference_and_both_offsets(client, alice_beats_bob):
    rows, _ = rows_of(client, alice_beats_bob("ecf-2020"))
    alice = rows["Alice Archer"]
    assert alice["columns"] == ["D", "D offset", "Score offset"]
    d, d_offset, score_offset = alice["games"][0]["extra"]
    assert (d, score_offset) == ("-100", "+10")
    assert d_offset.startswith("-")
    assert ("K", "20") in alice["breakdown"]


def test_acf_breakdown_gives_the_established_calculation(client, alice_beats_bob):
    rows, _ = rows_of(client, alice_beats_bob("acf-1993"))
    shown = dict(rows["Alice Archer"]["breakdown"])
    assert shown["Calculation"] == "established"
    assert shown["Average opponent (AR)"] == "1700"
    assert {"Expected score (Se)", "Bonus points (BP)", "Change (Ri)"} <= shown.keys()
    # acf-1993 gives no game an expected score or a change of its own: no empty columns
    assert not rows["Alice Archer"]["has_expected"] and not rows["Alice Archer"]["has_change"]


def test_acf_game_line_shows_the_rating_the_336_rule_held(
    client, rated_event, current_season, alice, bob
):
    established((alice, 2400), (bob, 1051), season=current_season)
    event = rated_event(
        [(1, alice, bob, Game.Result.WHITE_WIN)], date=dt.date(2026, 3, 2), rate=False
    )
    services.rating_system_set(system_id="acf-1993")
    rows, response = rows_of(client, event)
    bob_row = rows["Bob Brown"]
    assert bob_row["columns"] == ["Held from"]
    assert bob_row["games"][0]["opponent_rating"] == 1387  # 1051 + 336
    assert bob_row["games"][0]["extra"] == ["2400"]
    assert '<th class="text-end">Held from</th>' in response.content.decode()


def test_the_public_sees_only_a_players_own_figures_against_an_unpublished_opponent(
    client, alice_beats_bob, bob, current_season
):
    event = alice_beats_bob("acf-1993")
    bob.subscriptions.all().delete()  # Bob falls into arrears: his rating is not published
    rows, _ = rows_of(client, event)
    shown = dict(rows["Alice Archer"]["breakdown"])
    assert "Average opponent (AR)" not in shown  # it would be Bob's rating
    assert "Expected score (Se)" not in shown
    assert shown["Score (Sa)"] == "1"


def test_the_public_sees_no_game_figures_against_an_unpublished_opponent(
    client, alice_beats_bob, bob
):
    event = alice_beats_bob("st-charles")
    bob.subscriptions.all().delete()
    rows, _ = rows_of(client, event)
    assert rows["Alice Archer"]["games"][0]["extra"] == ["–", "–"]  # the shift gives 1700


def test_an_officer_sees_every_figure_against_an_unpublished_opponent(
    officer_client, alice_beats_bob, bob
):
    event = alice_beats_bob("acf-1993")
    bob.subscriptions.all().delete()
    rows, _ = rows_of(officer_client, event)
    assert dict(rows["Alice Archer"]["breakdown"])["Average opponent (AR)"] == "1700"


def test_the_member_page_links_each_rated_event_to_the_players_breakdown(
    client, alice_beats_bob, alice
):
    event = alice_beats_bob("nz-club-elo")
    page = client.get(reverse("ratings:member", args=[alice.member_number])).content.decode()
    link = reverse("ratings:event-report", args=[event.pk]) + f"#breakdown-{alice.pk}"
    assert f'href="{link}"' in page
    _, response = rows_of(client, event)
    assert f'id="breakdown-{alice.pk}"' in response.content.decode()
