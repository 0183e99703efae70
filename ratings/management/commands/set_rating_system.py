"""set_rating_system ID [--params JSON]: switch the club's rating system and re-rate everything."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings import services
from ratings.engine import SYSTEMS
from ratings.formats.jsontext import json_read
from ratings.words.counts import count_phrase


class Command(BaseCommand):
    help = "Switch the club to another rating system (optionally with parameters); re-rate all."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("system", choices=sorted(SYSTEMS), help="the rating system's id")
        parser.add_argument(
            "--params",
            default="{}",
            help="overrides of the system's parameters as a JSON object, e.g. '{\"floor\": 900}'",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            params = json_read(options["params"])
        except ValueError as error:  # bad JSON, or past what parameters are (NotParameters)
            raise CommandError(f"--params is not JSON: {error}") from None
        if not isinstance(params, dict):
            raise CommandError("--params must be a JSON object, e.g. '{\"floor\": 900}'")
        try:
            run = services.rating_system_set(system_id=options["system"], params=params)
        except ValidationError as error:
            problems = [m for messages in error.message_dict.values() for m in messages]
            raise CommandError("Parameters refused: " + "; ".join(problems)) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"Rating system set to {options['system']}: re-rated "
                f"{count_phrase(run.events_rated, 'event')}, "
                f"{count_phrase(run.games_rated, 'game')} in {run.seconds:.2f}s."
            )
        )
