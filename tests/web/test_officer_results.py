"""Entering results: a page per round (its messages, its player menus), a pasted round (score
sheets' spacing), a round robin's grid."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from ratings.forms import short_name
from ratings.models import Event, Game, RatingChange

from ..factories import EventFactory, GameFactory, MemberFactory

pytestmark = pytest.mark.django_db


# -- Entering results: a page per round, a pasted round, a round robin's grid. ---------------


@pytest.fixture
def club_night(alice, bob, carol, dave):
    event = EventFactory(name="Club night", rounds=3, kind=Event.Kind.SWISS)
    for member in (alice, bob, carol, dave):
        event.entries.create(member=member)
    return event


def _round(rows, total=None):
    data = {"g-TOTAL_FORMS": str(total or len(rows)), "g-INITIAL_FORMS": "0"}
    for i, (white, black, result) in enumerate(rows):
        data[f"g-{i}-white"] = white.pk if white else ""
        data[f"g-{i}-black"] = black.pk if black else ""
        data[f"g-{i}-result"] = result
    return data


def _post_round(client, event, number, rows):
    url = reverse("ratings:officer-round", args=[event.pk, number])
    return client.post(url, _round(rows))


def test_a_round_saves_its_games_and_the_next_rounds_page_follows(
    officer_client, club_night, alice, bob, carol, dave
):
    response = _post_round(
        officer_client, club_night, 1, [(alice, bob, "1-0"), (carol, dave, "1/2-1/2")]
    )
    assert response["Location"] == reverse("ratings:officer-round", args=[club_night.pk, 2])
    assert set(club_night.games.values_list("round", "white__name", "result")) == {
        (1, "Alice Archer", "1-0"),
        (1, "Carol Chen", "1/2-1/2"),
    }


def test_saving_a_round_again_replaces_its_games(officer_client, club_night, alice, bob):
    _post_round(officer_client, club_night, 1, [(alice, bob, "1-0")])
    _post_round(officer_client, club_night, 1, [(alice, bob, "0-1")])
    assert list(club_night.games.values_list("result", flat=True)) == ["0-1"]


def test_a_player_paired_with_themselves_is_refused_beside_the_field(
    officer_client, club_night, alice
):
    response = _post_round(officer_client, club_night, 1, [(alice, alice, "1-0")])
    assert response.status_code == 200
    assert "A player cannot play themselves." in response.content.decode()
    assert not club_night.games.exists()


def test_a_player_paired_twice_in_a_round_is_refused(
    officer_client, club_night, alice, bob, carol
):
    response = _post_round(
        officer_client, club_night, 1, [(alice, bob, "1-0"), (carol, alice, "0-1")]
    )
    assert "Alice Archer is already paired on board 1." in response.content.decode()
    assert not club_night.games.exists()


def test_a_result_other_than_the_allowed_ones_is_refused(officer_client, club_night, alice, bob):
    response = _post_round(officer_client, club_night, 1, [(alice, bob, "2-0")])
    assert "Not a result. Allowed: 1-0, ½-½, 0-1" in response.content.decode()
    assert not club_night.games.exists()


def test_a_game_for_a_player_not_in_the_event_is_refused(officer_client, club_night, alice):
    stranger = MemberFactory(name="Stranger")
    response = _post_round(officer_client, club_night, 1, [(alice, stranger, "1-0")])
    assert "That player is not in this event." in response.content.decode()
    assert not club_night.games.exists()


def test_a_round_beyond_the_events_rounds_has_no_page(officer_client, club_night):
    url = reverse("ratings:officer-round", args=[club_night.pk, 4])
    assert officer_client.get(url).status_code == 404


def test_a_bye_is_recorded_with_one_player(officer_client, club_night, alice, bob, carol):
    _post_round(officer_client, club_night, 1, [(alice, bob, "1-0"), (carol, None, "bye")])
    bye = club_night.games.get(white=carol)
    assert (bye.black, bye.result) == (None, "bye")


def test_a_bye_with_two_players_is_refused(officer_client, club_night, alice, bob):
    response = _post_round(officer_client, club_night, 1, [(alice, bob, "half-bye")])
    assert "A bye has one player only" in response.content.decode()


def test_byes_and_forfeits_are_recorded_and_not_rated(
    officer_client, club_night, alice, bob, carol, dave
):
    _post_round(officer_client, club_night, 1, [(alice, bob, "+/-"), (carol, dave, "1-0")])
    _post_round(officer_client, club_night, 2, [(alice, None, "bye"), (bob, carol, "0-1")])
    officer_client.post(reverse("ratings:officer-event-complete", args=[club_night.pk]))
    assert club_night.games.count() == 4
    assert not RatingChange.objects.filter(event=club_night, member=alice).exists()
    assert RatingChange.objects.get(event=club_night, member=bob).played == 1
    assert RatingChange.objects.get(event=club_night, member=carol).played == 2


def test_a_round_robin_round_page_offers_the_schedules_pairings(officer_client, alice, bob):
    event = EventFactory(kind=Event.Kind.ROUND_ROBIN, rounds=1)
    event.entries.create(member=alice)
    event.entries.create(member=bob)
    response = officer_client.get(reverse("ratings:officer-round", args=[event.pk, 1]))
    form = response.context["formset"].forms[0]
    assert {form.initial["white"], form.initial["black"]} == {alice.pk, bob.pk}


def test_saving_a_result_of_a_rated_event_re_rates_it(officer_client, rated_event, alice, bob):
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    page = officer_client.get(reverse("ratings:officer-round", args=[event.pk, 1]))
    assert "saving re-rates 1 event (this one alone: none is rated after it)." in (
        page.content.decode()
    )
    data = {**_round([(alice, bob, "0-1")]), "change_reason": "result misread"}
    officer_client.post(reverse("ratings:officer-round", args=[event.pk, 1]), data)
    assert RatingChange.objects.get(event=event, member=bob).after > 1500


def test_a_rated_events_round_says_it_re_rates_every_event_rated_after_it(
    officer_client, rated_event, alice, bob, carol
):
    first = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)], date=dt.date(2026, 3, 2))
    rated_event([(1, bob, carol, Game.Result.DRAW)], date=dt.date(2026, 3, 9))
    page = officer_client.get(reverse("ratings:officer-round", args=[first.pk, 1]))
    assert "saving re-rates 2 events (this one and every one rated after it)." in (
        page.content.decode()
    )


def test_an_empty_round_says_nothing_was_entered(officer_client, club_night):
    response = _post_round(officer_client, club_night, 1, [(None, None, "")])
    url = reverse("ratings:officer-round", args=[club_night.pk, 1])
    assert response["Location"] == url
    page = officer_client.get(url).content.decode()
    assert "Round 1: nothing entered, so nothing saved." in page


def test_emptying_a_round_with_results_asks_before_deleting_them(
    officer_client, club_night, alice, bob
):
    _post_round(officer_client, club_night, 3, [(alice, bob, "1-0")])
    response = _post_round(officer_client, club_night, 3, [(None, None, "")])
    assert (
        "Saving an empty round deletes the 1 result already entered" in response.content.decode()
    )
    assert club_night.games.filter(round=3).count() == 1


def test_confirming_an_empty_round_deletes_its_results(officer_client, club_night, alice, bob):
    _post_round(officer_client, club_night, 3, [(alice, bob, "1-0")])
    url = reverse("ratings:officer-round", args=[club_night.pk, 3])
    officer_client.post(url, {**_round([(None, None, "")]), "clear": "1"})
    assert not club_night.games.exists()


def test_the_players_page_links_to_the_next_round_to_enter(
    officer_client, club_night, alice, bob, carol, dave
):
    for number in (1, 2):
        _post_round(
            officer_client, club_night, number, [(alice, bob, "1-0"), (carol, dave, "0-1")]
        )
    page = officer_client.get(reverse("ratings:officer-event-players", args=[club_night.pk]))
    html = page.content.decode()
    assert "Enter round 3" in html
    assert reverse("ratings:officer-round", args=[club_night.pk, 3]) in html


def _paste(client, event, text, number=1, **extra):
    url = reverse("ratings:officer-round-paste", args=[event.pk])
    return client.post(url, {"round": number, "text": text, **extra})


def test_a_pasted_round_is_previewed_before_anything_is_saved(officer_client, club_night):
    response = _paste(officer_client, club_night, "A1 - Bob Brown 1-0\nCarol Chen - D4 ½-½")
    assert [(p.white.name, p.black.name, p.result) for p in response.context["preview"]] == [
        ("Alice Archer", "Bob Brown", "1-0"),
        ("Carol Chen", "Dave Dunn", "1/2-1/2"),
    ]
    assert not club_night.games.exists()


def test_the_paste_preview_words_results_as_the_round_page_does(officer_client, club_night):
    response = _paste(officer_client, club_night, "A1 - B2 1/2-1/2\nC3 - D4 -/+")
    html = response.content.decode()
    assert "<td>½-½</td>" in html and "<td>−/+ forfeit</td>" in html
    assert "<td>1/2-1/2</td>" not in html


def test_saving_a_pasted_round_records_its_games(officer_client, club_night):
    _paste(officer_client, club_night, "A1 - B2 0-1\nC3 bye", number=2, save="1")
    assert set(club_night.games.values_list("round", "white__member_number", "result")) == {
        (2, "A1", "0-1"),
        (2, "C3", "bye"),
    }


def test_a_pasted_line_with_an_unknown_result_says_which_line(officer_client, club_night):
    response = _paste(officer_client, club_night, "A1 - B2 1-0\nC3 - D4 3-1", save="1")
    assert "Line 2: “3-1” is not a result." in response.content.decode()
    assert not club_night.games.exists()


def test_a_pasted_player_not_in_the_event_is_refused_and_offered_to_enter(
    officer_client, club_night
):
    zed = MemberFactory(member_number="Z9", name="Zed Zulu")
    response = _paste(officer_client, club_night, "A1 - Z9 1-0", save="1")
    assert "1 player named here is in the club but not in this event yet" in (
        response.content.decode()
    )
    assert response.context["form"].addable == [zed]
    assert not club_night.games.exists()


def test_a_pasted_round_lists_each_player_it_does_not_know_once(officer_client, club_night):
    zed = MemberFactory(member_number="Z9", name="Zed Zulu")
    yan = MemberFactory(member_number="Y8", name="Yan Young")
    page = _paste(officer_client, club_night, "A1 - Z9 1-0\nY8 - B2 0-1\nC3 - Zed Zulu ½-½")
    assert page.context["form"].addable == [zed, yan]  # Zed named twice, listed once
    assert page.content.decode().count("Zed Zulu (Z9)") == 1


def test_one_click_enters_the_players_a_pasted_round_does_not_know_and_previews_it(
    officer_client, club_night
):
    zed = MemberFactory(member_number="Z9", name="Zed Zulu")
    yan = MemberFactory(member_number="Y8", name="Yan Young")
    page = _paste(officer_client, club_night, "A1 - Z9 1-0\nY8 - B2 0-1", add_players="1")
    assert {zed, yan} <= set(club_night.players.all())
    assert len(page.context["preview"]) == 2
    assert not club_night.games.exists()


def test_a_pasted_round_beyond_the_events_rounds_is_refused(officer_client, club_night):
    response = _paste(officer_client, club_night, "A1 - B2 1-0", number=4, save="1")
    assert "This event has 3 rounds." in response.content.decode()
    assert not club_night.games.exists()


def test_the_paste_page_offers_the_first_round_without_results(
    officer_client, club_night, alice, bob
):
    for number in (1, 3):
        _post_round(officer_client, club_night, number, [(alice, bob, "1-0")])
    page = officer_client.get(reverse("ratings:officer-round-paste", args=[club_night.pk]))
    assert page.context["form"]["round"].value() == 2


def test_with_every_round_entered_the_paste_page_says_saving_replaces_one(
    officer_client, club_night, alice, bob
):
    for number in (1, 2, 3):
        _post_round(officer_client, club_night, number, [(alice, bob, "1-0")])
    page = officer_client.get(reverse("ratings:officer-round-paste", args=[club_night.pk]))
    assert "saving a pasted round replaces the results of the round you choose" in (
        page.content.decode()
    )
    preview = _paste(officer_client, club_night, "A1 - B2 0-1", number=3)
    assert "Replace round 3" in preview.content.decode()


@pytest.fixture
def four_player_round_robin(alice, bob, carol, dave):
    event = EventFactory(kind=Event.Kind.ROUND_ROBIN, rounds=3)
    for member in (alice, bob, carol, dave):
        event.entries.create(member=member)
    return event


def _row_player_wins_every_game(players) -> dict[str, str]:
    """The grid's cells (row above column) with the row player winning each game."""
    return {
        f"g_{row.pk}_{col.pk}": "1" for i, row in enumerate(players) for col in players[i + 1 :]
    }


