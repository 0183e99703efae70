"""A rating brought in is kept or refused, never dropped: on every form and file that takes
one, under every system. A system that reads the games behind a rating (acf-1993: its
status; ecf-2020: its category) would start a bare figure's player as new, so each form
asks for the games (and the system's standing word) and refuses a bare figure at its
field, naming what is missing; the other systems keep the figure as it is."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from ratings import services
from ratings.engine import SYSTEMS
from ratings.models import Member, RatingState

from ..factories import EventFactory
from .test_officer_import import CLUB_NIGHT
from .test_rerate import admin_form

pytestmark = pytest.mark.django_db

#: What each system says a bare figure (no games) lacks; None: it keeps the figure.
MISSING = {
    "acf-1993": "the games played before it (or the status “confirmed”)",
    "ecf-2020": "the games played before it",
    "glicko-2": None,
    "nscl": None,
    "nz-club-elo": None,
    "st-charles": None,
}


@pytest.fixture(params=sorted(SYSTEMS))
def system(request) -> str:  # type: ignore[no-untyped-def]
    services.rating_system_set(system_id=request.param)
    return str(request.param)


def kept(number: str) -> bool:
    """Whether the member numbered ``number`` starts from the 1500 they brought in: their
    state holds it and shows it (ecf-2020 holds a figure without a category, unshown)."""
    member = Member.objects.get(member_number=number)
    state = RatingState.objects.get(member=member)
    return member.initial_rating == 1500 and state.rating == 1500 and state.display != ""


def refused_naming_what_is_missing(errors: list[str], system: str) -> bool:
    return any(MISSING[system] in e and "leave the rating blank" in e for e in errors)


def test_every_system_is_named_here():
    assert set(MISSING) == set(SYSTEMS)


# -- the member's form ---------------------------------------------------------------------


def test_the_member_form_keeps_a_bare_figure_or_refuses_it_naming_what_is_missing(
    officer_client, system
):
    data = {"name": "Nina", "member_number": "N77", "initial_rating": "1500", "initial_games": 0}
    response = officer_client.post(reverse("ratings:officer-member-add"), data)
    if MISSING[system] is None:
        assert kept("N77")
    else:
        errors = response.context["form"].errors["initial_rating"]
        assert refused_naming_what_is_missing(errors, system)
        assert not Member.objects.filter(member_number="N77").exists()


def test_the_member_form_keeps_a_figure_with_its_games_under_every_system(officer_client, system):
    data = {"name": "Nina", "member_number": "N77", "initial_rating": "1500", "initial_games": 40}
    officer_client.post(reverse("ratings:officer-member-add"), data)
    assert kept("N77")


def test_the_member_form_keeps_an_acf_confirmed_rating_without_games(officer_client):
    services.rating_system_set(system_id="acf-1993")
    data = {
        "name": "Nina",
        "member_number": "N77",
        "initial_rating": "1500",
        "initial_games": 0,
        "brought_in_status": "confirmed",
    }
    officer_client.post(reverse("ratings:officer-member-add"), data)
    assert kept("N77")


# -- the event's "Someone new tonight?" ------------------------------------------------------


def quick_add(client, event, **fields):  # type: ignore[no-untyped-def]
    data = {"quick-name": "Nina Newcomer", "quick-member_number": "N77"}
    data.update({f"quick-{name}": value for name, value in fields.items()})
    return client.post(reverse("ratings:officer-event-players", args=[event.pk]), data)


def test_someone_new_tonight_asks_for_the_games_where_the_system_reads_them(
    officer_client, system
):
    event = EventFactory()
    page = officer_client.get(reverse("ratings:officer-event-players", args=[event.pk]))
    fields = page.context["quick"].fields
    assert ("initial_games" in fields) == (MISSING[system] is not None)


def test_someone_new_tonight_asks_for_the_systems_standing_word(officer_client, system):
    event = EventFactory()
    page = officer_client.get(reverse("ratings:officer-event-players", args=[event.pk]))
    fields = page.context["quick"].fields
    asked = {"brought_in_status", "brought_in_category"} & set(fields)
    expected = {"acf-1993": {"brought_in_status"}, "ecf-2020": {"brought_in_category"}}
    assert asked == expected.get(system, set())


def test_someone_new_tonight_keeps_a_bare_figure_or_refuses_it_naming_what_is_missing(
    officer_client, system
):
    event = EventFactory()
    response = quick_add(officer_client, event, initial_rating="1500")
    if MISSING[system] is None:
        assert kept("N77")
    else:
        errors = response.context["quick"].errors["initial_rating"]
        assert refused_naming_what_is_missing(errors, system)
        assert not Member.objects.filter(member_number="N77").exists()


def test_someone_new_tonight_keeps_a_figure_with_its_games_under_every_system(
    officer_client, system
):
    quick_add(officer_client, EventFactory(), initial_rating="1500", initial_games="40")
    assert kept("N77")


# -- the members file ------------------------------------------------------------------------


def test_the_members_file_refuses_a_bare_figure_at_its_line_naming_the_column(
    officer_client, system
):
    officer_client.post(
        reverse("ratings:officer-import-register"),
        {"file": SimpleUploadedFile("m.csv", b"id,name,rating\nN77,Nina Newcomer,1500\n")},
    )
    page = officer_client.get(reverse("ratings:officer-import-register-preview"))
    problems = [str(p) for p in page.context["problems"] or []]
    if MISSING[system] is None:
        assert problems == []
    else:
        assert any(p.startswith("line 2, rating:") and MISSING[system] in p for p in problems)
        assert any("In the file: games" in p for p in problems)


def test_import_members_refuses_a_bare_figure_it_would_drop(tmp_path, system):
    path = tmp_path / "m.csv"
    path.write_text("id,name,rating\nN77,Nina Newcomer,1500\n", encoding="utf-8")
    if MISSING[system] is None:
        call_command("import_members", str(path), stdout=io.StringIO())
        assert kept("N77")
    else:
        with pytest.raises(CommandError) as error:
            call_command("import_members", str(path), stdout=io.StringIO())
        assert MISSING[system] in str(error.value)
        assert not Member.objects.exists()


def test_the_members_file_counts_the_games_already_recorded(officer_client):
    """A file that sets only the rating of a member whose games are recorded keeps it."""
    services.rating_system_set(system_id="acf-1993")
    Member.objects.create(member_number="N77", name="Nina Newcomer", initial_games=40)
    officer_client.post(
        reverse("ratings:officer-import-register"),
        {"file": SimpleUploadedFile("m.csv", b"id,name,rating\nN77,Nina Newcomer,1500\n")},
    )
    page = officer_client.get(reverse("ratings:officer-import-register-preview"))
    assert not page.context["problems"]


# -- the admin -------------------------------------------------------------------------------


def test_the_admin_keeps_a_bare_figure_or_refuses_it_naming_what_is_missing(admin_client, system):
    url = reverse("admin:ratings_member_add")
    data = admin_form(admin_client.get(url))
    data.update(member_number="N77", name="Nina Newcomer", initial_rating="1500", initial_games=0)
    response = admin_client.post(url, data)
    if MISSING[system] is None:
        assert kept("N77")
    else:
        errors = response.context["adminform"].form.errors["initial_rating"]
        assert refused_naming_what_is_missing(errors, system)
        assert not Member.objects.filter(member_number="N77").exists()


# -- a tournament file's new players ---------------------------------------------------------


def trf_confirmed(client, **choices):  # type: ignore[no-untyped-def]
    """The club night's file imported, its two players new, from the file's ratings."""
    client.post(
        reverse("ratings:officer-import"), {"file": SimpleUploadedFile("c.trf", CLUB_NIGHT)}
    )
    preview = client.get(reverse("ratings:officer-import-preview"))
    form = preview.context["form"]
    data = {name: form[name].value() for name in form.fields}
    data.update(rated="on", p1="new", p2="new", use_ratings="on", **choices)
    data = {k: v for k, v in data.items() if v is not None}
    return client.post(reverse("ratings:officer-import-preview"), data)


def test_a_tournament_files_ratings_are_kept_or_refused_naming_what_is_missing(
    officer_client, system
):
    response = trf_confirmed(officer_client)
    if MISSING[system] is None:
        assert Member.objects.get(name="John Smith").initial_rating == 1500
    else:
        errors = response.context["form"].errors["ratings_games"]
        assert any(MISSING[system] in e for e in errors)
        assert not Member.objects.exists()


def test_a_tournament_files_ratings_start_with_the_games_the_officer_gives(officer_client, system):
    trf_confirmed(officer_client, ratings_games="40")
    john = Member.objects.get(name="John Smith")
    # Asked only where the system reads them; elsewhere the figure stands alone.
    games = 40 if MISSING[system] else 0
    assert (john.initial_rating, john.initial_games) == (1500, games)


def import_trf(tmp_path, *args: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "club.trf"
    path.write_bytes(CLUB_NIGHT)
    call_command("import_trf", str(path), "--create-missing", *args, stdout=io.StringIO())


def test_import_trf_keeps_a_files_rating_or_refuses_it_naming_what_is_missing(tmp_path, system):
    if MISSING[system] is None:
        import_trf(tmp_path)
        assert Member.objects.get(name="John Smith").initial_rating == 1500
    else:
        with pytest.raises(CommandError) as error:
            import_trf(tmp_path)
        assert MISSING[system] in str(error.value)
        assert "--ratings-games" in str(error.value)
        assert not Member.objects.exists()


def test_import_trf_starts_a_files_rating_with_the_games_given(tmp_path, system):
    import_trf(tmp_path, "--ratings-games=40")
    john = Member.objects.get(name="John Smith")
    assert (john.initial_rating, john.initial_games) == (1500, 40)


# -- the calculator's typed rating -----------------------------------------------------------


def test_the_calculator_works_from_a_typed_rating_or_refuses_it_naming_what_is_missing(
    client, system
):
    data = {"go": "1", "g-TOTAL_FORMS": 1, "g-INITIAL_FORMS": 0, "p-rating": 1500, "p-games": 0}
    data.update({"g-0-rating": 1500, "g-0-result": "1"})
    response = client.get(reverse("ratings:calculator"), data)
    errors = response.context["player_form"].errors.get("games", [])
    if MISSING[system] is None:
        assert errors == []
    else:
        assert any(MISSING[system] in e for e in errors)


def test_someone_new_tonight_without_a_rating_needs_no_games(officer_client, system):
    quick_add(officer_client, EventFactory())
    nina = Member.objects.get(member_number="N77")
    assert (nina.initial_rating, nina.initial_games) == (None, 0)
