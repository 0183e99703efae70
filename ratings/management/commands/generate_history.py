"""generate_history: fill an empty database with a big, made-up club history, fast, for
measuring (``ratings/histories/generated.py`` draws and writes it)."""

from __future__ import annotations

import argparse
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings import services
from ratings.histories.generated import DEFAULT_SEED, generate
from ratings.models import ClubSettings, Member
from ratings.services.list_figures import list_figures_refresh


class Command(BaseCommand):
    help = (
        "Fill an empty database with a generated club history (members, seasons, "
        "subscriptions, Swiss events and their games) for measuring; bulk inserts."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--members", type=int, default=20_000, help="default 20,000")
        parser.add_argument("--games", type=int, default=1_000_000, help="default 1,000,000")
        parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
        parser.add_argument(
            "--rate",
            action=argparse.BooleanOptionalAction,
            default=True,
            help="Rate the whole history at the end (default; --no-rate leaves it unrated).",
        )
        parser.add_argument(
            "--force",
            action="store_true",
            help="Wipe the club's record (members, events, games, ratings) first.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        members, games, seed = options["members"], options["games"], options["seed"]
        if members < 2 or games < 1:
            raise CommandError("--members must be at least 2 and --games at least 1.")
        if Member.objects.exists() and not options["force"]:
            raise CommandError(
                "The database already has members: generate_history fills an empty one. "
                "Point DATABASE_URL at a database of its own (e.g. sqlite:///bench/"
                "bench.sqlite3), or pass --force to wipe this club's record first."
            )
        generate(
            members=members,
            games=games,
            seed=seed,
            force=options["force"],
            say=self.stdout.write,
        )
        if options["rate"]:
            clock = time.perf_counter()
            system = ClubSettings.load().engine()
            services.periods_close_past(system=system)
            run = services.ratings_rerate(services.RerateRequest(reason="generated history"))
            self.stdout.write(
                f"rated: {run.events_rated} events, {run.games_rated} games with {system.id} "
                f"in {time.perf_counter() - clock:.1f}s"
            )
            # What the worker does at its next heartbeat after a rating run: each member's
            # standing on the list kept. A history served without it has the worker build
            # every standing while the first officer's run waits on the figures' row
            # (22 s under 50 readers at 60,000 members, scripts/load_club.sh).
            clock = time.perf_counter()
            list_figures_refresh()
            self.stdout.write(f"standings kept in {time.perf_counter() - clock:.1f}s")
