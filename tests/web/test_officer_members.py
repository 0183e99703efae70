"""Members: a searchable list, add and edit (initial rating and games, the guests' rating help,
member numbers in any case), subscriptions and financial status."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from ratings.forms import MemberForm, QuickMemberForm, SubscriptionForm, resolve_players
from ratings.models import (
    ClubSettings,
    Member,
    RatingChange,
    RatingRun,
    RatingState,
    Season,
    Subscription,
    suggested_member_number,
)
from ratings.services import member_imports

from ..factories import MemberFactory, SeasonFactory, paid_up, rating_state

pytestmark = pytest.mark.django_db


# -- Members: a searchable list, add and edit, subscriptions and financial status. -----------


def test_the_member_list_finds_members_by_name_or_number(officer_client, alice, bob):
    url = reverse("ratings:officer-members")
    by_name = officer_client.get(url, {"q": "archer"}).context["table"]
    by_number = officer_client.get(url, {"q": "b2"}).context["table"]
    assert [row.record.name for row in by_name.rows] == ["Alice Archer"]
    assert [row.record.name for row in by_number.rows] == ["Bob Brown"]


def test_the_member_list_is_in_name_order_and_sorts_by_rating_strongest_first(
    officer_client, rated_event, alice, bob
):
    rated_event([(1, bob, alice, "1-0")])
    MemberFactory(name="Aaron Newcomer")  # not rated yet: last by rating
    url = reverse("ratings:officer-members")
    by_name = officer_client.get(url).context["table"]
    by_rating = officer_client.get(url, {"sort": "rating"}).context["table"]
    assert [row.record.name for row in by_name.rows] == [
        "Aaron Newcomer",
        "Alice Archer",
        "Bob Brown",
    ]
    assert [row.record.name for row in by_rating.rows] == [
        "Bob Brown",
        "Alice Archer",
        "Aaron Newcomer",
    ]


def test_the_member_list_shows_fifty_members_a_page(officer_client):
    for _ in range(51):
        MemberFactory()
    url = reverse("ratings:officer-members")
    assert len(officer_client.get(url).context["table"].page.object_list) == 50
    assert len(officer_client.get(url, {"page": 2}).context["table"].page.object_list) == 1


def test_a_name_in_the_member_list_opens_the_members_record(officer_client, alice):
    page = officer_client.get(reverse("ratings:officer-members")).content.decode()
    assert f'href="{reverse("ratings:officer-member", args=[alice.pk])}"' in page


def test_a_search_keeps_the_lists_order(officer_client, alice):
    url = reverse("ratings:officer-members")
    page = officer_client.get(url, {"sort": "rating"}).content.decode()
    assert '<input type="hidden" name="sort" value="rating">' in page


def test_the_member_list_shows_who_is_in_arrears_today(officer_client, alice, bob, current_season):
    paid_up(alice, current_season)
    page = officer_client.get(reverse("ratings:officer-members")).content.decode()
    assert page.count('text-bg-success">Financial') == 1
    assert page.count('text-bg-warning">In arrears') == 1


def test_the_member_list_runs_a_fixed_number_of_queries(
    officer_client, django_assert_max_num_queries
):
    for _ in range(30):
        MemberFactory()
    with django_assert_max_num_queries(12):
        officer_client.get(reverse("ratings:officer-members"))


def test_an_officer_adds_a_member(officer_client):
    response = officer_client.post(
        reverse("ratings:officer-member-add"),
        {"name": "Erin Evans", "member_number": "E5", "initial_games": 0},
    )
    erin = Member.objects.get(member_number="E5")
    assert response["Location"] == reverse("ratings:officer-member", args=[erin.pk])


def test_a_member_number_in_use_is_refused_beside_the_field(officer_client, alice):
    response = officer_client.post(
        reverse("ratings:officer-member-add"),
        {"name": "Another", "member_number": "A1", "initial_games": 0},
    )
    assert response.context["form"].errors["member_number"]
    assert Member.objects.count() == 1


@pytest.mark.parametrize(
    ("born", "message"),
    [
        ("2999-01-01", "A date of birth cannot be in the future."),
        ("1800-01-01", "A date of birth before 1900 is surely a slip."),
    ],
)
def test_an_impossible_date_of_birth_is_refused_beside_the_field(officer_client, born, message):
    response = officer_client.post(
        reverse("ratings:officer-member-add"),
        {"name": "Erin Evans", "member_number": "E5", "initial_games": 0, "born": born},
    )
    assert response.context["form"].errors["born"] == [message]
    assert not Member.objects.exists()


def test_an_officer_edits_a_member(officer_client, alice):
    officer_client.post(
        reverse("ratings:officer-member", args=[alice.pk]),
        {
            "member-name": "Alice Archer-Smith",
            "member-member_number": "A1",
            "member-initial_games": 0,
            "member-change_reason": "married",
        },
    )
    alice.refresh_from_db()
    assert alice.name == "Alice Archer-Smith"


def test_a_members_page_says_before_any_change_that_a_reason_is_needed(officer_client, alice):
    page = officer_client.get(reverse("ratings:officer-member", args=[alice.pk]))
    assert "Needed with any change: kept in the history" in page.content.decode()


def test_recording_a_paid_season_makes_the_member_financial(officer_client, alice, current_season):
    page = officer_client.get(reverse("ratings:officer-member", args=[alice.pk]))
    assert "In arrears" in page.content.decode()
    officer_client.post(
        reverse("ratings:officer-member-subscribe", args=[alice.pk]),
        {"season": current_season.pk, "paid_on": "2026-01-05", "amount": "40"},
    )
    page = officer_client.get(reverse("ratings:officer-member", args=[alice.pk]))
    assert "Financial" in page.content.decode()


def test_a_season_paid_twice_is_refused(officer_client, alice):
    season = SeasonFactory(name="2025", start=dt.date(2025, 1, 1), end=dt.date(2025, 12, 31))
    paid_up(alice, season)
    response = officer_client.post(
        reverse("ratings:officer-member-subscribe", args=[alice.pk]),
        {"season": season.pk, "paid_on": "2025-02-01"},
    )
    assert "Alice Archer has already paid for 2025." in response.content.decode()
    assert Subscription.objects.count() == 1


def _member_data(client, member, **changes):
    """The member page's form as it stands, with ``changes`` (unprefixed field names)."""
    form = client.get(reverse("ratings:officer-member", args=[member.pk])).context["form"]
    data = {}
    for bound in form:
        value = bound.value()
        if value is True:
            data[bound.html_name] = "on"
        elif value is not None and value is not False:
            data[bound.html_name] = value
    # A correction says why, as the page requires of one (a test may say otherwise).
    data.setdefault("member-change_reason", "put right")
    data.update({f"member-{name}": value for name, value in changes.items()})
    return data


