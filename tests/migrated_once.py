"""The SQLite test database migrated once and copied, not migrated again by every process.

Building the test database runs every migration (Django's, the libraries', the club's 40
and more): about 8 s of CPU on a quiet machine, 20 to 90 s beside other runs, and each
pytest-xdist worker did it again for its own database. The migrations are the deployed
clubs' and stay as they are; only their result is kept. The first process to need it
migrates as usual and keeps a copy of the result (a file in pytest's cache, named by a
digest of every migration file, Django's version and SQLite's); every other process, in
this run or a later one, makes its database from the copy (SQLite's backup), which takes
a fraction of a second. A changed or added migration changes the digest, so a stale copy
is never used.

PostgreSQL (and a file named in TEST["NAME"], and --reuse-db, --nomigrations) keep
Django's own way: each worker migrates its own database.

The same copy serves the tests whose child processes (a server, a worker, a command)
open a SQLite club file of their own by its URL (``kept_copy``): each ran
``manage.py migrate`` on an empty file, 7 s of CPU or more a test.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import sqlite3
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any


def applies(connection: Any) -> bool:
    """Whether the test database is SQLite in memory (the default for the tests)."""
    creation = connection.creation
    return connection.vendor == "sqlite" and creation.is_in_memory_db(creation._get_test_db_name())


def digest_of_the_migrations() -> str:
    """Names the migrated database: every migration module's file, in order, and the
    versions that turn them into tables."""
    import django
    from django.db.migrations.loader import MigrationLoader

    loader = MigrationLoader(None, ignore_no_migrations=True)
    digest = hashlib.sha256(f"{django.__version__} {sqlite3.sqlite_version}".encode())
    for key in sorted(loader.disk_migrations):
        module = sys.modules[type(loader.disk_migrations[key]).__module__]
        digest.update(repr(key).encode())
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()[:16]


#: The folder in pytest's cache that keeps the migrated database.
FOLDER = "migrated-test-database"


def kept(folder: Path) -> Path:
    """The migrated database for the migrations as they stand, in ``folder``."""
    return folder / f"migrated-{digest_of_the_migrations()}.sqlite3"


def kept_copy(folder: Path, target: Path) -> bool:
    """Copy the migrated database kept in ``folder`` to the file ``target``; whether
    there was one (a run that has not yet built its test database has none). The copy
    is the whole file, as ``manage.py migrate`` leaves it but for the migrations'
    timestamps; the app's connections turn it to WAL, as they do a migrated file."""
    try:
        # The kept file is put in place whole (os.replace) and never written again.
        shutil.copyfile(kept(folder), target)
    except FileNotFoundError:
        return False
    return True


def create_from_copy(
    connection: Any, create_test_db: Callable[..., str], folder: Path
) -> Callable[..., str]:
    """``create_test_db`` made to copy the migrated database kept in ``folder`` when
    there is one, and to keep a copy when it has to migrate."""

    def create(*args: Any, **kwargs: Any) -> str:
        from django.contrib.contenttypes.models import ContentType

        folder.mkdir(parents=True, exist_ok=True)
        kept_file = kept(folder)
        # One process migrates while the others wait for its copy, rather than all
        # migrating at once on a fresh clone.
        with open(folder / "migrating.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not kept_file.exists():
                name = create_test_db(*args, **kwargs)
                partial = kept_file.with_name(f"{kept_file.name}.{os.getpid()}.partial")
                with closing(sqlite3.connect(partial)) as target:
                    connection.connection.backup(target)
                os.replace(partial, kept_file)
                for older in folder.glob("migrated-*.sqlite3"):
                    if older != kept_file:  # made by migrations since changed
                        older.unlink(missing_ok=True)
                return name
            # The tables made from the models without migrations (a fraction of a
            # second), then replaced, whole, by the migrated copy: its data migrations'
            # rows, its content types and permissions, its migration records.
            test_settings = connection.settings_dict["TEST"]
            migrate = test_settings.get("MIGRATE", True)
            test_settings["MIGRATE"] = False
            try:
                name = create_test_db(*args, **kwargs)
            finally:
                test_settings["MIGRATE"] = migrate
            with closing(sqlite3.connect(kept_file)) as source:
                source.backup(connection.connection)
        # The content types cached while the throwaway tables were made have other ids.
        ContentType.objects.clear_cache()
        return name

    return create
