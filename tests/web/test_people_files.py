"""People once, through the files: a name written surname first without a comma keeps its
order from import to export, and the federation and birth year a file gives are kept."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from ratings.formats import trf
from ratings.formats.trf_export import event_to_trf
from ratings.models import Event, Member

pytestmark = pytest.mark.django_db


def player(rank, name, federation, born, points, opponent, colour, result):
    """A TRF16 player line, column for column (name 15-47, federation 54-56, birth 70-79)."""
    return (
        f"001 {rank:>4}      {name:<33} 1500 {federation:<3} {'':>11} {born:<10} "
        f"{points:>4.1f} {rank:>4}  {opponent:>4} {colour} {result}\n"
    )


@pytest.fixture
def imported(tmp_path):
    text = (
        "012 Club night\n042 2026/03/03\n"
        + player(1, "Mirzoev Azer", "AZE", "1990", 1, "2", "w", "1")
        + player(2, "Garcia, Rosa", "ESP", "1985/04/09", 0, "1", "b", "0")
    )
    path = tmp_path / "club.trf"
    path.write_text(text)
    call_command("import_trf", "--create-missing", str(path), stdout=io.StringIO())
    return Event.objects.get()


def test_a_name_written_surname_first_is_kept_as_the_file_wrote_it(imported):
    assert Member.objects.filter(name="Mirzoev Azer").exists()
    back = trf.parse(event_to_trf(imported).encode())
    assert sorted(p.name for p in back.players) == ["Garcia, Rosa", "Mirzoev Azer"]


def test_a_files_federation_and_birth_year_are_kept_and_written_back(imported):
    azer = Member.objects.get(name="Mirzoev Azer")
    rosa = Member.objects.get(name="Rosa Garcia")
    assert (azer.federation, azer.birth_year, azer.born) == ("AZE", 1990, None)
    assert (rosa.federation, rosa.birth_year, str(rosa.born)) == ("ESP", 1985, "1985-04-09")
    back = {p.name: p for p in trf.parse(event_to_trf(imported).encode()).players}
    assert (back["Mirzoev Azer"].federation, back["Mirzoev Azer"].born_year) == ("AZE", 1990)
    assert (back["Garcia, Rosa"].federation, back["Garcia, Rosa"].born) == ("ESP", "1985/04/09")


def test_a_renamed_member_is_written_with_their_new_name():
    # The file's form is the file's name: once the club corrects it, the club's is written.
    member = Member(name="Azer Mirzoev", name_in_files="Mirzoev Azer")
    assert member.name_for_files == "Mirzoev, Azer"


def test_an_erased_member_keeps_no_trace_of_the_files_name_federation_or_birth(imported):
    from ratings import services

    azer = Member.objects.get(name="Mirzoev Azer")
    services.member_erase(member=azer, reason="asked to be removed", by=None)
    held = " ".join(
        str(value)
        for version in Member.history.filter(id=azer.pk)
        for value in (
            version.name_key,
            version.name_in_files,
            version.federation,
            version.birth_year,
        )
    )
    assert "mirzoev" not in held.casefold() and "AZE" not in held and "1990" not in held
