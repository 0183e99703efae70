"""An event's public pages: its page (the players by place, score and games, ratings and
changes), its rating report (the figures to check each calculation by hand) and its crosstable;
unpublished players named, their ratings withheld."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse

from ratings import services
from ratings.models import Game, RatingChange

from ..factories import MemberFactory, paid_up

pytestmark = pytest.mark.django_db


# -- An event's public page: the players by place, each with score and games; ratings and ----


R = Game.Result


def page_of(client, event):
    return client.get(reverse("ratings:event", args=[event.pk]))


def standings(response) -> list[tuple[str, str, float, int]]:
    return [
        (row["place"], row["member"].name, row["points"], row["games"])
        for row in response.context["players"]
    ]


@pytest.fixture
def night(rated_event, current_season, alice, bob, carol, dave):
    """Carol scores 3 (a bye among them), Alice and Dave 1½ each, Bob (in arrears) 0."""
    for member in (alice, carol, dave):
        paid_up(member, current_season)
    return rated_event(
        [
            (1, alice, bob, R.WHITE_WIN),
            (1, carol, dave, R.WHITE_WIN),
            (2, carol, alice, R.WHITE_WIN),
            (2, dave, bob, R.WHITE_WIN),
            (3, alice, dave, R.DRAW),
            (3, bob, None, R.ZERO_BYE),
            (3, carol, None, R.BYE),
        ],
        name="Spring night",
    )


def test_players_are_listed_by_place_then_name_with_shared_places(client, night):
    assert standings(page_of(client, night)) == [
        ("1", "Carol Chen", 3.0, 3),
        ("2=", "Alice Archer", 1.5, 3),
        ("2=", "Dave Dunn", 1.5, 3),
        ("4", "Bob Brown", 0.0, 3),
    ]


def test_an_unpublished_player_shows_score_and_games_but_no_rating(client, night, bob):
    response = page_of(client, night)
    row = next(r for r in response.context["players"] if r["member"] == bob)
    assert row["change"] is None
    html = response.content.decode()
    bobs_row = html[html.index("Bob Brown") :].split("</tr>")[0]
    assert ">0/3<" in bobs_row
    assert "rating not published" in bobs_row
    before = RatingChange.objects.get(event=night, member=bob).display_before
    assert before not in bobs_row


def test_the_page_says_some_ratings_are_not_published_when_one_is_not(client, night):
    assert "Some players' ratings are not published." in page_of(client, night).content.decode()


def test_the_page_says_nothing_of_unpublished_ratings_when_every_one_is(
    client, rated_event, current_season, alice, carol
):
    for member in (alice, carol):
        paid_up(member, current_season)
    everyone_paid = rated_event([(1, alice, carol, R.DRAW)], name="Paid-up night")
    assert "not published" not in page_of(client, everyone_paid).content.decode()


def test_an_officer_sees_an_unpublished_players_rating_marked(officer_client, night, bob):
    html = page_of(officer_client, night).content.decode()
    bobs_row = html[html.index("Bob Brown") :].split("</tr>")[0]
    assert "not published" in bobs_row and "→" in bobs_row


def test_a_change_that_rounds_to_nothing_shows_as_a_plain_zero(client, night, carol):
    change = RatingChange.objects.get(event=night, member=carol)
    RatingChange.objects.filter(pk=change.pk).update(
        after=change.before + 0.4, display_after=change.display_before
    )
    html = page_of(client, night).content.decode()
    carols_row = html[html.index("Carol Chen") :].split("</tr>")[0]
    assert '<span class="">0</span>' in carols_row
    assert "+0" not in carols_row and "change-up" not in carols_row


def test_an_unrated_event_shows_the_points_from_its_games(rated_event, client, alice, bob):
    friendly = rated_event([(1, alice, bob, R.DRAW), (2, bob, alice, R.WHITE_WIN)], rate=False)
    friendly.rated = False
    friendly.save()
    response = page_of(client, friendly)
    assert standings(response) == [("1", "Bob Brown", 1.5, 2), ("2", "Alice Archer", 0.5, 2)]
    html = response.content.decode()
    assert "1.5/2" in html and "0.5/2" in html
    assert not response.context["has_ratings"]
    assert '<th class="rating">Change</th>' not in html


def test_an_event_with_no_ratings_yet_offers_no_rating_report(rated_event, client, alice, bob):
    # Its report would only say it has not been rated: the crosstable is its page.
    in_progress = rated_event([(1, alice, bob, R.DRAW)], rate=False)
    html = page_of(client, in_progress).content.decode()
    assert reverse("ratings:event-report", args=[in_progress.pk]) not in html
    assert reverse("ratings:event-crosstable", args=[in_progress.pk]) in html


def test_a_rated_events_page_links_its_rating_report(client, night):
    assert (
        reverse("ratings:event-report", args=[night.pk]) in page_of(client, night).content.decode()
    )


# -- Event reports and crosstables are public: everyone who played is named, but only the ----


@pytest.fixture
def mixed(rated_event, current_season, alice, bob):
    """Alice (paid up, 1500) beats Bob (in arrears, 1900) and draws with Gus (a guest)."""
    paid_up(alice, current_season)
    bob.initial_rating = 1900
    bob.save()
    gus = MemberFactory(member_number="G1", name="Gus Guest", is_guest=True)
    return rated_event(
        [(1, alice, bob, Game.Result.WHITE_WIN), (2, gus, alice, Game.Result.DRAW)], rounds=2
    )


def ratings_of(event, name):
    """What a player's rating change shows: before and after."""
    change = RatingChange.objects.get(event=event, member__name=name)
    return change.display_before, change.display_after


