"""Backing up the whole database to one file, and restoring it into an empty database.

Each database's own tool, not Django's dumpdata: every table comes along as it is (the
audit trail, logins, the task queue, sequences), a million games take seconds, and the
copy is consistent while the site runs.

- SQLite: the online backup API (``sqlite3.Connection.backup``): a page-by-page copy of
  one consistent state, committed writes in the WAL included. Copying the file with
  ``cp`` while the site runs can miss them, or copy a half-written page.
- PostgreSQL: ``pg_dump --format=custom`` (one snapshot of the whole database) and
  ``pg_restore`` in one transaction: a restore that fails leaves the database empty.

A backup is written to a temporary file beside the target and renamed into place when
complete, so a backup stopped halfway never replaces a good one.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from django.db import connection


class BackupError(Exception):
    """A backup or restore that could not be made; the message says why."""


def _temporary_beside(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    os.close(handle)
    return Path(name)


def database_backup(*, path: Path) -> int:
    """Write the whole database to ``path``; return its size in bytes."""
    temporary = _temporary_beside(path)
    try:
        if connection.vendor == "sqlite":
            _sqlite_backup(temporary)
        elif connection.vendor == "postgresql":
            _pg_run(
                "pg_dump", ["--format=custom", f"--file={temporary}"], connection.settings_dict
            )
        else:
            raise BackupError(f"no backup for a {connection.vendor} database")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    return path.stat().st_size


def _sqlite_backup(target: Path) -> None:
    connection.ensure_connection()
    source = connection.connection
    copy = sqlite3.connect(target)
    try:
        with copy:
            source.backup(copy)
        # The copy stands alone: one file, no WAL beside it.
        copy.execute("PRAGMA journal_mode=DELETE")
        if copy.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            raise BackupError("the copy failed SQLite's check: try again")
    finally:
        copy.close()


def database_restore(*, path: Path, settings_dict: dict[str, Any] | None = None) -> None:
    """Restore the backup at ``path`` into the database (by default the site's), which
    must be empty: a restore never merges into, or replaces, a database in use."""
    if not path.is_file():
        raise BackupError(f"{path}: no such backup file")
    settings_dict = settings_dict or connection.settings_dict
    engine = settings_dict["ENGINE"]
    if engine.endswith("sqlite3"):
        _sqlite_restore(path, settings_dict["NAME"])
    elif engine.endswith("postgresql"):
        if _pg_tables(settings_dict):
            raise BackupError(
                f"the database {settings_dict['NAME']!r} is not empty: create a new one "
                "(createdb) and restore into it"
            )
        _pg_run(
            "pg_restore",
            [
                "--no-owner",
                "--no-privileges",
                "--single-transaction",
                "--exit-on-error",
                str(path),
            ],
            settings_dict,
            database_option=True,
        )
    else:
        raise BackupError(f"no restore for {engine}")


def _sqlite_restore(path: Path, target: Path | str) -> None:
    with path.open("rb") as handle:
        if handle.read(16) != b"SQLite format 3\x00":
            raise BackupError(f"{path}: not an SQLite backup")
    copy = _sqlite_connect(target)
    try:
        tables = copy.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if tables:
            raise BackupError(
                f"the database {target} is not empty: move it away (or name a new file in "
                "DATABASE_URL) and restore into the empty one"
            )
        source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            with copy:
                source.backup(copy)
        finally:
            source.close()
    finally:
        copy.close()


def _sqlite_connect(name: Path | str) -> sqlite3.Connection:
    """A plain connection to the database file ``name`` (or the URI Django's tests use)."""
    return sqlite3.connect(str(name), uri=str(name).startswith("file:"))


# -- PostgreSQL's tools --------------------------------------------------------------------


def _pg_environment(settings_dict: dict[str, Any]) -> dict[str, str]:
    """The connection in libpq's variables, so no password appears on a command line."""
    env = dict(os.environ)
    for variable, key in (
        ("PGHOST", "HOST"),
        ("PGPORT", "PORT"),
        ("PGUSER", "USER"),
        ("PGPASSWORD", "PASSWORD"),
        ("PGDATABASE", "NAME"),
    ):
        if settings_dict.get(key):
            env[variable] = str(settings_dict[key])
    return env


def _pg_run(
    tool: str, arguments: list[str], settings_dict: dict[str, Any], database_option: bool = False
) -> None:
    program = shutil.which(tool)
    if program is None:
        raise BackupError(
            f"{tool} not found: install PostgreSQL's client tools of the server's version "
            "(Debian: postgresql-client)"
        )
    if database_option:
        arguments = [f"--dbname={settings_dict['NAME']}", *arguments]
    done = subprocess.run(
        [program, *arguments],
        env=_pg_environment(settings_dict),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise BackupError(f"{tool} failed: {done.stderr.strip() or done.returncode}")


def _pg_tables(settings_dict: dict[str, Any]) -> list[str]:
    # Here, not at the top: a SQLite club's processes never load the PostgreSQL driver.
    import psycopg

    env = _pg_environment(settings_dict)
    with psycopg.connect(
        host=env.get("PGHOST"),
        port=env.get("PGPORT"),
        user=env.get("PGUSER"),
        password=env.get("PGPASSWORD"),
        dbname=settings_dict["NAME"],
    ) as pg:
        rows = pg.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchall()
    return [row[0] for row in rows]
