"""rerate: rate every event again from scratch with the club's system."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from ratings import services
from ratings.models import ClubSettings
from ratings.words.counts import count_phrase


class Command(BaseCommand):
    help = "Re-rate every rated event from scratch with the club's rating system."

    def handle(self, *args: Any, **options: Any) -> None:
        clock = time.perf_counter()
        run = services.ratings_rerate(services.RerateRequest(reason="manage.py rerate"))
        system = ClubSettings.load().rating_system
        self.stdout.write(
            self.style.SUCCESS(
                f"Re-rated {count_phrase(run.events_rated, 'event')}, "
                f"{count_phrase(run.games_rated, 'game')} with {system} "
                f"in {time.perf_counter() - clock:.2f}s (engine run {run.seconds:.2f}s)."
            )
        )
