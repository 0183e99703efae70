"""CSV files read: the table reader every CSV import shares, and the members file.

``read_table`` reads a file into rows by line, ``members_read`` a members file into its
rows and every problem by line, saving nothing and asking nothing of the record. What the
record says of a file (a FIDE id another member holds) and the saving are
``services.member_imports``'; the results file is ``results_csv``'s.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import timezone

from ..engine import brought_in_fields
from ..engine.codec import TITLES
from ..models import EARLIEST_DATE, MAX_INITIAL_RATING, Membership, rules
from ..rules.brought_in import STANDING, standing_problems
from ..rules.text import text_problem
from ..words.counts import count_phrase


def word_column(column: str) -> str:
    """The file's column of a word brought in with a rating: the engine's name for the
    column, as a header writes it ("ACF status": ``acf_status``)."""
    return column.lower().replace(" ", "_")


def word_columns() -> dict[str, str]:
    """Each column of a word brought in with a rating (``acf_status``) and the word's
    name in the record (``status``): every system's, whatever the club's (asked each
    time, so a system added in the engine brings its column)."""
    return {word_column(field.column): field.name for field in brought_in_fields()}


def member_columns() -> tuple[str, ...]:
    """The members file's columns, the words brought in as the engine's systems declare
    them now (asked each time: a system added in the engine brings its column)."""
    return (*MEMBER_COLUMNS[: MEMBER_COLUMNS.index("games") + 1], *word_columns(), "email")


MEMBER_COLUMNS = (
    "id",
    "name",
    "born",
    "gender",
    "region",
    "title",
    "fide_id",
    "membership",
    "rating",
    "games",
    *word_columns(),
    "email",
)
#: A rating brought in: the columns and the member fields they fill.
MEMBER_RATING_COLUMNS = {"rating": "initial_rating", "games": "initial_games"}
#: The separators a spreadsheet writes: a comma, or (where the comma is the decimal
#: mark) a semicolon, or a tab.
SEPARATORS = (",", ";", "\t")
MEMBER_REQUIRED = ("id", "name")
#: The membership column's words: the club's one mapping (``Membership``).
MEMBERSHIPS = tuple(Membership.values)
RESULT_COLUMNS = ("event", "date", "round", "white", "black", "result")
RESULT_REQUIRED = RESULT_COLUMNS


_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MEMBER_ID = re.compile(r"^[\w.-]+$")


@dataclass(frozen=True)
class Problem:
    line: int
    column: str | None
    message: str

    def __str__(self) -> str:
        where = f"line {self.line}" + (f", {self.column}" if self.column else "")
        return f"{where}: {self.message}"


class ImportRefused(Exception):
    """The file has problems: nothing was saved."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        count = len(self.problems)
        lines = "\n".join(str(p) for p in self.problems)
        super().__init__(
            f"The file was refused, nothing saved ({count_phrase(count, 'problem')}):\n" + lines
        )


#: What a CSV saved other than as UTF-8 is told to do: the one setting that fixes it.
SAVE_AS_UTF8 = "save the file as UTF-8 (in Excel: “CSV UTF-8 (comma delimited)”) and try again"
#: A UTF-8 character's bytes (two to four): in a file read as Windows-1252 they would be
#: mojibake ("JosÃ©"), so a file holding them and other bytes is neither, and refused.
_UTF8_SEQUENCE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}"
)


@dataclass(frozen=True)
class CsvText:
    """A CSV file's bytes read as text: ``notice`` says it was not UTF-8 and what it was
    read as (shown at the preview); ``problem`` that it could not be read (``text`` "")."""

    text: str
    notice: str = ""
    problem: Problem | None = None


def _line_at(data: bytes, offset: int) -> tuple[int, int, str]:
    """The line (from 1), the column (from 1, in characters) and the line's text, of the
    byte at ``offset``: where a spreadsheet shows it."""
    start = data.rfind(b"\n", 0, offset) + 1
    end = data.find(b"\n", offset)
    line = data[start : end if end >= 0 else len(data)].rstrip(b"\r")
    column = len(data[start:offset].decode("utf-8", errors="replace")) + 1
    return data.count(b"\n", 0, offset) + 1, column, line.decode("cp1252", errors="replace")


