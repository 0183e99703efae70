"""Read FIDE's monthly rating list as FIDE publishes it for download
(ratings.fide.com/download_lists.phtml): a fixed-width text file, alone or in its zip.

Three layouts are in use, each with one header line naming its columns:

- the combined list, ``players_list_foa.txt``: ``ID Number``, ``Name``, ``Fed``, ``Sex``,
  ``Tit``, ``WTit``, ``OTit``, ``FOA``, then ``SRtng SGm SK``, ``RRtng RGm Rk``,
  ``BRtng BGm BK`` (standard, rapid, blitz), ``B-day`` (the year), ``Flag``; 162 characters;
- the combined list before FIDE Online Arena titles, ``players_list.txt``: the same
  without ``FOA``;
- one time control's list, ``standard_rating_list.txt`` (``rapid_``, ``blitz_``): the
  same through ``FOA``, then the month as a column (``NOV26``), ``Gms``, ``K``, ``B-day``,
  ``Flag``; its header does not say which time control, so its file name does.

The columns are found from the header line, not fixed here, because FIDE has moved them
before (the FOA column came in 2023). A real list has about 1.9 million lines and a club
wants a few dozen of them: ``fide_list_read`` is handed the FIDE ids wanted and parses only
those lines, checking of every other line only that it starts with an id. An OTit text
longer than its column pushes the rest of the line right (``SI,FI,LSI,SLI,NAAFM``, three
lines of the 2026 list): a line longer than the header is read with that shift.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import IO
from xml.etree.ElementTree import ParseError, iterparse

from ..engine.codec import TITLES

STANDARD, RAPID, BLITZ = "standard", "rapid", "blitz"
KINDS = (STANDARD, RAPID, BLITZ)

#: Each combined list's rating column and its games column, by time control.
_COMBINED = {STANDARD: ("srtng", "sgm"), RAPID: ("rrtng", "rgm"), BLITZ: ("brtng", "bgm")}

#: A single list's month column, as FIDE heads it: ``NOV26``.
_MONTH_COLUMN = re.compile(r"^([A-Z]{3})(\d{2})$")
_MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")

#: FIDE's titles as older lists write them (one or two lower-case letters).
_OLD_TITLES = {
    "g": "GM",
    "m": "IM",
    "f": "FM",
    "c": "CM",
    "wg": "WGM",
    "wm": "WIM",
    "wf": "WFM",
    "wc": "WCM",
}

#: At most this many bad lines are listed; the rest are counted.
PROBLEMS_SHOWN = 20

HEADER_EXAMPLE = (
    "ID Number      Name      ...      Fed Sex Tit  WTit OTit           FOA SRtng SGm SK "
    "RRtng RGm Rk BRtng BGm BK B-day Flag"
)


@dataclass(frozen=True)
class Problem:
    line: int
    message: str

    def __str__(self) -> str:
        # An XML list's player is named by its place instead (line 0).
        return f"line {self.line}: {self.message}" if self.line else self.message


@dataclass(frozen=True)
class FidePlayer:
    """One player's line of the list, as FIDE gives it (a rating of 0 is no rating)."""

    line: int
    fide_id: str
    name: str
    federation: str
    title: str
    women_title: str
    born: int | None
    inactive: bool
    #: Each time control the file rates: the rating (None: not rated) and games this month.
    ratings: dict[str, int | None]
    games: dict[str, int]


@dataclass
class FideList:
    """What a file holds: the time controls it rates, its month when its header says it,
    the wanted players' lines, every bad line (the first ``PROBLEMS_SHOWN``) and how many
    players' lines it has."""

    kinds: tuple[str, ...] = ()
    month: dt.date | None = None
    players: list[FidePlayer] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    more_problems: int = 0
    lines: int = 0

    def problem(self, line: int, message: str) -> None:
        if len(self.problems) < PROBLEMS_SHOWN:
            self.problems.append(Problem(line, message))
        else:
            self.more_problems += 1

    def problem_lines(self) -> list[str]:
        lines = [str(p) for p in self.problems]
        if self.more_problems:
            lines.append(f"and {self.more_problems} more bad lines")
        return lines


def kind_of_name(name: str) -> str | None:
    """The time control a single list's file name says (``standard_rating_list.txt``,
    ``rapid_nov26frl.zip``), or None."""
    lowered = name.lower().rsplit("/", 1)[-1]
    found = [kind for kind in KINDS if kind in lowered]
    return found[0] if len(found) == 1 else None


