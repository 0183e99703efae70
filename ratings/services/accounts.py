"""Who may do what: the ratings officers' group and its permissions."""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission, User
from django.db import transaction

OFFICERS_GROUP = "Ratings officers"

#: The record: officers keep it, in their pages and in the admin (corrections).
RECORD_MODELS = ("member", "subscription", "season", "event", "entry", "game")
#: Closed through the officer pages; the admin shows them.
PERIOD_MODELS = ("ratingperiod",)
#: Derived or the administrator's: officers read them. The club settings (the rating
#: system) are the administrator's to change: switching systems re-rates everything.
READ_ONLY_MODELS = ("ratingstate", "ratingchange", "ratingrun", "clubsettings", "ratinglist")


def officers_group_ensure() -> Group:
    """The officers' group, with exactly its permissions (made or repaired)."""
    group, _ = Group.objects.get_or_create(name=OFFICERS_GROUP)
    codenames = ["officer"]
    codenames += [
        f"{action}_{model}"
        for model in RECORD_MODELS
        for action in ("view", "add", "change", "delete")
    ]
    codenames += [f"{action}_{model}" for model in PERIOD_MODELS for action in ("view", "change")]
    codenames += [f"view_{model}" for model in READ_ONLY_MODELS]
    group.permissions.set(
        Permission.objects.filter(content_type__app_label="ratings", codename__in=codenames)
    )
    return group


@transaction.atomic
def officer_create(*, username: str, password: str | None, email: str = "", **names: str) -> User:
    """A ratings officer: staff (for the admin's corrections), in the group, not a superuser.

    An existing user is made an officer and keeps their password unless one is given.
    """
    group = officers_group_ensure()
    user = User.objects.filter(username=username).first()
    if user is None:
        user = User.objects.create_user(username, email, password, **names)
    elif password:
        user.set_password(password)
    user.is_staff = True
    user.save()
    user.groups.add(group)
    return user