def test_a_round_robin_filled_in_as_a_grid_gets_rounds_and_colours(
    officer_client, four_player_round_robin, alice, bob, carol, dave
):
    event = four_player_round_robin
    data = _row_player_wins_every_game([alice, bob, carol, dave])
    data[f"g_{carol.pk}_{dave.pk}"] = "-"  # Carol forfeited to Dave
    officer_client.post(reverse("ratings:officer-grid", args=[event.pk]), data)
    assert event.games.count() == 6
    assert sorted(event.games.values_list("round", flat=True)) == [1, 1, 2, 2, 3, 3]
    carol_dave = event.games.get(white__in=[carol, dave], black__in=[carol, dave])
    assert Game.POINTS[carol_dave.result] == (
        (0.0, 1.0) if carol_dave.white == carol else (1.0, 0.0)
    )
    assert carol_dave.result in ("+/-", "-/+")


def test_saving_the_grid_keeps_the_byes_and_absences_entered_on_round_pages(
    officer_client, alice, bob, carol
):
    event = EventFactory(kind=Event.Kind.ROUND_ROBIN, rounds=3)
    for member in (alice, bob, carol):
        event.entries.create(member=member)
    # The schedule's first round: Bob plays Carol, Alice sits out (absent).
    _post_round(officer_client, event, 1, [(bob, carol, "1-0"), (alice, None, "zero-bye")])
    data = {
        f"g_{alice.pk}_{bob.pk}": "1",
        f"g_{alice.pk}_{carol.pk}": "=",
        f"g_{bob.pk}_{carol.pk}": "1",
    }
    officer_client.post(reverse("ratings:officer-grid", args=[event.pk]), data)
    assert list(
        event.games.filter(black__isnull=True).values_list("round", "white", "result")
    ) == [(1, alice.pk, "zero-bye")]
    assert event.games.exclude(black__isnull=True).count() == 3


