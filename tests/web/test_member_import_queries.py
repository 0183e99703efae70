"""A long members file read and saved by the worker in as many queries whatever its length
(issue 40): nothing is asked or written a member at a time, the audit trail included."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings.models import Member, MemberImport, Subscription
from ratings.services import member_import_jobs

pytestmark = pytest.mark.django_db

FIRST = ["Ana", "Ben", "Cara", "Dev", "Ema", "Finn", "Gia", "Hemi", "Isla", "Jack"]
LAST = ["Archer", "Brown", "Carter", "Dixon", "Evans", "Fisher", "Grant", "Hughes", "Irwin"]


def register(rows: int, *, rating: int = 1500) -> str:
    """A register of ``rows`` people of different names, every one financial."""
    lines = ["id,name,born,gender,region,rating,games,email,membership"]
    for n in range(rows):
        name = f"{FIRST[n % 10]} {chr(65 + n // 90 % 26)}. {LAST[n // 10 % 9]}"
        lines.append(
            f"R{n:05d},{name},1980-05-0{1 + n % 9},{'MF'[n % 2]},North,{rating},30,"
            f"m{n}@example.org,financial"
        )
    return "\n".join(lines) + "\n"


#: SQLite takes 999 parameters a statement: Django writes 43 members (23 columns) or 249
#: payments to an INSERT there, so 450 members more are ten statements more and their
#: payments two; PostgreSQL writes each batch of 2,000 in one.
MORE_BATCHES = 12


@pytest.fixture(autouse=True)
def _a_club_under_way():
    """A first import, so that what the club makes once (its settings, the season, the
    pages' version) is not counted against the shorter file."""
    job, _ = read("id,name,membership\nW0001,Wiremu Ngata,financial\n")
    save(job)


def read(text: str) -> tuple[MemberImport, int]:
    """The worker's reading of a file: the import, and the queries it took."""
    job = member_import_jobs.member_import_queue(
        text=text, filename="register.csv", notice="", user=None
    )
    with CaptureQueriesContext(connection) as queries:
        job = member_import_jobs.member_import_read(job=job)
    assert not job.preview["problems"]
    return job, len(queries)


def save(job: MemberImport, user=None) -> int:  # type: ignore[no-untyped-def]
    """The worker's save of a read file, confirmed: the queries it took."""
    member_import_jobs.member_import_confirm(job=job, user=user)
    with CaptureQueriesContext(connection) as queries:
        job = member_import_jobs.member_import_save(job=MemberImport.objects.get(pk=job.pk))
    assert job.status == MemberImport.Status.SAVED, job.message
    return len(queries)


def test_reading_a_file_takes_as_many_queries_for_500_rows_as_for_50():
    _, short = read(register(50))
    _, long = read(register(500))
    assert long - short <= 1  # the preview's lines: 333 to a statement on SQLite


def test_saving_new_members_takes_as_many_queries_for_500_as_for_50():
    short = save(read(register(50))[0])
    Subscription.objects.all().delete()
    Member.objects.filter(member_number__startswith="R").delete()
    long = save(read(register(500))[0])
    assert Member.objects.filter(member_number__startswith="R").count() == 500
    assert long - short <= MORE_BATCHES


def test_saving_changes_to_recorded_members_grows_only_by_their_batches():
    save(read(register(500))[0])
    short = save(read(register(50, rating=1600))[0])
    long = save(read(register(500, rating=1700))[0])
    assert long - short <= MORE_BATCHES


def test_each_member_added_and_payment_recorded_keeps_who_added_it_and_why(officer):
    save(read(register(3))[0], user=officer)
    for model in (Member, Subscription):
        history = model.history.filter(history_user=officer)  # type: ignore[attr-defined]
        assert history.count() == 3
        assert {(h.history_type, h.history_user, h.history_change_reason) for h in history} == {
            ("+", officer, "import_members")
        }
    added = Member.objects.filter(member_number__startswith="R")
    assert {h.instance for h in Member.history.filter(history_user=officer)} == set(added)


def test_each_member_changed_keeps_what_it_was_changed_to():
    save(read(register(3))[0])
    save(read(register(3, rating=1650))[0])
    changed = Member.history.filter(history_type="~")
    assert changed.count() == 3
    assert {h.initial_rating for h in changed} == {1650}
