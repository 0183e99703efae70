"""The officer's page for FIDE's rating list: upload, preview of what changes, confirm."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from ratings.models import FideRating

from ..factories import MemberFactory

pytestmark = pytest.mark.django_db

FIDE_FILES = Path(__file__).resolve().parent.parent / "data" / "fide"
STANDARD = FIDE_FILES / "standard_rating_list.txt"


def upload(client, path: Path = STANDARD, content: bytes | None = None, **fields):
    data = content if content is not None else path.read_bytes()
    return client.post(
        reverse("ratings:officer-fide"),
        {"file": SimpleUploadedFile(path.name, data), **fields},
    )


def test_the_preview_counts_the_members_found_and_shows_each_change(officer_client):
    MemberFactory(name="Liam Brennan", member_number="B7", fide_id="4100034")
    MemberFactory(name="Not Fide")
    response = upload(officer_client)
    assert response.url == reverse("ratings:officer-fide-preview")
    page = officer_client.get(response.url).content.decode()
    assert "3 players in the list (standard): 1 member found by FIDE id, 1 with ratings" in page
    assert "standard none → 1862" in page
    assert not FideRating.objects.exists()


def test_confirming_keeps_the_members_fide_ratings(officer_client):
    liam = MemberFactory(name="Liam Brennan", fide_id="4100034")
    upload(officer_client)
    response = officer_client.post(reverse("ratings:officer-fide-preview"))
    assert response.url == reverse("ratings:officer-fide")
    kept = FideRating.objects.get(member=liam)
    assert (kept.standard, kept.standard_month) == (1862, dt.date(2026, 11, 1))


def test_a_bad_line_is_shown_by_its_number_and_nothing_kept(officer_client):
    MemberFactory(name="Liam Brennan", fide_id="4100034")
    lines = STANDARD.read_text().splitlines()
    lines[2] = lines[2][:113] + "18 62 " + lines[2][119:]
    response = upload(officer_client, content="\n".join(lines).encode())
    assert response.status_code == 200
    assert "line 3: the standard rating “18 62” is not a number" in response.content.decode()
    assert officer_client.get(reverse("ratings:officer-fide-preview")).status_code == 302


def test_a_file_that_is_not_the_list_is_refused_with_why(officer_client):
    response = upload(officer_client, content=b"id,name\nH1,Sam\n")
    assert "line 1: this is not FIDE&#x27;s rating list in TXT" in response.content.decode()


def test_a_month_not_written_as_one_is_refused_at_the_field(officer_client):
    response = upload(officer_client, month="November")
    assert "Give the month as YYYY-MM" in response.content.decode()


def test_members_on_the_list_page_are_officers_only(client):
    response = client.get(reverse("ratings:officer-fide"))
    assert response.status_code in (302, 403)


def test_a_file_beginning_with_a_blank_line_is_refused_with_why(officer_client):
    response = upload(officer_client, content=b"\n4100034 Brennan, Liam\n")
    assert response.status_code == 200
    assert "line 1: this is not FIDE&#x27;s rating list in TXT" in response.content.decode()
