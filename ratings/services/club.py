"""Starting a club: the first-run page's one write (the club's settings and its officer)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from ..models import ClubSettings
from .accounts import officer_create


class ClubStarted(Exception):
    """The club already has its logins: the first-run page is gone."""


def club_needs_start() -> bool:
    """A fresh install: no login exists yet, so no one could run the club. The first-run
    page is open only then (afterwards the officer or administrator adds logins)."""
    return not User.objects.exists()


@transaction.atomic
def club_start(
    *,
    name: str,
    rating_system: str,
    season_start_month: int,
    time_zone: str,
    username: str,
    password: str,
    email: str = "",
) -> User:
    """The club's settings and its ratings officer, once.

    Holds the settings row's lock while it checks that no login exists, so two visitors
    sending the first-run page at once make one officer; the second is refused.
    """
    settings = ClubSettings.objects.select_for_update().filter(pk=ClubSettings.load().pk).get()
    if not club_needs_start():
        raise ClubStarted("The club has already been started: log in instead.")
    settings.name = name
    # Nothing is rated yet, so choosing the system needs no re-rate (rating_system_set).
    settings.rating_system = rating_system
    settings.season_start_month = season_start_month
    settings.time_zone = time_zone
    settings.full_clean()
    settings.save()
    return officer_create(username=username, password=password, email=email)
