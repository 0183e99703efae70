"""People once: a member is found whatever the case, accents or order their name is typed
in, at every door (the calculator, the members page, an event's players, a pasted round)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.forms import EntriesForm
from ratings.forms.events import resolve_players
from ratings.models import Member

from ..factories import EventFactory, MemberFactory, paid_up, rating_state

pytestmark = pytest.mark.django_db


def test_the_calculator_search_finds_a_name_typed_without_its_accents(client, current_season):
    jose = paid_up(MemberFactory(member_number="J1", name="José Alvarez"), current_season)
    rating_state(jose, rating=1600.0, display="1600", games=20)
    response = client.get(reverse("ratings:member_search"), {"q": "jose alv"})
    assert [m["number"] for m in response.json()["members"]] == ["J1"]


def found(page) -> list[str]:
    """The member numbers in the members page's table: read from its rows, not looked for
    in the whole page, whose random CSRF token holds a two-character number now and then
    (1 page in 60 for "R1")."""
    return [row.record.member_number for row in page.context["table"].page]


def test_the_members_page_finds_a_name_typed_in_another_order_and_case(officer_client):
    MemberFactory(member_number="R1", name="Rosa García")
    page = officer_client.get(reverse("ratings:officer-members"), {"q": "GARCIA rosa"})
    assert found(page) == ["R1"]


def test_an_events_players_are_typed_without_accents(officer):
    rosa = MemberFactory(member_number="R1", name="Rosa García")
    form = EntriesForm({"entries-players": "Garcia, Rosa"}, event=EventFactory(), prefix="entries")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["players"] == [rosa]


def test_a_pasted_name_finds_the_player_whatever_its_accents_or_order():
    jose = MemberFactory(member_number="J1", name="José Alvarez")
    found, problems = resolve_players(["Alvarez Jose", "jose"], [jose])
    assert (found, problems) == ({"Alvarez Jose": jose, "jose": jose}, {})


def test_every_member_written_in_bulk_keeps_their_name_key():
    # Imports write members in bulk: the key is kept there as by a save.
    (member,) = Member.objects.bulk_create([Member(member_number="Z1", name="Zoë Núñez")])
    assert Member.objects.get(pk=member.pk).name_key == "nunez zoe"
    member.name = "Zoe Nunez-Ortiz"
    Member.objects.bulk_update([member], ["name"])
    assert Member.objects.get(pk=member.pk).name_key == "nunez ortiz zoe"


def test_the_calculator_takes_a_name_typed_without_its_accents_or_in_another_order():
    from ratings.forms.calculator import MemberPickField

    jose = MemberFactory(member_number="J1", name="José Alvarez")
    field = MemberPickField()
    field.queryset = Member.objects.active().with_state()
    assert field.clean("Alvarez, Jose") == jose


def test_a_search_of_thousands_of_words_reads_each_different_word_once(officer_client):
    MemberFactory(member_number="R1", name="Rosa García")
    page = officer_client.get(reverse("ratings:officer-members"), {"q": "r " * 3000 + "garcia"})
    assert found(page) == ["R1"]


def test_a_search_reads_its_first_eight_different_words(officer_client):
    MemberFactory(member_number="R1", name="Rosa García")
    typed = "rosa garcia " + " ".join(f"w{n}" for n in range(3000))
    page = officer_client.get(reverse("ratings:officer-members"), {"q": typed})
    assert page.status_code == 200
    assert found(page) == []  # "w0", read third, is not in her name


@pytest.mark.parametrize("typed", ["a " * 2500, "-9" * 2500, "x." * 2500])
def test_the_public_list_searches_a_name_of_thousands_of_words(client, current_season, typed):
    response = client.get(reverse("ratings:live-list"), {"name": typed})
    assert response.status_code == 200
