"""Read FIDE Tournament Report Files (TRF16 and TRF-2026) as pairing programs write them.

Pure Python, no Django: ``parse(data)`` takes the file's bytes (or text) and returns a
``Tournament`` with its players and the games between them, in the club's result words
(the values of ``Game.Result``). Real files bend the format (FIDE Handbook C.04 Annex 2),
so the reader is tolerant: any line ending, Latin-1 when the file is not UTF-8, free-text
dates, missing fields, shifted columns in the middle of a player line, TRF-2026 comment
lines and team records (read past, counted). What it cannot read becomes a warning, not
an error, as long as there are players.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..engine.codec import TITLES
from ..rules.names import hidden_characters, is_bye_placeholder
from ..rules.places_of_play import trf_online_why

# The club's results from its vocabulary (plain Python: the reader stays free of Django).
from ..rules.results import (
    BLACK_FORFEIT_WIN,
    BYE,
    DOUBLE_FORFEIT,
    HALF_BYE,
    TRF_CODES,
    ZERO_BYE,
)
from ..rules.text import EVENT_NAME_LENGTH, TIME_CONTROL_LENGTH, cut, text_problem
from ..words.counts import count_phrase
from .trf_tie_breaks import tie_breaks_read

# The result codes (FIDE Handbook C.04 Annex 2, TRF16 and TRF-2026):
#   1 = 0   a game played: win, draw, loss (rated)
#   W D L   a game scored but not rated (it lasted less than one move): win, draw, loss
#   + -     forfeit win, forfeit loss (no game)
#   H F U   half-point bye, full-point bye, pairing-allocated bye
#   Z, " "  zero-point bye: a known absence (a blank result is the same as Z)
#: The result of a game with an opponent, from the code on white's line.
#: (``-`` is a forfeit loss or a double forfeit: the opponent's code says which.)
GAME_RESULTS = {white: result for result, (white, _) in TRF_CODES.items() if white != "-"}
#: The code the opponent's line must hold for each code of a game.
AGREES = {
    "1": {"0"},
    "=": {"="},
    "0": {"1"},
    "W": {"L"},
    "D": {"D"},
    "L": {"W"},
    "+": {"-"},
    "-": {"+", "-"},
}
#: A player's own score for each TRF result code of a game.
CODE_POINTS = {"1": 1.0, "=": 0.5, "0": 0.0, "W": 1.0, "D": 0.5, "L": 0.0, "+": 1.0, "-": 0.0}
#: Codes that never have an opponent: the bye they stand for.
BYE_ONLY_CODES = {"H": HALF_BYE, "F": BYE, "U": BYE, "Z": ZERO_BYE, " ": ZERO_BYE}
#: Any code written with no opponent (``0000`` or blank): the bye it stands for. ``-``
#: alone is an absence, ``+`` alone a point with no one there; the game codes alone are
#: read by their points.
BYE_CODES = {
    **BYE_ONLY_CODES,
    "+": BYE,
    "-": ZERO_BYE,
    "1": BYE,
    "W": BYE,
    "=": HALF_BYE,
    "D": HALF_BYE,
    "0": ZERO_BYE,
    "L": ZERO_BYE,
}
CODES = set(BYE_CODES)

#: FIDE's player titles (Handbook C.04 Annex 2, columns 11-13), as the club records them.
PLAYER_TITLES = TITLES
#: The one- and two-letter codes TRF16 writes (g, m, f, c, wg, wm, wf, wc), and the
#: titles written out. Anything else there (an arbiter's IA/FA/NA, a trainer's FT/FST/FI/
#: DI/NI, an honorary title) is no player title: read as none.
TITLE_CODES = {
    "G": "GM",
    "M": "IM",
    "F": "FM",
    "C": "CM",
    "WG": "WGM",
    "WM": "WIM",
    "WF": "WFM",
    "WC": "WCM",
    **{title: title for title in PLAYER_TITLES},
}


def player_title(text: str) -> str:
    """The player title a file's title field (or a PGN ``WhiteTitle``) gives, or ""."""
    return TITLE_CODES.get(text.strip().upper(), "")


#: What pairing programs' templates leave in the time-control header when nobody filled it.
TIME_CONTROL_PLACEHOLDERS = frozenset({"moves/time, increment", "moves/time,increment"})

