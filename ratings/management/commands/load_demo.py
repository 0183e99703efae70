"""Fill an empty database with the demo club (``ratings/demo/club.py``): only the demo's
own database (DEMO_DATABASE_URL) unless forced, never one holding a club's record."""

from __future__ import annotations

import random
import time
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from ratings.demo.club import (
    ADMIN,
    CLUB_NAME,
    OFFICER,
    SEED,
    DemoClub,
    club_record_held,
    demo_logins_create,
    holds_the_demo,
    is_demo_database,
)
from ratings.engine import DEFAULT_SYSTEM, SYSTEMS


class Command(BaseCommand):
    help = "Load the demo club (Riverside Chess Club) into an empty database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="Do nothing (but print the logins) when the database already has members.",
        )
        parser.add_argument(
            "--force",
            action="store_true",
            help="Load the demo into an empty database that is not the demo's own "
            "(DEMO_DATABASE_URL), e.g. a test's.",
        )
        parser.add_argument(
            "--system",
            default=DEFAULT_SYSTEM,
            choices=sorted(SYSTEMS),
            help=f"The rating system the demo club uses (default {DEFAULT_SYSTEM}).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        is_demos = is_demo_database()
        if not is_demos and not options["force"]:
            raise CommandError(
                "This database is not the demo's (DEMO_DATABASE_URL, demo.sqlite3 by "
                "default): load_demo fills only the demo's own database, so the demo's "
                "members and logins never land in a real club's. `make run` serves the "
                "demo; pass --force to load it into this (empty) database anyway."
            )
        held = club_record_held()
        if held:
            if options["if_empty"] and is_demos and holds_the_demo():
                self.stdout.write(
                    "The demo database already holds the demo club: not loaded again."
                )
                self.print_logins()
                return
            raise CommandError(
                f"The database already holds {held}: load_demo only fills an empty one "
                "(start the demo afresh with `make clean`)."
            )
        clock = time.perf_counter()
        with transaction.atomic():
            demo = DemoClub(random.Random(SEED), timezone.localdate(), options["system"])
            demo.build()
            demo_logins_create()
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded {CLUB_NAME}: {demo.counts['members']} members "
                f"({demo.counts['arrears']} in arrears, {demo.counts['guests']} guests), "
                f"{demo.counts['events']} events, {demo.counts['games']} games, "
                f"{demo.counts['publications']} lists published, "
                f"rated with {options['system']} in {time.perf_counter() - clock:.1f}s."
            )
        )
        self.print_logins()

    def print_logins(self) -> None:
        # The passwords printed are the ones load_demo set; a changed one stays changed.
        for role, (username, password) in (("Ratings officer", OFFICER), ("Admin", ADMIN)):
            if User.objects.filter(username=username).exists():
                self.stdout.write(f"{role} login: {username} / {password}")