def csv_text(data: bytes) -> CsvText:
    """A CSV file as text: UTF-8 (with or without Excel's byte order mark); else a file
    Excel on Windows saved as "CSV (comma delimited)", in Windows-1252, read as that and
    said so, naming the first line that shows it so the officer can check it reads right.
    A file that is neither (bytes Windows-1252 has no character for, a NUL, or UTF-8 mixed
    with other bytes) is refused at its first line that is not UTF-8, with the fix."""
    try:
        return CsvText(data.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        offset = error.start
    line, column, shown = _line_at(data, offset)
    byte = data[offset]
    refused = Problem(
        line,
        None,
        f"the file is not UTF-8 text: column {column} holds the byte 0x{byte:02X}, which "
        f"is not UTF-8 there; {SAVE_AS_UTF8}",
    )
    if b"\x00" in data or _UTF8_SEQUENCE.search(data):
        return CsvText("", problem=refused)
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        return CsvText("", problem=refused)
    sample = shown if len(shown) <= 60 else shown[:57] + "…"
    return CsvText(
        text,
        notice=(
            "The file is not UTF-8: it was read as Windows-1252 (what Excel on Windows saves "
            f"as “CSV (comma delimited)”). Its first letter outside plain English is on line "
            f"{line}, column {column}: “{sample}”. Check the names read right; if they do "
            f"not, {SAVE_AS_UTF8}."
        ),
    )


@dataclass
class Table:
    """A CSV file read: its columns and its rows (line number, cells by column)."""

    columns: list[str]
    rows: list[tuple[int, dict[str, str]]]


def read_table(
    data: bytes | str, *, columns: Sequence[str], required: Sequence[str]
) -> tuple[Table, list[Problem]]:
    """Read a CSV file with a header line; header problems stop the reading there."""
    problems: list[Problem] = []
    if isinstance(data, bytes):
        # Spreadsheets on Windows save CSV as UTF-8 only when asked to: read as Windows-1252
        # then (a caller that shows the notice decodes with ``csv_text`` first).
        read = csv_text(data)
        if read.problem is not None:
            return Table([], []), [read.problem]
        data = read.text
    data = data.removeprefix("\ufeff")
    separator = _separator(data, columns)
    reader = csv.reader(io.StringIO(data, newline=""), delimiter=separator)
    try:
        header = next(reader)
    except StopIteration:
        return Table([], []), [Problem(1, None, "the file is empty: expected a header line")]
    except csv.Error as error:
        return Table([], []), [Problem(1, None, f"not a CSV header line ({error})")]
    names = [h.strip().lower() for h in header]
    for name in names:
        if name and name not in columns:
            problems.append(
                Problem(1, None, f"unknown column {name!r} (expected {', '.join(columns)})")
            )
    for name in {n for n in names if names.count(n) > 1}:
        problems.append(Problem(1, None, f"column {name!r} appears more than once"))
    for name in required:
        if name not in names:
            problems.append(Problem(1, None, f"missing column {name!r}"))
    if problems:
        return Table(names, []), problems
    table = Table([n for n in names if n], [])
    while True:
        # A row's line is where it starts: a quoted cell may run on over several lines.
        line = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            problems.append(Problem(line, None, f"not valid CSV ({error})"))
            break
        if not any(c.strip() for c in cells):
            continue
        broken = [i for i, c in enumerate(cells) if "\n" in c or "\r" in c]
        if broken:
            # No cell holds a line break: this is a quote opened here and never closed,
            # which would swallow the rows after it into one cell.
            column = names[broken[0]] if broken[0] < len(names) else None
            problems.append(
                Problem(
                    line,
                    column or None,
                    'a quote (") opened on this line is not closed on it: the cell runs on '
                    f"to line {reader.line_num}; close the quote or remove it",
                )
            )
            continue
        nul = [i for i, c in enumerate(cells) if "\x00" in c]
        if nul:
            # The database cannot store it (PostgreSQL refuses it outright): a NUL is a
            # file saved wrongly, never part of a name or an id.
            column = names[nul[0]] if nul[0] < len(names) else None
            problems.append(Problem(line, column or None, "holds a NUL character (\\0): not text"))
            continue
        if len(cells) > len(names) and any(c.strip() for c in cells[len(names) :]):
            problems.append(
                Problem(
                    line,
                    None,
                    f"{count_phrase(len(cells), 'cell')}, but the header has {len(names)}",
                )
            )
            continue
        missing = [name for name in names[len(cells) :] if name]
        if missing:
            # A row cut short is a file damaged or typed in a hurry, never "clear these
            # fields": clearing one takes its cell, present and empty (docs/commands.md).
            problems.append(
                Problem(
                    line,
                    None,
                    f"{count_phrase(len(cells), 'cell')}, but the header has {len(names)}: "
                    f"no cell for {', '.join(missing)} (an empty cell, with its comma, "
                    "clears a field)",
                )
            )
            continue
        row = {name: (cells[i].strip() if i < len(cells) else "") for i, name in enumerate(names)}
        row.pop("", None)
        table.rows.append((line, row))
    if data.count('"') % 2 and not problems and table.rows:
        # An odd number of quotes: one is never closed. Not caught above only when the
        # last line opens it and the file ends without a line break after it.
        line = table.rows[-1][0]
        table.rows.pop()
        problems.append(
            Problem(line, None, 'a quote (") opened on this line is never closed: close it')
        )
    if not table.rows and not problems:
        problems.append(Problem(2, None, "the file has a header but no rows"))
    return table, problems


def _separator(data: str, columns: Sequence[str]) -> str:
    """The separator of the header line: the one that splits it into the most known
    columns (a comma when none does, so the header's problem is named as usual)."""
    first = data.split("\n", 1)[0]

    def known(separator: str) -> int:
        try:
            cells = next(csv.reader([first], delimiter=separator), [])
        except csv.Error:
            return 0
        return sum(c.strip().lower() in columns for c in cells)

    best = max(SEPARATORS, key=known)
    return best if known(best) > known(",") else ","


def cell_date(value: str, line: int, column: str, problems: list[Problem]) -> dt.date | None:
    try:
        if not _DATE.match(value):
            raise ValueError
        return dt.date.fromisoformat(value)
    except ValueError:
        problems.append(Problem(line, column, f"{value!r} is not a date YYYY-MM-DD"))
        return None


def cell_required(row: dict[str, str], column: str, line: int, problems: list[Problem]) -> str:
    value = row.get(column, "")
    if not value:
        problems.append(Problem(line, column, "required, but empty"))
    return value


def cell_member_id(value: str, line: int, column: str, problems: list[Problem]) -> bool:
    if len(value) > 32 or not _MEMBER_ID.match(value):
        problems.append(
            Problem(line, column, f"{value!r} is not a member id (letters, digits, '.', '-', '_')")
        )
        return False
    return True


def cell_longest(value: str, limit: int, line: int, column: str, problems: list[Problem]) -> None:
    if len(value) > limit:
        problems.append(Problem(line, column, f"longer than {limit} characters"))


# -- members ---------------------------------------------------------------------------------


@dataclass
class MemberRow:
    line: int
    number: str
    fields: dict[str, Any]  # model field -> value, only for the columns in the file
    membership: str


#: How many rows a long file's reader reads between two words to its progress.
PROGRESS_EVERY = 1000


def members_read(
    data: bytes | str, *, progress: Callable[[int, int], None] | None = None
) -> tuple[list[MemberRow], list[Problem]]:
    """Every member row of a file and every problem in the file itself (nothing is saved,
    the record is not asked: ``services.member_imports.members_check`` adds what it says).

    ``progress(rows read, rows in the file)``: told every ``PROGRESS_EVERY`` rows (a long
    file read by the worker, its page following it).
    """
    table, problems = read_table(data, columns=member_columns(), required=MEMBER_REQUIRED)
    rows: list[MemberRow] = []
    # A1 and a1 are one number: by lower case, the line and the spelling first seen.
    seen: dict[str, tuple[int, str]] = {}
    total = len(table.rows)
    for done, (line, row) in enumerate(table.rows):
        if progress is not None and done % PROGRESS_EVERY == 0:
            progress(done, total)
        before = len(problems)
        number = cell_required(row, "id", line, problems)
        if number and cell_member_id(number, line, "id", problems):
            first = seen.get(number.lower())
            if first is not None and first[1] == number:
                problems.append(Problem(line, "id", f"{number!r} is also on line {first[0]}"))
            elif first is not None:
                problems.append(
                    Problem(
                        line,
                        "id",
                        f"{number!r} is {first[1]!r} of line {first[0]} in another case: "
                        "member numbers are the same whatever their case",
                    )
                )
            seen.setdefault(number.lower(), (line, number))
        name = cell_required(row, "name", line, problems)
        cell_longest(name, 120, line, "name", problems)
        if problem := rules.member_name_problem(name):
            problems.append(Problem(line, "name", problem))
        fields: dict[str, Any] = {"name": name}
        if "born" in row:
            born = cell_date(row["born"], line, "born", problems) if row["born"] else None
            if born and born > timezone.localdate():
                problems.append(Problem(line, "born", f"{born} is in the future"))
            elif born and born < EARLIEST_DATE:
                problems.append(Problem(line, "born", f"{born} is before {EARLIEST_DATE.year}"))
            fields["born"] = born
        if "gender" in row:
            gender = row["gender"].upper()
            if gender not in ("", "M", "F"):
                problems.append(Problem(line, "gender", f"{row['gender']!r} is not M or F"))
            fields["gender"] = gender
        if "region" in row:
            cell_longest(row["region"], 40, line, "region", problems)
            if problem := text_problem(row["region"]):
                problems.append(Problem(line, "region", problem))
            fields["region"] = row["region"]
        if "title" in row:
            title = row["title"].upper()
            if title and title not in TITLES:
                problems.append(
                    Problem(
                        line,
                        "title",
                        f"{row['title']!r} is not a FIDE title ({', '.join(TITLES)})",
                    )
                )
            fields["title"] = title
        if "fide_id" in row:
            fide_id = row["fide_id"]
            if fide_id and not (fide_id.isascii() and fide_id.isdigit() and len(fide_id) <= 12):
                problems.append(Problem(line, "fide_id", f"{fide_id!r} is not a FIDE id (digits)"))
            fields["fide_id"] = fide_id
        if "email" in row:
            # An address only: consent to club mail is the member's own word, recorded on
            # their record, never taken from a file.
            email = row["email"]
            try:
                if email:
                    validate_email(email)
            except ValidationError:
                problems.append(Problem(line, "email", f"{email!r} is not an email address"))
            fields["email"] = email
        _rating_columns(row, line, fields, problems)
        membership = row.get("membership", "").lower()
        if membership and membership not in MEMBERSHIPS:
            problems.append(
                Problem(
                    line,
                    "membership",
                    f"{row['membership']!r} is not one of {', '.join(MEMBERSHIPS)}",
                )
            )
        if membership:
            fields["is_guest"] = membership == Membership.GUEST
        if len(problems) == before:
            rows.append(MemberRow(line, number, fields, membership))
    if progress is not None:
        progress(total, total)
    problems += _fide_ids_repeated(rows)
    return rows, problems


def _fide_ids_repeated(rows: list[MemberRow]) -> list[Problem]:
    """One FIDE id, one member: an id the file gives twice."""
    problems = []
    first: dict[str, MemberRow] = {}
    for row in rows:
        fide_id = row.fields.get("fide_id", "")
        if fide_id:
            other = first.setdefault(fide_id, row)
            if other is not row:
                problems.append(
                    Problem(row.line, "fide_id", f"{fide_id} is also on line {other.line}")
                )
    return problems


def _rating_columns(
    row: dict[str, str], line: int, fields: dict[str, Any], problems: list[Problem]
) -> None:
    """A rating brought in: ``rating``, ``games`` and the system's own word for it
    (acf-1993's status, ecf-2020's category), checked as the member form checks them."""
    if "rating" in row:
        rating = None
        text = row["rating"].replace(",", ".")
        if text:
            try:
                rating = float(text)
            except ValueError:
                problems.append(Problem(line, "rating", f"{row['rating']!r} is not a number"))
            else:
                if rules.rating_problem(rating):
                    problems.append(
                        Problem(
                            line, "rating", f"{text} is not a rating (0 to {MAX_INITIAL_RATING})"
                        )
                    )
        fields["initial_rating"] = rating
    if "games" in row:
        games = 0
        if row["games"]:
            if row["games"].isascii() and row["games"].isdigit():
                games = int(row["games"])
                if problem := rules.games_problem(games):
                    problems.append(Problem(line, "games", f"{row['games']}: {problem}"))
            else:
                problems.append(
                    Problem(
                        line, "games", f"{row['games']!r} is not a number of games (0 or more)"
                    )
                )
        fields["initial_games"] = games
    words: dict[str, str] = {}
    fields_by_name = {field.name: field for field in brought_in_fields()}
    for column, name in word_columns().items():
        if column not in row:
            continue
        value = row[column].lower()
        allowed = fields_by_name[name].words
        if value and value not in allowed:
            problems.append(
                Problem(line, column, f"{row[column]!r} is not one of {', '.join(allowed)}")
            )
            value = ""
        words[name] = value
    if words:
        # The words the file gives, blank ones too (a blank cell clears the word); the
        # record's other words are kept (``services.member_imports``).
        fields[STANDING] = words
    if "rating" in row:
        found = standing_problems(fields["initial_rating"], fields.get("initial_games"), words)
        columns = {name: column for column, name in word_columns().items()}
        for name, message in found.items():
            problems.append(Problem(line, columns.get(name), message))
