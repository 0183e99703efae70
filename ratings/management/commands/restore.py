"""restore FILE: a backup put back into the (empty) database DATABASE_URL names."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.services.backup import BackupError, database_restore


class Command(BaseCommand):
    help = (
        "Restore a backup made by `manage.py backup` into the database DATABASE_URL names, "
        "which must be empty (a new SQLite file, or a database made with createdb). "
        "Then run `manage.py migrate` if the code is newer than the backup."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the backup file")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.monotonic()
        try:
            database_restore(path=options["file"])
        except (BackupError, OSError) as error:
            raise CommandError(f"restore failed: {error}") from None
        self.stdout.write(
            self.style.SUCCESS(f"restored {options['file']} in {time.monotonic() - started:.1f} s")
        )