def test_a_grid_pair_goes_to_a_round_where_neither_player_is_already_playing(
    officer_client, four_player_round_robin, alice, bob, carol, dave
):
    event = four_player_round_robin
    # Round 1 entered on its page in an order of the officer's own: A-C, B-D.
    _post_round(officer_client, event, 1, [(alice, carol, "1-0"), (bob, dave, "0-1")])
    data = _row_player_wins_every_game([alice, bob, carol, dave])
    officer_client.post(reverse("ratings:officer-grid", args=[event.pk]), data)
    assert event.games.count() == 6
    for number in (1, 2, 3):
        games = event.games.filter(round=number)
        seated = [p for g in games for p in (g.white_id, g.black_id)]
        assert len(seated) == len(set(seated)) == 4, f"round {number}: {list(games)}"


def _messages_after(client, response):
    return [str(m) for m in client.get(response["Location"]).context["messages"]]


def test_a_swiss_pair_meeting_again_is_saved_with_a_warning(
    officer_client, club_night, alice, bob, carol, dave
):
    _post_round(officer_client, club_night, 1, [(alice, bob, "1-0"), (carol, dave, "1-0")])
    response = _post_round(officer_client, club_night, 2, [(bob, alice, "1-0")])
    assert club_night.games.filter(round=2).count() == 1
    assert (
        "Round 2: Alice Archer and Bob Brown also met in round 1. A Swiss pairs nobody "
        "twice: check the pairing."
    ) in _messages_after(officer_client, response)


