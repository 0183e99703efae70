"""The results CSV read: its rows by line, grouped into the events they make.

Read with ``members_csv``' table reader; results spelled as the results vocabulary allows
(``results.SPELLINGS``). ``results_read`` checks every row against the member numbers the
record holds (given to it) and lists every problem by line; what else the record says (an
event of that name already there) and the saving are ``services.result_imports``'.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from ..models import Event, Game, event_date_problem, name_problem, rules
from ..rules import results
from .members_csv import (
    Problem,
    Table,
    cell_date,
    cell_longest,
    cell_required,
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


def results_read(
    table: Table, problems: list[Problem], *, recorded: dict[str, tuple[str, str]]
) -> list[ImportedEvent]:
    """The events of a results file's rows, every problem of a row added to ``problems``
    (nothing is saved). ``recorded``: the members whose number the file gives, in any case
    (``member_imports.numbers_in_any_case``): by lower case, (number as recorded, name)."""
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
    return list(events.values())


def result_ids(table: Table) -> set[str]:
    """The member numbers a results file's rows give."""
    return {row[c] for _, row in table.rows for c in ("white", "black") if row.get(c)}