def report(client, event) -> str:
    return client.get(reverse("ratings:event-report", args=[event.pk])).content.decode()


def crosstable(client, event) -> str:
    return client.get(reverse("ratings:event-crosstable", args=[event.pk])).content.decode()


def test_the_report_shows_a_published_members_rating(client, mixed):
    before, after = ratings_of(mixed, "Alice Archer")
    page = report(client, mixed)
    assert "Alice Archer" in page and before in page and after in page


def test_the_report_names_a_member_in_arrears_but_not_their_rating(client, mixed):
    before, after = ratings_of(mixed, "Bob Brown")
    page = report(client, mixed)
    assert "Bob Brown" in page
    assert before not in page and after not in page
    assert "rating not published" in page


def test_the_report_names_a_guest_but_not_their_rating(client, mixed):
    page = report(client, mixed)
    assert "Gus Guest" in page
    assert page.count("rating not published") == 2  # Bob's and Gus's


def test_the_report_gives_no_breakdown_for_an_unpublished_player(client, mixed):
    rows = {
        r["member"].name: r
        for r in client.get(reverse("ratings:event-report", args=[mixed.pk])).context["rows"]
    }
    bob = rows["Bob Brown"]
    assert bob["hidden"] and bob["games"] == []
    assert (bob["before"], bob["after"], bob["change"], bob["expected"]) == (None,) * 4


def test_the_report_withholds_an_unpublished_opponents_rating_from_the_game_lines(client, mixed):
    rows = client.get(reverse("ratings:event-report", args=[mixed.pk])).context["rows"]
    alice = next(r for r in rows if r["member"].name == "Alice Archer")
    assert [g["opponent_rating"] for g in alice["games"]] == [None, None]


def test_a_published_players_changes_stay_against_an_unpublished_opponent_not_the_expected(
    client, mixed
):
    # Alice's own changes are hers to check; the expected scores against Bob and Gus
    # give their ratings back, so they are withheld with them (test_member_privacy).
    rows = client.get(reverse("ratings:event-report", args=[mixed.pk])).context["rows"]
    alice = next(r for r in rows if r["member"].name == "Alice Archer")
    assert None not in [g["change"] for g in alice["games"]]
    assert [g["expected"] for g in alice["games"]] == [None, None]
    assert alice["expected"] is None


def test_the_report_page_withholds_only_the_unpublished_opponents_rating(client, mixed):
    page = report(client, mixed)
    assert "1900" not in page  # Bob's rating, on Alice's game line
    assert '<span title="not published">–</span>' in page


def test_an_officer_sees_the_expected_scores_against_unpublished_opponents(officer_client, mixed):
    rows = officer_client.get(reverse("ratings:event-report", args=[mixed.pk])).context["rows"]
    alice = next(r for r in rows if r["member"].name == "Alice Archer")
    assert None not in [g["expected"] for g in alice["games"]]
    assert alice["expected"] is not None


def test_the_crosstable_names_unpublished_players_but_not_their_ratings(client, mixed):
    page = crosstable(client, mixed)
    for name in ("Bob Brown", "Gus Guest"):
        assert name in page
        assert ratings_of(mixed, name)[1] not in page
    assert ratings_of(mixed, "Alice Archer")[1] in page


def test_an_officer_sees_every_rating_in_the_report_marked_when_unpublished(officer_client, mixed):
    page = report(officer_client, mixed)
    for name in ("Bob Brown", "Gus Guest"):
        assert ratings_of(mixed, name)[1] in page
    assert page.count("not published</span>") == 2
    assert "1900" in page  # Bob's rating on Alice's game line


def test_an_officer_sees_every_rating_in_the_crosstable(officer_client, mixed):
    page = crosstable(officer_client, mixed)
    for name in ("Alice Archer", "Bob Brown", "Gus Guest"):
        assert ratings_of(mixed, name)[1] in page