DATE_FORMATS = (
    "%Y/%m/%d",
    "%Y-%m-%d",
    "%Y.%m.%d",
    "%d/%m/%Y",
    "%d.%m.%Y",
    "%d-%m-%Y",
    "%y/%m/%d",
    "%B %d, %Y",
    "%b %d, %Y",
    "%d %B %Y",
    "%d %b %Y",
    "%Y%m%d",
)


#: The time classes an ``XXT`` line may name (``time_classes``' values).
TIME_CLASSES = ("standard", "rapid", "blitz")
#: What an ``XXU`` line says of an event not rated.
UNRATED_WORDS = frozenset({"unrated", "not rated", "no"})

#: The most rounds an event may have (``Event.rounds``): a file with more is refused.
MAX_ROUNDS = 99


class TrfError(ValueError):
    """A file that cannot be imported: not a tournament report, or lines that contradict.

    ``problems`` lists each one, naming its line; the message gives the first few.
    """

    SHOWN = 8

    def __init__(self, problems: str | list[str]) -> None:
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        if len(self.problems) == 1:
            message = self.problems[0]
        else:
            shown = self.problems[: self.SHOWN]
            more = len(self.problems) - len(shown)
            message = (
                f"The file cannot be imported ({count_phrase(len(self.problems), 'problem')}): "
                + " ".join(shown)
                + (f" And {more} more." if more else "")
            )
        super().__init__(message)


@dataclass
class RoundResult:
    round: int
    opponent: int | None  # the opponent's starting rank; None for a bye or no pairing
    colour: str  # "w", "b" or "-" (not known / no game)
    code: str  # the TRF result code: 1 = 0 + - W D L H F U Z or " "


@dataclass
class Player:
    rank: int
    name: str
    sex: str = ""
    title: str = ""
    rating: int | None = None
    federation: str = ""
    fide_id: str = ""
    born: str = ""
    points: float | None = None
    results: list[RoundResult] = field(default_factory=list)
    line: int = 0  # its line in the file

    def result(self, round_: int) -> RoundResult | None:
        return next((r for r in self.results if r.round == round_), None)

    @property
    def born_year(self) -> int | None:
        match = re.search(r"(19|20)\d\d", self.born)
        return int(match.group()) if match else None


@dataclass
class TrfGame:
    round: int
    white: int  # starting rank; the player with the bye for a bye
    black: int | None
    result: str  # a Game.Result value
    colours_known: bool = True

    @property
    def is_bye(self) -> bool:
        return self.black is None


@dataclass
class Tournament:
    name: str = ""
    city: str = ""
    federation: str = ""
    start: dt.date | None = None
    end: dt.date | None = None
    kind: str = ""
    time_control: str = ""
    declared_rounds: int | None = None
    players: list[Player] = field(default_factory=list)
    teams: list[str] = field(default_factory=list)
    round_dates: list[dt.date] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # The club's own extension lines (the format's XX codes, where FIDE's have no word):
    # the time class the event was rated as (``XXT``) and whether it was rated (``XXU``
    # unrated). Empty / None when the file does not say.
    time_class: str = ""
    rated: bool | None = None
    #: Why the file says its event was played online (a server's export, or the club's
    #: own export of an online event), in words for the officer; "" for over the board.
    online_why: str = ""
    #: The tie-breaks the file names that the club knows (TRF-2026 ``202``, else ``212``
    #: after its ``PTS``), in the file's order; () when it names none (the kind's default).
    #: Those it does not know, or has no room for, are said in ``warnings``: not kept.
    tie_breaks: tuple[str, ...] = ()

    @property
    def rounds(self) -> int:
        """The rounds the file declares, or as many as any player has results for."""
        seen = max((r.round for p in self.players for r in p.results), default=0)
        return max(self.declared_rounds or 0, seen)

    def player(self, rank: int) -> Player | None:
        return self._by_rank.get(rank)

    @property
    def _by_rank(self) -> dict[int, Player]:
        return {p.rank: p for p in self.players}

    def games(self) -> list[TrfGame]:
        """Every game and bye once, by round then white's rank.

        ``parse`` has checked that both lines of each game agree, so each game is read
        from the line of the player with white (the first line when colours are unknown).
        """
        by_rank = self._by_rank
        games: list[TrfGame] = []
        seen: set[tuple[int, int, int]] = set()
        for player in self.players:
            for res in player.results:
                if res.opponent is None:
                    games.append(TrfGame(res.round, player.rank, None, BYE_CODES[res.code]))
                    continue
                pair = (res.round, min(player.rank, res.opponent), max(player.rank, res.opponent))
                if pair in seen:
                    continue
                seen.add(pair)
                opponent = by_rank[res.opponent]
                theirs = opponent.result(res.round)
                assert theirs is not None  # parse() refuses a game only one line holds
                games.append(_game(player, res, opponent, theirs))
        games.sort(key=lambda g: (g.round, g.white))
        return games