def fide_list_open(stream: IO[bytes]) -> tuple[IO[bytes], str | None]:
    """The list's text to read: ``stream`` itself, or the text file inside it when it is
    FIDE's zip (with that file's name, which says a single list's time control)."""
    start = stream.read(4)
    stream.seek(0)
    if start != b"PK\x03\x04":
        return stream, None
    try:
        archive = zipfile.ZipFile(stream)
    except zipfile.BadZipFile:
        raise ValueError("The zip file cannot be opened: download it from FIDE again.") from None
    texts = [n for n in archive.namelist() if n.lower().endswith((".txt", ".xml"))]
    if len(texts) != 1:
        raise ValueError(
            "The zip file should hold one list, .txt or .xml, as FIDE's downloads do, "
            f"but holds {len(texts)}: unzip it and upload the list itself."
        )
    return archive.open(texts[0]), texts[0]


def _columns(header: str) -> dict[str, tuple[int, int]]:
    """Each column's span, from where its heading starts to where the next one does."""
    starts = [
        (m.start(), m.group().lower())
        for m in re.finditer(r"\S+", header.replace("ID Number", "ID_Number", 1))
    ]
    if not starts:  # a blank first line: no columns (the caller says it is not the list)
        return {}
    spans = {}
    for (start, name), (end, _) in zip(starts, [*starts[1:], (len(header), "")], strict=True):
        spans[name] = (start, end)
    return spans


def _month_of(token: str) -> dt.date | None:
    found = _MONTH_COLUMN.match(token.upper())
    if not found or found.group(1) not in _MONTHS:
        return None
    return dt.date(2000 + int(found.group(2)), _MONTHS.index(found.group(1)) + 1, 1)


def _decode(raw: bytes) -> str:
    # The lists are ASCII today; older ones were Latin-1.
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    return text.rstrip("\r\n")


def _number(text: str) -> int | None:
    return int(text) if text.isdigit() else None


def _title(text: str) -> str:
    text = text.strip()
    if text.upper() in TITLES:
        return text.upper()
    return _OLD_TITLES.get(text.lower(), "")


def fide_list_read(
    lines: Iterable[bytes], *, kind: str | None = None, wanted: Collection[str] | None = None
) -> FideList:
    """Read a list's lines (bytes, as from a file opened ``rb``). ``kind``: the time
    control of a single list (its header does not say it); ``wanted``: the FIDE ids to
    parse (without leading zeros; None: every line). Bad lines are reported with their
    numbers, never raised."""
    result = FideList()
    iterator = iter(lines)
    header = _decode(next(iterator, b"")).lstrip("\ufeff")
    spans = _columns(header)
    if not header.startswith("ID Number") or "name" not in spans:
        result.problem(
            1,
            "this is not FIDE's rating list in TXT: its first line should be the header "
            f"“{HEADER_EXAMPLE}” (download the TXT list from ratings.fide.com)",
        )
        return result
    rating_columns: dict[str, tuple[str, str]] = {}
    if all(r in spans for r, _ in _COMBINED.values()):
        rating_columns = dict(_COMBINED)
    else:
        month_column = next((name for name in spans if _month_of(name)), None)
        if month_column is None:
            result.problem(
                1,
                "the header names no rating column (SRtng, RRtng and BRtng in the combined "
                "list, the month such as NOV26 in a single list's)",
            )
            return result
        if kind not in KINDS:
            result.problem(
                1,
                f"this is one time control's list (of {month_column.upper()}), and its header "
                "does not say which: name the file standard_, rapid_ or blitz_rating_list.txt "
                "as FIDE does, or say which list it is",
            )
            return result
        result.month = _month_of(month_column)
        rating_columns = {kind: (month_column, "gms")}
    result.kinds = tuple(rating_columns)

    width = len(header.rstrip())
    # An overflowing OTit pushes every column after it right.
    shifted_from = spans["otit"][1] if "otit" in spans else width
    id_end = spans["id_number"][1]
    wanted_ids = None if wanted is None else set(wanted)
    for number, raw in enumerate(iterator, start=2):
        fide_id = raw[:id_end].strip().decode("ascii", "replace")
        if not fide_id:
            if raw.strip():
                result.problem(number, "no ID Number at the start of the line")
            continue
        if not fide_id.isdigit():
            result.problem(number, f"the ID Number “{fide_id}” is not digits")
            continue
        result.lines += 1
        fide_id = fide_id.lstrip("0")
        if wanted_ids is not None and fide_id not in wanted_ids:
            continue
        text = _decode(raw)
        shift = len(text) - width if 0 < len(text) - width <= 3 else 0

        def cell(name: str, text: str = text, shift: int = shift) -> str:
            if name not in spans:
                return ""
            start, end = spans[name]
            if start >= shifted_from:
                start, end = start + shift, end + shift
            return text[start:end].strip()

        ratings: dict[str, int | None] = {}
        games: dict[str, int] = {}
        bad = False
        for each, (rating_name, games_name) in rating_columns.items():
            rating, played = cell(rating_name), cell(games_name) or "0"
            if rating and not rating.isdigit():
                result.problem(number, f"the {each} rating “{rating}” is not a number")
                bad = True
            if not played.isdigit():
                result.problem(number, f"the {each} games “{played}” is not a number")
                bad = True
            ratings[each] = _number(rating) or None
            games[each] = _number(played) or 0
        born = cell("b-day")
        if born and not born.isdigit():
            result.problem(number, f"the birth year (B-day) “{born}” is not a number")
            bad = True
        if bad:
            continue
        result.players.append(
            FidePlayer(
                line=number,
                fide_id=fide_id,
                name=cell("name"),
                federation=cell("fed"),
                title=_title(cell("tit")),
                women_title=_title(cell("wtit")),
                born=_number(born) or None,
                inactive="i" in cell("flag").lower(),
                ratings=ratings,
                games=games,
            )
        )
    return result


