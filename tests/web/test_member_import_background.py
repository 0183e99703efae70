"""A members file longer than MEMBER_IMPORT_FOREGROUND_ROWS is read and saved by the worker
(issue 40): its page follows the progress, shows the same preview, and the end says what
was saved. Nothing is saved before the officer confirms, a second confirm does nothing, and
a worker that dies leaves the record as it was, its file taken up again by another."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from ratings.models import Member, MemberImport, Subscription
from ratings.services import member_import_jobs, member_imports

from ..factories import MemberFactory

pytestmark = pytest.mark.django_db

REGISTER = (
    "id,name,gender,rating,games,membership\n"
    "R2001,Ana Tuilagi,F,1450,36,financial\n"
    "R2002,Mikhail Petrov,M,2105,240,financial\n"
    "R2003,Wiremu Ngata,M,1710,80,financial\n"
)


@pytest.fixture(autouse=True)
def _short_files_go_to_the_worker(settings):
    """Three rows count as long here: a real register needs thousands."""
    settings.MEMBER_IMPORT_FOREGROUND_ROWS = 2


@pytest.fixture
def worker(django_capture_on_commit_callbacks):
    """What the worker does once the page's transaction commits (the tests' task backend
    runs a task at once): each call carries out the tasks queued within it."""

    def carry_out(action):  # type: ignore[no-untyped-def]
        with django_capture_on_commit_callbacks(execute=True):
            return action()

    return carry_out


def upload(client, text=REGISTER):  # type: ignore[no-untyped-def]
    data = {"file": SimpleUploadedFile("register.csv", text.encode())}
    return client.post(reverse("ratings:officer-import-register"), data)


def page(job):  # type: ignore[no-untyped-def]
    return reverse("ratings:officer-import-register-job", args=[job.pk])


def test_a_long_file_is_read_by_the_worker_and_its_page_shows_the_preview(officer_client, worker):
    response = worker(lambda: upload(officer_client))
    job = MemberImport.objects.get()
    assert response["Location"] == page(job)
    assert job.status == MemberImport.Status.READ
    text = officer_client.get(page(job)).content.decode()
    assert "3 new members" in text and "Mikhail Petrov" in text
    assert "Confirm: import 3 members" in text


def test_nothing_is_saved_before_the_officer_confirms(officer_client, worker):
    worker(lambda: upload(officer_client))
    assert not Member.objects.exists()


def test_a_file_within_the_threshold_is_read_in_the_page_as_before(officer_client, settings):
    settings.MEMBER_IMPORT_FOREGROUND_ROWS = 3
    response = upload(officer_client)
    assert response["Location"] == reverse("ratings:officer-import-register-preview")
    assert not MemberImport.objects.exists()


def test_confirming_saves_through_the_worker_and_the_page_says_what_was_saved(
    officer_client, officer, worker
):
    worker(lambda: upload(officer_client))
    job = MemberImport.objects.get()
    response = worker(lambda: officer_client.post(page(job), {"listed": ""}))
    assert response["Location"] == page(job)
    job.refresh_from_db()
    assert job.status == MemberImport.Status.SAVED and job.confirmed_by == officer
    assert Member.objects.count() == 3
    assert Subscription.objects.count() == 3
    text = officer_client.get(page(job)).content.decode()
    assert "register.csv imported" in text and "3 members added" in text


def test_a_saved_file_keeps_no_copy_of_the_members_details(officer_client, worker):
    worker(lambda: upload(officer_client))
    job = MemberImport.objects.get()
    worker(lambda: officer_client.post(page(job), {"listed": ""}))
    job.refresh_from_db()
    assert job.text == "" and not job.lines.exists()


def test_a_second_confirm_of_the_same_file_does_nothing(officer_client, worker):
    worker(lambda: upload(officer_client))
    job = MemberImport.objects.get()
    worker(lambda: officer_client.post(page(job), {"listed": ""}))
    response = worker(lambda: officer_client.post(page(job), {"listed": ""}, follow=True))
    assert "confirmed already" in response.content.decode()
    assert Member.objects.count() == 3
    assert Subscription.objects.count() == 3
    assert not member_import_jobs.member_import_confirm(job=job, user=None)


def test_the_progress_is_readable_while_the_worker_reads(officer_client, worker, monkeypatch):
    seen = []
    check = member_imports.members_check

    def watched(data, *, progress=None):  # type: ignore[no-untyped-def]
        def told(done, total):  # type: ignore[no-untyped-def]
            progress(done, total)
            job = MemberImport.objects.get()
            seen.append(officer_client.get(page(job) + "status/").json())

        return check(data, progress=told)

    monkeypatch.setattr(member_imports, "members_check", watched)
    worker(lambda: upload(officer_client))
    assert seen[0]["status"] == "reading" and seen[0]["finished"] is False
    assert seen[-1]["rows_done"] == seen[-1]["rows_total"] == 3
    assert "Read 3 of 3 rows" in seen[-1]["message"]


def test_the_page_follows_the_worker_with_a_live_region_and_without_javascript(officer_client):
    job = MemberImport.objects.create(filename="register.csv", text=REGISTER, rows_total=3)
    text = officer_client.get(page(job)).content.decode()
    assert 'role="status" aria-live="polite"' in text
    assert '<noscript><meta http-equiv="refresh"' in text
    assert "Waiting for the worker to read it" in text


def test_a_long_files_problems_are_shown_at_their_lines_and_it_cannot_be_confirmed(
    officer_client, worker
):
    worker(lambda: upload(officer_client, REGISTER + "R2004,Ben,M,abc,3,financial\n"))
    job = MemberImport.objects.get()
    text = officer_client.get(page(job)).content.decode()
    assert "cannot be imported: 1 problem" in text and "<td>5</td><td>rating</td>" in text
    assert "Confirm" not in text
    worker(lambda: officer_client.post(page(job), {"listed": ""}))
    assert not Member.objects.exists()


def test_a_change_to_the_record_since_the_preview_refuses_the_save_at_its_line(
    officer_client, worker
):
    register = "id,name,fide_id\nR2001,Ana,4100018\nR2002,Ben,\nR2003,Cy,\n"
    worker(lambda: upload(officer_client, register))
    job = MemberImport.objects.get()
    # Meanwhile another officer records Ana's FIDE id for someone else.
    MemberFactory(member_number="R1", name="Ana Tuilagi", fide_id="4100018")
    worker(lambda: officer_client.post(page(job), {"listed": ""}))
    job.refresh_from_db()
    assert job.status == MemberImport.Status.FAILED
    assert not Member.objects.filter(member_number__in=["R2001", "R2002", "R2003"]).exists()
    text = officer_client.get(page(job)).content.decode()
    assert "<td>2</td><td>fide_id</td><td>4100018 is the FIDE id of Ana Tuilagi" in text


def _working(status, **fields):  # type: ignore[no-untyped-def]
    """An import a worker was carrying out when it died: silent for minutes."""
    quiet = timezone.now() - dt.timedelta(minutes=5)
    values = {
        "filename": "register.csv",
        "text": REGISTER,
        "rows_total": 3,
        "status": status,
        "started": quiet,
        "heartbeat": quiet,
        "worker": "gone:1",
        "preview": {"problems": [], "lines": 0, "removals": []},
    }
    return MemberImport.objects.create(**{**values, **fields})


def test_a_dead_workers_reading_is_taken_over_and_finished(worker):
    job = _working(MemberImport.Status.READING)
    taken = worker(member_import_jobs.member_imports_take_over)
    assert [t.pk for t in taken] == [job.pk]
    job.refresh_from_db()
    assert job.status == MemberImport.Status.READ and job.preview["new"] == 3


def test_a_dead_workers_save_is_taken_over_and_saves_each_member_once(worker):
    job = _working(MemberImport.Status.SAVING)
    worker(member_import_jobs.member_imports_take_over)
    job.refresh_from_db()
    assert job.status == MemberImport.Status.SAVED
    assert Member.objects.count() == 3 and Subscription.objects.count() == 3


def test_a_living_workers_import_is_not_taken_over(worker):
    _working(MemberImport.Status.SAVING, heartbeat=timezone.now())
    assert worker(member_import_jobs.member_imports_take_over) == []


def test_a_save_that_stops_on_an_error_leaves_the_record_as_it_was(worker, monkeypatch):
    job = _working(MemberImport.Status.SAVE_QUEUED, heartbeat=None)

    def broken(**kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("the disk is full")

    # The save's last step, the members' states (new members' or changed ones').
    monkeypatch.setattr(member_imports.services, "member_states_create", broken)
    monkeypatch.setattr(member_imports.services, "member_states_write", broken)
    with pytest.raises(RuntimeError):
        member_import_jobs.member_import_save(job=job)
    job.refresh_from_db()
    assert job.status == MemberImport.Status.FAILED and "saved nothing" in job.message
    assert not Member.objects.exists() and not Subscription.objects.exists()


def test_a_save_whose_import_was_taken_over_meanwhile_is_rolled_back(monkeypatch):
    job = _working(MemberImport.Status.SAVE_QUEUED, heartbeat=None)
    write = member_imports.services.member_states_create  # the file's members are new

    def taken_over_meanwhile(**kwargs):  # type: ignore[no-untyped-def]
        write(**kwargs)
        MemberImport.objects.filter(pk=job.pk).update(worker="another:2")

    monkeypatch.setattr(member_imports.services, "member_states_create", taken_over_meanwhile)
    member_import_jobs.member_import_save(job=job)
    assert not Member.objects.exists() and not Subscription.objects.exists()
