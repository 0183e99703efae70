"""FIDE's rating list read as FIDE publishes it: the combined list and one time control's
list, each from a file written to FIDE's columns (tests/data/fide)."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

from ratings.formats.fide_list import (
    fide_list_is_xml,
    fide_list_open,
    fide_list_read,
    fide_list_read_xml,
    fide_list_text,
    kind_of_name,
)

FIDE_FILES = Path(__file__).resolve().parent.parent / "data" / "fide"
COMBINED = FIDE_FILES / "players_list_foa.txt"
STANDARD = FIDE_FILES / "standard_rating_list.txt"
XML = FIDE_FILES / "players_list_xml_foa.xml"
HEADER = COMBINED.read_text().splitlines()[0]


def read(path: Path, **options):
    with path.open("rb") as lines:
        return fide_list_read(lines, **options)


def player(found, fide_id):
    return next(p for p in found.players if p.fide_id == fide_id)


def test_the_combined_list_gives_each_players_three_ratings():
    found = read(COMBINED)
    assert found.kinds == ("standard", "rapid", "blitz")
    okafor = player(found, "4100026")
    assert okafor.name == "Okafor, Daniel"
    assert okafor.ratings == {"standard": 2287, "rapid": 2240, "blitz": 2301}
    assert okafor.games == {"standard": 0, "rapid": 12, "blitz": 0}
    assert (okafor.federation, okafor.title, okafor.born) == ("NZL", "FM", 1988)


def test_a_rating_of_0_is_no_rating():
    assert player(read(COMBINED), "4100034").ratings["rapid"] is None


def test_a_womans_titles_are_kept_apart():
    tane = player(read(COMBINED), "4100018")
    assert (tane.title, tane.women_title) == ("WIM", "WIM")


def test_the_flag_says_who_is_inactive():
    found = read(COMBINED)
    assert player(found, "4100042").inactive
    assert player(found, "4100050").inactive
    assert not player(found, "4100018").inactive


def test_a_birth_year_of_0_is_none():
    assert player(read(COMBINED), "4100050").born is None


def test_an_other_title_longer_than_its_column_pushes_the_line_right():
    duarte = player(read(COMBINED), "4100077")
    assert duarte.ratings == {"standard": 1987, "rapid": 1950, "blitz": 1999}
    assert (duarte.women_title, duarte.born) == ("WFM", 1985)


def test_a_single_list_is_of_the_month_its_header_names():
    found = read(STANDARD, kind="standard")
    assert found.kinds == ("standard",)
    assert found.month == dt.date(2026, 11, 1)
    assert player(found, "4100034").ratings == {"standard": 1862}
    assert player(found, "4100034").born == 2007


def test_a_single_list_whose_time_control_is_unknown_is_refused():
    found = read(STANDARD)
    assert not found.players
    assert "line 1: this is one time control's list (of NOV26)" in found.problem_lines()[0]


def test_a_file_names_its_time_control():
    assert kind_of_name("standard_rating_list.txt") == "standard"
    assert kind_of_name("blitz_nov26frl.zip") == "blitz"
    assert kind_of_name("players_list_foa.txt") is None


def test_only_the_wanted_lines_are_kept():
    found = read(COMBINED, wanted={"4100069", "9999999"})
    assert [p.fide_id for p in found.players] == ["4100069"]
    assert found.lines == 7


def test_an_id_with_leading_zeros_is_the_same_id():
    line = COMBINED.read_text().splitlines()[1]
    found = fide_list_text(HEADER + "\n" + "00" + line[:13] + line[15:], kind=None)
    assert found.players[0].fide_id == "4100018"


def test_a_file_without_the_header_is_not_the_list():
    found = fide_list_text("1503014,Carlsen,NOR,2830\n")
    assert found.problem_lines()[0].startswith("line 1: this is not FIDE's rating list in TXT")


def test_a_line_without_an_id_is_named_by_its_number():
    lines = COMBINED.read_text().splitlines()
    found = fide_list_text("\n".join([HEADER, lines[1], "Tane, Aroha" + lines[2][11:]]))
    assert found.problem_lines() == ["line 3: the ID Number “Tane, Aroha” is not digits"]


def test_a_rating_that_is_no_number_is_named_by_its_line():
    lines = COMBINED.read_text().splitlines()
    bad = lines[3][:113] + "18x0  " + lines[3][119:]
    found = fide_list_text("\n".join([HEADER, lines[1], lines[2], bad]))
    assert found.problem_lines() == ["line 4: the standard rating “18x0” is not a number"]
    assert len(found.players) == 2


def test_many_bad_lines_are_counted_beyond_the_first_twenty():
    found = fide_list_text("\n".join([HEADER] + ["x"] * 25))
    assert len(found.problems) == 20
    assert found.problem_lines()[-1] == "and 5 more bad lines"


def test_the_zip_fide_publishes_is_read_as_its_list():
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.write(STANDARD, "standard_nov26frl.txt")
    packed.seek(0)
    stream, name = fide_list_open(packed)
    assert name == "standard_nov26frl.txt"
    assert player(fide_list_read(stream, kind="standard"), "4100069").ratings == {"standard": 2398}


def test_a_2mb_slice_of_the_list_is_read_whole():
    # About 12,000 lines, as a slice of FIDE's 1.9 million (the time: docs/performance.md).
    lines = COMBINED.read_bytes().splitlines(keepends=True)
    body = lines[1:]
    copies = 2_000_000 // sum(len(line) for line in body) + 1
    sliced = [lines[0]] + [
        f"{4200000 + n * len(body) + i:<15}".encode() + line[15:]
        for n in range(copies)
        for i, line in enumerate(body)
    ]
    assert sum(map(len, sliced)) >= 2_000_000
    found = fide_list_read(sliced)
    assert found.problems == []
    assert len(found.players) == found.lines == len(sliced) - 1


def read_xml(data: bytes, **options):
    return fide_list_read_xml(io.BytesIO(data), **options)


def test_the_xml_list_gives_the_same_players_as_the_txt():
    found = read_xml(XML.read_bytes())
    txt = read(COMBINED, wanted={"4100018", "4100034", "4100042"})
    assert found.kinds == txt.kinds
    assert [
        (
            p.fide_id,
            p.name,
            p.federation,
            p.title,
            p.women_title,
            p.born,
            p.inactive,
            p.ratings,
            p.games,
        )
        for p in found.players
    ] == [
        (
            p.fide_id,
            p.name,
            p.federation,
            p.title,
            p.women_title,
            p.born,
            p.inactive,
            p.ratings,
            p.games,
        )
        for p in txt.players
    ]


def test_the_xml_list_is_told_from_the_txt():
    with XML.open("rb") as xml, COMBINED.open("rb") as txt:
        assert fide_list_is_xml(xml)
        assert not fide_list_is_xml(txt)


def test_a_single_xml_list_rates_its_own_time_control():
    data = XML.read_bytes().replace(b"<rapid_rating>", b"<x>").replace(b"</rapid_rating>", b"</x>")
    found = read_xml(data, kind="blitz", wanted={"4100034"})
    assert found.kinds == ("blitz",)
    assert found.players[0].ratings == {"blitz": 1850}


def test_a_bad_xml_player_is_named_by_its_place_and_id():
    data = XML.read_bytes().replace(b"<rating>1850</rating>", b"<rating>18S0</rating>")
    found = read_xml(data)
    assert found.problem_lines() == [
        "player 2 (FIDE id 4100034): the standard rating or games is no number"
    ]


def test_broken_xml_is_named_by_its_line():
    found = read_xml(XML.read_bytes().replace(b"</player>\n<player>", b"\n<player>", 1))
    assert found.problem_lines()[-1] == "line 5: the XML cannot be read: mismatched tag"