def test_new_swiss_pairs_give_no_rematch_warning(
    officer_client, club_night, alice, bob, carol, dave
):
    _post_round(officer_client, club_night, 1, [(alice, bob, "1-0"), (carol, dave, "1-0")])
    response = _post_round(officer_client, club_night, 2, [(alice, carol, "1-0")])
    assert not any("also met" in m for m in _messages_after(officer_client, response))


def test_a_pair_meeting_again_outside_a_swiss_gives_no_warning(officer_client, alice, bob):
    event = EventFactory(kind=Event.Kind.ROUND_ROBIN, rounds=2)  # a double round robin
    for member in (alice, bob):
        event.entries.create(member=member)
    _post_round(officer_client, event, 1, [(alice, bob, "1-0")])
    response = _post_round(officer_client, event, 2, [(bob, alice, "1-0")])
    assert not any("also met" in m for m in _messages_after(officer_client, response))


# -- A round page's messages: each problem once, the right one, and all of them at once. -----


def post_round(client, event, rows):
    data = {"g-TOTAL_FORMS": str(len(rows)), "g-INITIAL_FORMS": "0"}
    for i, (white, black, result) in enumerate(rows):
        data[f"g-{i}-white"] = white.pk if white else ""
        data[f"g-{i}-black"] = black.pk if black else ""
        data[f"g-{i}-result"] = result
    return client.post(reverse("ratings:officer-round", args=[event.pk, 1]), data)