def test_a_new_starting_rating_for_a_rated_member_says_how_many_events_it_re_rates_first(
    officer_client, rated_event, alice, bob, carol
):
    rated_event([(1, alice, bob, "1-0")], date=dt.date(2026, 3, 2))
    rated_event([(1, bob, carol, "1-0")], date=dt.date(2026, 3, 9))
    url = reverse("ratings:officer-member", args=[alice.pk])
    response = officer_client.post(url, _member_data(officer_client, alice, initial_rating=1900))
    assert "re-rates 2 events" in response.content.decode()
    alice.refresh_from_db()
    assert alice.initial_rating is None


def test_confirming_a_new_starting_rating_re_rates_from_the_members_first_event(
    officer_client, rated_event, bob
):
    alice = MemberFactory(name="Alice Archer", initial_rating=1521, initial_games=30)
    night = rated_event([(1, alice, bob, "1-0")])
    runs = RatingRun.objects.count()
    data = _member_data(officer_client, alice, initial_rating=1900)
    officer_client.post(
        reverse("ratings:officer-member", args=[alice.pk]), {**data, "confirm": "1"}
    )
    assert RatingChange.objects.get(event=night, member=alice).before == 1900
    assert RatingState.objects.get(member=alice).rating > 1900
    assert RatingRun.objects.count() == runs + 1


def test_a_new_name_for_a_rated_member_saves_without_asking_or_re_rating(
    officer_client, rated_event, alice, bob
):
    rated_event([(1, alice, bob, "1-0")])
    runs = RatingRun.objects.count()
    url = reverse("ratings:officer-member", args=[alice.pk])
    response = officer_client.post(url, _member_data(officer_client, alice, name="Alice Smith"))
    assert response["Location"] == url
    assert Member.objects.get(pk=alice.pk).name == "Alice Smith"
    assert RatingRun.objects.count() == runs


