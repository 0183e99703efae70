"""export_club / import_club: the whole club as one JSON document, restored with nothing lost.

On PostgreSQL when DATABASE_URL points at it (the suite's database), else on SQLite.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from ratings.models import Member, RatingChange, RatingState
from ratings.services import club_file

from ..factories import MemberFactory


def every_table() -> dict[str, list[dict]]:
    """Every row of every table of the club, as the document writes it."""
    return {
        model._meta.label_lower: list(club_file._rows(model)) for model in club_file.club_models()
    }


def export(path: Path) -> str:
    out = io.StringIO()
    call_command("export_club", str(path), stdout=out)
    return out.getvalue()


def import_(path: Path, *args: str) -> str:
    out = io.StringIO()
    call_command("import_club", str(path), *args, stdout=out)
    return out.getvalue()


def empty_the_database() -> None:
    """As a new database: every table emptied; content types and permissions made again
    (with other ids than before, as in another database)."""
    call_command("flush", interactive=False, verbosity=0)


@pytest.mark.django_db(transaction=True)
def test_the_demo_club_round_trips_with_every_table_equal(tmp_path):
    call_command("load_demo", "--force", stdout=io.StringIO())
    before = every_table()
    path = tmp_path / "club.json"
    assert export(path).startswith("exported: ")
    empty_the_database()
    assert not Member.objects.exists()
    out = import_(path)
    assert "ratings re-derived from" in out and ": equal" in out
    after = every_table()
    assert sorted(after) == sorted(before)
    for label in before:
        assert after[label] == before[label], label
    assert before["ratings.game"] and before["ratings.historicalmember"]


@pytest.mark.django_db(transaction=True)
def test_ratings_re_derived_after_the_import_equal_the_exported(tmp_path):
    call_command("load_demo", "--force", stdout=io.StringIO())
    exported = club_file.ratings_snapshot()
    path = tmp_path / "club.json.gz"  # gzipped, by its name
    export(path)
    empty_the_database()
    import_(path, "--no-check")
    call_command("rerate", stdout=io.StringIO(), stderr=io.StringIO())
    assert club_file.ratings_differences(exported, club_file.ratings_snapshot()) == []
    assert RatingState.objects.count() == len(exported["states"])


@pytest.mark.django_db(transaction=True)
def test_a_database_that_is_not_empty_is_refused_with_what_it_holds(tmp_path):
    MemberFactory()
    path = tmp_path / "club.json"
    export(path)
    with pytest.raises(CommandError) as error:
        import_(path)
    assert "The database is not empty: it holds 1 member, " in str(error.value)
    assert Member.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_ratings_that_do_not_follow_from_the_games_refuse_the_import(tmp_path, rated_event):
    alice, bob = MemberFactory(), MemberFactory()
    rated_event([(1, alice, bob, "1-0")])
    path = tmp_path / "club.json"
    export(path)
    document = json.loads(path.read_text())
    for row in document["tables"]["ratings.ratingchange"]:
        row["fields"]["after"] += 5  # tampered with: not what the games give
    path.write_text(json.dumps(document))
    empty_the_database()
    with pytest.raises(CommandError) as error:
        import_(path)
    assert "differ from the document's" in str(error.value)
    assert not Member.objects.exists() and not RatingChange.objects.exists()


@pytest.mark.django_db
def test_a_file_that_is_not_a_club_document_is_refused(tmp_path):
    path = tmp_path / "club.json"
    path.write_text('{"members": []}')
    with pytest.raises(CommandError, match="Not a club document"):
        import_(path)
    path.write_text("{truncated")
    with pytest.raises(CommandError, match="the JSON cannot be read"):
        import_(path)


@pytest.mark.django_db
@pytest.mark.parametrize("text", ['{"version": ' + "9" * 5000 + "}", "[" * 100_000])
def test_a_document_past_what_the_json_reader_takes_is_refused_with_a_message(tmp_path, text):
    path = tmp_path / "club.json"
    path.write_text(text)
    with pytest.raises(CommandError, match="the JSON cannot be read"):
        import_(path)


@pytest.mark.django_db
def test_a_document_of_another_version_of_the_app_is_refused(tmp_path):
    path = tmp_path / "club.json"
    export(path)
    document = json.loads(path.read_text())
    document["migrations"]["ratings"] = "0099_from_the_future"
    document["tables"]["ratings.member"] = []
    path.write_text(json.dumps(document))
    with pytest.raises(CommandError, match="0099_from_the_future"):
        import_(path)


@pytest.mark.django_db(transaction=True)
def test_rows_that_do_not_hold_together_refuse_the_import(tmp_path, rated_event):
    alice, bob = MemberFactory(), MemberFactory()
    rated_event([(1, alice, bob, "1-0")])
    path = tmp_path / "club.json"
    export(path)
    document = json.loads(path.read_text())
    document["tables"]["ratings.game"][0]["fields"]["white"] = 999_999  # no such member
    path.write_text(json.dumps(document))
    empty_the_database()
    with pytest.raises(CommandError, match=r"rows (do not hold together|cannot be stored)"):
        import_(path, "--no-check")
    assert not Member.objects.exists()
