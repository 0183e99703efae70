"""Real broadcast exports without moves (``tests/data/pgn/README.md`` names each one's
origin and licence): every game imported as its tags say, read here from the tags
themselves (one game a block of tag lines), not by the importer's reader."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from ratings.models import Event
from ratings.rules import results
from ratings.rules.names import given_surname

from .test_real_files import PGN_FILES, TITLES, recorded, round_trip, run

pytestmark = pytest.mark.django_db

RAPID = PGN_FILES / "fide-womens-world-rapid-2024-rounds-1-3.pgn"
UZCHESS = PGN_FILES / "uzchess-cup-2025-lichess-broadcast.pgn"
TAG = re.compile(r'^\[(\w+) "(.*)"\]$')


def tag_blocks(path: Path) -> list[dict[str, str]]:
    """Each game's tags: the file's blocks of tag lines, apart at blank lines."""
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    return [
        dict(TAG.match(line).groups() for line in block.strip().splitlines())  # type: ignore[union-attr]
        for block in blocks
        if block.strip()
    ]


def tags_say(path: Path):
    """The players (as the club writes them, with titles), games and rounds the tags give."""
    games, players = Counter(), set()
    for tags in tag_blocks(path):
        names = [given_surname(tags[colour]) for colour in ("White", "Black")]
        for colour, name in zip(("White", "Black"), names, strict=True):
            players.add((name, TITLES.get(tags.get(f"{colour}Title", "").lower(), "")))
        round_ = int(tags["Round"].split(".")[0])
        games[round_, names[0], names[1], results.PGN[tags["Result"]], True] += 1
    return players, games, max(r for r, *_ in games)


def test_a_broadcast_without_moves_imports_all_its_games_in_one_event(tmp_path):
    expected = tags_say(RAPID)
    assert len(tag_blocks(RAPID)) == sum(expected[1].values()) == 165
    out = run("import_pgn", "--create-missing", str(RAPID))
    event = Event.objects.get()  # two Sites (two halls), the same players: one event
    assert recorded(event) == expected
    assert event.name == "FIDE Women’s World Rapid Championships 2024"
    assert event.time_class == "rapid"
    assert "read as rapid" in out
    assert recorded(round_trip(event, tmp_path)) == expected


def test_a_lichess_broadcast_dated_by_utcdate_alone_imports_with_its_dates(tmp_path):
    expected = tags_say(UZCHESS)
    days = sorted(tags["UTCDate"] for tags in tag_blocks(UZCHESS))
    assert not any("Date" in tags for tags in tag_blocks(UZCHESS))
    out = run(
        "import_pgn", "--create-missing", "--event", "UzChess Cup Masters 2025", str(UZCHESS)
    )
    event = Event.objects.get()
    assert recorded(event) == expected
    assert (event.start_date.strftime("%Y.%m.%d"), event.end_date.strftime("%Y.%m.%d")) == (
        days[0],
        days[-1],
    )
    assert f"{len(days)} games dated by the UTCDate tag" in out
    assert recorded(round_trip(event, tmp_path)) == expected
