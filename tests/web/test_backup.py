"""Backup and restore: the demo club through `manage.py backup` and `restore` into an empty
database, every table compared row by row (the audit trail, logins and sequences too)."""

from __future__ import annotations

import sqlite3
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from ratings.models import Game, Member
from ratings.services.backup import BackupError, database_restore

pytestmark = pytest.mark.django_db(transaction=True)


def _quiet(*args: Any) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def _rows(cursor: Any, tables: list[str], quote: str = '"') -> dict[str, list[str]]:
    """Every table's rows, as text, sorted (the order a database returns rows in is its own)."""
    out = {}
    for table in tables:
        cursor.execute(f"SELECT * FROM {quote}{table}{quote}")
        out[table] = sorted(repr(row) for row in cursor.fetchall())
    return out


def _sqlite_tables(db: Any) -> list[str]:
    rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    return [row[0] for row in rows]


@pytest.fixture
def demo_club(db):  # type: ignore[no-untyped-def]
    _quiet("load_demo", "--force")
    assert Member.objects.count() > 50 and Game.objects.count() > 500


def test_the_demo_club_restored_from_a_backup_is_the_same_table_by_table(  # type: ignore[no-untyped-def]
    demo_club, tmp_path
) -> None:
    backup = tmp_path / "club.backup"
    assert "backed up to" in _quiet("backup", str(backup))
    if connection.vendor == "sqlite":
        restored = tmp_path / "restored.sqlite3"
        database_restore(path=backup, settings_dict={**connection.settings_dict, "NAME": restored})
        source = connection.connection
        # Read as Django reads the original: its converters (dates, times) for both.
        copy = sqlite3.connect(
            restored, detect_types=sqlite3.PARSE_DECLTYPES | sqlite3.PARSE_COLNAMES
        )
        tables = _sqlite_tables(source)
        assert _sqlite_tables(copy) == tables
        assert "ratings_historicalgame" in tables and "auth_user" in tables
        original = _rows(source.cursor(), tables)
        assert _rows(copy.cursor(), tables) == original
        copy.close()
    else:
        _postgres_round_trip(backup)


def _postgres_round_trip(backup: Path) -> None:
    import psycopg

    settings = connection.settings_dict
    name = f"{settings['NAME']}_restored"
    params = {
        "host": settings.get("HOST") or None,
        "port": settings.get("PORT") or None,
        "user": settings.get("USER") or None,
        "password": settings.get("PASSWORD") or None,
    }
    with psycopg.connect(dbname=settings["NAME"], autocommit=True, **params) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        database_restore(path=backup, settings_dict={**settings, "NAME": name})
        query = (
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = 'public' ORDER BY table_name"
        )
        sequences = "SELECT sequencename, last_value FROM pg_sequences ORDER BY 1"
        with (
            psycopg.connect(dbname=settings["NAME"], **params) as one,
            psycopg.connect(dbname=name, **params) as two,
        ):
            tables = [r[0] for r in one.execute(query).fetchall()]
            assert [r[0] for r in two.execute(query).fetchall()] == tables
            assert "ratings_historicalgame" in tables and "auth_user" in tables
            assert _rows(two.cursor(), tables) == _rows(one.cursor(), tables)
            assert two.execute(sequences).fetchall() == one.execute(sequences).fetchall()
    finally:
        with psycopg.connect(dbname=settings["NAME"], autocommit=True, **params) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}"')


def test_a_restore_into_a_database_in_use_is_refused(demo_club, tmp_path) -> None:  # type: ignore[no-untyped-def]
    backup = tmp_path / "club.backup"
    _quiet("backup", str(backup))
    members = Member.objects.count()
    with pytest.raises(CommandError, match="not empty"):
        _quiet("restore", str(backup))
    assert Member.objects.count() == members


def test_a_restore_of_a_file_that_is_no_backup_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bogus = tmp_path / "notes.txt"
    bogus.write_text("not a backup")
    target = tmp_path / "empty.sqlite3"
    settings = {"ENGINE": "django.db.backends.sqlite3", "NAME": target}
    with pytest.raises(BackupError, match="not an SQLite backup"):
        database_restore(path=bogus, settings_dict=settings)


def test_a_backup_that_cannot_be_written_leaves_the_old_one(tmp_path, monkeypatch, db) -> None:  # type: ignore[no-untyped-def]
    backup = tmp_path / "club.backup"
    backup.write_bytes(b"yesterday's backup")

    def broken(*args: Any, **kwargs: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("ratings.services.backup._sqlite_backup", broken)
    monkeypatch.setattr("ratings.services.backup._pg_run", broken)
    with pytest.raises(CommandError, match="disk full"):
        _quiet("backup", str(backup))
    assert backup.read_bytes() == b"yesterday's backup"
    assert [p.name for p in tmp_path.iterdir()] == ["club.backup"]
