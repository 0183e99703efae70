"""tell_status_changes: mail each consenting member whose rating's status changes within
the next month, once a change. Run daily from cron (docs/commands.md); the
worker sends."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from ratings import services
from ratings.words.counts import count_phrase


class Command(BaseCommand):
    help = (
        "Tell consenting members, once, that their rating's status changes within the next "
        "month (an ecf-2020 rating lapsing, say). Safe to run as often as you like."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--site",
            required=True,
            help="the address the messages' links start with, e.g. https://ratings.ourclub.org",
        )
        parser.add_argument(
            "--today",
            help="the day to tell as of (YYYY-MM-DD; default: today)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        site = str(options["site"])
        if not site.startswith(("https://", "http://")):
            raise CommandError(f"--site: an address starting https:// (got {site!r})")
        today = timezone.localdate()
        if options["today"]:
            try:
                today = dt.date.fromisoformat(options["today"])
            except ValueError:
                raise CommandError(
                    f"--today: a date YYYY-MM-DD (got {options['today']!r})"
                ) from None
        queued = services.status_changes_tell(today=today, site=site)
        self.stdout.write(
            self.style.SUCCESS(f"Queued {count_phrase(queued, 'message')} about a status change.")
        )