def messages(response) -> list[str]:
    formset = response.context["formset"]
    found = [e for form in formset.forms for errors in form.errors.values() for e in errors]
    return found + list(formset.non_form_errors())


def test_a_black_not_in_the_event_is_one_message_not_also_choose_black(
    officer_client, club_night, alice
):
    stranger = MemberFactory(name="Stranger")
    response = post_round(officer_client, club_night, [(alice, stranger, "1-0")])
    assert messages(response) == ["That player is not in this event."]


def test_a_white_not_in_the_event_is_one_message(officer_client, club_night, bob):
    stranger = MemberFactory(name="Stranger")
    response = post_round(officer_client, club_night, [(stranger, bob, "1-0")])
    assert messages(response) == ["That player is not in this event."]


def test_a_player_paired_twice_is_reported_beside_another_boards_problem(
    officer_client, club_night, alice, bob, carol, dave
):
    response = post_round(
        officer_client,
        club_night,
        [(alice, bob, "1-0"), (carol, alice, "0-1"), (dave, None, "")],
    )
    assert sorted(messages(response)) == [
        "A player is paired twice in this round.",
        "Alice Archer is already paired on board 1.",
        "Enter the result.",
    ]
    assert not club_night.games.exists()


def test_a_round_with_no_one_paired_twice_has_no_paired_twice_message(
    officer_client, club_night, alice, bob
):
    response = post_round(officer_client, club_night, [(alice, bob, "")])
    assert messages(response) == ["Enter the result."]


@pytest.mark.parametrize("board", ["0", "99999999", "-3", "x"])
def test_a_tampered_board_number_is_refused_with_a_message(officer_client, club_night, board):
    from ratings.models import Game

    alice, bob = club_night.players.order_by("member_number")[:2]
    data = {
        "g-TOTAL_FORMS": "1",
        "g-INITIAL_FORMS": "0",
        "g-0-board": board,
        "g-0-white": alice.pk,
        "g-0-black": bob.pk,
        "g-0-result": "1-0",
    }
    response = officer_client.post(reverse("ratings:officer-round", args=[club_night.pk, 1]), data)
    assert response.status_code == 200
    message = "The board number must be a whole number from 1 to 32767."
    assert messages(response) == [message]
    assert message in response.content.decode()
    assert not Game.objects.exists()


# -- A round's player menus list the event's players by name, whatever order they entered in. ---


