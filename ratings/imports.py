"""CSV imports of members and results: check the whole file, then save it all or nothing.

Shared by the management commands and (later) an officer's upload page: ``*_check``
reads a file and lists every problem by line without saving anything; ``*_import``
saves a file with no problems in one transaction, or raises ``ImportRefused``.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models.functions import Lower
from django.utils import timezone
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from . import services
from .engine.codec import TITLES
from .models import (
    EARLIEST_DATE,
    ClubSettings,
    Entry,
    Event,
    Game,
    Member,
    RatingChange,
    RatingRun,
    Season,
    Subscription,
    event_date_problem,
    name_problem,
)

MEMBER_COLUMNS = ("id", "name", "born", "gender", "region", "title", "fide_id", "membership")
MEMBER_REQUIRED = ("id", "name")
MEMBERSHIPS = ("financial", "arrears", "guest")
RESULT_COLUMNS = ("event", "date", "round", "white", "black", "result")
RESULT_REQUIRED = RESULT_COLUMNS

#: Every way a result may be written, in a results file or a pasted round: the result it
#: records, and its spellings, the usual one first. A played result followed by " nr"
#: (any of its spellings) is the same result scored but not rated.
RESULT_SPELLINGS: dict[str, tuple[str, ...]] = {
    Game.Result.WHITE_WIN: ("1-0",),
    Game.Result.DRAW: ("½-½", "1/2-1/2", "0.5-0.5", "=-=", "=", "1/2"),
    Game.Result.BLACK_WIN: ("0-1",),
    Game.Result.WHITE_FORFEIT_WIN: ("+/-", "+:-", "1-0f"),
    Game.Result.BLACK_FORFEIT_WIN: ("-/+", "-:+", "0-1f"),
    Game.Result.DOUBLE_FORFEIT: ("-/-", "-:-"),
    Game.Result.BYE: ("bye",),
    Game.Result.HALF_BYE: ("half-bye", "½bye"),
    Game.Result.ZERO_BYE: ("zero-bye", "absent"),
}
UNRATED_OF = {
    Game.Result.WHITE_WIN: Game.Result.WHITE_WIN_UNRATED,
    Game.Result.DRAW: Game.Result.DRAW_UNRATED,
    Game.Result.BLACK_WIN: Game.Result.BLACK_WIN_UNRATED,
}
for _played, _unrated in UNRATED_OF.items():
    RESULT_SPELLINGS[_unrated] = tuple(f"{s} nr" for s in RESULT_SPELLINGS[_played])

#: What a results file or a pasted round may say (in lower case), and the result it records.
RESULTS: dict[str, str] = {
    spelling: result for result, spellings in RESULT_SPELLINGS.items() for spelling in spellings
}


def read_result(text: str) -> str | None:
    """The result ``text`` records (any case, any spaces before "nr"), or None."""
    return RESULTS.get(" ".join(text.split()).lower())


def allowed_results() -> str:
    """The spellings a result may take, for a message: the usual ones, then the others."""

    def words(results: Sequence[str], *, others: bool = True) -> str:
        out = []
        for result in results:
            usual, *rest = RESULT_SPELLINGS[result]
            out.append(f"{usual} (or {', '.join(rest)})" if rest and others else usual)
        return ", ".join(out)

    forfeits = (
        Game.Result.WHITE_FORFEIT_WIN,
        Game.Result.BLACK_FORFEIT_WIN,
        Game.Result.DOUBLE_FORFEIT,
    )
    return (
        f"{words(Game.PLAYED)}; forfeits: {words(forfeits)}; "
        f"not rated: {words(Game.UNRATED, others=False)} (any game result, then “nr”); "
        f"byes: {words(Game.BYES)}"
    )


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
            f"The file was refused, nothing saved ({count} problem{'s' * (count != 1)}):\n" + lines
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
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            # Spreadsheets on Windows save CSV as UTF-8 only when asked to.
            problems.append(Problem(1, None, f"the file is not UTF-8 text ({error.reason})"))
            return Table([], []), problems
    data = data.removeprefix("\ufeff")
    reader = csv.reader(io.StringIO(data, newline=""))
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
                Problem(line, None, f"{len(cells)} cells, but the header has {len(names)}")
            )
            continue
        # A row shorter than the header (trailing cells dropped) reads as empty cells.
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


def _date(value: str, line: int, column: str, problems: list[Problem]) -> dt.date | None:
    try:
        if not _DATE.match(value):
            raise ValueError
        return dt.date.fromisoformat(value)
    except ValueError:
        problems.append(Problem(line, column, f"{value!r} is not a date YYYY-MM-DD"))
        return None


def _required(row: dict[str, str], column: str, line: int, problems: list[Problem]) -> str:
    value = row.get(column, "")
    if not value:
        problems.append(Problem(line, column, "required, but empty"))
    return value


def _member_id(value: str, line: int, column: str, problems: list[Problem]) -> bool:
    if len(value) > 32 or not _MEMBER_ID.match(value):
        problems.append(
            Problem(line, column, f"{value!r} is not a member id (letters, digits, '.', '-', '_')")
        )
        return False
    return True


def _longest(value: str, limit: int, line: int, column: str, problems: list[Problem]) -> None:
    if len(value) > limit:
        problems.append(Problem(line, column, f"longer than {limit} characters"))


# -- players of tournament files --------------------------------------------------------


def name_key(name: str) -> str:
    """A name for matching: its words in lower case and in order, punctuation left out."""
    return " ".join(sorted(re.findall(r"\w+", name.casefold())))


def match_players(players: Iterable[tuple[Any, str, str]]) -> dict[Any, Member]:
    """Members for a file's players, given as (key, name, FIDE id): by FIDE id first, then
    by member number (a player named by their number), then by the one member of that name.

    Names match whatever their case or order ("Mirzoev Azer", "Azer Mirzoev", "MIRZOEV,
    Azer"); a member whose FIDE id differs from the player's is another person. The web
    import (``TrfConfirmForm``) and the ``import_trf``/``import_pgn`` commands share it.
    """
    members = list(Member.objects.active().only("pk", "name", "fide_id", "member_number"))
    by_id: dict[str, list[Member]] = {}
    by_name: dict[str, list[Member]] = {}
    by_number: dict[str, Member] = {}
    for member in members:
        if member.fide_id:
            by_id.setdefault(member.fide_id.lstrip("0"), []).append(member)
        by_name.setdefault(name_key(member.name), []).append(member)
        by_number[member.member_number.lower()] = member
    out: dict[Any, Member] = {}
    for key, name, fide_id in players:
        fide_id = fide_id.lstrip("0")
        same_id = by_id.get(fide_id, []) if fide_id else []
        if len(same_id) == 1:
            out[key] = same_id[0]
            continue
        numbered = by_number.get(name.strip().lower())
        if numbered is not None and not (
            fide_id and numbered.fide_id and numbered.fide_id.lstrip("0") != fide_id
        ):
            out[key] = numbered
            continue
        named = [
            m
            for m in by_name.get(name_key(name), [])
            if not (fide_id and m.fide_id and m.fide_id.lstrip("0") != fide_id)
        ]
        if len(named) == 1:
            out[key] = named[0]
    return out


# -- members ---------------------------------------------------------------------------------


@dataclass
class MemberRow:
    line: int
    number: str
    fields: dict[str, Any]  # model field -> value, only for the columns in the file
    membership: str


@dataclass
class MembersReport:
    created: int = 0
    updated: int = 0
    financial: int = 0
    arrears: int = 0
    guests: int = 0
    subscriptions_removed: int = 0
    season: str = ""
    run: RatingRun | None = None

    def __str__(self) -> str:
        text = (
            f"{self.created} members added, {self.updated} updated; "
            f"season {self.season}: {self.financial} financial, {self.arrears} in arrears "
            f"({self.subscriptions_removed} subscription(s) removed), {self.guests} guests."
        )
        if self.run is not None:
            text += f" Re-rated {self.run.events_rated} events."
        return text


def members_check(data: bytes | str) -> tuple[list[MemberRow], list[Problem]]:
    """Every member row of a file and every problem in it (nothing is saved)."""
    table, problems = read_table(data, columns=MEMBER_COLUMNS, required=MEMBER_REQUIRED)
    rows: list[MemberRow] = []
    # A1 and a1 are one number: by lower case, the line and the spelling first seen.
    seen: dict[str, tuple[int, str]] = {}
    recorded = _numbers_in_any_case({row.get("id", "") for _, row in table.rows})
    for line, row in table.rows:
        before = len(problems)
        number = _required(row, "id", line, problems)
        if number and _member_id(number, line, "id", problems):
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
            other = recorded.get(number.lower())
            if other is not None and other[0] != number:
                problems.append(
                    Problem(
                        line,
                        "id",
                        f"{number!r} is member {other[0]} ({other[1]}) in another case: "
                        f"write it as {other[0]}",
                    )
                )
        name = _required(row, "name", line, problems)
        _longest(name, 120, line, "name", problems)
        if problem := name_problem(name):
            problems.append(Problem(line, "name", problem))
        fields: dict[str, Any] = {"name": name}
        if "born" in row:
            born = _date(row["born"], line, "born", problems) if row["born"] else None
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
            _longest(row["region"], 40, line, "region", problems)
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
            fields["is_guest"] = membership == "guest"
        if len(problems) == before:
            rows.append(MemberRow(line, number, fields, membership))
    return rows, problems


def _numbers_in_any_case(numbers: set[str]) -> dict[str, tuple[str, str]]:
    """The recorded members whose number is one of ``numbers`` in any case: by lower case,
    (their number as recorded, their name)."""
    lowered = {n.lower() for n in numbers if n}
    rows = (
        Member.objects.annotate(number_lower=Lower("member_number"))
        .filter(number_lower__in=lowered)
        .values_list("member_number", "name")
    )
    return {number.lower(): (number, name) for number, name in rows}


def members_import(
    *, data: bytes | str, user: Any = None, today: dt.date | None = None
) -> MembersReport:
    """Add or update the members of a file and record their membership this season.

    ``financial`` records a paid subscription for the current season; ``arrears``
    removes the current season's subscription (earlier seasons stay); ``guest`` makes
    the player a guest. A change that moves ratings (guest status, date of birth,
    gender, title of a rated member) re-rates everything.
    """
    rows, problems = members_check(data)
    if problems:
        raise ImportRefused(problems)
    today = today or timezone.localdate()
    report = MembersReport()
    with transaction.atomic():
        season = Season.for_day(today)
        report.season = season.name
        existing = Member.objects.in_bulk([r.number for r in rows], field_name="member_number")
        rated = set(
            RatingChange.objects.filter(member__in=existing.values())
            .values_list("member_id", flat=True)
            .distinct()
        )
        new, changed, changed_fields = [], [], set()
        moves_ratings = False
        for row in rows:
            member = existing.get(row.number)
            if member is None:
                new.append(Member(member_number=row.number, **row.fields))
                continue
            diff = {k for k, v in row.fields.items() if getattr(member, k) != v}
            if not diff:
                continue
            for name in diff:
                setattr(member, name, row.fields[name])
            changed.append(member)
            changed_fields |= diff
            if member.pk in rated and diff & {"is_guest", "born", "gender", "title"}:
                moves_ratings = True
        reason = "import_members"
        if new:
            bulk_create_with_history(new, Member, default_user=user, default_change_reason=reason)
        if changed:
            bulk_update_with_history(
                changed,
                Member,
                sorted(changed_fields),
                default_user=user,
                default_change_reason=reason,
            )
        report.created, report.updated = len(new), len(changed)
        members = Member.objects.in_bulk([r.number for r in rows], field_name="member_number")
        financial = [members[r.number] for r in rows if r.membership == "financial"]
        arrears = [members[r.number] for r in rows if r.membership == "arrears"]
        report.guests = sum(r.membership == "guest" for r in rows)
        paid = set(
            Subscription.objects.filter(season=season, member__in=financial).values_list(
                "member_id", flat=True
            )
        )
        bulk_create_with_history(
            [
                Subscription(member=m, season=season, paid_on=today)
                for m in financial
                if m.pk not in paid
            ],
            Subscription,
            default_user=user,
            default_change_reason=reason,
        )
        # Deleted one by one (a handful at most) so the audit trail records each.
        for subscription in Subscription.objects.filter(season=season, member__in=arrears):
            subscription.delete()
            report.subscriptions_removed += 1
        report.financial, report.arrears = len(financial), len(arrears)
        if moves_ratings:
            report.run = services.ratings_rerate(user=user, reason="Members imported")
        else:
            # New members (a rating brought in shows at once) and changed starting details
            # of members yet to play: their states alone.
            services.member_states_write(member_ids=[m.pk for m in (*new, *changed)])
    return report


# -- results ------------------------------------------------------------------------------


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
        text = f"{len(self.events)} events imported with {self.games} games."
        if self.run is not None:
            text += (
                f" Re-rated {self.run.events_rated} events ({self.run.games_rated} games) "
                f"in {self.run.seconds:.2f}s."
            )
        return text


def results_check(data: bytes | str) -> tuple[list[ImportedEvent], list[Problem]]:
    """The events of a results file and every problem in it (nothing is saved)."""
    table, problems = read_table(data, columns=RESULT_COLUMNS, required=RESULT_REQUIRED)
    ids = {row[c] for _, row in table.rows for c in ("white", "black") if row.get(c)}
    # Member numbers are the same whatever their case (as in the members file): a1 is A1.
    recorded = _numbers_in_any_case(ids)
    events: dict[str, ImportedEvent] = {}
    # (event, round) -> member id -> the line it was first seen on
    playing: dict[tuple[str, int], dict[str, int]] = {}
    for line, row in table.rows:
        before = len(problems)
        name = _required(row, "event", line, problems)
        _longest(name, 120, line, "event", problems)
        if problem := name_problem(name):
            problems.append(Problem(line, "event", problem))
        day = None
        if _required(row, "date", line, problems):
            day = _date(row["date"], line, "date", problems)
            if day is not None and (problem := event_date_problem(day)):
                problems.append(Problem(line, "date", problem))
                day = None
        round_ = None
        if _required(row, "round", line, problems):
            value = row["round"]
            if value.isascii() and value.isdigit() and 1 <= int(value) <= 99:
                round_ = int(value)
            else:
                problems.append(
                    Problem(line, "round", f"{value!r} is not a round number (1 to 99)")
                )
        white = _required(row, "white", line, problems)
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
        text = _required(row, "result", line, problems)
        if text:
            result = read_result(text)
            if result is None:
                problems.append(
                    Problem(
                        line, "result", f"{text!r} is not a result; allowed: {allowed_results()}"
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
    first_line = {}
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
            run = services.ratings_rerate(
                start=saved[0], user=user, reason=f"Results imported: {len(saved)} events"
            )
    assert len(created) == len(saved)
    return ResultsReport(events=saved, games=len(games), run=run)


# -- tournament files (import_trf, import_pgn) ---------------------------------------------


@dataclass
class FilePlayer:
    """A player of a tournament file: ``key`` is what the file's games name them by."""

    key: int
    name: str
    fide_id: str = ""
    title: str = ""
    sex: str = ""
    rating: int | None = None
    line: int = 0
    where: str = ""  # where the file names them, when not a line ("game 3")

    def __post_init__(self) -> None:
        self.where = self.where or f"line {self.line}"


@dataclass
class FileEvent:
    """One event read from a file, ready to import: its games are (round, white key, black
    key or None, result, colours known)."""

    source: str  # the file, for messages
    name: str
    start: dt.date
    end: dt.date
    rounds: int
    kind: str = Event.Kind.SWISS
    time_control: str = ""
    players: list[FilePlayer] = field(default_factory=list)
    games: list[tuple[int, int, int | None, str, bool]] = field(default_factory=list)


class FilesRefused(Exception):
    """Tournament files with problems: nothing was saved. One problem a line."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        count = len(self.problems)
        super().__init__(
            f"Refused, nothing saved ({count} problem{'s' * (count != 1)}):\n"
            + "\n".join(self.problems)
        )


@dataclass
class FilesReport:
    players: int = 0
    new: int = 0
    games: int = 0
    unplayed: int = 0
    events: int = 0
    dry_run: bool = False
    notes: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return (
            f"{'would import' if self.dry_run else 'imported'}: {self.players} players "
            f"({self.new} new), {self.games} games rated, {self.unplayed} unplayed, "
            f"{self.events} events"
        )


def _is_rated_game(result: str, black: int | None) -> bool:
    return black is not None and result in Game.PLAYED


def files_import(
    events: Sequence[FileEvent],
    *,
    problems: Sequence[str] = (),
    create_missing: bool = False,
    as_guests: bool = False,
    dry_run: bool = False,
    user: Any = None,
) -> FilesReport:
    """Import events read from tournament files, complete and rated, all or nothing.

    Players are matched to members by ``match_players`` (as the web import does); those
    who match no one stop the import unless ``create_missing`` (new members) or
    ``as_guests`` (new guests). An event already recorded (same name, start and end) is
    left alone and said so. ``problems`` are those found reading the files: any problem
    raises ``FilesRefused`` listing them all, nothing saved.
    """
    from .forms import next_member_numbers

    problems = list(problems)
    report = FilesReport(dry_run=dry_run)
    todo: list[tuple[FileEvent, dict[int, Member | None]]] = []
    seen: dict[tuple[str, dt.date, dt.date], str] = {}
    rating_field = Member._meta.get_field("initial_rating")
    for event in events:
        key = (event.name, event.start, event.end)
        existing = Event.objects.filter(
            name=event.name, start_date=event.start, end_date=event.end
        ).first()
        if existing is not None:
            report.notes.append(
                f'{event.source}: already imported as "{existing.name}" '
                f"({existing.start_date}); nothing done"
            )
            continue
        if key in seen:
            report.notes.append(
                f'{event.source}: the same event as {seen[key]} ("{event.name}", '
                f"{event.start}); nothing done"
            )
            continue
        seen[key] = event.source
        try:  # the event form's rules: name, dates in order, no mistyped year
            Event(name=event.name, start_date=event.start, end_date=event.end).clean()
        except ValidationError as error:
            for messages in error.message_dict.values():
                problems += [f"{event.source}: {m}" for m in messages]
        matches = match_players((p.key, p.name, p.fide_id) for p in event.players)
        missing = [p for p in event.players if p.key not in matches]
        if missing and not (create_missing or as_guests):
            problems.append(
                f"{event.source}: {len(missing)} player(s) match no member "
                "(give --create-missing or --as-guests to add them):"
            )
            problems += [f"{event.source}, {p.where}: {p.name}" for p in missing]
        twice: dict[int, FilePlayer] = {}
        for player in event.players:
            member = matches.get(player.key)
            if member is None:
                if (create_missing or as_guests) and player.rating is not None:
                    try:
                        rating_field.run_validators(player.rating)
                    except ValidationError as error:
                        problems.append(
                            f"{event.source}, {player.where}: {player.name}'s rating "
                            f"{player.rating}: {' '.join(error.messages)}"
                        )
                continue
            if member.pk in twice:
                other = twice[member.pk]
                problems.append(
                    f"{event.source}, {player.where}: {player.name} and {other.name} "
                    f"({other.where}) are both member {member.member_number}"
                )
            twice[member.pk] = player
        new_names: dict[str, FilePlayer] = {}
        for player in missing:
            other = new_names.setdefault(name_key(player.name), player)
            if other is not player:
                problems.append(
                    f"{event.source}, {player.where}: {player.name} has the name of "
                    f"{other.name} ({other.where}) and matches no member: which is which?"
                )
        todo.append((event, {p.key: matches.get(p.key) for p in event.players}))
    if problems:
        raise FilesRefused(problems)
    # Players new here, by name, across the files: one new member each.
    new_members: dict[str, Member] = {}
    members: set[int] = set()
    for event, matched in todo:
        for player in event.players:
            member = matched[player.key]
            if member is not None:
                members.add(member.pk)
            elif name_key(player.name) not in new_members:
                new_members[name_key(player.name)] = Member(
                    name=player.name,
                    is_guest=as_guests and not create_missing,
                    fide_id=player.fide_id if player.fide_id.isdigit() else "",
                    title=player.title if player.title in TITLES else "",
                    gender={"m": "M", "w": "F", "f": "F"}.get(player.sex.lower(), ""),
                    initial_rating=player.rating,
                )
        report.games += sum(_is_rated_game(g[3], g[2]) for g in event.games)
        report.unplayed += sum(not _is_rated_game(g[3], g[2]) for g in event.games)
    report.players = len(members) + len(new_members)
    report.new = len(new_members)
    report.events = len(todo)
    if dry_run or not todo:
        return report
    guest = as_guests and not create_missing
    numbers = iter(next_member_numbers("G" if guest else "N", len(new_members)))
    for member in new_members.values():
        member.member_number = next(numbers)
    with transaction.atomic():
        saved = []
        for event, matched in todo:
            players = {
                p.key: matched[p.key] or new_members[name_key(p.name)] for p in event.players
            }
            record = Event(
                name=event.name,
                kind=event.kind,
                start_date=event.start,
                end_date=event.end,
                rounds=min(max(event.rounds, 1), 99),
                time_control=event.time_control[:40],
                status=Event.Status.COMPLETE,
                rated=True,
            )
            saved.append(
                services.trf_import(event=record, games=event.games, players=players, user=user)
            )
        saved.sort(key=services.rating_key)
        system = ClubSettings.load().engine()
        services.periods_close_past(system=system)
        services.ratings_rerate(
            start=saved[0], user=user, reason=f"Tournament files imported: {len(saved)} events"
        )
    return report


def trf_event(source: str, data: bytes) -> tuple[FileEvent | None, list[str]]:
    """The event in a TRF file (``trf.parse``, as the web import reads it), or its problems."""
    from . import trf
    from .forms import KIND_FROM_TRF

    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None, [f"{source}: the file is UTF-16 text: save it as UTF-8 (or Latin-1)"]
    try:
        tournament = trf.parse(data)
    except trf.TrfError as error:
        return None, [f"{source}: {p}" for p in error.problems]
    problems = []
    if tournament.start is None:
        problems.append(f"{source}: no start date (line 042, or the round dates of line 132)")
    if not tournament.name:
        problems.append(f"{source}: no tournament name (line 012)")
    if problems:
        return None, problems
    assert tournament.start is not None
    kind = next(
        (k for word, k in KIND_FROM_TRF if word in tournament.kind.lower()), Event.Kind.SWISS
    )
    event = FileEvent(
        source=source,
        name=tournament.name[:120],
        start=tournament.start,
        end=tournament.end or tournament.start,
        rounds=tournament.rounds,
        kind=kind,
        time_control=tournament.time_control,
        players=[
            FilePlayer(p.rank, p.name, p.fide_id, p.title, p.sex, p.rating, p.line)
            for p in tournament.players
        ],
        games=[(g.round, g.white, g.black, g.result, g.colours_known) for g in tournament.games()],
    )
    return event, []


PGN_RESULTS = {
    "1-0": Game.Result.WHITE_WIN,
    "0-1": Game.Result.BLACK_WIN,
    "1/2-1/2": Game.Result.DRAW,
}


def _pgn_date(text: str) -> dt.date | None:
    try:
        return dt.datetime.strptime(text.strip(), "%Y.%m.%d").date()
    except ValueError:
        return None


def pgn_events(
    source: str, data: bytes, *, event_name: str | None = None
) -> tuple[list[FileEvent], list[str]]:
    """The events of a PGN file, from its games' headers only (python-chess's
    ``read_headers``: the moves are skipped, so big files are quick): one event per
    Event and Site (its dates spanning its games'), or all in ``event_name``. Problems
    name the game by its number in the file."""
    import chess.pgn

    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return [], [f"{source}: the file is UTF-16 text: save it as UTF-8 (or Latin-1)"]
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")  # PGN's own character set (the standard's 4.1)
    if "\x00" in text:
        return [], [f"{source}: holds NUL characters: not a text file"]
    stream = io.StringIO(text)
    problems: list[str] = []
    groups: dict[tuple[str, str], list[tuple[int, Any, dt.date, int, str]]] = {}
    number = 0
    while (headers := chess.pgn.read_headers(stream)) is not None:
        number += 1
        white, black = headers.get("White", "").strip(), headers.get("Black", "").strip()
        where = f"{source}, game {number} ({white or '?'} - {black or '?'})"
        before = len(problems)
        for colour, name in (("White", white), ("Black", black)):
            if not name or name == "?":
                problems.append(f"{where}: no {colour} player")
        result = headers.get("Result", "*").strip()
        if result == "*":
            problems.append(f"{where}: no result (*): finish or remove the game")
        elif result not in PGN_RESULTS:
            problems.append(f"{where}: {result!r} is not a result (1-0, 0-1, 1/2-1/2)")
        day = _pgn_date(headers.get("Date", "")) or _pgn_date(headers.get("EventDate", ""))
        if day is None:
            problems.append(f"{where}: no date (Date {headers.get('Date', '')!r})")
        elif problem := event_date_problem(day):
            problems.append(f"{where}: {problem}")
        round_text = headers.get("Round", "").strip().split(".")[0]
        if not (round_text.isdigit() and 1 <= int(round_text) <= 99):
            problems.append(f"{where}: {headers.get('Round', '')!r} is not a round (1 to 99)")
        if white and white == black:
            problems.append(f"{where}: {white} cannot play themselves")
        name = event_name or headers.get("Event", "").strip()
        if not name or name == "?":
            problems.append(f"{where}: no Event header: name the event with --event")
        if len(problems) == before:
            assert day is not None
            key = (name, "" if event_name else headers.get("Site", "").strip())
            groups.setdefault(key, []).append(
                (number, headers, day, int(round_text), PGN_RESULTS[result])
            )
    if number == 0:
        problems.append(f"{source}: no games: not a PGN file")
    events = []
    if event_name:
        for games in groups.values():
            _renumber_rounds(games)
    sites = [name for name, _site in groups]
    for (name, site), games in groups.items():
        # One Event at several Sites is several events: the site tells them apart.
        label = name if sites.count(name) == 1 else f"{name} ({site or '?'})"
        event = FileEvent(
            source=f"{source}, event {label!r}",
            name=label[:120],
            start=min(g[2] for g in games),
            end=max(g[2] for g in games),
            rounds=max(g[3] for g in games),
        )
        keys: dict[str, FilePlayer] = {}
        playing: dict[tuple[int, str], int] = {}
        for number, headers, _day, round_, result in games:
            sides = []
            for colour in ("White", "Black"):
                player_name = headers[colour].strip()
                player = keys.get(player_name)
                if player is None:
                    elo = headers.get(f"{colour}Elo", "")
                    player = keys[player_name] = FilePlayer(
                        key=len(keys) + 1,
                        name=player_name,
                        fide_id=headers.get(f"{colour}FideId", "").strip(),
                        title=headers.get(f"{colour}Title", "").strip().upper(),
                        rating=int(elo) if elo.isdigit() and int(elo) > 0 else None,
                        line=number,
                        where=f"game {number}",
                    )
                first = playing.setdefault((round_, player_name), number)
                if first != number:
                    problems.append(
                        f"{source}, game {number}: {player_name} already plays round "
                        f"{round_} of {label!r} in game {first}"
                    )
                sides.append(player.key)
            event.games.append((round_, sides[0], sides[1], result, True))
        event.players = list(keys.values())
        events.append(event)
    return events, problems


def _renumber_rounds(games: list[tuple[int, Any, dt.date, int, str]]) -> None:
    """Games of several events put in one (``--event``): their rounds, in date order, become
    the one event's rounds 1, 2, 3... (one event's own rounds are kept)."""
    origin = {(h.get("Event", ""), h.get("Site", "")) for _n, h, _d, _r, _res in games}
    if len(origin) < 2:
        return
    first: dict[tuple[str, str, int], dt.date] = {}
    for _n, headers, day, round_, _res in games:
        key = (headers.get("Event", ""), headers.get("Site", ""), round_)
        first[key] = min(first.get(key, day), day)
    order = {key: i for i, key in enumerate(sorted(first, key=lambda k: (first[k], k)), 1)}
    for i, (number, headers, day, round_, result) in enumerate(games):
        key = (headers.get("Event", ""), headers.get("Site", ""), round_)
        games[i] = (number, headers, day, order[key], result)
