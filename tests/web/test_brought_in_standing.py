"""A member's standing brought in with a rating is kept in one form whatever the system
(``Member.brought_in``: each word by the name its system declares in the engine), so a
system added in the engine alone brings its own word to the forms, the members file and
the member's page with no change to the record and no migration."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from ratings import services
from ratings.engine import SYSTEMS, BroughtInField
from ratings.engine.nz_club_elo import NzClubElo
from ratings.models import ClubSettings, Member
from ratings.services import member_imports

from ..factories import MemberFactory
from .test_rerate import admin_form

BEFORE = ("ratings", "0045_merge_csvbg")
AFTER = ("ratings", "0046_broughtin_standing")


class Colours(NzClubElo):
    """A system of the tests' own that reads a word with a rating brought in."""

    id = "colours-test"
    title = "Colours (a test's system)"
    brought_in_fields = (
        BroughtInField(
            "colour", "Colour brought in", "Colour", (("red", "Red"), ("blue", "Blue"))
        ),
    )


@pytest.fixture
def colours(monkeypatch, db):  # type: ignore[no-untyped-def]
    monkeypatch.setitem(SYSTEMS, Colours.id, Colours)
    services.rating_system_set(system_id=Colours.id)


def migrated_to(target: tuple[str, str]):  # type: ignore[no-untyped-def]
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    return executor.loader.project_state([target]).apps


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_a_status_and_a_category_in_and_back_out() -> None:
    old = migrated_to(BEFORE).get_model("ratings", "Member")
    old.objects.create(
        member_number="M1",
        name="Ann Both",
        initial_rating=1500,
        initial_games=30,
        initial_acf_status="confirmed",
        initial_ecf_category="partial",
    )
    try:
        moved = migrated_to(AFTER).get_model("ratings", "Member").objects.get()
        assert moved.brought_in == {"category": "partial", "status": "confirmed"}
        back = migrated_to(BEFORE).get_model("ratings", "Member").objects.get()
        assert (back.initial_acf_status, back.initial_ecf_category) == ("confirmed", "partial")
    finally:
        # Back to the app's latest, not to AFTER: the migrations after it (other tables)
        # must be there for the tests this worker runs next.
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes("ratings"))


def test_a_system_added_in_the_engine_has_its_word_asked_on_the_members_form(
    colours, officer_client
):
    page = officer_client.get(reverse("ratings:officer-member-add"))
    field = page.context["form"].fields["brought_in_colour"]
    assert (field.label, [word for word, _ in field.choices]) == (
        "Colour brought in",
        ["", "red", "blue"],
    )


def test_a_system_added_in_the_engine_has_its_word_kept_on_the_record(colours, officer_client):
    data = {
        "name": "Nina",
        "member_number": "N77",
        "initial_rating": "1500",
        "initial_games": 10,
        "brought_in_colour": "blue",
    }
    officer_client.post(reverse("ratings:officer-member-add"), data)
    assert Member.objects.get(member_number="N77").brought_in == {"colour": "blue"}


def test_a_system_added_in_the_engine_has_its_column_read_from_the_members_file(colours):
    rows, problems = member_imports.members_check(
        "id,name,rating,games,colour\nR1,Ana,1450,5,Red\n"
    )
    assert (problems, rows[0].fields["brought_in"]) == ([], {"colour": "red"})


def test_a_word_needs_the_rating_it_describes(colours, officer_client):
    data = {"name": "Nina", "member_number": "N77", "brought_in_colour": "red"}
    page = officer_client.post(reverse("ratings:officer-member-add"), data)
    assert page.context["form"].errors["brought_in_colour"] == [
        "The Colour needs the rating it describes."
    ]


def test_another_systems_word_is_kept_when_the_form_does_not_ask_it(officer_client):
    services.rating_system_set(system_id="ecf-2020")
    member = MemberFactory(
        initial_rating=1500, initial_games=30, brought_in={"status": "confirmed"}
    )
    data = {
        "name": member.name,
        "member_number": member.member_number,
        "initial_rating": "1500",
        "initial_games": 30,
        "brought_in_category": "full",
        "change_reason": "category from the ECF's list",
    }
    data = {f"member-{name}": value for name, value in data.items()}
    officer_client.post(reverse("ratings:officer-member", args=[member.pk]), data)
    member.refresh_from_db()
    assert member.brought_in == {"category": "full", "status": "confirmed"}


def test_the_officers_member_page_shows_the_word_brought_in(officer_client):
    services.rating_system_set(system_id="acf-1993")
    member = MemberFactory(
        initial_rating=1500, initial_games=8, brought_in={"status": "provisional"}
    )
    page = officer_client.get(member.get_absolute_url())
    assert ("ACF status brought in", "Provisional") in page.context["brought_in"]


@pytest.mark.django_db
def test_the_record_refuses_a_word_no_system_reads() -> None:
    member = MemberFactory.build(initial_rating=1500, brought_in={"shoe size": "9"})
    with pytest.raises(Exception, match="No rating system reads"):
        member.full_clean()


def test_the_admin_asks_the_word_of_the_clubs_system_only(admin_client):
    services.rating_system_set(system_id="ecf-2020")
    member = MemberFactory(initial_rating=1500, initial_games=30)
    page = admin_client.get(reverse("admin:ratings_member_change", args=[member.pk]))
    fields = page.context["adminform"].form.fields
    asked = {name for name in fields if name.startswith("brought_in")}
    assert asked == {"brought_in_category"}


def test_the_admin_keeps_the_word_given(admin_client):
    services.rating_system_set(system_id="ecf-2020")
    member = MemberFactory(initial_rating=1500, initial_games=30)
    url = reverse("admin:ratings_member_change", args=[member.pk])
    data = admin_form(admin_client.get(url))
    data.update(brought_in_category="partial", change_reason="category from the ECF's list")
    admin_client.post(url, data)
    member.refresh_from_db()
    assert member.brought_in == {"category": "partial"}


@pytest.mark.django_db
def test_a_system_added_in_the_engine_is_a_choice_of_the_club_with_no_migration(monkeypatch):
    """The choice of system is asked of the engine when checked, not frozen into the
    schema: the club may take the new system, and the migrations see no change."""
    monkeypatch.setitem(SYSTEMS, Colours.id, Colours)
    club = ClubSettings.load()
    club.rating_system = Colours.id
    club.full_clean()
    out = io.StringIO()
    call_command("makemigrations", "ratings", check=True, dry_run=True, stdout=out)
    assert "No changes detected" in out.getvalue()
