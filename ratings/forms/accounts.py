"""A login's own password, reset by email: Django's form, its mail sent as the club's."""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm, SetPasswordForm
from django.urls import reverse

from ..services.notifications import mail_send


class ClubPasswordResetForm(PasswordResetForm):
    """Django's password reset, its message queued and logged like every other
    (services/notifications.py) instead of sent in the request.

    Django's form writes nothing for an address no login has, and the page after is the
    same either way: a reset request says nothing about who has a login.
    """

    def get_users(self, email: str) -> Iterator[Any]:
        """The active logins with ``email``, as Django's form finds them, and also one
        invited that has yet to choose a password (Django skips a login without a usable
        password). Its invitation's link lapses after PASSWORD_RESET_TIMEOUT, and the
        people page cannot invite an active login again: the reset is its way in. A
        removed login is inactive, and gets nothing."""
        model = get_user_model()
        field = model.get_email_field_name()
        logins = model._default_manager.filter(**{f"{field}__iexact": email, "is_active": True})
        wanted = _folded(email)
        return (login for login in logins if _folded(getattr(login, field)) == wanted)

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        link = reverse(
            "password_reset_confirm", kwargs={"uidb64": context["uid"], "token": context["token"]}
        )
        # The same link asked for twice (a double click) is one message; the key is a
        # digest, as the log is read by others and the token would open the login.
        digest = hashlib.sha256(f"{context['uid']}/{context['token']}".encode()).hexdigest()
        mail_send(
            kind="password_reset",
            to=to_email,
            key=f"password_reset:{digest[:40]}",
            context={
                "user": context["user"],
                "username": context["user"].get_username(),
                "reset_url": f"{context['protocol']}://{context['domain']}{link}",
                "timeout_days": max(1, settings.PASSWORD_RESET_TIMEOUT // 86400),
            },
        )


class ClubSetPasswordForm(SetPasswordForm):
    """Django's form to choose a password (a reset, an invitation), its rules' refusals
    ("too similar to the username", "too short") told at the new password, the field they
    are about: Django's own puts them at the confirmation, which only has to match."""

    def clean(self) -> dict[str, Any] | None:
        self.validate_passwords("new_password1", "new_password2")
        self.validate_password_for_user(self.user, "new_password1")
        return super(SetPasswordForm, self).clean()


def _folded(address: str) -> str:
    """An address compared as Django's reset compares it (NFKC, case folded)."""
    return unicodedata.normalize("NFKC", address).casefold()
