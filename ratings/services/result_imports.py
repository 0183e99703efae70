"""The results CSV saved: new events with their games, checked whole, saved all or nothing.

Read by ``formats.results_csv``; ``results_check`` adds what the record says (the
members' numbers, an event of that name already there) and saves nothing;
``results_import`` saves a file with no problems in one transaction (the events complete
and rated, re-rated in date order) or raises ``ImportRefused``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from simple_history.utils import bulk_create_with_history

from .. import services
from ..formats.members_csv import (
    RESULT_COLUMNS,
    RESULT_REQUIRED,
    ImportRefused,
    Problem,
    read_table,
)
from ..formats.results_csv import ImportedEvent, result_ids, results_read
from ..models import ClubSettings, Entry, Event, Game, Member, RatingRun, rules
from ..rules.duplicates import Duplicates
from ..words.counts import count_phrase
from .duplicates import EventIn, duplicates_find
from .member_imports import numbers_in_any_case


@dataclass
class ResultsReport:
    events: list[Event]
    games: int
    run: RatingRun | None

    def __str__(self) -> str:
        text = (
            f"{count_phrase(len(self.events), 'event')} imported with "
            f"{count_phrase(self.games, 'game')}."
        )
        if self.run is not None and self.run.status != RatingRun.Status.DONE:
            text += " Re-rating in the background."
        elif self.run is not None:
            text += (
                f" Re-rated {count_phrase(self.run.events_rated, 'event')} "
                f"({count_phrase(self.run.games_rated, 'game')}) in {self.run.seconds:.2f}s."
            )
        return text


def results_check(data: bytes | str) -> tuple[list[ImportedEvent], list[Problem]]:
    """The events of a results file and every problem in it (nothing is saved)."""
    table, problems = read_table(data, columns=RESULT_COLUMNS, required=RESULT_REQUIRED)
    # Member numbers are the same whatever their case (as in the members file): a1 is A1.
    recorded = numbers_in_any_case(result_ids(table))
    events = results_read(table, problems, recorded=recorded)
    first_line: dict[Any, int] = {}
    for line, row in table.rows:
        first_line.setdefault(row.get("event", ""), line)
    for event in events:
        # Recorded complete and rated: a game between two players to rate, at least.
        played = sum(1 for r in event.rows if r.black and r.result in Game.PLAYED)
        if event.rows and (
            problem := rules.imported_event_problem(
                event.name, games=len(event.rows), played=played, rated=True
            )
        ):
            problems.append(Problem(min(r.line for r in event.rows), "event", problem))
    for name in Event.objects.filter(name__in=list(first_line)).values_list("name", flat=True):
        problems.append(
            Problem(
                first_line[name],
                "event",
                f"an event called {name!r} is already recorded: a results file adds new "
                "events, never games to one recorded. Open that event and enter its games "
                "there, or leave its lines out of the file",
            )
        )
    problems.sort(key=lambda p: p.line)
    return events, problems


def results_duplicates(events: list[ImportedEvent]) -> list[Duplicates]:
    """Each event's games already recorded in another event (``rules.duplicates``): two
    queries for the whole file (the members' ids, the games that could match)."""
    numbers = {p for e in events for r in e.rows for p in (r.white, r.black) if p}
    ids = dict(Member.objects.filter(member_number__in=numbers).values_list("member_number", "pk"))
    return duplicates_find(
        events=[
            EventIn(
                start=e.start,
                end=e.end,
                games=[
                    (r.round, ids.get(r.white), ids.get(r.black) if r.black else None, r.result)
                    for r in e.rows
                ],
            )
            for e in events
        ]
    )


def results_import(
    *, data: bytes | str, user: Any = None, duplicate_reason: str = ""
) -> ResultsReport:
    """Create the events of a file, complete, and rate them in date order.

    An event whose games are already recorded in another event is refused (at its first
    line) unless ``duplicate_reason`` says why they are recorded again; the reason is
    kept with each such event.

    One re-rate from the earliest imported event rates them all (period systems: after
    closing every past period with events; the current period waits for the officer).
    """
    events, problems = results_check(data)
    if problems:
        raise ImportRefused(problems)
    duplicates = results_duplicates(events)
    duplicate_reason = duplicate_reason.strip()
    if not duplicate_reason:
        refused = [
            Problem(
                min(r.line for r in e.rows),
                "event",
                f"{found.words()} Open that event to check it, or give a reason to record "
                "these games again.",
            )
            for e, found in zip(events, duplicates, strict=True)
            if found.is_duplicate
        ]
        if refused:
            raise ImportRefused(refused)
    again = {e.name for e, found in zip(events, duplicates, strict=True) if found.is_duplicate}
    reason = "import_results"
    with transaction.atomic():
        created = bulk_create_with_history(
            [
                Event(
                    name=e.name,
                    start_date=e.start,
                    end_date=e.end,
                    rounds=e.rounds,
                    status=Event.Status.COMPLETE,
                    rated=True,
                    duplicate_reason=duplicate_reason if e.name in again else "",
                )
                for e in events
            ],
            Event,
            default_user=user,
            default_change_reason=reason,
        )
        by_name = {e.name: e for e in Event.objects.filter(name__in=[e.name for e in events])}
        ids = {p for e in events for r in e.rows for p in (r.white, r.black) if p}
        members = Member.objects.in_bulk(list(ids), field_name="member_number")
        games, entries = [], []
        for imported in events:
            event = by_name[imported.name]
            boards: dict[int, int] = {}
            players: dict[str, None] = {}
            for r in sorted(imported.rows, key=lambda r: (r.round, r.line)):
                board = None
                if r.black:
                    board = boards[r.round] = boards.get(r.round, 0) + 1
                games.append(
                    Game(
                        event=event,
                        round=r.round,
                        board=board,
                        white=members[r.white],
                        black=members[r.black] if r.black else None,
                        result=r.result,
                    )
                )
                players.update(dict.fromkeys(p for p in (r.white, r.black) if p))
            entries += [Entry(event=event, member=members[p]) for p in players]
        bulk_create_with_history(entries, Entry, default_user=user, default_change_reason=reason)
        bulk_create_with_history(
            games, Game, default_user=user, default_change_reason=reason, batch_size=1000
        )
        saved = sorted(by_name.values(), key=services.rating_key)
        run = None
        if saved:
            system = ClubSettings.load().engine()
            services.periods_close_past(system=system)
            run = services.ratings_update(
                services.RerateRequest(
                    start=saved[0],
                    user=user,
                    reason=f"Results imported: {count_phrase(len(saved), 'event')}",
                )
            )
    assert len(created) == len(saved)
    return ResultsReport(events=saved, games=len(games), run=run)
