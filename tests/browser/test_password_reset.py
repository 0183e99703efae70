"""A forgotten password, in a real browser: from the login page to the email (read from
the test mailbox: the live server is this process) to the new password, then logged in.
Each page of the way passes axe at both widths."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from ..factories import officer_user
from .test_accessibility import Findings, check

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_forgotten_password_is_reset_by_email_and_the_login_then_works(page) -> None:
    officer_user("olivia", "correct-horse-42")
    findings = Findings()

    page.goto("/accounts/login/")
    with page.expect_navigation():
        page.get_by_role("link", name="Forgotten your password?").click()
    check(page, "the reset form", findings)
    page.get_by_label("Email").fill("olivia@example.org")
    with page.expect_navigation():
        page.get_by_role("button", name="Send the link").click()
    assert page.get_by_role("heading", name="Check your email").is_visible()
    check(page, "the reset asked for", findings)

    (message,) = mail.outbox
    assert message.to == ["olivia@example.org"]
    (link,) = re.findall(r"https?://\S+/accounts/reset/\S+", message.body)
    page.goto(link)
    assert page.get_by_role("heading", name="Choose a new password").is_visible()
    check(page, "the new password's form", findings)
    # Crispy marks a required field's label with an asterisk: the fields by their ids.
    page.locator("#id_new_password1").fill("a-new-knight-on-f5")
    page.locator("#id_new_password2").fill("a-new-knight-on-f5")
    with page.expect_navigation():
        page.get_by_role("button", name="Set the password").click()
    assert page.get_by_role("heading", name="Your new password is set").is_visible()
    check(page, "the password set", findings)

    with page.expect_navigation():
        page.get_by_role("link", name="Log in", exact=True).click()
    page.get_by_label("Username").fill("olivia")
    page.get_by_label("Password").fill("a-new-knight-on-f5")
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()
    assert page.get_by_role("button", name="Log out olivia").is_visible()
    assert findings.count() == 0, findings.report()
