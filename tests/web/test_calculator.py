"""The rating calculator: what if I beat her? Nothing saved, the club's own system; its member
search box (published members only), its breakdown in words, a change that rounds to nothing."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from ratings.models import Game, Member, RatingChange, RatingRun, RatingState
from ratings.pages import calculator as what_if

from ..factories import MemberFactory, paid_up, rating_state

pytestmark = pytest.mark.django_db


# -- The rating calculator: what if I beat her? Nothing saved, the club's own system. --------


CALCULATOR = reverse("ratings:calculator")


def ask(client, player: dict[str, object], games: list[dict[str, object]], **extra):
    data: dict[str, object] = {"go": "1", "g-TOTAL_FORMS": len(games), "g-INITIAL_FORMS": 0}
    data.update({f"p-{k}": v for k, v in player.items()})
    for i, game in enumerate(games):
        data.update({f"g-{i}-{k}": v for k, v in game.items()})
    data.update(extra)
    return client.get(CALCULATOR, data)


def test_a_typed_rating_beating_an_equal_gains_what_the_club_system_gives(client, club):
    response = ask(client, {"rating": 1500, "games": 40}, [{"rating": 1500, "result": "1"}])
    outcome = response.context["outcome"]
    assert outcome["change"].display_after == "1508"  # NZ club Elo: K 16 established
    assert outcome["detail"]["k"] == 16
    assert outcome["lines"][0]["expected"] == 0.5


def test_a_member_starts_from_their_stored_rating(client, rated_event, current_season, alice, bob):
    paid_up(alice, current_season)
    paid_up(bob, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    response = ask(client, {"member": "A1"}, [{"opponent": "Bob Brown", "result": "0.5"}])
    outcome = response.context["outcome"]
    assert outcome["change"].before == 1516.0
    assert outcome["lines"][0]["opponent"] == "Bob Brown (1484)"
    assert outcome["lines"][0]["opponent_rating"] == 1484.0


def test_the_calculator_saves_nothing(client, rated_event, current_season, alice, bob):
    paid_up(alice, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    before = (RatingRun.objects.count(), RatingChange.objects.count())
    state = RatingState.objects.get(member=alice).rating
    ask(client, {"member": alice.member_number}, [{"rating": 2400, "result": "1"}])
    assert (RatingRun.objects.count(), RatingChange.objects.count()) == before
    assert RatingState.objects.get(member=alice).rating == state


def test_a_result_must_be_one_half_or_nothing(client, club):
    response = ask(client, {"rating": 1500, "games": 40}, [{"rating": 1500, "result": "2"}])
    assert response.context["outcome"] is None
    assert response.context["formset"].forms[0].errors["result"] == ["A result is 1, ½ or 0."]


def test_a_rating_must_be_a_number(client, club):
    response = ask(
        client, {"rating": "fifteen hundred", "games": 40}, [{"rating": 1500, "result": "1"}]
    )
    assert response.context["player_form"].errors["rating"] == ["A rating is a number, e.g. 1450."]


def test_the_error_summary_names_an_opponents_rating_as_such(client, club):
    response = ask(
        client, {"rating": "x", "games": 40}, [{"rating": "1500"}, {"rating": "y", "result": "1"}]
    )
    summary = response.content.decode().split("data-error-summary")[1].split("</div>")[0]
    assert "Rating</a>: A rating is a number" in summary
    assert "Game 2 opponent&#x27;s rating</a>: A rating is a number" in summary
    assert "or their rating" not in summary and "or a rating" not in summary


def test_a_game_needs_an_opponent_and_a_result(client, club):
    response = ask(client, {"rating": 1500, "games": 10}, [{"rating": 1500}])
    assert response.context["formset"].forms[0].errors["result"] == ["A result is 1, ½ or 0."]


def test_at_least_one_game_is_needed(client, club):
    response = ask(client, {"rating": 1500, "games": 10}, [{}])
    assert response.context["formset"].non_form_errors() == ["Add at least one game."]


def test_a_typed_rating_needs_the_games_it_rests_on(client, club):
    response = ask(client, {"rating": 1500}, [{"rating": 1500, "result": "1"}])
    assert "games" in response.context["player_form"].errors


def test_members_in_arrears_cannot_be_looked_up_by_the_public(client, rated_event, alice, bob):
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    response = ask(client, {"member": "A1"}, [{"rating": 1500, "result": "1"}])
    assert response.context["outcome"] is None
    assert response.context["player_form"].errors["member"] == [
        "No rated member has the name or number A1: pick one from the list, or type a rating."
    ]


def test_add_a_game_brings_the_answers_back_with_one_more_row(client, club):
    response = client.get(
        CALCULATOR,
        {
            "add": "1",
            "p-rating": "1500",
            "p-games": "12",
            "g-TOTAL_FORMS": "1",
            "g-0-rating": "1600",
            "g-0-result": "1",
        },
    )
    formset = response.context["formset"]
    assert len(formset.forms) == 2
    assert formset.forms[0].initial["rating"] == "1600"
    assert response.context["player_form"].initial["games"] == "12"


# -- The calculator picks members by a search box: published members only, typed or found. ---


SEARCH = reverse("ratings:member_search")


def rated(member: Member, display: str = "1500") -> Member:
    rating_state(member, rating=float(display), display=display, games=20)
    return member


def found(client, q: str) -> list[str]:
    response = client.get(SEARCH, {"q": q})
    assert response["Content-Type"] == "application/json"
    return [m["number"] for m in response.json()["members"]]


def test_the_search_offers_published_members_with_their_rating(client, current_season, alice):
    rated(paid_up(alice, current_season), "1612")
    response = client.get(SEARCH, {"q": "ali"})
    assert response.json() == {
        "members": [
            {
                "number": "A1",
                "name": "Alice Archer",
                "rating": "1612",
                "label": "Alice Archer (A1)",
            }
        ]
    }


def test_the_search_never_offers_an_unpublished_member(client, current_season, rated_event):
    """In arrears, a guest, merged, or never rated: none of them, by name or by number."""
    paid = rated(paid_up(MemberFactory(member_number="P1", name="Pat Paid"), current_season))
    arrears = rated(MemberFactory(member_number="P2", name="Pat Arrears"))
    guest = rated(
        paid_up(MemberFactory(member_number="P3", name="Pat Guest", is_guest=True), current_season)
    )
    merged = rated(paid_up(MemberFactory(member_number="P4", name="Pat Merged"), current_season))
    merged.merged_into = paid
    merged.save()
    paid_up(MemberFactory(member_number="P5", name="Pat Unrated"), current_season)
    assert found(client, "pat") == ["P1"]
    for member in (arrears, guest, merged):
        assert found(client, member.member_number) == []
        assert found(client, member.name) == []
        response = ask(client, {"member": member.member_number}, [{"rating": 1500, "result": "1"}])
        assert response.context["outcome"] is None
        assert "member" in response.context["player_form"].errors
    # An opponent is looked up the same way.
    response = ask(client, {"member": "P1"}, [{"opponent": "P2", "result": "1"}])
    assert "opponent" in response.context["formset"].forms[0].errors


def test_an_officer_may_pick_anyone_rated(officer_client, current_season):
    rated(MemberFactory(member_number="P2", name="Pat Arrears"))
    assert found(officer_client, "pat") == ["P2"]


def test_the_search_wants_two_letters_and_offers_twenty_at_most(client, current_season):
    for n in range(25):
        rated(
            paid_up(MemberFactory(member_number=f"S{n:02d}", name=f"Sam {n:02d}"), current_season)
        )
    assert found(client, "s") == []
    assert found(client, "sam") == [f"S{n:02d}" for n in range(20)]
    assert found(client, "sam 24") == ["S24"]
    rated(paid_up(MemberFactory(member_number="X1", name="Ada Samson"), current_season))
    assert found(client, "sam")[:2] == ["S00", "S01"]  # names that begin "sam" first
    assert found(client, "ada sam") == ["X1"]


def test_a_member_is_typed_by_number_name_or_the_search_boxs_label(
    client, current_season, rated_event, alice, bob
):
    paid_up(alice, current_season)
    paid_up(bob, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    for typed in ("A1", "a1", "alice archer", "Alice Archer (A1)", " Alice Archer "):
        response = ask(client, {"member": typed}, [{"opponent": "B2", "result": "0.5"}])
        outcome = response.context["outcome"]
        assert outcome is not None, typed
        assert outcome["change"].before == 1516.0
        assert outcome["lines"][0]["opponent"] == "Bob Brown (1484)"


def test_a_name_two_members_share_asks_for_the_number(client, current_season):
    for number in ("J1", "J2"):
        rated(paid_up(MemberFactory(member_number=number, name="Jo Smith"), current_season))
    response = ask(client, {"member": "Jo Smith"}, [{"rating": 1500, "result": "1"}])
    assert response.context["player_form"].errors["member"] == [
        "More than one member is called Jo Smith: type the member number (J1, J2)."
    ]
    response = ask(client, {"member": "Jo Smith (J2)"}, [{"rating": 1500, "result": "1"}])
    assert response.context["outcome"] is not None


def test_a_million_game_rows_are_refused_at_once(client, club, django_assert_max_num_queries):
    data = {
        "go": "1",
        "p-rating": "1500",
        "p-games": "30",
        "g-TOTAL_FORMS": "1000000",
        "g-INITIAL_FORMS": "0",
        "g-0-rating": "1500",
        "g-0-result": "1",
    }
    # Refused before a form is built for each claimed row: 40 forms, not a million (a
    # time limit here would measure the machine, not the code).
    with django_assert_max_num_queries(5):
        response = client.get(CALCULATOR, data)
    formset = response.context["formset"]
    assert len(formset.forms) == 40
    assert formset.non_form_errors() == ["A calculation takes at most 40 games: leave some out."]
    assert response.context["outcome"] is None
    assert "at most 40 games" in response.content.decode()


def test_forty_games_are_taken(client, club):
    games = [{"rating": 1500, "result": "0.5"} for _ in range(40)]
    response = ask(client, {"rating": 1500, "games": 30}, games)
    assert len(response.context["outcome"]["lines"]) == 40


@pytest.mark.parametrize("page", ["calculator", "search"])
def test_the_calculator_takes_the_same_queries_and_bytes_however_many_members(
    client, current_season, page
):
    def measure() -> tuple[int, int]:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        url, query = (CALCULATOR, {}) if page == "calculator" else (SEARCH, {"q": "zz"})
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, query)
        return len(queries), len(response.content)

    def add(count: int, start: int) -> None:
        for n in range(start, start + count):
            rated(paid_up(MemberFactory(member_number=f"Q{n}", name=f"Quinn {n}"), current_season))

    add(3, 0)
    small = measure()
    add(60, 3)
    assert measure() == small


# -- The calculator's breakdown reads as words and numbers, not as Python values. ------------


def breakdown(client, rating: int, games: int) -> list[tuple[str, str]]:
    response = client.get(
        CALCULATOR,
        {
            "go": "1",
            "p-rating": rating,
            "p-games": games,
            "g-TOTAL_FORMS": 1,
            "g-INITIAL_FORMS": 0,
            "g-0-rating": 1500,
            "g-0-result": "1",
        },
    )
    page = response.content.decode()
    listed = re.search(r'<dl class="[^"]*breakdown">(.*?)</dl>', page, re.S)
    assert listed, "no breakdown on the page"
    return re.findall(r"<dt[^>]*>(.*?)</dt><dd[^>]*>(.*?)</dd>", listed.group(1))


def test_a_yes_or_no_in_the_breakdown_reads_yes_or_no(client, club):
    club.rating_system = "st-charles"
    club.save()
    rows = breakdown(client, 1500, 40)
    assert ("Official", "yes") in rows
    assert not any(value in ("True", "False") for _, value in rows)


def test_the_breakdown_names_each_figure_and_rounds_it(client, club):
    rows = breakdown(client, 1500, 40)  # NZ club Elo: K 16, an equal opponent
    assert rows == [("K", "16"), ("Games", "1"), ("Score", "1"), ("Expected score", "0.5")]


def test_each_game_shows_the_systems_own_figures(client, club):
    club.rating_system = "st-charles"
    club.save()
    response = client.get(
        CALCULATOR,
        {
            "go": "1",
            "p-rating": 1500,
            "p-games": 40,
            "g-TOTAL_FORMS": 1,
            "g-INITIAL_FORMS": 0,
            "g-0-rating": 1600,
            "g-0-result": "1",
        },
    )
    outcome = response.context["outcome"]
    assert outcome["columns"] == ["Shift", "Rule"]
    assert outcome["lines"][0]["extra"] == ["+4", "formula"]  # (1600 - 1500) / 25


# -- The calculator shows a change that rounds to nothing as "0": no sign, no colour. --------


def ask_with_changes(client, monkeypatch, *, game: float, event: float):
    """A draw between equals, with the game's and the event's change nudged to these."""
    real = what_if.calculator_rate

    def nudged(**kwargs):
        change = real(**kwargs)
        change.games[0].change = game
        change.after = change.before + event
        return change

    monkeypatch.setattr(what_if, "calculator_rate", nudged)
    data = {"go": "1", "g-TOTAL_FORMS": 1, "g-INITIAL_FORMS": 0, "p-rating": 1500}
    data.update({"p-games": 40, "g-0-rating": 1500, "g-0-result": "0.5"})
    return client.get(reverse("ratings:calculator"), data).content.decode()


def change_cell(html: str) -> str:
    row = html.split("a player rated 1500</td>")[1].split("</tr>")[0]
    return row.rsplit('<td class="rating">', 1)[1].split("</td>")[0]


@pytest.mark.parametrize("tiny", [0.004, -0.004])
def test_a_game_change_that_rounds_to_nothing_shows_as_0(client, club, monkeypatch, tiny):
    html = ask_with_changes(client, monkeypatch, game=tiny, event=0.0)
    assert change_cell(html) == "0"


def test_a_game_change_that_shows_keeps_its_sign_and_two_decimals(client, club, monkeypatch):
    html = ask_with_changes(client, monkeypatch, game=0.006, event=0.0)
    assert change_cell(html) == "+0.01"


def test_an_event_change_that_rounds_to_nothing_shows_as_0(client, club, monkeypatch):
    html = ask_with_changes(client, monkeypatch, game=0.0, event=0.04)
    assert "<span>(0)</span>" in html
    assert "(+0" not in html


# -- The change beside the figures is their difference, as the reader can check it. ---------


def ask_with_figures(client, monkeypatch, before: float, after: float):
    """A what-if whose rating goes from ``before`` to ``after`` (shown as whole figures)."""
    real = what_if.calculator_rate

    def moved(**kwargs):
        change = real(**kwargs)
        change.before, change.after = before, after
        change.display_before, change.display_after = f"{before:.0f}", f"{after:.0f}"
        return change

    monkeypatch.setattr(what_if, "calculator_rate", moved)
    data = {"go": "1", "g-TOTAL_FORMS": 1, "g-INITIAL_FORMS": 0, "p-rating": 2303}
    data.update({"p-games": 40, "g-0-rating": 2303, "g-0-result": "1"})
    return client.get(reverse("ratings:calculator"), data).content.decode()


def test_the_change_beside_whole_figures_is_their_difference(client, club, monkeypatch):
    html = ask_with_figures(client, monkeypatch, before=2303.4, after=2305.0)
    assert "2303 → 2305" in html
    assert '<span class="change-up">(+2)</span>' in html
    assert "(+1.6)" not in html


def test_a_change_that_leaves_the_figures_equal_shows_as_0(client, club, monkeypatch):
    html = ask_with_figures(client, monkeypatch, before=2303.6, after=2304.4)
    assert "2304 → 2304" in html
    assert "<span>(0)</span>" in html
