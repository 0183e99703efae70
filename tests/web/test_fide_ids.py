"""One FIDE id, one member: matched by it first, held by one member, never given to two."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction

from ratings.formats import trf
from ratings.models import Member
from ratings.services.member_imports import members_check

from ..factories import MemberFactory

pytestmark = pytest.mark.django_db

HEADER = "012 Eastvale Cup\n042 2025/10/07\n"


def player(rank: int, name: str, fide_id: str, rounds: str) -> str:
    """A TRF16 player line, each field in its columns (rank 5-8, name 15-47, rating 49-52,
    FIDE id 58-68, points 81-84, rank 86-89, the rounds from 92)."""
    fields = f"001 {rank:>4}      {name:<33} 1800     {fide_id:>11} {'':10}  1.0 {rank:>4}"
    return f"{fields}  {rounds}"


def trf_file(tmp_path, name: str, *lines: str) -> str:
    path = tmp_path / name
    path.write_text(HEADER + "\n".join(lines) + "\n")
    return str(path)


def run(command: str, *args: str) -> str:
    out = io.StringIO()
    call_command(command, *args, stdout=out)
    return out.getvalue()


def test_the_database_holds_one_member_to_a_fide_id():
    MemberFactory(fide_id="4100018")
    with pytest.raises(IntegrityError), transaction.atomic():
        MemberFactory(fide_id="4100018")


def test_members_without_an_id_and_merged_duplicates_do_not_count():
    kept = MemberFactory(fide_id="4100018")
    MemberFactory(fide_id="4100018", merged_into=kept)
    MemberFactory(fide_id="")
    MemberFactory(fide_id="")
    assert Member.objects.filter(fide_id="4100018").count() == 2


def test_the_member_form_says_the_id_is_taken():
    MemberFactory(fide_id="4100018")
    with pytest.raises(ValidationError, match="Another member has this FIDE id"):
        Member(member_number="X9", name="Other", fide_id="4100018").full_clean()


def test_a_trf_file_giving_one_id_to_two_names_is_refused_naming_both(tmp_path):
    path = trf_file(
        tmp_path,
        "twice.trf",
        player(1, "Kasparov, Garry", "4100018", "   2 w 1"),
        player(2, "Kasparov, Gary", "4100018", "   1 b 0"),
    )
    with pytest.raises(
        trf.TrfError, match="Kasparov, Gary has FIDE id 4100018, as has Kasparov, Garry"
    ):
        trf.parse(Path(path).read_bytes())
    with pytest.raises(CommandError, match="one FIDE id is one person"):
        run("import_trf", "--create-missing", path)
    assert not Member.objects.exists()


def test_a_pgn_file_giving_one_id_to_two_names_is_refused_naming_both(tmp_path):
    path = tmp_path / "twice.pgn"
    games = []
    for number, (white, black) in enumerate(
        [("Smith, Ann", "Jones, Bo"), ("Jones, Bo", "Smith, Anne")], start=1
    ):
        games.append(
            f'[Event "Eastvale Cup"]\n[Site "Eastvale"]\n[Date "2025.10.0{number}"]\n'
            f'[Round "{number}"]\n[White "{white}"]\n[Black "{black}"]\n[Result "1-0"]\n'
            f'[WhiteFideId "{"501" if "Smith" in white else ""}"]\n'
            f'[BlackFideId "{"501" if "Smith" in black else ""}"]\n\n1-0\n'
        )
    path.write_text("\n".join(games))
    with pytest.raises(CommandError) as error:
        run("import_pgn", "--create-missing", str(path))
    assert "Smith, Anne has FIDE id 501, as has Smith, Ann (game 1)" in str(error.value)
    assert not Member.objects.exists()


def test_a_file_player_is_matched_by_fide_id_before_their_name(tmp_path):
    garry = MemberFactory(name="Garry Kasparov", fide_id="4100018")
    MemberFactory(name="Anatoly Karpov")
    path = trf_file(
        tmp_path,
        "ids.trf",
        player(1, "Kasparov, G.", "4100018", "   2 w 1"),
        player(2, "Karpov, Anatoly", "", "   1 b 0"),
    )
    run("import_trf", path)
    assert garry.games_as_white.count() == 1
    assert Member.objects.count() == 2


def test_a_player_new_in_two_files_under_two_spellings_is_one_member_by_fide_id(tmp_path):
    first = trf_file(
        tmp_path,
        "a.trf",
        player(1, "Kasparov, Garry", "4100018", "   2 w 1"),
        player(2, "Karpov, Anatoly", "", "   1 b 0"),
    )
    second = tmp_path / "b.trf"
    second.write_text(
        "012 Westvale Cup\n042 2025/11/07\n"
        + player(1, "KASPAROV Garri", "4100018", "   2 w 1")
        + "\n"
        + player(2, "Karpov, Anatoly", "", "   1 b 0")
        + "\n"
    )
    run("import_trf", "--create-missing", first, str(second))
    assert Member.objects.get(fide_id="4100018").name == "Garry Kasparov"
    assert Member.objects.count() == 2


def test_a_members_file_cannot_give_one_id_twice_or_a_held_one():
    MemberFactory(member_number="A1", name="Garry Kasparov", fide_id="4100018")
    _rows, problems = members_check(
        "id,name,fide_id\nB1,Anatoly Karpov,4100100\nB2,Anatoly Karpov,4100100\n"
        "B3,Gary Kasparov,4100018\n"
    )
    said = [(p.line, p.column, p.message) for p in problems]
    assert said == [
        (3, "fide_id", "4100100 is also on line 2"),
        (4, "fide_id", "4100018 is the FIDE id of Garry Kasparov (A1)"),
    ]


def test_the_migration_stops_on_members_already_sharing_an_id_and_names_them():
    from importlib import import_module

    from django.apps import apps
    from django.db import connection

    migration = import_module("ratings.migrations.0024_files_fide_id_one_member")
    with connection.cursor() as cursor:  # the database as it was before the constraint
        cursor.execute("DROP INDEX fide_id_one_member")
    MemberFactory(member_number="A1", name="Garry Kasparov", fide_id="4100018")
    MemberFactory(member_number="A2", name="Gary Kasparov", fide_id="4100018")
    MemberFactory(member_number="B1", name="Anatoly Karpov", fide_id="4100100")
    with pytest.raises(RuntimeError) as stopped:
        migration.refuse_duplicates(apps, None)
    assert str(stopped.value).endswith("FIDE id 4100018: Garry Kasparov (A1), Gary Kasparov (A2)")
    assert "Karpov" not in str(stopped.value)


def test_the_web_import_will_not_make_a_new_member_of_a_held_id(officer_client):
    from .test_officer_import import GROS, confirm, upload

    MemberFactory(member_number="A1", name="Azer Mirzoev", fide_id="13400304")
    upload(officer_client, GROS)
    response = confirm(officer_client, p1="new")
    assert response.status_code == 200
    assert response.context["form"].errors["p1"] == [
        "Line 14: Mirzoev Azer's FIDE id 13400304 is Azer Mirzoev's (A1): one FIDE id is "
        "one person. Choose that member, or correct the id in the file."
    ]
    assert Member.objects.count() == 1
