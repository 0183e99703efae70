"""FIDE's rating list kept for the club's members: linked by FIDE id, every line of other
players skipped, all saved at once or nothing (services.fide_lists, import_fide_list)."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings.models import FideRating
from ratings.services import member_erase
from ratings.services.fide_lists import (
    FideListRefused,
    fide_list_check,
    fide_list_import,
    fide_ratings_save,
)

from ..factories import MemberFactory

pytestmark = pytest.mark.django_db

FIDE_FILES = Path(__file__).resolve().parent.parent / "data" / "fide"
COMBINED = FIDE_FILES / "players_list_foa.txt"
STANDARD = FIDE_FILES / "standard_rating_list.txt"
NOVEMBER = dt.date(2026, 11, 1)


def import_list(path: Path, **options):
    with path.open("rb") as stream:
        return fide_list_import(stream=stream, filename=path.name, **options)


def check_list(path: Path, **options):
    with path.open("rb") as stream:
        return fide_list_check(stream=stream, filename=path.name, **options)


def test_a_member_is_linked_by_fide_id_and_keeps_ratings_title_and_federation():
    aroha = MemberFactory(name="Aroha Tane", fide_id="4100018")
    import_list(COMBINED, month=NOVEMBER)
    kept = FideRating.objects.get(member=aroha)
    assert (kept.standard, kept.rapid, kept.blitz) == (2131, 2088, 2150)
    assert (kept.title, kept.women_title, kept.federation) == ("WIM", "WIM", "NZL")
    assert kept.standard_month == kept.rapid_month == kept.blitz_month == NOVEMBER


def test_players_who_are_not_members_are_skipped():
    MemberFactory(name="Marko Ilic", fide_id="4100069")
    MemberFactory(name="No Fide Id")
    report = import_list(COMBINED, month=NOVEMBER)
    assert report.linked == 1
    assert list(FideRating.objects.values_list("fide_id", flat=True)) == ["4100069"]


def test_a_single_list_changes_only_its_own_time_control():
    liam = MemberFactory(name="Liam Brennan", fide_id="4100034")
    import_list(COMBINED, month=dt.date(2026, 10, 1))
    import_list(STANDARD)
    kept = FideRating.objects.get(member=liam)
    assert (kept.standard, kept.standard_month) == (1862, NOVEMBER)
    assert (kept.blitz, kept.blitz_month) == (1795, dt.date(2026, 10, 1))


def test_the_preview_names_the_changed_ratings_and_saves_nothing():
    MemberFactory(name="Liam Brennan", fide_id="4100034")
    MemberFactory(name="Marko Ilic", fide_id="4100069")
    import_list(COMBINED, month=dt.date(2026, 10, 1))
    preview = check_list(STANDARD)
    assert [(line.member_name, line.before, line.player.ratings) for line in preview.changed] == [
        ("Liam Brennan", {"standard": 1850}, {"standard": 1862}),
        ("Marko Ilic", {"standard": 2402}, {"standard": 2398}),
    ]
    assert FideRating.objects.get(fide_id="4100034").standard == 1850


def test_the_preview_lists_members_whose_id_is_not_on_the_list():
    MemberFactory(name="Aroha Tane", fide_id="4100018")
    MemberFactory(name="Sam Lost", member_number="H9", fide_id="4999999")
    assert check_list(STANDARD).not_on_list == [("Sam Lost", "H9", "4999999")]


def test_a_list_month_other_than_the_files_is_refused():
    preview = check_list(STANDARD, month=dt.date(2026, 10, 1))
    assert preview.problems == [
        "line 1: this is FIDE's list of 2026-11, not of 2026-10: choose the month the file "
        "says, or upload that month's list"
    ]


def test_a_file_with_a_bad_line_saves_nothing():
    MemberFactory(name="Aroha Tane", fide_id="4100018")
    lines = COMBINED.read_bytes().splitlines(keepends=True)
    broken = b"".join([*lines[:3], b"Nobody " + lines[3][7:], *lines[4:]])
    with pytest.raises(FideListRefused) as refused:
        fide_list_import(stream=io.BytesIO(broken), month=NOVEMBER)
    assert refused.value.problems == ["line 4: the ID Number “Nobody” is not digits"]
    assert not FideRating.objects.exists()


def test_saving_takes_the_same_few_queries_for_many_members():
    def queries(count: int) -> int:
        player = check_list(COMBINED).members[0].player
        ids = [str(5000000 + 1000 * count + i) for i in range(count)]
        many = [replace(player, fide_id=fide_id) for fide_id in ids]
        for fide_id in ids:
            MemberFactory(name=f"Player {fide_id}", fide_id=fide_id)
        with CaptureQueriesContext(connection) as captured:
            fide_ratings_save(players=many, kinds=("standard",), month=NOVEMBER)
        return len(captured)

    MemberFactory(name="Aroha Tane", fide_id="4100018")
    assert queries(3) == queries(30)


def test_the_command_reports_what_it_kept(capsys):
    MemberFactory(name="Aroha Tane", fide_id="4100018")
    out = io.StringIO()
    call_command("import_fide_list", str(COMBINED), "--month", "2026-11", stdout=out)
    assert out.getvalue().strip() == (
        "FIDE's list of 2026-11 (standard, rapid, blitz): 1 member on it, 3 FIDE ratings changed."
    )


def test_the_command_names_a_members_bad_line(tmp_path):
    MemberFactory(name="Aroha Tane", fide_id="4100018")
    bad = tmp_path / "standard_rating_list.txt"
    lines = STANDARD.read_text().splitlines()
    bad.write_text("\n".join([lines[0], lines[1][:113] + "2l40  " + lines[1][119:]]))
    with pytest.raises(CommandError, match="line 2: the standard rating “2l40” is not a number"):
        call_command("import_fide_list", str(bad))


def test_the_command_asks_which_list_a_single_list_is(tmp_path):
    renamed = tmp_path / "nov.txt"
    renamed.write_bytes(STANDARD.read_bytes())
    with pytest.raises(CommandError, match="does not say which"):
        call_command("import_fide_list", str(renamed))
    call_command("import_fide_list", str(renamed), "--kind", "standard", stdout=io.StringIO())


def test_erasing_a_member_removes_what_fides_list_said_of_them(officer):
    aroha = MemberFactory(name="Aroha Tane", fide_id="4100018")
    import_list(COMBINED, month=NOVEMBER)
    member_erase(member=aroha, reason="asked to be forgotten", by=officer)
    assert not FideRating.objects.exists()


def test_the_command_reads_fides_xml_list_too():
    liam = MemberFactory(name="Liam Brennan", fide_id="4100034")
    out = io.StringIO()
    call_command("import_fide_list", str(FIDE_FILES / "players_list_xml_foa.xml"), stdout=out)
    assert FideRating.objects.get(member=liam).blitz == 1795


def test_the_zip_fide_publishes_is_read_with_the_name_inside_it():
    liam = MemberFactory(name="Liam Brennan", fide_id="4100034")
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(STANDARD, "standard_nov26frl.txt")
    packed.seek(0)
    report = fide_list_import(stream=packed, filename="download.zip")
    assert (report.kinds, report.month) == (("standard",), NOVEMBER)
    assert FideRating.objects.get(member=liam).standard == 1862