def test_a_new_starting_rating_for_a_member_yet_to_play_shows_at_once(
    officer_client, rated_event, alice, bob, dave
):
    rated_event([(1, alice, bob, "1-0")])
    url = reverse("ratings:officer-member", args=[dave.pk])
    response = officer_client.post(url, _member_data(officer_client, dave, initial_rating=1700))
    assert response["Location"] == url
    assert RatingState.objects.get(member=dave).rating == 1700


def test_adding_a_member_with_a_namesake_warns_and_still_saves(officer_client, alice):
    response = officer_client.post(
        reverse("ratings:officer-member-add"),
        {"name": "alice archer", "member_number": "A9", "initial_games": 0},
        follow=True,
    )
    assert Member.objects.filter(member_number="A9").exists()
    shown = [str(m) for m in response.context["messages"]]
    assert any("Another member is also called alice archer (A1)" in m for m in shown)


@pytest.mark.parametrize("name", ["\u200b\u200b", "\u200d\u2060\ufeff", "\x01\x02", "-- ."])
def test_a_name_without_letters_is_refused_beside_the_field(officer_client, name):
    response = officer_client.post(
        reverse("ratings:officer-member-add"),
        {"name": name, "member_number": "E5", "initial_games": 0},
    )
    assert "must contain letters" in response.context["form"].errors["name"][0]
    assert not Member.objects.exists()


def test_a_guest_named_without_letters_is_refused_inside_the_event(officer_client):
    from ..factories import EventFactory

    event = EventFactory()
    response = officer_client.post(
        reverse("ratings:officer-event-players", args=[event.pk]),
        {"quick-name": "\u200b", "quick-is_guest": "on"},
    )
    assert "must contain letters" in response.content.decode()
    assert not Member.objects.exists()


def test_a_nul_character_in_a_form_field_is_refused_beside_the_field(officer_client):
    response = officer_client.post(
        reverse("ratings:officer-member-add"),
        {"name": "Erin\x00Evans", "member_number": "E5", "initial_games": 0},
    )
    assert response.context["form"].errors["name"] == ["Null characters are not allowed."]
    assert not Member.objects.exists()


# -- The initial rating's help says when the club's system rates guests at a fixed rating. ---


FIXED = "guests are rated at a fixed 1500 whatever this says"


def test_under_nz_club_elo_the_help_says_guests_are_fixed_at_its_guest_rating(club):
    assert FIXED in MemberForm().fields["initial_rating"].help_text
    assert FIXED in QuickMemberForm().fields["initial_rating"].help_text


def test_the_help_follows_the_clubs_guest_rating(club):
    club.system_params = {"guest_rating": 1200}
    club.save()
    assert "a fixed 1200 " in MemberForm().fields["initial_rating"].help_text


def test_under_a_system_without_a_guest_rating_the_help_says_nothing_of_guests(club):
    club.rating_system = "st-charles"
    club.save()
    help_text = MemberForm().fields["initial_rating"].help_text
    assert help_text == "The member's rating before their first event here (blank: a new player)."


def test_the_member_page_shows_it(officer_client, club):
    response = officer_client.get(reverse("ratings:officer-member-add"))
    assert FIXED in response.content.decode()


# -- A member's initial rating and games: a rating from 0 to 3500, games from 0. -------------


ADD = reverse("ratings:officer-member-add")


def add(client, **fields):
    return client.post(ADD, {"name": "Erin Evans", "member_number": "E5", **fields})


def test_a_negative_initial_rating_is_refused_beside_the_field(officer_client):
    response = add(officer_client, initial_rating="-5", initial_games=10)
    assert response.context["form"].errors == {"initial_rating": ["A rating cannot be below 0."]}
    assert not Member.objects.exists()


def test_an_initial_rating_above_3500_is_refused_beside_the_field(officer_client):
    response = add(officer_client, initial_rating="15000", initial_games=10)
    assert response.context["form"].errors == {"initial_rating": ["A rating is at most 3500."]}
    assert not Member.objects.exists()


def test_an_initial_rating_from_0_to_3500_is_kept(officer_client):
    add(officer_client, initial_rating="3500", initial_games=10)
    assert Member.objects.get().initial_rating == 3500


def test_negative_initial_games_are_refused_beside_the_field(officer_client):
    response = add(officer_client, initial_rating="1500", initial_games=-1)
    assert response.context["form"].errors == {
        "initial_games": ["Games played cannot be below 0."]
    }
    assert not Member.objects.exists()


