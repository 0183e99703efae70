"""Downloads: a member's history and an event's crosstable as CSV, the list to print.

Each withholds what its page withholds from the public; an officer gets everything.
"""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.urls import reverse

from ratings.models import Event, Game

from ..factories import MemberFactory, brought_in, paid_up, pat_provisional, rating_state

pytestmark = pytest.mark.django_db


def rows_of(response) -> list[dict[str, str]]:  # type: ignore[no-untyped-def]
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment;")
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def history(client, member):  # type: ignore[no-untyped-def]
    return client.get(reverse("ratings:member-history-csv", args=[member.member_number]))


def crosstable(client, event):  # type: ignore[no-untyped-def]
    return client.get(reverse("ratings:event-crosstable-csv", args=[event.pk]))


@pytest.fixture
def season_of_alice(rated_event, current_season, alice, bob, carol):  # type: ignore[no-untyped-def]
    """Alice and Carol paid up, Bob in arrears: Alice beats Bob, then draws with Carol."""
    paid_up(alice, current_season)
    paid_up(carol, current_season)
    rated_event(
        [(1, alice, bob, Game.Result.WHITE_WIN)], name="March night", date=dt.date(2026, 3, 2)
    )
    rated_event(
        [(1, carol, alice, Game.Result.DRAW)], name="April night", date=dt.date(2026, 4, 6)
    )
    return alice


# -- a member's history ----------------------------------------------------------------


def test_a_members_history_has_a_row_for_each_rated_game_newest_first(client, season_of_alice):
    rows = rows_of(history(client, season_of_alice))
    assert [(r["Event"], r["Opponent"], r["Score"]) for r in rows] == [
        ("April night", "Carol Chen", "0.5"),
        ("March night", "Bob Brown", "1"),
    ]
    assert rows[1]["Rating before"] and rows[1]["Rating after"]


def test_the_history_withholds_an_unpublished_opponents_rating_and_the_expected_score(
    client, season_of_alice
):
    # The expected score against them gives their rating back; the change is the member's
    # own, as on the report.
    april, march = rows_of(history(client, season_of_alice))
    assert march["Opponent rating"] == ""
    assert march["Expected"] == "" and march["Change"]
    assert april["Opponent rating"] and april["Expected"] and april["Change"]


def test_an_officer_gets_every_figure_of_the_history(officer_client, season_of_alice):
    _april, march = rows_of(history(officer_client, season_of_alice))
    assert march["Opponent rating"] and march["Expected"] == "0.5" and march["Change"]


def test_the_public_gets_no_history_of_a_member_whose_rating_is_not_published(
    client, season_of_alice, bob
):
    assert history(client, bob).status_code == 404


def test_an_officer_gets_the_history_of_a_member_in_arrears(officer_client, season_of_alice, bob):
    (row,) = rows_of(history(officer_client, bob))
    assert (row["Event"], row["Opponent"], row["Score"]) == ("March night", "Alice Archer", "0")


def test_an_event_without_rated_games_is_a_row_of_its_own(client, season_of_alice, rated_event):
    rated_event([(1, season_of_alice, MemberFactory(), "1-0")], name="Rapid", rate=False)
    rows = rows_of(history(client, season_of_alice))
    (rapid,) = [r for r in rows if r["Event"] == "Rapid"]
    assert (rapid["Opponent"], rapid["Rating after"]) == ("", "")


def test_the_member_page_links_to_its_history(client, season_of_alice):
    page = client.get(reverse("ratings:member", args=[season_of_alice.member_number]))
    assert reverse("ratings:member-history-csv", args=["A1"]) in page.content.decode()


def test_a_name_that_would_be_a_formula_is_written_as_text(client, season_of_alice, rated_event):
    sly = paid_up(MemberFactory(name="=HYPERLINK(1)"), season_of_alice.subscriptions.get().season)
    rated_event([(1, season_of_alice, sly, "1-0")], name="May night", date=dt.date(2026, 5, 4))
    (row,) = [r for r in rows_of(history(client, season_of_alice)) if r["Event"] == "May night"]
    assert row["Opponent"] == "'=HYPERLINK(1)"


def test_the_history_takes_the_same_few_queries_however_long(
    client, season_of_alice, rated_event, django_assert_max_num_queries
):
    for month in range(5, 10):
        rated_event(
            [(1, season_of_alice, MemberFactory(), "1-0")],
            name=f"Night {month}",
            date=dt.date(2026, month, 1),
        )
    with django_assert_max_num_queries(8):
        assert len(rows_of(history(client, season_of_alice))) == 7


# -- an event's crosstable -------------------------------------------------------------


def test_the_crosstable_csv_has_the_pages_rows_and_cells(client, season_of_alice):
    event = Event.objects.get(name="March night")
    rows = rows_of(crosstable(client, event))
    assert [(r["#"], r["Player"], r["R1"], r["Points"]) for r in rows] == [
        ("1", "Alice Archer", "2w1", "1"),
        ("2", "Bob Brown", "1b0", "0"),
    ]


