"""Compare the five rating systems on the club's history now, in this process (the officer's
page runs the same comparison in the background), and print the measures.

The club's ratings are not touched; the comparison is saved like one started on the page,
so its results can be read (and published) there.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.engine import SYSTEMS
from ratings.formats.jsontext import json_read
from ratings.models import Comparison
from ratings.pages import comparisons
from ratings.services import compare
from ratings.words.counts import count_phrase


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--params",
            default="{}",
            help='parameters to try, as JSON: {"nz-club-elo": {"k_new": 24}, ...}',
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            params = json_read(options["params"])
        except ValueError as error:  # bad JSON, or past what parameters are (NotParameters)
            raise CommandError(f"--params: not JSON ({error})") from None
        if not isinstance(params, dict):
            raise CommandError("--params: must be a JSON object of systems")
        problems = []
        for sid, values in params.items():
            if sid not in SYSTEMS:
                problems.append(f"--params: unknown system {sid!r}")
            elif not isinstance(values, dict):
                problems.append(f"--params.{sid}: must be a JSON object")
            else:
                problems += SYSTEMS[sid].check_params(values, path=f"--params.{sid}")
        if problems:
            raise CommandError("\n".join(problems))
        comparison = Comparison.objects.create(
            club_system=compare.ClubSettings.load().rating_system,
            params={**compare.comparison_default_params(), **params},
        )
        comparison = compare.comparison_run(comparison=comparison)
        self.stdout.write(
            f"Comparison {comparison.pk}: {count_phrase(comparison.games, 'game')} in "
            f"{count_phrase(comparison.events, 'event')}, {comparison.seconds:.2f} s"
        )
        headings = [heading for _, heading in comparisons.MEASURES]
        for section in comparisons.list_sections(comparison):
            self.stdout.write(f"\n{section.name}:")
            self.stdout.write(f"{'system':<22}" + "".join(f"{h[:24]:>26}" for h in headings))
            for row in section.rows:
                figures = "".join(
                    f"{'-' if value is None else f'{value:.4f}':>26}" for value, _ in row.figures
                )
                self.stdout.write(f"{row.short[:22]:<22}{figures}")
            for sentence in section.verdict:
                self.stdout.write(sentence)
