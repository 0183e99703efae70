"""The club's mail (services/notifications.py): queued in the asking transaction, sent by
the worker once it commits, with a plain-text and an HTML part, retried while the mail
server refuses for now, logged, and never sent twice for one event."""

from __future__ import annotations

import pytest
from django.core import mail
from django.db import transaction
from django.test import override_settings
from django.urls import reverse

from ratings.models import ClubSettings, MailMessage
from ratings.services.accounts import officer_create
from ratings.services.notifications import mail_deliver, mail_retry_delay, mail_send

from .mail_backends import RefusesOnceBackend

pytestmark = pytest.mark.django_db

REFUSES_ONCE = "tests.web.mail_backends.RefusesOnceBackend"
UNREACHABLE = "tests.web.mail_backends.UnreachableBackend"


def a_reset_mail(key: str = "reset:1") -> MailMessage | None:
    return mail_send(
        kind="password_reset",
        to="olivia@example.org",
        key=key,
        context={"username": "olivia", "reset_url": "https://club.test/r/1/", "timeout_days": 3},
    )


def test_a_message_waits_for_its_transaction_to_commit(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        a_reset_mail()
        assert mail.outbox == []
        assert MailMessage.objects.get().status == MailMessage.Status.QUEUED
    assert len(mail.outbox) == 1
    assert MailMessage.objects.get().status == MailMessage.Status.SENT


def test_a_message_asked_for_in_a_transaction_rolled_back_is_never_sent(
    django_capture_on_commit_callbacks,
):
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        a_reset_mail()
        raise RuntimeError("the save failed")
    assert callbacks == []
    assert mail.outbox == []
    assert not MailMessage.objects.exists()


def test_a_message_has_a_plain_text_part_and_an_html_part(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        a_reset_mail()
    (message,) = mail.outbox
    assert message.to == ["olivia@example.org"]
    assert "https://club.test/r/1/" in message.body
    assert "<a" not in message.body
    ((html, mimetype),) = message.alternatives
    assert mimetype == "text/html"
    assert '<a href="https://club.test/r/1/">' in html
    assert message.subject == "Your password at Our Chess Club's ratings"


def test_the_same_key_is_sent_once(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        first = a_reset_mail(key="event:7:submitted")
        again = a_reset_mail(key="event:7:submitted")
    assert first is not None
    assert again is None
    assert len(mail.outbox) == 1
    assert MailMessage.objects.count() == 1


def test_a_key_sent_already_is_not_sent_again_later(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        a_reset_mail(key="event:7:submitted")
    with django_capture_on_commit_callbacks(execute=True):
        assert a_reset_mail(key="event:7:submitted") is None
    assert len(mail.outbox) == 1


@override_settings(EMAIL_BACKEND=REFUSES_ONCE)
def test_a_temporary_refusal_is_retried_and_logged(django_capture_on_commit_callbacks):
    RefusesOnceBackend.refusals_left = 1
    with django_capture_on_commit_callbacks(execute=True):
        a_reset_mail()
    assert len(mail.outbox) == 1
    logged = MailMessage.objects.get()
    assert logged.status == MailMessage.Status.SENT
    assert logged.attempts == 2
    assert logged.sent is not None
    assert "SMTPServerDisconnected" in logged.error  # what the first attempt met


@override_settings(EMAIL_BACKEND=UNREACHABLE, MAIL_ATTEMPTS=3)
def test_a_message_refused_at_every_attempt_is_logged_as_failed(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        a_reset_mail()
    assert mail.outbox == []
    logged = MailMessage.objects.get()
    assert logged.status == MailMessage.Status.FAILED
    assert logged.attempts == 3
    assert logged.failed is not None
    assert "Connection refused" in logged.error
    # Its one-time link is not kept in the log.
    assert (logged.body_text, logged.body_html) == ("", "")


def test_a_sent_message_keeps_no_body_in_the_log(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        a_reset_mail()
    logged = MailMessage.objects.get()
    assert (logged.body_text, logged.body_html) == ("", "")
    assert logged.subject  # what was sent stays readable


def test_a_retry_waits_longer_each_time(settings):
    settings.MAIL_RETRY_SECONDS = 60
    assert [mail_retry_delay(attempts=n) for n in (1, 2, 3, 4)] == [60, 120, 240, 480]


@override_settings(EMAIL_BACKEND=UNREACHABLE)
def test_the_worker_queues_a_retry_for_later_when_its_queue_can_wait(settings):
    from django_tasks import default_task_backend

    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    message = a_reset_mail()
    assert message is not None

    assert mail_deliver(message_pk=message.pk) == "retrying"

    (retry,) = default_task_backend.results
    assert retry.kwargs == {"message_pk": message.pk}
    assert retry.task.run_after is not None
    assert MailMessage.objects.get().status == MailMessage.Status.QUEUED


def test_a_message_handed_out_twice_is_sent_once(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        message = a_reset_mail()
    assert message is not None
    assert mail_deliver(message_pk=message.pk) == MailMessage.Status.SENT
    assert len(mail.outbox) == 1


def test_the_mail_is_from_the_clubs_sender_under_its_name(django_capture_on_commit_callbacks):
    ClubSettings.objects.filter(pk=ClubSettings.load().pk).update(
        name="Hastings Chess Club", mail_from="ratings@hastings.example"
    )
    with django_capture_on_commit_callbacks(execute=True):
        a_reset_mail()
    assert mail.outbox[0].from_email == "Hastings Chess Club <ratings@hastings.example>"


def test_without_a_club_sender_the_mail_is_from_the_servers_default(
    settings, django_capture_on_commit_callbacks
):
    settings.DEFAULT_FROM_EMAIL = "noreply@ratings.example"
    with django_capture_on_commit_callbacks(execute=True):
        a_reset_mail()
    assert mail.outbox[0].from_email == "noreply@ratings.example"


def test_a_key_the_log_cannot_hold_is_refused_before_anything_is_written():
    with pytest.raises(ValueError, match="key is 1 to 200 characters"):
        a_reset_mail(key="x" * 201)
    assert not MailMessage.objects.exists()


def test_the_administrator_reads_the_log_in_the_admin_without_the_messages_links(admin_client):
    message = a_reset_mail()  # queued: its body, with the link, is still kept
    assert message is not None

    listed = admin_client.get(reverse("admin:ratings_mailmessage_changelist")).content.decode()
    shown = admin_client.get(
        reverse("admin:ratings_mailmessage_change", args=[message.pk])
    ).content.decode()

    assert "olivia@example.org" in listed
    assert "Queued" in listed
    assert "Your password at Our Chess Club" in shown
    assert "https://club.test/r/1/" not in listed + shown


def test_an_officer_does_not_see_the_log(client):
    client.force_login(officer_create(username="olivia", password="correct-horse-42"))
    assert client.get(reverse("admin:ratings_mailmessage_changelist")).status_code == 403
    assert "Mail messages" not in client.get(reverse("admin:index")).content.decode()