def _game(player: Player, mine: RoundResult, opponent: Player, theirs: RoundResult) -> TrfGame:
    """One game from the two players' lines, white first."""
    if mine.colour == "b" or (mine.colour == "-" and theirs.colour == "w"):
        player, mine, opponent, theirs = opponent, theirs, player, mine
    colours_known = mine.colour == "w" or theirs.colour == "b"
    if mine.code == "-":
        result = DOUBLE_FORFEIT if theirs.code == "-" else BLACK_FORFEIT_WIN
    else:
        result = GAME_RESULTS[mine.code]
    return TrfGame(mine.round, player.rank, opponent.rank, result, colours_known)


def decode(data: bytes | str) -> str:
    """Text with LF line ends: UTF-8 (with or without BOM), else Latin-1."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
    else:
        text = data
    return text.replace("\r\n", "\n").replace("\r", "\n")


def parse_date(text: str) -> dt.date | None:
    """A date in any style pairing programs write; None when it is not one."""
    text = " ".join(text.split()).strip()
    if not text:
        return None
    # "28. 07. 2005" (a space after each dot, as some programs write) is 28.07.2005.
    text = re.sub(r"(?<=\d)\.\s+(?=\d)", ".", text)
    for fmt in DATE_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


def _int(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() else None


def _float(text: str) -> float | None:
    try:
        return float(text.strip().replace(",", "."))
    except ValueError:
        return None


def parse(data: bytes | str) -> Tournament:
    """The tournament in a report file; ``TrfError`` (naming the lines) if it cannot be imported.

    Header fields that cannot be read are warnings; player lines that cannot be read, or
    whose games the two players' lines do not agree on, are errors: nothing is imported.
    """
    text = decode(data)
    tournament = Tournament()
    problems: list[str] = []
    tie_break_lines: dict[str, tuple[int, str]] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        if "\x00" in line:
            # Not text (a NUL cannot be stored, and no pairing program writes one).
            problems.append(f"Line {number}: holds a NUL character (\\0): not a text line.")
            continue
        if any(unicodedata.category(char) == "Cc" and char not in "\t\f\x1a" for char in line):
            # An escape, a backspace, a bell: no pairing program writes one (a tab, a
            # form feed or an old DOS end-of-file mark is only spacing).
            problems.append(f"Line {number}: holds a control character: not a text line.")
            continue
        if not line.strip() or line.startswith("#"):
            continue  # TRF-2026 comments and blank lines between records
        code, value = line[:3], line[4:].strip()
        # A header's text (the name, the place, the time control) is kept and shown: the
        # names' rule for hidden characters (a player line's name is checked as a name).
        if code != "001" and (problem := text_problem(value)):
            problems.append(f"Line {number}: {problem}")
            continue
        if code == "001":
            player = _player(line, number, problems)
            if player is not None:
                tournament.players.append(player)
        elif code == "012":
            tournament.name = value
            if too_long := cut("the event's name", value, EVENT_NAME_LENGTH):
                tournament.warnings.append(f"Line {number}: {too_long}.")
        elif code == "022":
            tournament.city = value
        elif code == "032":
            tournament.federation = value
        elif code == "042":
            tournament.start = _header_date(value, number, "start", tournament.warnings)
        elif code == "052":
            tournament.end = _header_date(value, number, "end", tournament.warnings)
        elif code == "092":
            tournament.kind = value
        elif code == "122":
            # A template's placeholder ("moves/time, increment") is no time control.
            tournament.time_control = (
                "" if value.strip().lower() in TIME_CONTROL_PLACEHOLDERS else value
            )
            if too_long := cut("the time control", tournament.time_control, TIME_CONTROL_LENGTH):
                tournament.warnings.append(f"Line {number}: {too_long}.")
        elif code == "XXT" and value.lower() in TIME_CLASSES:
            tournament.time_class = value.lower()
        elif code == "XXU":
            tournament.rated = value.lower() not in UNRATED_WORDS
        elif code in ("XXR", "142") and _int(value):
            declared = _int(value) or 0
            if declared > MAX_ROUNDS:
                problems.append(
                    f"Line {number}: {declared} rounds: an event has at most {MAX_ROUNDS}."
                )
                continue
            tournament.declared_rounds = max(tournament.declared_rounds or 0, declared)
        elif code == "132":
            written = line[91:].split()
            tournament.round_dates = [d for d in map(parse_date, written) if d]
            tournament.warnings += [
                f"Line {number}: the round date {text!r} is not a date: left out."
                for text in written
                if parse_date(text) is None
            ]
        elif code in ("202", "212"):
            tie_break_lines[code] = (number, value)
        elif code == "013" or code == "310":
            # Team records (TRF16 013, TRF-2026 310): the team's name, then numbers.
            match = re.match(r"\d{3}\s+(?:\d+\s+)?(.+?)(\s{2,}|$)", line)
            tournament.teams.append(match.group(1) if match else line[4:].strip())
    if problems and not tournament.players:
        raise TrfError(problems)
    if tournament.time_class:
        # The club's own export (its XXT line): it writes an absence as Z and leaves a
        # round blank only where the player has no record, so blank is nothing here (in
        # other files, as the format says, it is a zero-point bye).
        for player in tournament.players:
            player.results = [r for r in player.results if r.code != " " or r.opponent]
    _placeholders_out(tournament)
    if not tournament.players and not problems:
        raise TrfError("This is not a tournament report file: it has no player (001) lines.")
    for player in tournament.players:
        if player.results and player.results[-1].round > MAX_ROUNDS:
            problems.append(
                f"Line {player.line}: {player.name} has results for "
                f"{count_phrase(player.results[-1].round, 'round')}: an event has at most "
                f"{MAX_ROUNDS}."
            )
    if problems:
        raise TrfError(problems)
    problems += _check_pairings(tournament.players)
    problems += [
        f"Line {second.line}: {second.name} has FIDE id {fide_id}, as has {first.name} (line "
        f"{first.line}): one FIDE id is one person. Correct the id of one of them."
        for fide_id, first, second in shared_fide_ids(tournament.players)
    ]
    if problems:
        raise TrfError(problems)
    if tournament.round_dates:
        # A start or end date that could not be read (30 February) is replaced by the
        # round dates': said beside the warning that it could not be read.
        for which, first_or_last in (("start", min), ("end", max)):
            if getattr(tournament, which) is None:
                day = first_or_last(tournament.round_dates)
                setattr(tournament, which, day)
                if any(f"the {which} date" in w for w in tournament.warnings):
                    tournament.warnings.append(
                        f"The {which} date is taken from the round dates (line 132): {day}."
                    )
    tournament.online_why = (
        trf_online_why(place=tournament.city, federation=tournament.federation) or ""
    )
    tie_breaks_read(tournament, tie_break_lines)
    return tournament


def _placeholders_out(tournament: Tournament) -> None:
    """A bye placeholder ("spielfrei", "BYE": the empty seat a program pairs an odd player
    with) is no player: it goes, and each game against it is its opponent's bye, of the
    points the opponent's line gives."""
    placeholders = {p.rank: p for p in tournament.players if is_bye_placeholder(p.name)}
    if not placeholders or len(placeholders) == len(tournament.players):
        return
    tournament.players = [p for p in tournament.players if p.rank not in placeholders]
    for player in tournament.players:
        for index, res in enumerate(player.results):
            if res.opponent in placeholders:
                code = {1.0: "F", 0.5: "H"}.get(CODE_POINTS.get(res.code, 0.0), "Z")
                player.results[index] = RoundResult(res.round, None, "-", code)
    for placeholder in placeholders.values():
        tournament.warnings.append(
            f"Line {placeholder.line}: {placeholder.name!r} is a bye placeholder, not a "
            "player: each game against it is read as a bye."
        )