# -- The rating report gives each player the figures to check their calculation by hand: -----


def established(*members_and_ratings, season):
    for member, rating in members_and_ratings:
        member.initial_rating, member.initial_games = rating, 40
        member.save()
        paid_up(member, season)


def rows_of(client, event):
    response = client.get(reverse("ratings:event-report", args=[event.pk]))
    return {row["member"].name: row for row in response.context["rows"]}, response


def figures(page: str, name: str) -> list[tuple[str, str]]:
    """The label and value pairs under ``name``'s heading in the game-by-game section."""
    section = page.split(f'class="h6 mb-1">{name} ', 1)[1].split("<table", 1)[0]
    return re.findall(r"<dt>(.*?)</dt> <dd>(.*?)</dd>", section)


@pytest.fixture
def alice_beats_bob(rated_event, current_season, alice, bob):
    """Alice (1800) beats Bob (1700), both established and paid up."""
    established((alice, 1800), (bob, 1700), season=current_season)

    def rate(system: str):
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


def test_the_public_sees_a_players_whole_breakdown_against_an_unpublished_opponent(
    client, alice_beats_bob, bob, current_season
):
    event = alice_beats_bob("acf-1993")
    bob.subscriptions.all().delete()  # Bob falls into arrears: his rating is not published
    rows, _ = rows_of(client, event)
    shown = dict(rows["Alice Archer"]["breakdown"])
    assert {"Average opponent (AR)", "Expected score (Se)", "Change (Ri)"} <= shown.keys()
    assert shown["Score (Sa)"] == "1"


def test_the_public_sees_no_shift_against_an_unpublished_opponent_but_the_rule(
    client, alice_beats_bob, bob
):
    # st-charles' shift is (their rating - own) / 25: it gives Bob's rating back.
    event = alice_beats_bob("st-charles")
    bob.subscriptions.all().delete()
    rows, _ = rows_of(client, event)
    game = rows["Alice Archer"]["games"][0]
    assert game["extra"] == ["–", "formula"]
    assert game["opponent_rating"] is None


def test_the_rating_the_336_rule_held_is_withheld_with_an_unpublished_opponent(
    client, rated_event, current_season, alice, bob
):
    # acf-1993's "Held from" is the opponent's rating itself.
    established((alice, 2400), (bob, 1051), season=current_season)
    event = rated_event(
        [(1, alice, bob, Game.Result.WHITE_WIN)], date=dt.date(2026, 3, 2), rate=False
    )
    services.rating_system_set(system_id="acf-1993")
    alice.subscriptions.all().delete()
    rows, _ = rows_of(client, event)
    game = rows["Bob Brown"]["games"][0]
    assert (game["opponent_rating"], game["extra"]) == (None, ["–"])


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


# -- The Expected column is the system's to give: -------------------------------------------


@pytest.mark.parametrize(
    ("system_id", "has_expected"),
    [
        ("nz-club-elo", True),
        ("st-charles", False),
        ("nscl", False),
        ("ecf-2020", False),
        ("acf-1993", False),
    ],
)
def test_a_report_has_an_expected_column_only_where_the_system_expects_each_game(
    client, alice_beats_bob, system_id, has_expected
):
    rows, response = rows_of(client, alice_beats_bob(system_id))
    page = response.content.decode()
    assert ("Expected</th>" in page) is has_expected
    assert response.context["system"].per_game_expected is has_expected
    if has_expected:  # and then filled in, for every player and game
        for row in rows.values():
            assert row["expected"] is not None
            assert None not in [g["expected"] for g in row["games"]]


# -- Public pages are built from public templates only: -------------------------------------


@pytest.mark.parametrize(
    "page", ["ratings:event", "ratings:event-report", "ratings:event-crosstable"]
)
def test_an_event_page_renders_no_officer_template(client, mixed, page):
    response = client.get(reverse(page, args=[mixed.pk]))
    names = [template.name for template in response.templates]
    assert names and not [name for name in names if name.startswith("ratings/officer/")]


def test_the_api_gives_an_event_as_its_public_page_shows_it(officer_client, mixed):
    # The API answers the public's page whoever asks (its answer is cached for everyone).
    page = Client().get(reverse("ratings:event", args=[mixed.pk])).context["players"]
    answer = officer_client.get(f"/api/v1/events/{mixed.pk}").json()["players"]
    assert [(p["name"], p["place"], p["points"], p["rating_after"]) for p in answer] == [
        (p["member"].name, p["place"], p["points"], p["change"] and p["change"].display_after)
        for p in page
    ]
    assert [p["published"] for p in answer] == [True, False, False]
