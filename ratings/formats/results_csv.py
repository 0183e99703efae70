"""The results CSV import: new events with their games, checked whole, saved all or nothing.

Read with ``members_csv``' table reader; results spelled as the results vocabulary allows
(``results.SPELLINGS``). ``results_check`` lists every problem by line, saving nothing;
``results_import`` saves a file with no problems in one transaction (the events complete
and rated, re-rated in date order) or raises ``ImportRefused``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from simple_history.utils import bulk_create_with_history

from .. import results, services
from ..counts import count_phrase
from ..models import (
    ClubSettings,
    Entry,
    Event,
    Game,
    Member,
    RatingRun,
    event_date_problem,
    name_problem,
    rules,
)
from .members_csv import (
    RESULT_COLUMNS,
    RESULT_REQUIRED,
    ImportRefused,
    Problem,
    cell_date,
    cell_longest,
    cell_required,
    numbers_in_any_case,
    read_table,
)


@dataclass
class ResultRow:
    line: int
    event: str
    date: dt.date
    round: int
    white: str
    black: str | None
    result: str


@dataclass
class ImportedEvent:
    name: str
    rows: list[ResultRow] = field(default_factory=list)

    @property
    def start(self) -> dt.date:
        return min(r.date for r in self.rows)

    @property
    def end(self) -> dt.date:
        return max(r.date for r in self.rows)

    @property
    def rounds(self) -> int:
        return max(r.round for r in self.rows)


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
    ids = {row[c] for _, row in table.rows for c in ("white", "black") if row.get(c)}
    # Member numbers are the same whatever their case (as in the members file): a1 is A1.
    recorded = numbers_in_any_case(ids)
    events: dict[str, ImportedEvent] = {}
    # (event, round) -> member id -> the line it was first seen on
    playing: dict[tuple[str, int], dict[str, int]] = {}
    for line, row in table.rows:
        before = len(problems)
        name = cell_required(row, "event", line, problems)
        cell_longest(name, 120, line, "event", problems)
        if problem := name_problem(name):
            problems.append(Problem(line, "event", problem))
        day = None
        if cell_required(row, "date", line, problems):
            day = cell_date(row["date"], line, "date", problems)
            if day is not None and (problem := event_date_problem(day)):
                problems.append(Problem(line, "date", problem))
            elif day is not None and (
                problem := rules.results_too_early_problem(Event(name=name, start_date=day))
            ):
                problems.append(Problem(line, "date", problem))
                day = None
        round_ = None
        if cell_required(row, "round", line, problems):
            value = row["round"]
            if value.isascii() and value.isdigit() and 1 <= int(value) <= 99:
                round_ = int(value)
            else:
                problems.append(
                    Problem(line, "round", f"{value!r} is not a round number (1 to 99)")
                )
        white = cell_required(row, "white", line, problems)
        black = row.get("black") or None
        for column, player in (("white", white), ("black", black)):
            if player and player.lower() not in recorded:
                problems.append(Problem(line, column, f"no member has the id {player!r}"))
        if white and white.lower() in recorded:
            white = recorded[white.lower()][0]
        if black and black.lower() in recorded:
            black = recorded[black.lower()][0]
        if white and white == black:
            problems.append(Problem(line, "black", f"{white!r} cannot play themselves"))
        result = None
        text = cell_required(row, "result", line, problems)
        if text:
            result = results.read_result(text)
            if result is None:
                problems.append(
                    Problem(
                        line,
                        "result",
                        f"{text!r} is not a result; allowed: {results.allowed_results()}",
                    )
                )
            elif result in Game.BYES and black:
                problems.append(
                    Problem(line, "black", f"a {text} has one player: leave black empty")
                )
            elif result not in Game.BYES and not black:
                problems.append(
                    Problem(line, "black", "required, but empty (only a bye has no black)")
                )
        if name and round_ is not None:
            seen = playing.setdefault((name, round_), {})
            for column, player in (("white", white), ("black", black)):
                if not player:
                    continue
                if player in seen and seen[player] != line:
                    problems.append(
                        Problem(
                            line,
                            column,
                            f"{player!r} already plays in round {round_} of {name!r} "
                            f"(line {seen[player]})",
                        )
                    )
                seen.setdefault(player, line)
        if len(problems) == before:
            assert day is not None and round_ is not None and result is not None
            event = events.setdefault(name, ImportedEvent(name))
            event.rows.append(ResultRow(line, name, day, round_, white, black, result))
    first_line: dict[Any, int] = {}
    for line, row in table.rows:
        first_line.setdefault(row.get("event", ""), line)
    for name in Event.objects.filter(name__in=list(first_line)).values_list("name", flat=True):
        problems.append(
            Problem(
                first_line[name],
                "event",
                f"an event called {name!r} already exists: delete it in the admin "
                "or rename the event in the file",
            )
        )
    problems.sort(key=lambda p: p.line)
    return list(events.values()), problems


def results_import(*, data: bytes | str, user: Any = None) -> ResultsReport:
    """Create the events of a file, complete, and rate them in date order.

    One re-rate from the earliest imported event rates them all (period systems: after
    closing every past period with events; the current period waits for the officer).
    """
    events, problems = results_check(data)
    if problems:
        raise ImportRefused(problems)
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
                start=saved[0],
                user=user,
                reason=f"Results imported: {count_phrase(len(saved), 'event')}",
            )
    assert len(created) == len(saved)
    return ResultsReport(events=saved, games=len(games), run=run)
