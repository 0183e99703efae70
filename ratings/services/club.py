"""Starting a club: the first-run page's one write (the club's settings and its administrator)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from ..models import ClubSettings, RatingRun
from .accounts import administrator_create
from .systems import rating_system_set


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
    """The club's settings and its administrator (its ratings officer too), once.

    Holds the settings row's lock while it checks that no login exists, so two visitors
    sending the first-run page at once make one administrator; the second is refused.
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
    return administrator_create(username=username, password=password, email=email)


#: The settings a switch of systems changes (``rating_system_set``: a re-rate of everything).
SYSTEM_FIELDS = frozenset({"rating_system", "system_params"})


def club_settings_save(
    *, club: ClubSettings, changed: Iterable[str], user: Any = None
) -> RatingRun | None:
    """The club settings page's save: ``club`` as its form left it, ``changed`` the
    fields it changed. A new rating system (or its parameters) goes through
    ``rating_system_set``, which re-rates everything, perhaps in the background (the
    settings name the new system once its ratings are stored); its run, or None."""
    changed = set(changed)
    switching = bool(changed & SYSTEM_FIELDS)
    system_id, params = club.rating_system, club.system_params
    if switching:
        stored = ClubSettings.objects.get(pk=club.pk)
        club.rating_system, club.system_params = stored.rating_system, stored.system_params
    if changed - SYSTEM_FIELDS:
        club.full_clean()
        if getattr(user, "is_authenticated", False):
            club._history_user = user  # type: ignore[attr-defined]
        club.save()
    if not switching:
        return None
    return rating_system_set(system_id=system_id, params=params, user=user)
