"""Make a user a ratings officer: the club's own logins, beside the demo's."""

from __future__ import annotations

import getpass
import os
from typing import Any

from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.services.accounts import OFFICERS_GROUP, officer_create

PASSWORD_VARIABLE = "OFFICER_PASSWORD"


class Command(BaseCommand):
    help = (
        "Create a ratings officer (staff, in the officers' group, not a superuser), or make an "
        "existing user one. The password is asked for, or read from $OFFICER_PASSWORD with "
        "--noinput."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--email", default="")
        parser.add_argument(
            "--noinput",
            action="store_true",
            help=f"Do not ask: take the password from ${PASSWORD_VARIABLE} (an existing "
            "user keeps theirs when it is unset).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        username: str = options["username"]
        existing = User.objects.filter(username=username).first()
        if options["noinput"]:
            password = os.environ.get(PASSWORD_VARIABLE) or None
            if password is None and existing is None:
                raise CommandError(f"Set ${PASSWORD_VARIABLE} to give the new officer a password.")
        elif existing is not None:
            password = None
        else:
            password = self.ask_password()
        if password is not None:
            try:
                validate_password(password, existing)
            except ValidationError as error:
                raise CommandError(" ".join(error.messages)) from error
        user = officer_create(username=username, password=password, email=options["email"])
        verb = "is now" if existing else "created as"
        self.stdout.write(
            self.style.SUCCESS(f"{user.username} {verb} a ratings officer ({OFFICERS_GROUP}).")
        )

    def ask_password(self) -> str:
        first = getpass.getpass("Password: ")
        if first != getpass.getpass("Password (again): "):
            raise CommandError("The two passwords differ: nothing was saved.")
        if not first:
            raise CommandError("The password cannot be empty: nothing was saved.")
        return first
