"""EMAIL_URL: how the club's mail leaves, read as dj-email-url reads it."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from clubratings.settings import email


def test_console_prints_the_mail():
    assert email("console://", development=False)["EMAIL_BACKEND"] == (
        "django.core.mail.backends.console.EmailBackend"
    )


def test_locmem_keeps_the_mail_in_memory():
    assert email("locmem://", development=False)["EMAIL_BACKEND"] == (
        "django.core.mail.backends.locmem.EmailBackend"
    )


def test_an_smtp_url_gives_the_server_its_login_and_starttls():
    settings = email("smtp://club%40mail.org:p%3Ass@smtp.mail.org:587?tls=True", development=False)
    assert settings["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert settings["EMAIL_HOST"] == "smtp.mail.org"
    assert settings["EMAIL_PORT"] == 587
    assert settings["EMAIL_HOST_USER"] == "club@mail.org"
    assert settings["EMAIL_HOST_PASSWORD"] == "p:ss"
    assert settings["EMAIL_USE_TLS"] is True
    assert settings["EMAIL_USE_SSL"] is False


def test_smtps_is_tls_from_the_start_on_port_465():
    settings = email("smtps://u:p@smtp.mail.org", development=False)
    assert settings["EMAIL_USE_SSL"] is True
    assert settings["EMAIL_USE_TLS"] is False
    assert settings["EMAIL_PORT"] == 465


def test_an_smtp_server_that_never_answers_is_given_up_on_and_the_message_retried():
    assert email("smtp://localhost", development=False)["EMAIL_TIMEOUT"] == 30
    assert email("smtp://localhost?timeout=5", development=False)["EMAIL_TIMEOUT"] == 5


def test_an_anymail_provider_is_named_by_its_backend():
    settings = email("anymail://anymail.backends.postmark.EmailBackend", development=False)
    assert settings["EMAIL_BACKEND"] == "anymail.backends.postmark.EmailBackend"


def test_without_email_url_the_demo_prints_its_mail():
    assert email("", development=True)["EMAIL_BACKEND"] == (
        "django.core.mail.backends.console.EmailBackend"
    )


def test_without_email_url_production_uses_the_machines_own_mail_server():
    settings = email("", development=False)
    assert settings["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (settings["EMAIL_HOST"], settings["EMAIL_PORT"]) == ("localhost", 25)


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("imap://mail.org", "EMAIL_URL must start smtp://"),
        ("smtp://", "names no mail server"),
        ("smtp://mail.org:port", "not a mail URL"),
        ("smtp://mail.org?tls=maybe", "tls must be true or false"),
        ("smtp://mail.org?tls=1&ssl=1", "cannot both be on"),
        ("smtp://mail.org?timeout=soon", "timeout must be a number"),
        ("anymail://sendgrid", "names an anymail backend"),
    ],
)
def test_a_bad_email_url_stops_the_app_saying_what_is_wrong(url, says):
    with pytest.raises(ImproperlyConfigured, match=says):
        email(url, development=False)
