"""Tournament files from pairing programs (TRF, PGN) read into the events they hold:
``trf_event`` and ``pgn_events`` give each event with its players and games (``FileEvent``)
or the file's problems, saving nothing and asking nothing of the record.

Matching their players to members and saving them (``import_trf``, ``import_pgn``, the web
import) are ``services.tournament_imports``'.
"""

from __future__ import annotations

import datetime as dt
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..models import (
    Event,
    Game,
    event_date_problem,
    name_problem,
)
from ..rules import results
from ..rules.names import is_bye_placeholder
from ..rules.places_of_play import pgn_online_why
from ..rules.text import EVENT_NAME_LENGTH, cut, text_problem
from ..rules.time_classes import STANDARD, time_class_and_why
from ..words.counts import count_phrase
from . import trf
from .trf import player_title, shared_fide_ids

# -- tournament files (import_trf, import_pgn) ---------------------------------------------

#: The largest tournament file taken, on the web or the command line: a 999-player,
#: 99-round TRF is about 1 MB, and 5 MB of PGN is thousands of games with their moves.
MAX_FILE_BYTES = 5_000_000


def file_size_problem(source: str, size: int) -> str | None:
    """Why a file of ``size`` bytes is refused before it is read, or None."""
    if size <= MAX_FILE_BYTES:
        return None
    return (
        f"{source}: the file is {size / 1_000_000:.1f} MB: a tournament file may be at most "
        f"{MAX_FILE_BYTES // 1_000_000} MB (is it the right file? A PGN of many events can "
        "be split into several files)"
    )


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
    federation: str = ""  # as the file gives it (TRF: FIDE's three letters)
    born: str = ""  # as the file gives it: "1990/05/17", "1990", "1990/00/00"

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
    time_class: str = ""  # as the file says outright (XXT); else from time control and name
    rated: bool = True
    #: Played online, as the file says (a Lichess or chess.com export); the officer may
    #: change it at the preview, or with ``--online``/``--over-the-board``.
    online: bool = False
    online_why: str = ""  # why the file reads as online, in words for the officer
    players: list[FilePlayer] = field(default_factory=list)
    games: list[tuple[int, int, int | None, str, bool]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the reader made of the file
    #: The tie-breaks the file names that the club knows (a TRF's 202/212); () for the
    #: kind's default.
    tie_breaks: tuple[str, ...] = ()


def event_time_class(time_control: str, name: str) -> str:
    """Standard, rapid or blitz, as a file's time control and its event's name say
    together (``time_classes.time_class_and_why``); standard when neither says."""
    return event_time_class_and_why(time_control, name)[0]


def event_time_class_and_why(time_control: str, name: str) -> tuple[str, str]:
    """The class and why, in words for the officer's preview."""
    return time_class_and_why(time_control, name) or (
        STANDARD,
        "neither the file's time control nor the event's name says: standard unless you change it",
    )


#: The event's kind from the words of a TRF's ``092`` line (the first that appears; a
#: Swiss when none does).
KIND_FROM_TRF = (
    ("club night", Event.Kind.CLUB_NIGHT),
    ("match", Event.Kind.MATCH),
    ("league", Event.Kind.LEAGUE),
    ("interclub", Event.Kind.LEAGUE),
    ("round", Event.Kind.ROUND_ROBIN),
    ("robin", Event.Kind.ROUND_ROBIN),
    ("team", Event.Kind.LEAGUE),
    ("swiss", Event.Kind.SWISS),
)


def trf_event(
    source: str, data: bytes, *, date: dt.date | None = None
) -> tuple[FileEvent | None, list[str]]:
    """The event in a TRF file (``trf.parse``, as the web import reads it), or its problems.

    Pairing programs often write no start date (no ``042``, no round dates): ``date`` is
    the one the officer gives for such a file (``import_trf --date``); a file's own date
    always wins."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None, [f"{source}: the file is UTF-16 text: save it as UTF-8 (or Latin-1)"]
    try:
        tournament = trf.parse(data)
    except trf.TrfError as error:
        return None, [f"{source}: {p}" for p in error.problems]
    problems = []
    if tournament.start is None and date is not None:
        tournament.start = date
        tournament.end = tournament.end if tournament.end and tournament.end >= date else None
    if tournament.start is None:
        problems.append(
            f"{source}: no start date (line 042, or the round dates of line 132): "
            "give one with --date YYYY-MM-DD"
        )
    # What the reader made of the file (a date it could not read, and what it took
    # instead): the command says it, as the web preview does.
    notes = [f"{source}: {warning}" for warning in tournament.warnings]
    if not tournament.name:
        # A pairing engine's file often names no tournament: the file's name does.
        tournament.name = Path(source).stem.replace("_", " ").strip() or "Imported tournament"
        notes.append(f'{source}: no tournament name (line 012): named "{tournament.name}"')
    if problems:
        return None, problems
    assert tournament.start is not None
    kind = next(
        (k for word, k in KIND_FROM_TRF if word in tournament.kind.lower()), Event.Kind.SWISS
    )
    event = FileEvent(
        source=source,
        name=tournament.name[:EVENT_NAME_LENGTH],
        start=tournament.start,
        end=tournament.end or tournament.start,
        rounds=tournament.rounds,
        kind=kind,
        time_control=tournament.time_control,
        time_class=tournament.time_class,
        rated=tournament.rated is not False,
        online=bool(tournament.online_why),
        online_why=tournament.online_why,
        players=[
            FilePlayer(
                p.rank,
                p.name,
                p.fide_id,
                p.title,
                p.sex,
                p.rating,
                p.line,
                federation=p.federation,
                born=p.born,
            )
            for p in tournament.players
        ],
        games=[(g.round, g.white, g.black, g.result, g.colours_known) for g in tournament.games()],
        notes=notes,
        tie_breaks=tournament.tie_breaks,
    )
    if note := time_control_note(event):
        event.notes.append(note)
    if tournament.online_why:
        event.notes.append(f"{source}: played online: {tournament.online_why}")
    if tournament.tie_breaks:
        event.notes.append(
            f"{source}: tie-breaks as the file names them: {', '.join(tournament.tie_breaks)}"
        )
    return event, []


PGN_RESULTS = results.PGN


def time_control_note(event: FileEvent) -> str | None:
    """What the file's time control was read as, for the officer ("time control
    90/40+30 read as standard: ..."); None when the file gives none or says its class
    outright (a TRF's XXT)."""
    if not event.time_control or event.time_class:
        return None
    found = time_class_and_why(event.time_control, "")
    if found is None:
        return (
            f"{event.source}: time control {event.time_control!r} gives no class "
            "(standard, rapid, blitz): the event's name decides, else standard"
        )
    return f"{event.source}: time control {event.time_control} read as {found[0]}: {found[1]}"


def _pgn_date(text: str) -> dt.date | None:
    try:
        return dt.datetime.strptime(text.strip(), "%Y.%m.%d").date()
    except ValueError:
        return None


#: The tags that date a game, in the order they are taken: the standard's Date, then
#: Lichess's UTCDate (its database's games carry no Date), then the event's start.
_DATE_TAGS = ("Date", "UTCDate", "EventDate")


def _game_date(headers: Any, given: dt.date | None) -> tuple[dt.date | None, str]:
    """A game's date and, when not its Date tag, what gave it ("UTCDate", "--date")."""
    for tag in _DATE_TAGS:
        if (day := _pgn_date(headers.get(tag, ""))) is not None:
            return day, "" if tag == "Date" else tag
    return given, "--date" if given is not None else ""


def _dated_notes(hows: list[str]) -> list[str]:
    """How the event's games without a Date were dated, one note a way."""
    said = {
        "UTCDate": "dated by the UTCDate tag (no Date tag)",
        "EventDate": "dated by the EventDate tag (no Date tag)",
        "--date": "gave no date: dated by the date given (--date)",
    }
    return [f"{count_phrase(hows.count(how), 'game')} {said[how]}" for how in said if how in hows]


#: A game's own address as its Site (Lichess, chess.com): not a place.
_GAME_URL = re.compile(r"https?://", re.IGNORECASE)

#: A tag pair's line: ``[Name "value"]``.
_TAG_LINE = re.compile(r'\[([A-Za-z0-9_]+)\s+"')


def _games_apart(text: str) -> str:
    """PGN text with each game's tags apart from the next game's.

    A file of tags only (a broadcast exported without its moves) has one blank line, or
    none, between games; python-chess takes a blank line among tags as part of one
    game's tags, so 605 games read as one. Each game of tags only is given the
    standard's empty movetext, the marker ``*``, before the next game's tags (a tag it
    already has, or a blank line once it has its White and Black, begins the next
    game); the games' results are their Result tags still."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    names: set[str] = set()
    tags_only = False  # since the last movetext, only tags (and blank lines)
    gap = False  # a blank line after those tags
    for line in lines:
        tag = _TAG_LINE.match(line)
        if tag is not None:
            # A tag the game already has, or a blank line after a game's players: the
            # next game's tags (ChessBase leaves a blank line among one game's tags).
            if tags_only and (tag[1] in names or (gap and {"White", "Black"} <= names)):
                out.append("*\n\n")
                names = set()
            tags_only, gap = True, False
            names.add(tag[1])
        elif not line.strip():
            gap = tags_only
        elif not line.startswith(("%", ";")):  # movetext (escape and comment lines aside)
            tags_only, gap, names = False, False, set()
        out.append(line if line.endswith(("\n", "\r")) else line + "\n")
    return "".join(out)


def _most_common(values: Any) -> str:
    counted: dict[str, int] = {}
    for value in values:
        if value and value not in {"?", "-"}:
            counted[value] = counted.get(value, 0) + 1
    return max(counted, key=lambda v: counted[v]) if counted else ""


def _join_sites(groups: dict[tuple[str, str], list[Any]]) -> dict[tuple[str, str], str]:
    """One Event at several Sites that share players is one event at several halls (a
    broadcast's Site per room): their groups joined, in place, into the first; what
    was joined, by the group kept. Sites with no player in common stay apart."""
    joined: dict[tuple[str, str], list[str]] = {}
    players = {key: {n for g in games for n in _sides(g[1])} for key, games in groups.items()}
    changed = True
    while changed:  # until no two groups of one Event share a player
        changed = False
        for key, other in [(k, o) for k in groups for o in groups if k < o and k[0] == o[0]]:
            if key in groups and other in groups and players[key] & players[other]:
                groups[key] += groups.pop(other)
                players[key] |= players.pop(other)
                joined.setdefault(key, [key[1] or "?"]).append(other[1] or "?")
                changed = True
    return {
        key: (f"its games at {len(sites)} Sites ({'; '.join(sites)}) share players: one event")
        for key, sites in joined.items()
    }


def pgn_events(
    source: str, data: bytes, *, event_name: str | None = None, date: dt.date | None = None
) -> tuple[list[FileEvent], list[str]]:
    """The events of a PGN file, from its games' headers only (python-chess's
    ``read_headers``: the moves are skipped, so big files are quick): one event per
    Event and Site (its dates spanning its games'), or all in ``event_name``. Problems
    name the game by its number in the file.

    A game's date is its Date, else its UTCDate (Lichess's database writes no Date),
    else its EventDate, else ``date`` (``import_pgn --date``), each said in the event's
    notes. Games between the same two players in one round (a knockout's ``4.1``,
    ``4.2``; a league meet) are a match, kept; a player against two opponents in one
    round is refused."""
    # Here, not at the top: every web process imports this module (the TRF upload's form),
    # and only a PGN import needs python-chess, the slowest of the app's imports to load.
    import chess.pgn

    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return [], [f"{source}: the file is UTF-16 text: save it as UTF-8 (or Latin-1)"]
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")  # PGN's own character set (the standard's 4.1)
    if "\x00" in text:
        return [], [f"{source}: holds NUL characters: not a text file"]
    stream = io.StringIO(_games_apart(text))
    problems: list[str] = []
    dated_by: dict[int, str] = {}  # games dated otherwise than by their Date tag
    groups: dict[tuple[str, str], list[tuple[int, Any, dt.date, int | None, str]]] = {}
    number = 0
    untagged: list[str] = []
    while (headers := chess.pgn.read_headers(stream)) is not None:
        number += 1
        if not headers:  # text without a single tag pair: not a game's headers
            untagged.append(f"{source}, game {number}: no header tags (Event, White, ...)")
            continue
        white, black = headers.get("White", "").strip(), headers.get("Black", "").strip()
        where = f"{source}, game {number} ({white or '?'} - {black or '?'})"
        before = len(problems)
        for colour, name in (("White", white), ("Black", black)):
            if not name or name == "?":
                problems.append(f"{where}: no {colour} player")
            elif problem := name_problem(name):
                problems.append(f"{where}: {colour}: {problem}")
        result = headers.get("Result", "*").strip()
        if result == "*":
            problems.append(f"{where}: no result (*): finish or remove the game")
        elif result not in PGN_RESULTS:
            problems.append(f"{where}: {result!r} is not a result (1-0, 0-1, 1/2-1/2)")
        day, how = _game_date(headers, date)
        if how:
            dated_by[number] = how
        if day is None:
            problems.append(
                f"{where}: no date (Date {headers.get('Date', '')!r}, no UTCDate or "
                "EventDate): give the games' date (import_pgn --date YYYY-MM-DD)"
            )
        elif problem := event_date_problem(day):
            problems.append(f"{where}: {problem}")
        round_text = headers.get("Round", "").strip().split(".")[0]
        round_: int | None = None
        if round_text in NO_ROUND:
            pass  # chess.com's "-", the standard's "?", none: placed by date or order
        elif not (round_text.isdigit() and 1 <= int(round_text) <= 99):
            problems.append(f"{where}: {headers.get('Round', '')!r} is not a round (1 to 99)")
        else:
            round_ = int(round_text)
        if white and white == black:
            problems.append(f"{where}: {white} cannot play themselves")
        name = event_name or headers.get("Event", "").strip()
        if not name or name == "?":
            problems.append(f"{where}: no Event header: name the event with --event")
        for tag in ("Event", "Site"):
            if problem := text_problem(headers.get(tag, "")):
                problems.append(f"{where}: {tag}: {problem}")
        if len(problems) == before:
            assert day is not None
            site = headers.get("Site", "").strip()
            # A site's URL of each game (a Lichess or chess.com export) names the game,
            # not where the event was: the Event alone groups them.
            key = (name, "" if event_name or _GAME_URL.match(site) else site)
            groups.setdefault(key, []).append((number, headers, day, round_, PGN_RESULTS[result]))
    if number == len(untagged):
        problems.append(f"{source}: no games: not a PGN file")
    else:
        problems += untagged
    events = []
    notes: dict[tuple[str, str], str] = {}
    joined = _join_sites(groups)
    for key, games in groups.items():
        if note := _place_rounds(games):
            notes[key] = note
    if event_name:
        for games in groups.values():
            _renumber_rounds(games)
    sites = [name for name, _site in groups]
    for (name, site), games in groups.items():
        # One Event at several Sites is several events: the site tells them apart.
        label = name if sites.count(name) == 1 else f"{name} ({site or '?'})"
        rounds = max(g[3] or 1 for g in games)
        too_long = cut("the event's name", label, EVENT_NAME_LENGTH)
        cut_note = [f"{source}, event {label!r}: {too_long}"] if too_long else []
        where_event = f"{source}, event {label!r}"
        event = FileEvent(
            source=where_event,
            name=label[:EVENT_NAME_LENGTH],
            start=min(g[2] for g in games),
            end=max(g[2] for g in games),
            rounds=rounds,
            # One round on one night is a club night, not a Swiss.
            kind=Event.Kind.CLUB_NIGHT if rounds == 1 else Event.Kind.SWISS,
            time_control=_most_common(g[1].get("TimeControl", "").strip() for g in games),
            notes=cut_note
            + ([f"{where_event}: {joined[name, site]}"] if (name, site) in joined else [])
            + ([f"{where_event}: {notes[name, site]}"] if (name, site) in notes else [])
            + [
                f"{where_event}: {note}"
                for note in _dated_notes([dated_by[g[0]] for g in games if g[0] in dated_by])
            ],
        )
        keys: dict[str, FilePlayer] = {}
        playing: dict[tuple[int, str], tuple[int, str | None]] = {}
        matches: set[tuple[int, frozenset[str]]] = set()
        for number, headers, _day, placed, result in games:
            round_ = placed or 1
            names = [headers[colour].strip() for colour in ("White", "Black")]
            if all(map(is_bye_placeholder, names)):
                problems.append(f"{source}, game {number}: neither player is a player")
                continue
            sides: list[int | None] = []
            for colour in ("White", "Black"):
                player_name = headers[colour].strip()
                if is_bye_placeholder(player_name):
                    sides.append(None)  # the empty seat: the other player's bye
                    continue
                player = keys.get(player_name)
                if player is None:
                    elo = headers.get(f"{colour}Elo", "")
                    player = keys[player_name] = FilePlayer(
                        key=len(keys) + 1,
                        name=player_name,
                        fide_id=headers.get(f"{colour}FideId", "").strip(),
                        title=player_title(headers.get(f"{colour}Title", "")),
                        rating=int(elo) if elo.isdigit() and int(elo) > 0 else None,
                        line=number,
                        where=f"game {number}",
                    )
                other = names[1] if colour == "White" else names[0]
                opponent = None if is_bye_placeholder(other) else other
                first, met = playing.setdefault((round_, player_name), (number, opponent))
                if first != number:
                    if opponent is None or met != opponent:
                        problems.append(
                            f"{source}, game {number}: {player_name} already plays round "
                            f"{round_} of {label!r} in game {first}"
                            + (f", against {met}" if met else "")
                            + ": a player meets one opponent a round (several games "
                            "against the same one are a match)"
                        )
                    else:  # the same two players again: a match's next game
                        matches.add((round_, frozenset(names)))
                sides.append(player.key)
            if sides[0] is None or sides[1] is None:
                # A game against the bye placeholder: the player's bye, of their points.
                player_key = sides[0] if sides[1] is None else sides[1]
                assert player_key is not None
                points = Game.POINTS[result][0 if sides[1] is None else 1]
                bye = {1.0: results.BYE, 0.5: results.HALF_BYE}.get(points, results.ZERO_BYE)
                event.games.append((round_, player_key, None, bye, False))
                continue
            event.games.append((round_, sides[0], sides[1], result, True))
        event.players = list(keys.values())
        if matches:
            in_rounds = sorted({r for r, _pair in matches})
            event.notes.append(
                f"{where_event}: {count_phrase(len(matches), 'match', 'matches')} (several "
                "games between the same two players in one round, as a knockout or a "
                f"league meet plays them) in round{'s' if len(in_rounds) > 1 else ''} "
                f"{', '.join(map(str, in_rounds))}: each game kept and rated"
            )
        if note := time_control_note(event):
            event.notes.append(note)
        online = next(
            ((g[0], why) for g in games if (why := pgn_online_why(g[1])) is not None), None
        )
        if online is not None:
            event.online, event.online_why = True, f"game {online[0]}: {online[1]}"
            event.notes.append(f"{where_event}: played online: {event.online_why}")
        problems += [
            f"{source}, {second.where}: {second.name} has FIDE id {fide_id}, as has "
            f"{first.name} ({first.where}): one FIDE id is one person; correct one of them"
            for fide_id, first, second in shared_fide_ids(event.players)
        ]
        events.append(event)
    return events, problems


#: A PGN Round tag that gives no round: missing, the standard's "?" (unknown), chess.com's
#: and lichess's "-" (not in a round).
NO_ROUND = frozenset({"", "?", "-", "*"})
#: An Event tag that names no event: missing, or the standard's "?".
NO_EVENT = frozenset({"", "?"})


def _place_rounds(games: list[tuple[int, Any, dt.date, int | None, str]]) -> str | None:
    """Rounds for an event's games that give none: a round a date, in date order, when its
    games fall on several dates and no player plays twice on one; otherwise by their place
    in the file, each game in the round after either player's last. The games given a
    round keep it. Says what was made, for the preview (None when nothing was)."""
    missing = [i for i, g in enumerate(games) if g[3] is None]
    if not missing:
        return None
    base = max((g[3] or 0 for g in games), default=0)
    days = sorted({games[i][2] for i in missing})
    played_on = [(games[i][2], side) for i in missing for side in _sides(games[i][1])]
    if len(days) > 1 and len(played_on) == len(set(played_on)):
        number = {day: base + n for n, day in enumerate(days, start=1)}
        for i in missing:
            games[i] = (*games[i][:3], number[games[i][2]], games[i][4])
        how = "one a date, in date order"
    else:
        last: dict[str, int] = {}
        for g in games:
            for side in _sides(g[1]):
                last[side] = max(last.get(side, 0), g[3] or 0)
        for i in sorted(missing, key=lambda i: (games[i][2], games[i][0])):
            sides = _sides(games[i][1])
            round_ = max(last.get(side, 0) for side in sides) + 1
            round_ = max(round_, base + 1) if base else round_
            for side in sides:
                last[side] = round_
            games[i] = (*games[i][:3], round_, games[i][4])
        how = "each game in the round after either player's last, in the order of the file"
    made = sorted({games[i][3] or 0 for i in missing})
    shown = ", ".join(map(str, made))
    return (
        f"{count_phrase(len(missing), 'game')} gave no round (Round missing, '-' or '?'): "
        f"placed in {count_phrase(len(made), 'round')} ({shown}), {how}"
    )


def _sides(headers: Any) -> list[str]:
    return [
        name
        for name in (headers.get("White", "").strip(), headers.get("Black", "").strip())
        if not is_bye_placeholder(name)
    ]


def _renumber_rounds(games: list[tuple[int, Any, dt.date, int | None, str]]) -> None:
    """Games of several events put in one (``--event``): their rounds, in date order, become
    the one event's rounds 1, 2, 3... (one event's own rounds are kept)."""
    # A game without an Event tag (a broadcast's export names the event once, or never)
    # is of no other event.
    origin = {
        (h.get("Event", ""), h.get("Site", ""))
        for _n, h, _d, _r, _res in games
        if h.get("Event", "").strip() not in NO_EVENT
    }
    if len(origin) < 2:
        return
    first: dict[tuple[str, str, int | None], dt.date] = {}
    for _n, headers, day, round_, _res in games:
        key = (headers.get("Event", ""), headers.get("Site", ""), round_)
        first[key] = min(first.get(key, day), day)
    order = {key: i for i, key in enumerate(sorted(first, key=lambda k: (first[k], k)), 1)}
    for i, (number, headers, day, round_, result) in enumerate(games):
        key = (headers.get("Event", ""), headers.get("Site", ""), round_)
        games[i] = (number, headers, day, order[key], result)