def test_editing_a_member_to_a_negative_initial_rating_keeps_the_old_one(officer_client, alice):
    response = officer_client.post(
        reverse("ratings:officer-member", args=[alice.pk]),
        {
            "member-name": "Alice Archer",
            "member-member_number": "A1",
            "member-initial_rating": "-5",
            "member-initial_games": 0,
            "member-change_reason": "rating brought in from the FIDE list",
        },
    )
    assert response.context["form"].errors == {"initial_rating": ["A rating cannot be below 0."]}
    alice.refresh_from_db()
    assert alice.initial_rating is None


# -- Member numbers are one whatever their case: A1 and a1 are the same number. --------------


def test_adding_a_member_with_anothers_number_in_another_case_is_refused_beside_the_field(
    officer_client, alice
):
    response = officer_client.post(
        ADD, {"name": "Another", "member_number": "a1", "initial_games": 0}
    )
    assert response.context["form"].errors["member_number"] == ["Another member has this number."]
    assert Member.objects.count() == 1


def test_editing_a_member_to_anothers_number_in_another_case_is_refused(
    officer_client, alice, bob
):
    response = officer_client.post(
        reverse("ratings:officer-member", args=[bob.pk]),
        {"member-name": "Bob Brown", "member-member_number": "a1", "member-initial_games": 0},
    )
    assert response.context["form"].errors["member_number"] == ["Another member has this number."]
    bob.refresh_from_db()
    assert bob.member_number == "B2"


def test_a_member_may_change_the_case_of_their_own_number(officer_client, alice):
    officer_client.post(
        reverse("ratings:officer-member", args=[alice.pk]),
        {
            "member-name": "Alice Archer",
            "member-member_number": "a1",
            "member-initial_games": 0,
            "member-change_reason": "the card says a1",
        },
    )
    alice.refresh_from_db()
    assert alice.member_number == "a1"


def test_the_database_refuses_two_numbers_differing_only_in_case(alice):
    with pytest.raises(IntegrityError), transaction.atomic():
        MemberFactory(member_number="a1")


def test_a_typed_number_picks_the_member_with_exactly_that_number():
    upper = Member(member_number="AB", name="Upper")
    lower = Member(member_number="ab", name="Lower")
    found, problems = resolve_players(["ab", "AB"], [upper, lower])
    assert found == {"ab": lower, "AB": upper}
    assert problems == {}


def test_a_typed_number_matching_two_members_only_in_another_case_is_reported():
    upper = Member(member_number="AB", name="Upper")
    lower = Member(member_number="ab", name="Lower")
    found, problems = resolve_players(["aB"], [upper, lower])
    assert found == {}
    assert problems == {
        "aB": "“aB” could be Upper (AB), Lower (ab): type the number in its exact case."
    }


def test_a_new_number_is_not_one_in_use_in_another_case():
    MemberFactory(member_number="R0007")
    MemberFactory(member_number="r0008", is_guest=True)
    assert suggested_member_number() == "R0009"


def test_an_imported_number_in_another_case_updates_that_member(alice):
    member_imports.members_import(data="id,name\nR7,Ana Tuilagi\na1,Alice Again\n")
    alice.refresh_from_db()
    assert (alice.member_number, alice.name) == ("A1", "Alice Again")
    assert sorted(Member.objects.values_list("member_number", flat=True)) == ["A1", "R7"]


def test_two_lines_of_an_import_with_one_number_in_two_cases_are_refused_at_the_second():
    _, problems = member_imports.members_check("id,name\nR7,Ana Tuilagi\nr7,Ben Clarke\n")
    assert [str(p) for p in problems] == [
        "line 3, id: 'r7' is 'R7' of line 2 in another case: "
        "member numbers are the same whatever their case"
    ]


def test_an_import_updates_a_member_whose_number_it_writes_exactly(alice):
    member_imports.members_import(data="id,name\nA1,Alice Archer-Smith\n")
    alice.refresh_from_db()
    assert alice.name == "Alice Archer-Smith"


# -- Recording a payment: for a recorded season, or this season or the next before they are. ---


def seasons_offered(member) -> list[str]:
    return [label for _, label in SubscriptionForm(member=member).fields["season"].choices]


def next_season() -> tuple[str, dt.date, dt.date]:
    club = ClubSettings.load()
    _, _, end = club.season_for(timezone.localdate())
    return club.season_for(end + dt.timedelta(days=1))


def test_next_season_is_offered_before_it_is_recorded(current_season, alice):
    name, _, _ = next_season()
    assert seasons_offered(alice)[:2] == [f"{name} (new season)", current_season.name]


