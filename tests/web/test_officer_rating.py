"""Rating an event: a preview first, then one confirmation; reports; rating periods."""

import pytest
from django.urls import reverse

from ratings.models import Event, Game, RatingChange, RatingRun

from ..factories import EventFactory, GameFactory, paid_up

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_night(alice, bob, carol):
    event = EventFactory(name="Finished night", rounds=1)
    GameFactory(event=event, white=alice, black=bob, result=Game.Result.WHITE_WIN)
    GameFactory(event=event, white=carol, black=None, result=Game.Result.BYE)
    for member in (alice, bob, carol):
        event.entries.create(member=member)
    return event


def test_the_preview_shows_each_players_rating_before_and_after_and_saves_nothing(
    officer_client, finished_night
):
    response = officer_client.get(
        reverse("ratings:officer-event-complete", args=[finished_night.pk])
    )
    rows = {row["member"].name: row for row in response.context["rows"]}
    assert (rows["Alice Archer"]["before"], rows["Alice Archer"]["after"]) == ("1500", "1516")
    assert rows["Alice Archer"]["games"][0]["opponent"].name == "Bob Brown"
    assert not RatingChange.objects.exists()
    finished_night.refresh_from_db()
    assert finished_night.status == Event.Status.DRAFT


def test_confirming_rates_the_event_and_shows_its_report(officer_client, finished_night):
    response = officer_client.post(
        reverse("ratings:officer-event-complete", args=[finished_night.pk])
    )
    assert response["Location"] == reverse("ratings:event-report", args=[finished_night.pk])
    assert RatingChange.objects.filter(event=finished_night).count() == 2
    assert RatingRun.objects.get().user.username == "olivia"


def test_the_preview_matches_what_confirming_saves(officer_client, finished_night):
    url = reverse("ratings:officer-event-complete", args=[finished_night.pk])
    preview = {r["member"].pk: r["after"] for r in officer_client.get(url).context["rows"]}
    officer_client.post(url)
    saved = dict(
        RatingChange.objects.filter(event=finished_night).values_list("member", "display_after")
    )
    assert preview == saved


def test_an_event_dated_before_rated_events_says_how_many_it_re_rates(
    officer_client, rated_event, alice, bob, finished_night
):
    rated_event([(1, alice, bob, Game.Result.DRAW)], name="Later night")
    finished_night.start_date = finished_night.end_date = finished_night.end_date.replace(day=1)
    finished_night.save()
    response = officer_client.get(
        reverse("ratings:officer-event-complete", args=[finished_night.pk])
    )
    assert "re-rates 1 later event" in response.content.decode()


def test_the_report_lists_score_expected_score_and_change(
    client, rated_event, alice, bob, current_season
):
    paid_up(alice, current_season)
    paid_up(bob, current_season)
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    rows = client.get(reverse("ratings:event-report", args=[event.pk])).context["rows"]
    alice_row = rows[0]
    assert (alice_row["member"], alice_row["score"], alice_row["expected"]) == (alice, 1, 0.5)
    assert (alice_row["change"], alice_row["points"]) == (16, 1)


def test_the_crosstable_marks_forfeits(client, rated_event, alice, bob, carol):
    event = rated_event(
        [(1, alice, bob, Game.Result.WHITE_FORFEIT_WIN), (2, bob, carol, Game.Result.DRAW)]
    )
    rows = client.get(reverse("ratings:event-crosstable", args=[event.pk])).context["rows"]
    alice_row = next(r for r in rows if r["member"] == alice)
    assert alice_row["cells"][0].endswith("w1f")


def test_the_report_runs_a_fixed_number_of_queries(
    client, rated_event, alice, bob, carol, dave, django_assert_max_num_queries
):
    event = rated_event(
        [
            (1, alice, bob, Game.Result.WHITE_WIN),
            (1, carol, dave, Game.Result.DRAW),
            (2, alice, carol, Game.Result.BLACK_WIN),
            (2, bob, dave, Game.Result.WHITE_WIN),
        ]
    )
    for name in ("ratings:event-report", "ratings:event-crosstable"):
        # The page's own eight and the public pages' version its cache is kept under.
        with django_assert_max_num_queries(9):
            client.get(reverse(name, args=[event.pk]))


def test_the_rating_periods_page_says_when_the_system_has_none(officer_client):
    response = officer_client.get(reverse("ratings:officer-periods"))
    assert "there are no rating periods to close" in response.content.decode()


def test_the_officer_home_lists_events_in_progress_and_recent_runs(
    officer_client, finished_night, rated_event, alice, bob
):
    rated_event([(1, alice, bob, Game.Result.DRAW)], name="Rated night")
    response = officer_client.get(reverse("ratings:officer-home"))
    assert list(response.context["drafts"]) == [finished_night]
    assert response.context["runs"][0].reason == "Rated night rated"