def test_the_player_menus_list_the_players_by_name_number_first(officer_client, alice, bob, carol):
    event = EventFactory()
    for member in (carol, alice, bob):
        event.entries.create(member=member)
    response = officer_client.get(reverse("ratings:officer-round", args=[event.pk, 1]))
    form = response.context["formset"].forms[0]
    for field in ("white", "black"):
        assert [label for _, label in form.fields[field].choices][1:] == [
            "A1 · Alice Archer",
            "B2 · Bob Brown",
            "C3 · Carol Chen",
        ]


# -- A pasted round takes results as score sheets write them: "1 - 0", "1/2 - 1/2". ----------


R = Game.Result


def paste(client, event, text):
    url = reverse("ratings:officer-round-paste", args=[event.pk])
    return client.post(url, {"round": 1, "text": text})


def preview(response):
    assert "preview" in response.context, response.context["form"].errors
    return [
        (p.white.name, p.black.name if p.black else None, p.result)
        for p in response.context["preview"]
    ]


@pytest.mark.parametrize(
    ("spelling", "result"),
    [
        ("1 - 0", R.WHITE_WIN),
        ("½ - ½", R.DRAW),
        ("1/2 - 1/2", R.DRAW),
        ("0 - 1 nr", R.BLACK_WIN_UNRATED),
        ("+ / -", R.WHITE_FORFEIT_WIN),
    ],
)
def test_a_pasted_result_may_have_spaces_around_its_dash_or_slash(
    officer_client, club_night, spelling, result
):
    response = paste(officer_client, club_night, f"Alice Archer - Bob Brown {spelling}")
    assert preview(response) == [("Alice Archer", "Bob Brown", result)]


def test_a_spaced_result_after_vs_leaves_the_names_whole(officer_client, club_night):
    response = paste(officer_client, club_night, "Alice Archer vs Bob Brown 1/2 - 1/2")
    assert preview(response) == [("Alice Archer", "Bob Brown", R.DRAW)]


def test_a_spaced_result_after_member_numbers_is_read(officer_client, club_night):
    response = paste(officer_client, club_night, "A1 - B2 1 - 0\nC3 - D4 0 - 1")
    assert preview(response) == [
        ("Alice Archer", "Bob Brown", R.WHITE_WIN),
        ("Carol Chen", "Dave Dunn", R.BLACK_WIN),
    ]


def test_a_spaced_unknown_result_is_named_whole_in_the_message(officer_client, club_night):
    response = paste(officer_client, club_night, "Alice Archer - Bob Brown 1 - 1")
    message = response.context["form"].errors["text"][0]
    assert message.startswith("Line 1: “1 - 1” is not a result. Allowed:")
    assert not club_night.games.exists()


def test_a_game_without_a_dash_between_the_players_says_how_to_write_it(
    officer_client, club_night
):
    response = paste(officer_client, club_night, "Alice Archer Bob Brown 1 - 0")
    assert response.context["form"].errors["text"] == [
        "Line 1: write it as “white - black result”."
    ]


ADVERSARIAL = [
    "A1 - B2 " + "-" * 30 + " x y",  # dashes the old pattern split every possible way
    "A1 - B2 " + "1-" * 15 + " x",
    "A1 - B2 " + "-" * 3000 + " x y",
    "A1 - B2 " + "1 - " * 750 + "x",
    "A1 " + " " * 3000 + "- B2 1/" + "/" * 3000,
    "a" * 3000 + " - " + "b" * 3000,
]


@pytest.mark.parametrize("line", ADVERSARIAL, ids=lambda line: f"{len(line)}-chars")
def test_a_line_built_to_backtrack_is_refused_at_once(officer_client, club_night, line):
    response = paste(officer_client, club_night, line)
    problems = response.context["form"].errors["text"]
    assert len(problems) == 1 and problems[0].startswith("Line 1:")
    assert not club_night.games.exists()


@pytest.mark.parametrize("line", ADVERSARIAL, ids=lambda line: f"{len(line)}-chars")
def test_the_paste_parser_reads_a_long_line_in_linear_time(line):
    from ratings.forms import paste_line_split, paste_unknown_result

    # Each of these took exponential time with the old pattern (a 40-character line, 30
    # seconds): here they are done before the test could notice any wait.
    assert paste_line_split(line) is None
    paste_unknown_result(line)


