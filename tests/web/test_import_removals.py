"""Nothing removed without asking: a members file whose "arrears" would take back a
payment lists it at the preview, counts its line as a change, and removes it only with the
officer's reason, kept in the audit trail as the member page's "Remove" keeps it."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from ratings import services
from ratings.models import Subscription

from ..factories import MemberFactory, SubscriptionFactory

pytestmark = pytest.mark.django_db

SAM_IN_ARREARS = "id,name,membership\nH003,Sam Nguyen,arrears\n"
PREVIEW = reverse("ratings:officer-import-register-preview")


@pytest.fixture
def sam_paid(current_season):  # type: ignore[no-untyped-def]
    """Sam Nguyen, who has paid 60.00 for this season."""
    sam = MemberFactory(member_number="H003", name="Sam Nguyen")
    return SubscriptionFactory(member=sam, season=current_season, amount=Decimal("60.00"))


def upload(client, text):  # type: ignore[no-untyped-def]
    client.post(
        reverse("ratings:officer-import-register"),
        {"file": SimpleUploadedFile("club.csv", text.encode())},
    )
    return client.get(PREVIEW)


def confirm(client, preview, **data):  # type: ignore[no-untyped-def]
    """Confirm as the preview's form posts it: the payments it listed, and ``data``."""
    listed = preview.context["form"]["listed"].value()
    return client.post(PREVIEW, {"listed": listed, **data})


def test_the_preview_lists_each_payment_the_file_would_remove(officer_client, sam_paid):
    page = upload(officer_client, SAM_IN_ARREARS).content.decode()
    season = sam_paid.season.name
    assert f"Sam Nguyen: the {season} payment of 60.00 would be removed" in page


def test_a_line_that_removes_a_payment_counts_as_an_update_not_unchanged(officer_client, sam_paid):
    page = upload(officer_client, SAM_IN_ARREARS).content.decode()
    assert "0 new members, 1 to update" in page
    assert "unchanged" not in page


def test_confirming_without_a_reason_saves_nothing_and_asks_for_one(officer_client, sam_paid):
    preview = upload(officer_client, SAM_IN_ARREARS)
    response = confirm(officer_client, preview)
    assert response.status_code == 200
    assert "Give the reason for removing these payments" in response.content.decode()
    assert Subscription.objects.filter(pk=sam_paid.pk).exists()


def test_confirming_with_a_reason_removes_the_payment_and_the_audit_keeps_the_reason(
    officer_client, officer, sam_paid
):
    preview = upload(officer_client, SAM_IN_ARREARS)
    response = confirm(officer_client, preview, removal_reason="refunded at the AGM")
    assert response["Location"] == reverse("ratings:officer-members")
    assert not Subscription.objects.filter(pk=sam_paid.pk).exists()
    line = services.subscription_audit(member=sam_paid.member)[0]  # the newest
    assert line.what.startswith(f"Payment removed: {sam_paid.season.name}")
    assert (line.reason, line.who) == ("refunded at the AGM", officer.get_username())


def test_a_file_that_removes_nothing_asks_no_reason(officer_client, current_season):
    MemberFactory(member_number="H003", name="Sam Nguyen")
    preview = upload(officer_client, SAM_IN_ARREARS)
    assert "removal_reason" not in preview.context["form"].fields
    assert confirm(officer_client, preview)["Location"] == reverse("ratings:officer-members")


def test_a_payment_recorded_after_the_preview_is_not_removed_unseen(
    officer_client, current_season
):
    sam = MemberFactory(member_number="H003", name="Sam Nguyen")
    preview = upload(officer_client, SAM_IN_ARREARS)
    paid = SubscriptionFactory(member=sam, season=current_season, amount=Decimal("60.00"))
    response = confirm(officer_client, preview, removal_reason="typed before it was paid")
    assert "have changed since the preview" in response.content.decode()
    assert Subscription.objects.filter(pk=paid.pk).exists()


def write(tmp_path, text):  # type: ignore[no-untyped-def]
    path = tmp_path / "members.csv"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_the_command_refuses_to_remove_a_payment_without_a_reason(tmp_path, sam_paid):
    with pytest.raises(CommandError) as error:
        call_command("import_members", write(tmp_path, SAM_IN_ARREARS), stdout=io.StringIO())
    season = sam_paid.season.name
    assert f"line 2: Sam Nguyen: the {season} payment of 60.00 would be removed" in str(
        error.value
    )
    assert "--removal-reason" in str(error.value)
    assert Subscription.objects.filter(pk=sam_paid.pk).exists()


def test_the_command_removes_a_payment_with_the_reason_it_is_given(tmp_path, sam_paid):
    call_command(
        "import_members",
        write(tmp_path, SAM_IN_ARREARS),
        "--removal-reason=refunded",
        stdout=io.StringIO(),
    )
    assert not Subscription.objects.filter(pk=sam_paid.pk).exists()
    line = services.subscription_audit(member=sam_paid.member)[0]  # the newest
    assert line.reason == "refunded"
