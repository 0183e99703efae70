"""The file formats read a file into plain data and ask nothing of the record: with no
database to reach (no ``django_db`` mark, so any query fails the test), each reader still
reads its file, and its problems are the file's own."""

import datetime as dt
import io
from pathlib import Path

from ratings.formats.club_file import FORMAT, VERSION, club_read, club_write
from ratings.formats.members_csv import RESULT_COLUMNS, RESULT_REQUIRED, members_read, read_table
from ratings.formats.results_csv import result_ids, results_read
from ratings.formats.tournament_files import pgn_events, trf_event

DATA = Path(__file__).parent.parent / "data"


def test_a_members_file_is_read_without_the_record():
    rows, problems = members_read("id,name,fide_id\nR1,Ana Tuilagi,4100018\nR2,Ben,4100018\n")
    assert [r.number for r in rows] == ["R1", "R2"]
    assert [str(p) for p in problems] == ["line 3, fide_id: 4100018 is also on line 2"]


def test_a_results_file_is_read_with_the_numbers_it_is_given():
    text = "event,date,round,white,black,result\nClub night,2024-03-01,1,a1,B2,1-0\n"
    table, problems = read_table(text, columns=RESULT_COLUMNS, required=RESULT_REQUIRED)
    assert result_ids(table) == {"a1", "B2"}
    events = results_read(
        table, problems, recorded={"a1": ("A1", "Alice Archer"), "b2": ("B2", "Bob Brown")}
    )
    assert problems == []
    assert [(r.white, r.black, r.result) for r in events[0].rows] == [("A1", "B2", "1-0")]


def test_a_trf_file_is_read_without_the_record():
    path = DATA / "trf" / "bbp-dutch_2025_C9.trf"
    event, problems = trf_event(path.name, path.read_bytes(), date=dt.date(2025, 1, 1))
    assert problems == []
    assert event is not None and event.players and event.games


def test_a_pgn_file_is_read_without_the_record():
    path = DATA / "pgn" / "anastasian-lewis.pgn"
    events, problems = pgn_events(path.name, path.read_bytes())
    assert problems == []
    assert events and events[0].players


def test_the_club_document_written_from_plain_rows_reads_back():
    out = io.StringIO()
    counts = club_write(
        out=out, head={"database": "sqlite"}, tables=[("ratings.season", [{"pk": 1}]), ("x", [])]
    )
    assert counts == {"ratings.season": 1, "x": 0}
    document = club_read(source=io.StringIO(out.getvalue()))
    assert (document["format"], document["version"]) == (FORMAT, VERSION)
    assert document["tables"] == {"ratings.season": [{"pk": 1}], "x": []}
