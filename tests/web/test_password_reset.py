"""A forgotten password, reset by email: the login page offers it, the link comes by the
club's mail (logged, sent after commit), sets the new password, and the login page,
where django-axes' lock-out holds, is still the one way in."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from ratings.models import MailMessage

from ..factories import officer_user

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-new-knight-on-f5"


@pytest.fixture
def olivia():
    return officer_user("olivia", "correct-horse-42")


def ask_for_a_reset(client, capture, address: str, **extra):
    with capture(execute=True):
        return client.post(reverse("password_reset"), {"email": address}, **extra)


def the_link_in(message) -> str:
    (link,) = re.findall(r"https?://\S+", message.body)
    return link.split("testserver", 1)[1]


def log_in(client, password: str, address: str = "10.0.0.7"):
    return client.post(
        reverse("login"), {"username": "olivia", "password": password}, REMOTE_ADDR=address
    )


def test_the_login_page_offers_to_reset_a_forgotten_password(client):
    page = client.get(reverse("login")).content.decode()
    assert f'href="{reverse("password_reset")}"' in page
    assert "Forgotten your password?" in page


def test_a_reset_sends_one_mail_whose_link_sets_the_new_password(
    client, olivia, django_capture_on_commit_callbacks
):
    response = ask_for_a_reset(client, django_capture_on_commit_callbacks, "olivia@example.org")
    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")

    (message,) = mail.outbox
    assert message.to == ["olivia@example.org"]
    ((html, _),) = message.alternatives
    link = the_link_in(message)
    assert link in html
    assert MailMessage.objects.get().kind == "password_reset"

    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert done.url == reverse("password_reset_complete")

    assert log_in(client, "correct-horse-42").status_code == 200  # the old one is refused
    assert log_in(client, NEW_PASSWORD).status_code == 302
    assert client.get(reverse("ratings:officer-home")).status_code == 200


def test_a_password_the_rules_refuse_is_told_at_the_new_passwords_field(
    client, olivia, django_capture_on_commit_callbacks
):
    ask_for_a_reset(client, django_capture_on_commit_callbacks, "olivia@example.org")
    form = client.get(the_link_in(mail.outbox[0]), follow=True)
    refused = client.post(
        form.redirect_chain[-1][0], {"new_password1": "olivia", "new_password2": "olivia"}
    )
    errors = refused.context["form"].errors
    assert "too similar to the username" in " ".join(errors["new_password1"])
    assert "new_password2" not in errors


def test_the_login_and_reset_pages_send_a_member_to_the_link_to_their_own_page(client):
    # Members have no login: their own page opens from a link mailed to them.
    for page in (reverse("login"), reverse("password_reset"), reverse("password_reset_done")):
        assert f'href="{reverse("ratings:my-page-ask")}"' in client.get(page).content.decode()


def test_a_reset_link_works_once(client, olivia, django_capture_on_commit_callbacks):
    ask_for_a_reset(client, django_capture_on_commit_callbacks, "olivia@example.org")
    link = the_link_in(mail.outbox[0])
    form = client.get(link, follow=True)
    client.post(
        form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    client.logout()

    again = client.get(link, follow=True).content.decode()

    assert "This link no longer works" in again


def test_an_unknown_address_gets_the_same_page_and_no_mail(
    client, olivia, django_capture_on_commit_callbacks
):
    known = ask_for_a_reset(client, django_capture_on_commit_callbacks, "olivia@example.org")
    mail.outbox.clear()

    unknown = ask_for_a_reset(client, django_capture_on_commit_callbacks, "nobody@example.org")

    assert unknown.status_code == known.status_code == 302
    assert unknown.url == known.url
    assert mail.outbox == []
    assert MailMessage.objects.filter(to="nobody@example.org").count() == 0
    page = client.get(unknown.url).content.decode()
    assert "If a login has that address" in page


def test_the_reset_mail_waits_for_the_request_to_commit(
    client, olivia, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        client.post(reverse("password_reset"), {"email": "olivia@example.org"})
    assert mail.outbox == []
    assert MailMessage.objects.get().status == MailMessage.Status.QUEUED
    for callback in callbacks:
        callback()
    assert len(mail.outbox) == 1


def test_a_bad_address_is_told_at_its_field(client):
    response = client.post(reverse("password_reset"), {"email": "not an address"})
    assert response.status_code == 200
    assert "Enter a valid email address" in response.content.decode()


def test_a_locked_out_login_may_reset_its_password_but_the_lock_out_still_holds(
    client, settings, olivia, django_capture_on_commit_callbacks
):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "wrong")
    assert log_in(client, "correct-horse-42").status_code == 429

    ask_for_a_reset(client, django_capture_on_commit_callbacks, "olivia@example.org")
    form = client.get(the_link_in(mail.outbox[0]), follow=True)
    client.post(
        form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )

    # The new password is set, and not a way round the lock-out: no login by the reset
    # itself, and the login page refuses until the cool-off ends.
    assert "_auth_user_id" not in client.session
    assert log_in(client, NEW_PASSWORD).status_code == 429
    assert log_in(client, NEW_PASSWORD, address="10.0.0.8").status_code == 302


def test_an_invited_login_whose_invitation_lapsed_gets_in_by_a_reset(
    client, olivia, django_capture_on_commit_callbacks
):
    # Invited, it has no password yet; the people page cannot invite an active login
    # again, so the login page's reset is its way in once the invitation's link expires.
    from ratings.services.accounts import person_invite

    with django_capture_on_commit_callbacks(execute=True):
        person_invite(
            email="tess@example.org",
            name="Tess",
            roles=["treasurer"],
            invited_by=olivia,
            base_url="http://testserver/",
        )
    mail.outbox.clear()

    ask_for_a_reset(client, django_capture_on_commit_callbacks, "tess@example.org")

    (message,) = mail.outbox
    assert message.to == ["tess@example.org"]
    form = client.get(the_link_in(message), follow=True)
    client.post(
        form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    logged_in = client.post(
        reverse("login"), {"username": "tess@example.org", "password": NEW_PASSWORD}
    )
    assert logged_in.status_code == 302
    assert client.get(reverse("ratings:officer-home")).status_code == 200


def test_a_removed_login_gets_no_reset(client, olivia, django_capture_on_commit_callbacks):
    olivia.is_active = False
    olivia.save()

    ask_for_a_reset(client, django_capture_on_commit_callbacks, "olivia@example.org")

    assert mail.outbox == []
