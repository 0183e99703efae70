"""Member numbers are one whatever their case: A1 and a1 are the same number."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from ratings import imports
from ratings.forms import resolve_players
from ratings.models import Member, next_member_number

from ..factories import MemberFactory

pytestmark = pytest.mark.django_db

ADD = reverse("ratings:officer-member-add")


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
        {"member-name": "Alice Archer", "member-member_number": "a1", "member-initial_games": 0},
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
    MemberFactory(member_number="n0007")
    assert next_member_number("N") == "N0008"


def test_an_imported_number_that_is_a_members_in_another_case_is_refused_at_its_line(alice):
    with pytest.raises(imports.ImportRefused) as refused:
        imports.members_import(data="id,name\nR7,Ana Tuilagi\na1,Alice Again\n")
    assert [str(p) for p in refused.value.problems] == [
        "line 3, id: 'a1' is member A1 (Alice Archer) in another case: write it as A1"
    ]
    assert list(Member.objects.values_list("member_number", flat=True)) == ["A1"]


def test_two_lines_of_an_import_with_one_number_in_two_cases_are_refused_at_the_second():
    _, problems = imports.members_check("id,name\nR7,Ana Tuilagi\nr7,Ben Clarke\n")
    assert [str(p) for p in problems] == [
        "line 3, id: 'r7' is 'R7' of line 2 in another case: "
        "member numbers are the same whatever their case"
    ]


def test_an_import_updates_a_member_whose_number_it_writes_exactly(alice):
    imports.members_import(data="id,name\nA1,Alice Archer-Smith\n")
    alice.refresh_from_db()
    assert alice.name == "Alice Archer-Smith"