def test_a_long_line_that_ends_in_a_result_is_still_read(officer_client, club_night):
    response = paste(
        officer_client, club_night, "Alice   Archer  -   Bob Brown" + " " * 3000 + "1-0"
    )
    assert preview(response) == [("Alice Archer", "Bob Brown", R.WHITE_WIN)]


# -- A round robin's grid: each game entered once, above the diagonal, and seen from both ----


@pytest.fixture
def round_robin(alice, bob, carol):
    event = EventFactory(name="Reserve championship", kind=Event.Kind.ROUND_ROBIN, rounds=3)
    for member in (alice, bob, carol):
        event.entries.create(member=member)
    return event


def grid(client, event):
    response = client.get(reverse("ratings:officer-grid", args=[event.pk]))
    return {row.player.name: row for row in response.context["form"].rows()}


def test_below_the_diagonal_each_game_shows_as_the_other_player_scored_it(
    officer_client, round_robin, alice, bob, carol
):
    GameFactory(event=round_robin, white=alice, black=bob, result="1-0")
    GameFactory(event=round_robin, white=carol, black=alice, result="1/2-1/2", round=2)
    GameFactory(event=round_robin, white=bob, black=carol, result="-/+", round=3)
    rows = grid(officer_client, round_robin)
    players = [row.player.name for row in rows.values()]
    bob_against = dict(zip(players, rows["Bob Brown"].cells, strict=True))
    carol_against = dict(zip(players, rows["Carol Chen"].cells, strict=True))
    assert bob_against["Alice Archer"].shown == "0"
    assert carol_against["Alice Archer"].shown == "½"
    assert carol_against["Bob Brown"].shown == "+"
    assert bob_against["Carol Chen"].field is not None  # entered above the diagonal


def test_a_mirrored_cell_follows_the_cell_it_mirrors(officer_client, round_robin):
    html = officer_client.get(reverse("ratings:officer-grid", args=[round_robin.pk]))
    page = html.content.decode()
    assert page.count("data-mirror-of=") == 3  # one for each pair
    assert "js/officer.js" in page


def test_a_narrow_screen_shows_a_short_name():
    assert short_name("Tomasz Kowalski") == "T. Kowalski"
    assert short_name("Mere Te Huia Tawhiri") == "M. Tawhiri"
    assert short_name("Cher") == "Cher"


# -- A count agrees with its noun: "1 result", "2 results". ---------------------------------


def test_saving_a_round_of_one_result_says_1_result(officer_client, club_night, alice, bob):
    response = _post_round(officer_client, club_night, 1, [(alice, bob, "1-0")])
    assert "Round 1: 1 result saved." in _messages_after(officer_client, response)


def test_saving_a_round_of_two_results_says_2_results(
    officer_client, club_night, alice, bob, carol, dave
):
    rows = [(alice, bob, "1-0"), (carol, dave, "0-1")]
    response = _post_round(officer_client, club_night, 1, rows)
    assert "Round 1: 2 results saved." in _messages_after(officer_client, response)


def test_saving_a_pasted_round_of_one_result_says_1_result(officer_client, club_night):
    response = _paste(officer_client, club_night, "A1 - B2 0-1", save="1")
    assert "Round 1: 1 result saved." in _messages_after(officer_client, response)


def test_saving_a_grid_of_one_game_says_1_game(officer_client, alice, bob):
    event = EventFactory(kind=Event.Kind.ROUND_ROBIN, rounds=1)
    for member in (alice, bob):
        event.entries.create(member=member)
    response = officer_client.post(
        reverse("ratings:officer-grid", args=[event.pk]), {f"g_{alice.pk}_{bob.pk}": "1"}
    )
    assert "Crosstable saved: 1 game." in _messages_after(officer_client, response)


def test_a_pasted_round_beyond_a_one_round_event_says_1_round(officer_client, alice, bob):
    event = EventFactory(rounds=1)
    for member in (alice, bob):
        event.entries.create(member=member)
    response = _paste(officer_client, event, "A1 - B2 1-0", number=2)
    assert "This event has 1 round." in response.content.decode()
