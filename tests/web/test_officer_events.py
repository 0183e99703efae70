"""Events: create, add players (and guests on the spot), edit, re-rate what an edit moves."""

import datetime as dt

import pytest
from django.urls import reverse

from ratings.models import ClubSettings, Event, Game, Member, RatingChange, RatingRun

from ..factories import EventFactory, MemberFactory

pytestmark = pytest.mark.django_db

EVENT = {
    "name": "Spring rapid",
    "kind": "swiss",
    "start_date": "2026-04-04",
    "end_date": "2026-04-05",
    "rounds": 5,
    "time_control": "15+10",
    "rated": "on",
}


def test_an_officer_creates_an_event_and_goes_on_to_its_players(officer_client):
    response = officer_client.post(reverse("ratings:officer-event-add"), EVENT)
    event = Event.objects.get()
    assert (event.name, event.rounds, event.kind) == ("Spring rapid", 5, "swiss")
    assert response["Location"] == reverse("ratings:officer-event-players", args=[event.pk])


def test_an_event_ending_before_it_starts_is_refused_beside_the_field(officer_client):
    response = officer_client.post(
        reverse("ratings:officer-event-add"), {**EVENT, "end_date": "2026-04-01"}
    )
    assert response.context["form"].errors["end_date"] == ["An event cannot end before it starts."]
    assert not Event.objects.exists()


@pytest.mark.parametrize(
    ("start", "message"),
    [
        ("1066-10-14", "14 Oct 1066: before 1900."),
        ("2999-01-01", "1 Jan 2999 is more than a year"),
    ],
)
def test_an_event_dated_in_a_mistyped_year_is_refused_beside_the_field(
    officer_client, start, message
):
    response = officer_client.post(
        reverse("ratings:officer-event-add"), {**EVENT, "start_date": start, "end_date": start}
    )
    assert message in response.context["form"].errors["start_date"][0]
    assert not Event.objects.exists()


def test_players_are_entered_by_number_or_name(officer_client, alice, bob, carol):
    event = EventFactory()
    officer_client.post(
        reverse("ratings:officer-event-players", args=[event.pk]),
        {"entries-players": "A1, bob brown\nCarol"},
    )
    assert set(event.players.values_list("name", flat=True)) == {
        "Alice Archer",
        "Bob Brown",
        "Carol Chen",
    }


def test_players_numbers_may_be_separated_by_spaces_commas_or_lines(
    officer_client, alice, bob, carol, dave
):
    event = EventFactory()
    officer_client.post(
        reverse("ratings:officer-event-players", args=[event.pk]),
        {"entries-players": "A1 B2, C3\nD4"},
    )
    assert set(event.players.values_list("member_number", flat=True)) == {"A1", "B2", "C3", "D4"}


def test_an_unknown_player_is_named_and_nobody_is_entered(officer_client, alice):
    event = EventFactory()
    response = officer_client.post(
        reverse("ratings:officer-event-players", args=[event.pk]),
        {"entries-players": "A1, Zed"},
    )
    assert "“Zed” is not a member here." in response.content.decode()
    assert not event.entries.exists()


def test_a_guest_is_added_and_entered_from_inside_the_event(officer_client):
    event = EventFactory()
    MemberFactory(member_number="H034")
    MemberFactory(member_number="H035")
    officer_client.post(
        reverse("ratings:officer-event-players", args=[event.pk]),
        {"quick-name": "Visiting Vera", "quick-is_guest": "on"},
    )
    vera = Member.objects.get(name="Visiting Vera")
    # Numbered in the club's pattern, as the add form suggests for a member.
    assert (vera.is_guest, vera.member_number) == (True, "H036")
    assert event.players.get() == vera


def test_a_guest_added_under_a_members_name_warns_of_the_namesake(officer_client, alice):
    event = EventFactory()
    response = officer_client.post(
        reverse("ratings:officer-event-players", args=[event.pk]),
        {"quick-name": "Alice Archer", "quick-is_guest": "on"},
        follow=True,
    )
    assert event.players.get().is_guest
    shown = [str(m) for m in response.context["messages"]]
    assert any("Another member is also called Alice Archer (A1)" in m for m in shown)


def test_the_event_list_is_newest_first_and_sorts_by_name(officer_client):
    EventFactory(name="Autumn cup", start_date=dt.date(2026, 3, 1))
    EventFactory(name="Blitz night", start_date=dt.date(2026, 5, 1))
    url = reverse("ratings:officer-events")
    newest_first = officer_client.get(url).context["table"]
    by_name = officer_client.get(url, {"sort": "name"}).context["table"]
    assert [row.record.name for row in newest_first.rows] == ["Blitz night", "Autumn cup"]
    assert [row.record.name for row in by_name.rows] == ["Autumn cup", "Blitz night"]


