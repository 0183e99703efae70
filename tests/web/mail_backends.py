"""Mail servers for the tests: real EmailBackends (Django's in-memory one) that refuse
as a busy or unreachable SMTP server does, so the mail module's retries are tried for
real."""

from __future__ import annotations

import smtplib
from collections.abc import Sequence

from django.core.mail import EmailMessage
from django.core.mail.backends import locmem


class RefusesOnceBackend(locmem.EmailBackend):
    """Drops the connection on the first message it is handed, takes the rest."""

    refusals_left = 0

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        if RefusesOnceBackend.refusals_left > 0:
            RefusesOnceBackend.refusals_left -= 1
            raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")
        return super().send_messages(email_messages)


class UnreachableBackend(locmem.EmailBackend):
    """A mail server nobody answers at."""

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        raise ConnectionRefusedError(111, "Connection refused")