#: The XML list's element for each time control's rating and games: a single list's are
#: ``rating`` and ``games`` whatever it rates, the combined list's standard ones too.
_XML_COMBINED = {
    STANDARD: ("rating", "games"),
    RAPID: ("rapid_rating", "rapid_games"),
    BLITZ: ("blitz_rating", "blitz_games"),
}


def fide_list_is_xml(stream: IO[bytes]) -> bool:
    """Whether the list is FIDE's XML download (``<playerslist>``) rather than its TXT."""
    start = stream.read(64)
    stream.seek(0)
    return start.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<")


def fide_list_read_xml(
    stream: IO[bytes], *, kind: str | None = None, wanted: Collection[str] | None = None
) -> FideList:
    """Read FIDE's XML list (``<playerslist>`` of ``<player>``: fideid, name, country,
    sex, title, w_title, o_title, foa_title, rating, games, k, [rapid_ and blitz_ ones in
    the combined list,] birthday, flag), streaming, as ``fide_list_read`` reads the TXT.
    Its elements carry no month. A bad player is named by its place and FIDE id. (Expat
    refuses entity expansion bombs itself, and ElementTree fetches no external entity.)"""
    result = FideList()
    wanted_ids = None if wanted is None else set(wanted)
    columns: dict[str, tuple[str, str]] | None = None
    number = 0
    try:
        events = iterparse(stream, events=("start", "end"))
        _, root = next(events)
        for event, element in events:
            if event == "start" or element.tag != "player":
                continue
            # The players read are dropped from the tree: a whole list is 856 MB.
            root.clear()
            number += 1
            if columns is None:
                if element.find("rapid_rating") is not None:
                    columns = dict(_XML_COMBINED)
                elif kind in KINDS:
                    columns = {kind: ("rating", "games")}
                else:
                    result.problem(
                        1,
                        "this is one time control's list, and it does not say which: name the "
                        "file standard_, rapid_ or blitz_rating_list.xml as FIDE does, or say "
                        "which list it is",
                    )
                    return result
                result.kinds = tuple(columns)
            where = f"player {number}"
            fide_id = (element.findtext("fideid") or "").strip()
            if not fide_id.isdigit():
                element.clear()
                result.problem(0, f"{where}: the fideid “{fide_id}” is not digits")
                continue
            result.lines += 1
            fide_id = fide_id.lstrip("0")
            if wanted_ids is not None and fide_id not in wanted_ids:
                element.clear()
                continue
            values = {child.tag: (child.text or "").strip() for child in element}
            element.clear()
            ratings: dict[str, int | None] = {}
            games: dict[str, int] = {}
            bad = False
            for each, (rating_tag, games_tag) in columns.items():
                rating, played = values.get(rating_tag, ""), values.get(games_tag, "") or "0"
                if (rating and not rating.isdigit()) or not played.isdigit():
                    result.problem(
                        0, f"{where} (FIDE id {fide_id}): the {each} rating or games is no number"
                    )
                    bad = True
                ratings[each] = _number(rating) or None
                games[each] = _number(played) or 0
            born = values.get("birthday", "")
            if bad or (born and not born.isdigit()):
                if not bad:
                    result.problem(
                        0, f"{where} (FIDE id {fide_id}): the birthday “{born}” is no year"
                    )
                continue
            result.players.append(
                FidePlayer(
                    line=number,
                    fide_id=fide_id,
                    name=values.get("name", ""),
                    federation=values.get("country", ""),
                    title=_title(values.get("title", "")),
                    women_title=_title(values.get("w_title", "")),
                    born=_number(born) or None,
                    inactive="i" in values.get("flag", "").lower(),
                    ratings=ratings,
                    games=games,
                )
            )
    except ParseError as error:
        line = error.position[0] if error.position else 1
        # ParseError's text ends with where it is ("mismatched tag: line 5, column 2").
        result.problem(line, f"the XML cannot be read: {str(error).split(':')[0]}")
    return result


def fide_list_text(text: str, *, kind: str | None = None) -> FideList:
    """Read a list given as text (tests, a pasted excerpt): every line parsed."""
    return fide_list_read(io.BytesIO(text.encode("utf-8")), kind=kind)
