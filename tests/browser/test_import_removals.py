"""A members file that takes back a payment, in a real browser: the preview lists it and
asks the reason (the page passing axe), confirming without one saves nothing, with one
removes the payment."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ratings.models import Subscription

from ..factories import MemberFactory, SubscriptionFactory, officer_user
from .test_accessibility import Findings, check
from .test_officer_workflow import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_payment_a_members_file_removes_is_listed_and_removed_only_with_a_reason(
    page, tmp_path, current_season
):
    officer_user()
    sam = MemberFactory(member_number="H003", name="Sam Nguyen")
    paid = SubscriptionFactory(member=sam, season=current_season, amount=Decimal("60.00"))
    file = tmp_path / "club.csv"
    file.write_text("id,name,membership\nH003,Sam Nguyen,arrears\n", encoding="utf-8")
    log_in(page)
    page.goto("/officer/import/members/")
    page.get_by_label("CSV file").set_input_files(str(file))
    page.get_by_role("button", name="Read the file").click()
    page.wait_for_url("**/import/members/preview/")
    removal = f"Sam Nguyen: the {current_season.name} payment of 60.00 would be removed"
    assert page.get_by_text(f"Line 2: {removal}").is_visible()
    findings = Findings()
    check(page, "members preview with a removal", findings)
    assert findings.count() == 0, findings.report()

    page.get_by_role("button", name="Confirm: import 1 member").click()
    page.wait_for_load_state()
    assert page.get_by_text("Give the reason for removing these payments").first.is_visible()
    assert Subscription.objects.filter(pk=paid.pk).exists()

    page.get_by_label("Reason for removing these payments").fill("refunded at the AGM")
    with page.expect_navigation():
        page.get_by_role("button", name="Confirm: import 1 member").click()
    page.wait_for_url("**/officer/members/")
    assert not Subscription.objects.filter(pk=paid.pk).exists()