def test_the_event_list_shows_fifty_events_a_page(officer_client):
    for _ in range(51):
        EventFactory()
    url = reverse("ratings:officer-events")
    assert len(officer_client.get(url).context["table"].page.object_list) == 50
    assert len(officer_client.get(url, {"page": 2}).context["table"].page.object_list) == 1


def test_an_event_in_the_list_opens_its_page_and_says_how_far_it_has_got(
    officer_client, rated_event, alice, bob
):
    event = rated_event([(1, alice, bob, Game.Result.DRAW)])
    page = officer_client.get(reverse("ratings:officer-events")).content.decode()
    assert f'href="{reverse("ratings:officer-event", args=[event.pk])}"' in page
    assert "Rated</span>" in page


def test_the_event_list_runs_a_fixed_number_of_queries(
    officer_client, django_assert_max_num_queries
):
    for _ in range(20):
        EventFactory()
    ClubSettings.load()  # made on a club's first page: the page's own queries are counted
    with django_assert_max_num_queries(12):
        officer_client.get(reverse("ratings:officer-events"))


def test_moving_a_rated_event_says_how_many_events_it_re_rates_before_saving(
    officer_client, rated_event, alice, bob, carol
):
    first = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)], date=dt.date(2026, 3, 2))
    rated_event([(1, bob, carol, Game.Result.DRAW)], date=dt.date(2026, 3, 9))
    moved = {**EVENT, "name": first.name, "start_date": "2026-03-16", "end_date": "2026-03-16"}
    moved["change_reason"] = "date misread from the flyer"
    url = reverse("ratings:officer-event-edit", args=[first.pk])
    response = officer_client.post(url, moved)
    assert "Saving this change re-rates 2 events" in response.content.decode()
    first.refresh_from_db()
    assert first.end_date == dt.date(2026, 3, 2)


def test_confirming_a_move_re_rates_from_the_earlier_place(
    officer_client, rated_event, alice, bob, carol
):
    first = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)], date=dt.date(2026, 3, 2))
    second = rated_event([(1, alice, carol, Game.Result.WHITE_WIN)], date=dt.date(2026, 3, 9))
    moved = {**EVENT, "name": first.name, "start_date": "2026-03-16", "end_date": "2026-03-16"}
    moved["change_reason"] = "date misread from the flyer"
    officer_client.post(
        reverse("ratings:officer-event-edit", args=[first.pk]), {**moved, "confirm": "1"}
    )
    # Alice now meets Carol first: her change there starts from the initial 1500.
    assert RatingChange.objects.get(event=second, member=alice).before == 1500
    assert RatingChange.objects.get(event=first, member=alice).before == 1516


def test_an_event_cannot_lose_rounds_that_have_games(officer_client, rated_event, alice, bob):
    event = rated_event([(3, alice, bob, Game.Result.WHITE_WIN)])
    response = officer_client.post(
        reverse("ratings:officer-event-edit", args=[event.pk]),
        {**EVENT, "rounds": 2, "confirm": "1"},
    )
    assert "Round 3 has games already" in response.content.decode()


def test_renaming_a_rated_event_saves_it_without_asking_or_re_rating(
    officer_client, rated_event, alice, bob
):
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)], date=dt.date(2026, 3, 2))
    runs = RatingRun.objects.count()
    renamed = {
        **EVENT,
        "name": "March club night",
        "start_date": "2026-03-02",
        "end_date": "2026-03-02",
        "rounds": 1,
        "time_control": event.time_control,
        "change_reason": "the club's name for it",
    }
    response = officer_client.post(reverse("ratings:officer-event-edit", args=[event.pk]), renamed)
    assert response["Location"] == reverse("ratings:officer-event", args=[event.pk])
    assert Event.objects.get(pk=event.pk).name == "March club night"
    assert RatingRun.objects.count() == runs


def _remove(client, event, member):
    url = reverse("ratings:officer-event-player-remove", args=[event.pk, member.pk])
    return client.post(url, {"change_reason": "entered in the wrong event"}, follow=True)


def test_a_player_without_games_is_removed_from_the_event(officer_client, alice):
    event = EventFactory()
    event.entries.create(member=alice)
    _remove(officer_client, event, alice)
    assert not event.entries.exists()


def test_a_player_with_games_is_marked_and_cannot_be_removed(
    officer_client, rated_event, alice, bob
):
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    page = officer_client.get(reverse("ratings:officer-event-players", args=[event.pk]))
    assert page.content.decode().count(">has games</span>") == 2
    response = _remove(officer_client, event, alice)
    assert "Alice Archer has games here: remove those first." in response.content.decode()
    assert event.entries.filter(member=alice).exists()


def test_an_event_name_without_letters_is_refused_beside_the_field(officer_client):
    response = officer_client.post(
        reverse("ratings:officer-event-add"), {**EVENT, "name": "-- --"}
    )
    assert "must contain letters" in response.context["form"].errors["name"][0]
    assert not Event.objects.exists()
