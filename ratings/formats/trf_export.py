"""Write an event as a FIDE Tournament Report File (TRF16, Handbook C.04 Annex 2).

``event_to_trf(event)`` gives the text a federation's or FIDE's rating officer can take,
and that ``trf.parse`` (the import's reader) reads back as the same players, rounds,
colours and results. What the club does not record is left blank: a federation no file
gave, and the FIDE rating unless the member has a FIDE id and a starting rating here.

Choices the format leaves open, and what they cost on a round trip:

- Starting ranks are the entries by starting rating (highest first, none last), then
  name: an imported file's own ranks are not stored, so they are not kept.
- A one-point bye is written ``F`` (full-point bye): the club records a one-point bye
  whatever its cause, so a file's ``U`` (pairing-allocated bye) comes back as ``F``.
- A player with no game in a round gets a blank round, which the format takes as a
  zero-point bye; an absence the club recorded is written ``Z``. The club's own reader,
  seeing the ``XXT`` line of this export, reads a blank round as no record, so the
  round trip is exact.
- A game whose colours are not known is written ``-`` on both lines.
- Should a player have two games in one round (the round forms refuse that; the admin
  does not), only the first is written, so that the file stays readable.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass

from ..models import ClubSettings, Event, Game, Member
from ..rules import results, tiebreaks
from ..rules.names import fide_name
from ..rules.places_of_play import ONLINE_PLACE

#: TRF result codes for (white, black) of each result, and of the byes (written with
#: opponent 0000): the results vocabulary's.
CODES = results.TRF_CODES
BYE_CODES = results.TRF_BYE_CODES
#: The ``092`` line (type of tournament) for each kind of event.
KINDS: dict[str, str] = {
    Event.Kind.SWISS: "Individual: Swiss-System",
    Event.Kind.ROUND_ROBIN: "Individual: Round Robin",
    Event.Kind.CLUB_NIGHT: "Individual: Club night",
    Event.Kind.MATCH: "Individual: Match",
    Event.Kind.LEAGUE: "Team: League / interclub",
}
SEXES = {Member.Gender.MALE: "m", Member.Gender.FEMALE: "w"}
NAME_WIDTH = 33  # columns 15-47


@dataclass
class _Slot:
    opponent: int  # starting rank, 0 for a bye
    colour: str  # w, b or -
    code: str

    def text(self) -> str:
        opponent = f"{self.opponent:>4}" if self.opponent else "0000"
        return f"{opponent} {self.colour} {self.code}"


def trf_name(name: str) -> str:
    """FIDE's "Surname, Given" from the club's "Given Surname" (``names.fide_name``)."""
    return fide_name(name)


def _date(day: dt.date | None) -> str:
    return day.strftime("%Y/%m/%d") if day else ""


def _born(member: Member) -> str:
    """The date of birth, or the year alone a file gave ("1990/00/00", as files write it)."""
    if member.born is None and member.birth_year:
        return f"{member.birth_year}/00/00"
    return _date(member.born)


def _points(value: float) -> str:
    return f"{value:4.1f}"


def _player_line(
    rank: int, member: Member, points: float, place: int, slots: list[_Slot | None]
) -> str:
    rating = ""
    if member.fide_id and member.initial_rating is not None:
        rating = str(min(round(member.initial_rating), 9999))
    fields = (
        "001",
        f"{rank:>4}",
        SEXES.get(Member.Gender(member.gender), " ") if member.gender else " ",
        f"{member.title[:3]:>3}",
        # As a file gave it ("Mirzoev Azer"), else "Surname, Given" (``Member.name_for_files``).
        f"{member.name_for_files[:NAME_WIDTH]:<{NAME_WIDTH}}",
        f"{rating:>4}",
        f"{member.federation[:3]:<3}",
        f"{member.fide_id[:11]:>11}",
        f"{_born(member):<10}",
        _points(points),
        f"{place:>4}",
    )
    # Columns: 1-3 code, 5-8 rank, 10 sex, 11-13 title, 15-47 name, 49-52 rating,
    # 54-56 federation, 58-68 FIDE id, 70-79 birth date, 81-84 points, 86-89 rank.
    line = "{} {} {}{} {} {} {} {} {} {} {}".format(*fields)
    for slot in slots:
        line += "  " + (slot.text() if slot else " " * 8)
    return line.rstrip()


def starting_order(event: Event) -> list[Member]:
    """The event's players in starting-rank order: by starting rating, then name."""
    return sorted(
        (entry.member for entry in event.entries.select_related("member")),
        key=lambda m: (m.initial_rating is None, -(m.initial_rating or 0), m.name, m.pk),
    )


def _one_line(text: str) -> str:
    return " ".join(text.split())


def round_dates(event: Event, rounds: int) -> list[dt.date]:
    """Each round's date where the event's dates tell it: a one-day event's rounds all
    that day; as many days as rounds, a round a day; a round a week from the start to the
    end. Otherwise none (the club records no date per round)."""
    start, end = event.start_date, event.end_date
    days = (end - start).days
    if rounds < 1:
        return []
    if days == 0:
        return [start] * rounds
    for step in (1, 7):
        if days == step * (rounds - 1):
            return [start + dt.timedelta(days=step * i) for i in range(rounds)]
    return []