def test_the_crosstable_csv_withholds_an_unpublished_players_rating(client, season_of_alice):
    alice, bob = rows_of(crosstable(client, Event.objects.get(name="March night")))
    assert alice["Rating"] and bob["Rating"] == ""
    assert "Published?" not in alice


def test_an_officer_gets_every_rating_in_the_crosstable_csv_marked(
    officer_client, season_of_alice
):
    alice, bob = rows_of(crosstable(officer_client, Event.objects.get(name="March night")))
    assert bob["Rating"] and (alice["Published?"], bob["Published?"]) == ("yes", "no")


def test_a_round_robins_crosstable_csv_is_its_grid(client, rated_event, alice, bob, carol):
    event = rated_event(
        [(1, alice, bob, "1-0"), (2, bob, carol, "1/2-1/2"), (3, carol, alice, "0-1")]
    )
    Event.objects.filter(pk=event.pk).update(kind=Event.Kind.ROUND_ROBIN)
    first, *_ = rows_of(crosstable(client, event))
    assert (first["Player"], first["1"], first["2"], first["3"]) == ("Alice Archer", "×", "1", "1")


def test_the_crosstable_page_links_to_its_csv(client, season_of_alice):
    event = Event.objects.get(name="March night")
    page = client.get(reverse("ratings:event-crosstable", args=[event.pk]))
    assert reverse("ratings:event-crosstable-csv", args=[event.pk]) in page.content.decode()


# -- the list to print -----------------------------------------------------------------


def test_the_printable_list_holds_every_published_member_and_no_one_else(client, season_of_alice):
    page = client.get(reverse("ratings:list-print"))
    names = [row[1] for row in page.context["rows"]]
    assert names == ["Alice Archer", "Carol Chen"]
    assert "Bob Brown" not in page.content.decode()


def test_the_printable_list_is_styled_for_paper_by_a_static_file(client, season_of_alice):
    text = client.get(reverse("ratings:list-print")).content.decode()
    assert "css/list-print.css" in text and "style=" not in text


def test_the_list_links_to_its_printable_page(client):
    page = client.get(reverse("ratings:list"))
    assert reverse("ratings:list-print") in page.content.decode()


def test_the_printable_list_takes_the_same_few_queries_however_many_members(
    client, current_season, django_assert_max_num_queries
):
    for n in range(30):
        member = paid_up(MemberFactory(), current_season)
        rating_state(member, rating=1500 + n, display=str(1500 + n), games=5)
    with django_assert_max_num_queries(6):
        assert len(client.get(reverse("ratings:list-print")).context["rows"]) == 30


# -- ratings stay numbers, their markers apart, periods named by their dates -----------------


@pytest.fixture
def acf_history(rated_event, current_season, alice, bob, carol):  # type: ignore[no-untyped-def]
    """acf-1993, rating period Mar–Jun 2026 closed: Pat (1500 provisional, 8 games brought
    in) beats Alice and Bob (confirmed); Nina (new) loses to Carol (confirmed)."""
    from ratings import services
    from ratings.models import ClubSettings

    services.rating_system_set(system_id="acf-1993")
    for member, rating in ((alice, 1800), (bob, 1700), (carol, 1600)):
        brought_in(member, rating, current_season)
    pat = pat_provisional(current_season)
    nina = paid_up(MemberFactory(name="Nina Newcomer"), current_season)
    games = [(1, pat, alice, "1-0"), (2, bob, pat, "0-1"), (1, nina, carol, "0-1")]
    event = rated_event(games, name="Autumn Cup", date=dt.date(2026, 3, 2), rate=False)
    services.period_close(period=services.period_for(event, ClubSettings.load().engine()))
    return pat, nina


def test_the_history_keeps_a_rating_a_number_and_its_marker_in_a_column_of_its_own(
    officer_client, acf_history
):
    pat, _nina = acf_history
    row = rows_of(history(officer_client, pat))[0]
    assert (row["Rating before"], row["Marker before"]) == ("", "1 R")
    assert row["Rating after"].isdigit() and row["Marker after"] == "p"


def test_the_history_leaves_the_rating_blank_where_a_marker_stands_for_no_rating_yet(
    officer_client, acf_history
):
    _pat, nina = acf_history
    (row,) = rows_of(history(officer_client, nina))
    assert (row["Rating before"], row["Marker before"]) == ("", "9 R")
    assert (row["Rating after"], row["Marker after"]) == ("", "Unr")


def test_the_history_names_the_rating_period_by_its_dates(officer_client, acf_history):
    pat, _nina = acf_history
    rows = rows_of(history(officer_client, pat))
    assert {r["Rating period"] for r in rows} == {"Mar–Jun 2026, August 2026 list"}


def test_the_crosstable_csv_keeps_a_rating_a_number_and_its_marker_apart(
    officer_client, acf_history
):
    rows = rows_of(crosstable(officer_client, Event.objects.get(name="Autumn Cup")))
    pat = next(r for r in rows if r["Player"] == "Pat Provisional")
    assert pat["Rating"].isdigit() and pat["Marker"] == "p"