def shared_fide_ids(players: Iterable[Any]) -> list[tuple[str, Any, Any]]:
    """Each FIDE id a file gives to two players (by name, leading zeros aside): the id,
    the first player and the other. ``players`` have ``name`` and ``fide_id``."""
    first: dict[str, Any] = {}
    shared = []
    for player in players:
        fide_id = player.fide_id.lstrip("0")
        if not fide_id:
            continue
        holder = first.setdefault(fide_id, player)
        if holder is not player:
            shared.append((fide_id, holder, player))
    return shared


def _check_pairings(players: list[Player]) -> list[str]:
    """Each game as both players' lines have it: the same opponents, results that agree."""
    problems: list[str] = []
    by_rank: dict[int, Player] = {}
    for player in players:
        other = by_rank.get(player.rank)
        if other is not None:
            problems.append(
                f"Line {player.line}: starting rank {player.rank} is already "
                f"{other.name}'s (line {other.line})."
            )
        else:
            by_rank[player.rank] = player
    if problems:
        return problems
    for player in players:
        for mine in player.results:
            if mine.opponent is None:
                continue
            where = f"Line {player.line}: {player.name}, round {mine.round}:"
            if mine.opponent == player.rank:
                problems.append(f"{where} paired with themselves.")
                continue
            opponent = by_rank.get(mine.opponent)
            if opponent is None:
                problems.append(f"{where} paired with {mine.opponent}, who has no player line.")
                continue
            theirs = opponent.result(mine.round)
            if theirs is None or theirs.opponent != player.rank:
                said = (
                    "has no game in that round"
                    if theirs is None or theirs.opponent is None
                    else f"says they met {theirs.opponent}"
                )
                problems.append(
                    f"{where} paired with {opponent.name}, but line {opponent.line} {said}."
                )
            elif opponent.rank < player.rank:
                continue  # the game's checks are made from the opponent's line
            elif theirs.code not in AGREES[mine.code]:
                problems.append(
                    f"{where} the result {mine.code!r} against {opponent.name} disagrees "
                    f"with {theirs.code!r} on line {opponent.line}."
                )
            elif mine.colour != "-" and mine.colour == theirs.colour:
                problems.append(
                    f"{where} both {player.name} and {opponent.name} (line {opponent.line}) "
                    f"have {'white' if mine.colour == 'w' else 'black'}."
                )
    return problems