def trf_header(event: Event, members: list[Member], rounds: int) -> list[str]:
    """FIDE's header lines (TRF16 012-132) from the event and the club's settings: name,
    city, federation, dates, players, rated players, teams, type, arbiters, time control
    and round dates, so a federation's rating officer can take the file as it is. A line
    the club has nothing for is left out (102) or written empty where FIDE's form has it."""
    club = ClubSettings.load()
    rated = sum(1 for m in members if m.fide_id and m.initial_rating is not None)
    header = [f"012 {_one_line(event.name)}"]
    if event.online:
        # Where it was played: on a server, not the club's city. Read back as online
        # (``places_of_play.trf_online_why``), as a federation's officer reads it too.
        header.append(f"022 {ONLINE_PLACE}")
    elif club.city:
        header.append(f"022 {_one_line(club.city)}")
    if club.federation:
        header.append(f"032 {club.federation}")
    header += [f"042 {_date(event.start_date)}", f"052 {_date(event.end_date)}"]
    header += [f"062 {len(members)}", f"072 {rated}", "082 0"]
    header.append(f"092 {KINDS.get(event.kind, event.get_kind_display())}")
    if club.chief_arbiter:
        header.append(f"102 {_one_line(club.chief_arbiter)}")
    header += [f"112 {_one_line(d)}" for d in club.deputy_arbiters.splitlines() if d.strip()]
    if event.time_control:
        header.append(f"122 {_one_line(event.time_control)}")
    dates = round_dates(event, rounds)
    if dates:
        # Each round's date under its column of the player lines (from column 92).
        header.append("132" + " " * 88 + "  ".join(f"{d:%y/%m/%d}" for d in dates))
    return header


def tie_break_lines(event: Event) -> list[str]:
    """The event's tie-breaks as TRF-2026 names them: ``202`` those that break a tie on
    points, ``212`` the whole order of the standings (the points first)."""
    codes = " ".join(event.tie_break_codes)
    return [f"202 {codes}", f"212 PTS {codes}"]


def _places(event: Event, members: list[Member], games: list[Game]) -> dict[int, int]:
    """Each player's place: by points, then the event's tie-breaks, then starting rank."""
    entered = {m.pk for m in members}
    standing = tiebreaks.standing(
        [m.pk for m in members],
        tiebreaks.results_of(
            (g.round, g.white_id, g.black_id, g.result)
            for g in games
            if g.white_id in entered and (g.black_id is None or g.black_id in entered)
        ),
        event.tie_break_codes,
        round_robin=event.kind == Event.Kind.ROUND_ROBIN,
        ratings={m.pk: m.initial_rating for m in members},
        rounds=max((g.round for g in games), default=0),
    )
    return {pk: i for i, pk in enumerate(standing.order, start=1)}


def _coloured(slot: _Slot | None) -> bool:
    return slot is not None and slot.colour in "wb"


def first_colour(slots: list[list[_Slot | None]]) -> str:
    """The ``XXC`` word for the colour of round 1's top board, ``white1`` or ``black1``
    (JaVaFo's extension line, which bbpPairings reads too), from the players' slots in
    starting-rank order. A pairing program pairing round 1 must be told it; later, it
    infers it from the file as bbpPairings does and as this does here, so both agree:
    the first round with a colour written, the first player (by rank) who played a game
    by then, their colour that round, turned round for each such player ranked above
    them who has none. Nothing written yet (no games, colours not known): white."""
    rounds = max((len(s) for s in slots), default=0)
    coloured = [r for r in range(rounds) if any(_coloured(s[r]) for s in slots)]
    if not coloured:
        return "white1"
    first = coloured[0]
    above = 0
    for player in slots:
        if not any(s is not None and s.opponent for s in player[: first + 1]):
            continue  # no game by then: not in the pairings that set the colours
        slot = player[first]
        if slot is not None and _coloured(slot):
            white = (slot.colour == "w") != (above % 2 == 1)
            return "white1" if white else "black1"
        above += 1
    return "white1"


def event_to_trf(event: Event) -> str:
    """The event as a TRF16 file (LF line ends; encode it as UTF-8)."""
    members = starting_order(event)
    rank = {m.pk: i for i, m in enumerate(members, start=1)}
    games = list(event.games.order_by("round", "board", "pk"))
    rounds = max([event.rounds, *(g.round for g in games)])
    slots: dict[int, list[_Slot | None]] = {m.pk: [None] * rounds for m in members}
    points: dict[int, float] = defaultdict(float)
    for game in games:
        white, black = game.white_id, game.black_id
        if white not in rank or (black is not None and black not in rank):
            continue  # a player with no entry: not in the event's list of players
        index = game.round - 1
        if slots[white][index] is not None or (
            black is not None and slots[black][index] is not None
        ):
            continue  # a second game in a round: the format has room for one
        white_points, black_points = Game.POINTS[game.result]
        points[white] += white_points
        if black is None:
            slots[white][index] = _Slot(0, "-", BYE_CODES[game.result])
            continue
        points[black] += black_points
        white_code, black_code = CODES[game.result]
        known = game.colours_known
        slots[white][index] = _Slot(rank[black], "w" if known else "-", white_code)
        slots[black][index] = _Slot(rank[white], "b" if known else "-", black_code)
    place = _places(event, members, games)
    header = trf_header(event, members, rounds) + tie_break_lines(event)
    lines = header + [
        _player_line(rank[m.pk], m, points[m.pk], place[m.pk], slots[m.pk]) for m in members
    ]
    # The number of rounds, as pairing programs write it (JaVaFo's XXR), so that rounds
    # nobody has played yet are not lost; round 1's colour on the top board (XXC), which
    # a pairing program needs to pair round 1 of an event with no games yet; then what
    # FIDE's lines have no word for, in the format's extension lines: the list the event
    # is rated on (its time class, XXT) and, for an event not rated, XXU. Readers that do
    # not know them pass them by.
    lines.append(f"XXR {rounds}")
    lines.append(f"XXC {first_colour([slots[m.pk] for m in members])}")
    lines.append(f"XXT {event.time_class}")
    lines.append(f"XXU {'rated' if event.rated else 'unrated'}")
    return "\n".join(lines) + "\n"
