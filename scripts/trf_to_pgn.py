"""Write the played games of TRF files as one PGN file (headers only, no moves).

    .venv/bin/python scripts/trf_to_pgn.py OUT.pgn FILE.trf...

Made for tests/data/pgn/two-tournaments-from-trf.pgn: a multi-event PGN whose every
game can be checked against the real TRF file it came from. Only games played over the
board with a rated result (TRF codes 1, =, 0) are written: byes, forfeits and unrated
games have no place in PGN. A round's date is the file's round date (line 132); without
one, the event's start date plus one day a round.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ratings.formats import trf

PLAYED = {trf.WHITE_WIN: "1-0", trf.BLACK_WIN: "0-1", trf.DRAW: "1/2-1/2"}


def games(tournament: trf.Tournament) -> list[str]:
    assert tournament.start is not None
    out = []
    for game in tournament.games():
        if game.black is None or game.result not in PLAYED:
            continue
        white, black = tournament.player(game.white), tournament.player(game.black)
        assert white is not None and black is not None
        if len(tournament.round_dates) >= game.round:
            day = tournament.round_dates[game.round - 1]
        else:
            day = tournament.start + dt.timedelta(days=game.round - 1)
        tags = [
            ("Event", tournament.name.strip()),
            ("Site", tournament.city.strip() or "?"),
            ("Date", f"{day:%Y.%m.%d}"),
            ("Round", str(game.round)),
            ("White", white.name),
            ("Black", black.name),
            ("Result", PLAYED[game.result]),
        ]
        for colour, player in (("White", white), ("Black", black)):
            if player.rating:
                tags.append((f"{colour}Elo", str(player.rating)))
            if player.fide_id.strip("0"):
                tags.append((f"{colour}FideId", player.fide_id))
        head = "\n".join(f'[{key} "{value}"]' for key, value in tags)
        out.append(f"{head}\n\n{PLAYED[game.result]}\n")
    return out


def main(out: str, *files: str) -> None:
    text = []
    for name in files:
        text += games(trf.parse(Path(name).read_bytes()))
    Path(out).write_text("\n".join(text), encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:])