def _header_date(value: str, number: int, which: str, warnings: list[str]) -> dt.date | None:
    day = parse_date(value)
    if day is None and value:
        warnings.append(f"Line {number}: could not read the {which} date {value!r}.")
    return day


_DATEISH = re.compile(r"^\d{2,4}[/.-]\d{1,2}[/.-]\d{1,4}$|^(19|20)\d\d$")


def _player(line: str, number: int, problems: list[str]) -> Player | None:
    line = line.ljust(91)
    rank = _int(line[4:8])
    name = line[14:47].strip()
    if rank is None or not name:
        problems.append(f"Line {number}: a player line without a starting rank or name.")
        return None
    if not any(char.isalnum() for char in name):
        problems.append(
            f"Line {number}: the player's name {name!r} has no letters "
            "(only marks or invisible characters)."
        )
        return None
    if hidden := hidden_characters(name):
        codes = ", ".join(f"U+{ord(char):04X}" for char in hidden)
        problems.append(
            f"Line {number}: the player's name {name!r} holds control or invisible "
            f"characters ({codes})."
        )
        return None
    player = Player(
        rank=rank,
        name=name,
        sex=line[9].strip().lower(),
        title=player_title(line[10:13]),
        rating=_int(line[48:52]) or None,
        line=number,
    )
    # Federation, FIDE id and birth date: read as tokens, since files shift them a column.
    tokens = line[53:80].split()
    if tokens and re.fullmatch(r"[A-Za-z]{3}", tokens[0]):
        player.federation = tokens.pop(0).upper()
    if tokens and tokens[0].isdigit() and not (len(tokens) == 1 and _DATEISH.match(tokens[0])):
        player.fide_id = tokens.pop(0).lstrip("0")
    if tokens and _DATEISH.match(tokens[0]):
        player.born = tokens.pop(0)
    player.points = _float(line[80:85])
    for index in range(max(0, (len(line.rstrip()) - 91 + 9) // 10)):
        round_ = index + 1
        slot = line[91 + 10 * index : 91 + 10 * index + 8].ljust(8)
        opponent_text, colour, code = slot[0:4].strip(), slot[5].lower(), slot[7].upper()
        where = f"Line {number}: {name}, round {round_}:"
        if (
            code not in CODES
            or colour not in "wb- "
            or (opponent_text and not opponent_text.isdigit())
            or slot[4] != " "
            or slot[6] != " "
        ):
            problems.append(f"{where} cannot read {slot!r} (opponent, colour, result).")
            continue
        opponent = int(opponent_text) if opponent_text else 0
        if not opponent or code in BYE_ONLY_CODES:
            if opponent and code == " ":
                problems.append(
                    f"{where} paired with {opponent} but no result: finish the round in "
                    "the pairing program (or leave it out) before importing."
                )
                continue
            player.results.append(RoundResult(round_, None, "-", code))
        else:
            player.results.append(RoundResult(round_, opponent, colour.strip() or "-", code))
    return player
