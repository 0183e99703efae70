"""import_members FILE.csv: add or update members and their membership this season."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.formats.members_csv import ImportRefused, csv_text
from ratings.services.member_imports import RemovalUnexplained, members_import


class Command(BaseCommand):
    help = (
        "Import members from a CSV file with the header "
        "id,name,born,gender,region,title,fide_id,membership (only id and name required). "
        "A file with any problem is refused whole. A file whose 'arrears' would remove a "
        "payment recorded for this season is refused unless --removal-reason says why."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the CSV file")
        parser.add_argument(
            "--removal-reason",
            default="",
            help="why the payments the file removes are taken back (kept in the audit trail); "
            "required when it removes any",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        data = read_text(self, options["file"])
        try:
            report = members_import(data=data, removal_reason=options["removal_reason"])
        except RemovalUnexplained as refused:
            raise CommandError(
                "The file would remove payments, nothing saved:\n"
                + "\n".join(f"line {r.line}: {r}" for r in refused.removals)
                + '\nRun again with --removal-reason "..." to remove them '
                "(kept in the audit trail)."
            ) from None
        except ImportRefused as refused:
            raise CommandError(str(refused)) from None
        self.stdout.write(self.style.SUCCESS(str(report)))


def read_file(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise CommandError(f"Cannot read {path}: {error.strerror}") from None


def read_text(command: BaseCommand, path: Path) -> str:
    """A CSV file as text (``csv_text``): one not UTF-8 is read as Windows-1252 and the
    command says so, or refused at its line with the fix."""
    read = csv_text(read_file(path))
    if read.problem is not None:
        raise CommandError(f"{path}, {read.problem}")
    if read.notice:
        command.stdout.write(command.style.WARNING(f"{path}: {read.notice}"))
    return read.text