def test_this_season_is_offered_even_when_no_season_is_recorded(alice):
    this, _, _ = ClubSettings.load().season_for(timezone.localdate())
    assert f"{this} (new season)" in seasons_offered(alice)
    assert not Season.objects.exists()


def test_the_form_starts_on_this_season_not_the_next(current_season, alice):
    assert SubscriptionForm(member=alice)["season"].value() == str(current_season.pk)


def test_paying_for_next_season_records_it_by_the_clubs_season_rule(
    officer_client, current_season, alice
):
    name, start, end = next_season()
    response = officer_client.post(
        reverse("ratings:officer-member-subscribe", args=[alice.pk]),
        {"season": f"new:{start.isoformat()}", "paid_on": str(timezone.localdate())},
    )
    assert response.status_code == 302
    season = Season.objects.get(name=name)
    assert (season.start, season.end) == (start, end)
    assert Subscription.objects.filter(member=alice, season=season).exists()


def test_a_recorded_season_is_offered_once_not_again_as_new(alice):
    name, start, end = next_season()
    SeasonFactory(name=name, start=start, end=end)
    offered = seasons_offered(alice)
    assert name in offered
    assert f"{name} (new season)" not in offered


@pytest.mark.parametrize("number", ["<script>alert(1)</script>", "A/1", "  "])
def test_a_member_number_refused_is_said_at_its_field_and_the_page_links_the_record(
    officer_client, alice, number
):
    url = reverse("ratings:officer-member", args=[alice.pk])
    response = officer_client.post(url, _member_data(officer_client, alice, member_number=number))
    assert response.status_code == 200
    assert response.context["form"].errors["member_number"]
    assert alice.get_absolute_url() in response.content.decode()  # the public page as recorded


def test_the_member_list_writes_the_rows_django_tables2_would(
    officer_client, alice, bob, current_season
):
    """The rows are written in one join (``OfficerMemberTable.page_cells``), not cell by
    cell through django-tables2: the same table, a rated member, a newcomer yet to play, a
    guest, one in arrears, one with no state on the list."""
    paid_up(alice, current_season)
    rating_state(alice, rating=1812, display="1812", games=20)
    MemberFactory(name="Gus Guest", is_guest=True)
    stateless = MemberFactory(name="Sam Stateless")
    RatingState.objects.filter(member=stateless).delete()
    response = officer_client.get(reverse("ratings:officer-members"))
    table = response.context["table"]
    request = response.wsgi_request
    written = table.as_html(request)
    table.template_name = "django_tables2/bootstrap5-responsive.html"
    by_cell = table.as_html(request)

    def squeezed(html: str) -> str:
        return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", html))

    assert squeezed(written) == squeezed(by_cell)
    assert "1812" in written and "Gus Guest" in written and "Sam Stateless" in written


def test_a_searchs_rows_are_striped_as_django_tables2_stripes_them(
    officer_client, alice, current_season
):
    """A page of an odd number of rows (a search finding three) is written as
    django-tables2 writes the table: its first row "even". A first pass over the rows
    (each one's standing, asked after them) once moved each row's stripe along by the
    page's size."""
    paid_up(alice, current_season)
    MemberFactory(name="Alice Archer", is_guest=True)
    MemberFactory(name="Alicia Alder")
    response = officer_client.get(reverse("ratings:officer-members"), {"q": "ali"})
    table = response.context["table"]
    served = re.findall(r'<tr class="(\w+)">', response.content.decode())
    table.template_name = "django_tables2/bootstrap5-responsive.html"
    by_cell = re.findall(r'<tr class="(\w+)"', table.as_html(response.wsgi_request))
    assert served == by_cell == ["even", "odd", "even"]


def test_each_rows_standing_today_is_read_with_the_rows(
    officer_client, alice, bob, current_season
):
    """The page's rows come with their standing today (financial, in arrears), asked of
    each row as the rows are read: no query of its own after them."""
    paid_up(alice, current_season)
    with CaptureQueriesContext(connection) as queries:
        page = officer_client.get(reverse("ratings:officer-members"), {"q": "b"})
    sql = [query["sql"] for query in queries]
    whole = 'SELECT "ratings_member"."id", "ratings_member"."member_number"'
    rows = next(i for i, text in enumerate(sql) if text.startswith(whole))
    assert '"is_financial"' in sql[rows]
    assert not [text for text in sql[rows + 1 :] if "ratings_subscription" in text]
    assert page.content.decode().count('text-bg-warning">In arrears') == 1
