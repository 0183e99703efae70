"""Bringing a club in: members (with their ratings) and results uploaded as CSV, previewed
with every problem by line, saved only when the officer confirms."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from ratings.models import Event, Member, RatingState
from ratings.services import member_imports

from ..factories import MemberFactory, rating_state

pytestmark = pytest.mark.django_db

MEMBERS = (
    "id,name,gender,rating,games,membership\n"
    "R2001,Ana Tuilagi,F,1450,36,financial\n"
    "R2002,Mikhail Petrov,M,2105,240,arrears\n"
)


def upload(client, text, kind="register", name="club.csv"):  # type: ignore[no-untyped-def]
    data = text.encode("utf-8") if isinstance(text, str) else text
    return client.post(
        reverse(f"ratings:officer-import-{kind}"), {"file": SimpleUploadedFile(name, data)}
    )


def preview(client, kind="register"):  # type: ignore[no-untyped-def]
    return client.get(reverse(f"ratings:officer-import-{kind}-preview"))


def confirm(client, kind="register"):  # type: ignore[no-untyped-def]
    return client.post(reverse(f"ratings:officer-import-{kind}-preview"))


def test_an_uploaded_members_file_is_previewed_and_nothing_saved(officer_client):
    response = upload(officer_client, MEMBERS)
    assert response["Location"] == reverse("ratings:officer-import-register-preview")
    page = preview(officer_client).content.decode()
    assert "2 new members" in page
    assert "Mikhail Petrov" in page
    assert not Member.objects.exists()


def test_confirming_adds_the_members_with_the_ratings_they_bring(officer_client):
    upload(officer_client, MEMBERS)
    response = confirm(officer_client)
    assert response["Location"] == reverse("ratings:officer-members")
    ana = Member.objects.get(member_number="R2001")
    assert (ana.initial_rating, ana.initial_games) == (1450, 36)
    assert ana.is_financial_on()
    assert RatingState.objects.get(member=ana).rating == 1450


def test_every_problem_is_listed_by_line_and_there_is_no_confirm(officer_client):
    upload(officer_client, "id,name,rating,games\nR1,Ana,abc,3\nR2,Ben,1500,-2\n")
    response = preview(officer_client)
    page = response.content.decode()
    assert [(p.line, p.column) for p in response.context["problems"]] == [
        (2, "rating"),
        (3, "games"),
    ]
    assert "Nothing has been saved" in page
    assert "Confirm" not in page
    assert confirm(officer_client).status_code == 200
    assert not Member.objects.exists()


def test_the_preview_says_what_an_update_changes(officer_client):
    MemberFactory(member_number="R2002", name="Mikhail Petrov", initial_rating=2000)
    upload(officer_client, MEMBERS)
    page = preview(officer_client).content.decode()
    assert "rating brought in: 2000 → 2105" in page


def test_a_semicolon_separated_file_with_a_bom_is_read(officer_client):
    text = "\ufeffid;name;rating;games\nR1;Ana Tuilagi;1450,5;12\n"
    upload(officer_client, text)
    confirm(officer_client)
    assert Member.objects.get(member_number="R1").initial_rating == 1450.5


def test_a_tab_separated_file_is_read():
    rows, problems = member_imports.members_check("id\tname\tgames\nR1\tAna Tuilagi\t4\n")
    assert problems == []
    assert rows[0].fields == {"name": "Ana Tuilagi", "initial_games": 4}


#: A members file as Excel on Windows saves "CSV (comma delimited)": Windows-1252.
WINDOWS_1252 = "id,name\nR1,Ana Tuilagi\nR2,José Álvarez\nR3,Zoë O’Neill\n".encode("cp1252")


def test_a_windows_1252_file_is_read_as_that_and_the_preview_says_so(officer_client):
    upload(officer_client, WINDOWS_1252)
    page = preview(officer_client).content.decode()
    assert "read as Windows-1252" in page
    assert "on line 3, column 7: “R2,José Álvarez”" in page
    assert "CSV UTF-8 (comma delimited)" in page  # the fix, should the names read wrong
    confirm(officer_client)
    names = dict(Member.objects.values_list("member_number", "name"))
    assert names == {"R1": "Ana Tuilagi", "R2": "José Álvarez", "R3": "Zoë O’Neill"}


def test_a_file_neither_utf8_nor_windows_1252_is_refused_at_its_line_with_the_fix(
    officer_client,
):
    # Line 2 in UTF-8, line 3 in Windows-1252: no one reading gives both names right.
    data = "id,name\nR1,Zoë Ng\n".encode() + "R2,José Álvarez\n".encode("cp1252")
    response = upload(officer_client, data)
    error = response.context["form"].errors["file"][0]
    assert error.startswith("Line 3: the file is not UTF-8 text: column 7 holds the byte 0xE9")
    assert "save the file as UTF-8 (in Excel: “CSV UTF-8 (comma delimited)”)" in error
    assert not Member.objects.exists()


def test_an_acf_status_is_brought_in_and_used(officer_client, club):
    club.rating_system = "acf-1993"
    club.save()
    upload(officer_client, "id,name,rating,games,acf_status\nR1,Ana,1450,5,confirmed\n")
    confirm(officer_client)
    state = RatingState.objects.get(member__member_number="R1")
    assert state.state["status"] == "confirmed"


def test_an_ecf_category_is_brought_in_and_used(club):
    club.rating_system = "ecf-2020"
    club.save()
    member_imports.members_import(
        data="id,name,rating,games,ecf_category\nR1,Ana,1450,30,partial\n"
    )
    state = RatingState.objects.get(member__member_number="R1")
    assert state.state["category"] == "partial"


def test_a_status_without_a_rating_is_refused_at_its_column():
    _, problems = member_imports.members_check("id,name,rating,acf_status\nR1,Ana,,confirmed\n")
    assert [str(p) for p in problems] == [
        "line 2, acf_status: The ACF status needs the rating it describes."
    ]


def test_an_unknown_status_is_refused_naming_the_allowed_ones():
    _, problems = member_imports.members_check("id,name,rating,ecf_category\nR1,Ana,1400,ful\n")
    assert str(problems[0]) == "line 2, ecf_category: 'ful' is not one of full, partial"


def test_a_rating_out_of_bounds_is_refused():
    _, problems = member_imports.members_check("id,name,rating\nR1,Ana,15000\n")
    assert str(problems[0]) == "line 2, rating: 15000 is not a rating (0 to 3500)"


def test_a_changed_rating_of_a_rated_member_re_rates(rated_event, alice, bob):
    rated_event([(1, alice, bob, "1-0")])
    before = RatingState.objects.get(member=alice).rating
    report = member_imports.members_import(data="id,name,rating,games\nA1,Alice Archer,2000,50\n")
    assert report.run is not None
    assert RatingState.objects.get(member=alice).rating > before


RESULTS = (
    "event,date,round,white,black,result\n"
    "Club night,2026-03-03,1,a1,B2,1-0\n"
    "Club night,2026-03-03,1,C3,,bye\n"
)


def test_an_uploaded_results_file_is_previewed_then_imported_and_rated(
    officer_client, alice, bob, carol
):
    upload(officer_client, RESULTS, kind="results")
    page = preview(officer_client, kind="results").content.decode()
    assert "Club night" in page
    assert not Event.objects.exists()
    response = confirm(officer_client, kind="results")
    assert response["Location"] == reverse("ratings:officer-events")
    event = Event.objects.get()
    assert event.games.count() == 2
    assert alice.rating_changes.exists()


def test_a_results_file_with_an_unknown_member_is_refused_by_line(officer_client, alice):
    upload(officer_client, RESULTS, kind="results")
    problems = preview(officer_client, kind="results").context["problems"]
    assert [str(p) for p in problems] == [
        "line 2, black: no member has the id 'B2'",
        "line 3, white: no member has the id 'C3'",
    ]


def test_the_preview_without_an_upload_sends_back_to_the_upload(officer_client):
    response = preview(officer_client)
    assert response["Location"] == reverse("ratings:officer-import-register")


def test_a_members_page_is_found_by_its_number_in_any_case(client, alice):
    rating_state(alice, rating=1500)
    response = client.get("/members/a1/")
    assert response.status_code == 301
    assert response["Location"] == alice.get_absolute_url()
