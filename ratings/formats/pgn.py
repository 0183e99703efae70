"""A PGN file as the web import's tournaments: the events ``tournament_files.pgn_events``
reads (one per Event and Site, or all in one named event) put in the shape of a TRF
``Tournament``, so the upload → preview → confirm flow, its matching and its checks are
the TRF import's own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..models import Event
from ..rules import results
from . import trf
from .tournament_files import FileEvent, pgn_events

#: A PGN result from white's side: white's code, black's code (TRF result codes).
CODES = {
    results.WHITE_WIN: ("1", "0"),
    results.BLACK_WIN: ("0", "1"),
    results.DRAW: ("=", "="),
}


#: A bye's TRF code (no opponent), from the club's result for it.
BYE_CODES = {results.BYE: "F", results.HALF_BYE: "H", results.ZERO_BYE: "Z"}


@dataclass
class PgnTournament(trf.Tournament):
    """A PGN event as a ``trf.Tournament`` that keeps its games as the file gives them.

    A TRF gives a player one result a round, and ``trf.Tournament.games`` reads each
    pair once a round; a PGN's match (a knockout's games ``4.1``, ``4.2`` between the
    same two players, a league meet's) is several games of one round, each kept."""

    file_games: list[trf.TrfGame] = field(default_factory=list)

    def games(self) -> list[trf.TrfGame]:
        return list(self.file_games)


def is_pgn(filename: str, data: bytes) -> bool:
    """A PGN file: named .pgn, or text that begins with a header tag (``[Event "..."]``)."""
    if filename.lower().endswith(".pgn"):
        return True
    return data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"[")


def pgn_tournaments(data: bytes, *, event_name: str = "") -> list[trf.Tournament]:
    """Each event of a PGN file as a ``trf.Tournament``; ``trf.TrfError`` listing every
    problem (by game number) when any game cannot be imported."""
    events, problems = pgn_events("The file", data, event_name=event_name.strip() or None)
    if problems:
        raise trf.TrfError([_sentence(p.removeprefix("The file, ")) for p in problems])
    return [_tournament(event) for event in events]


def _tournament(event: FileEvent) -> PgnTournament:
    players = {
        p.key: trf.Player(
            rank=p.key, name=p.name, title=p.title, rating=p.rating, fide_id=p.fide_id, line=p.line
        )
        for p in event.players
    }
    for round_, white, black, result, _colours in event.games:
        if black is None:  # a game against a bye placeholder: a bye
            players[white].results.append(trf.RoundResult(round_, None, "-", BYE_CODES[result]))
            continue
        codes = CODES[result]
        players[white].results.append(trf.RoundResult(round_, black, "w", codes[0]))
        players[black].results.append(trf.RoundResult(round_, white, "b", codes[1]))
    for player in players.values():
        player.results.sort(key=lambda r: r.round)
        player.points = sum(trf.CODE_POINTS[r.code] for r in player.results)
    return PgnTournament(
        file_games=sorted(
            (
                trf.TrfGame(round_, white, black, result, colours and black is not None)
                for round_, white, black, result, colours in event.games
            ),
            key=lambda g: (g.round, g.white),
        ),
        time_control=event.time_control,
        name=event.name,
        start=event.start,
        end=event.end,
        # The kind as a file's 092 line words it, for the preview's reading of it.
        kind="Individual: Club night" if event.kind == Event.Kind.CLUB_NIGHT else "",
        declared_rounds=event.rounds,
        players=list(players.values()),
        warnings=list(event.notes),
        online_why=event.online_why,
    )


def _sentence(problem: str) -> str:
    return problem[:1].upper() + problem[1:] + ("" if problem.endswith(".") else ".")
