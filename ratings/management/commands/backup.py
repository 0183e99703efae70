"""backup FILE: the whole database in one file (SQLite's backup API, or pg_dump)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.services.backup import BackupError, database_backup


class Command(BaseCommand):
    help = (
        "Back up the whole database to FILE (SQLite: a copy made with its backup API; "
        "PostgreSQL: pg_dump's custom format), consistent while the site runs. "
        "`manage.py restore FILE` puts it back into an empty database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the backup file to write (replaced)")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.monotonic()
        try:
            size = database_backup(path=options["file"])
        except (BackupError, OSError) as error:
            raise CommandError(f"backup failed, nothing written: {error}") from None
        self.stdout.write(
            self.style.SUCCESS(
                f"backed up to {options['file']}: {size / 1e6:.1f} MB in "
                f"{time.monotonic() - started:.1f} s"
            )
        )
