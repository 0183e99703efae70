"""Who may do what: the roles' groups (``ratings/rules/roles.py``), and the people in them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import Group, Permission, User
from django.db import transaction

from ..rules.roles import ADMINISTRATOR, DIRECTOR, OFFICER, ROLES, TREASURER, Role

OFFICERS_GROUP = ROLES[OFFICER].group

__all__ = [
    "ADMINISTRATOR",
    "DIRECTOR",
    "OFFICER",
    "OFFICERS_GROUP",
    "TREASURER",
    "administrator_create",
    "event_directors_set",
    "officer_create",
    "officers_group_ensure",
    "role_give",
    "role_groups_ensure",
]


def role_groups_ensure(*, group_model: Any = Group, permission_model: Any = Permission) -> None:
    """Every role's group, with exactly its permissions (made or repaired). The data
    migration passes its historical models; everyone else calls it as it is."""
    for role in ROLES.values():
        _role_group_ensure(role, group_model=group_model, permission_model=permission_model)


def _role_group_ensure(
    role: Role, *, group_model: Any = Group, permission_model: Any = Permission
) -> Any:
    group, _ = group_model.objects.get_or_create(name=role.group)
    group.permissions.set(
        permission_model.objects.filter(
            content_type__app_label="ratings", codename__in=role.permissions
        )
    )
    return group


def officers_group_ensure() -> Group:
    """The officers' group, with exactly its permissions (made or repaired)."""
    group: Group = _role_group_ensure(ROLES[OFFICER])
    return group


@transaction.atomic
def role_give(*, user: User, role: str) -> User:
    """``user`` holds ``role`` too (a person may hold several): its group, and the staff and
    superuser flags the role carries (never taken away here: another role may need them)."""
    spec = ROLES[role]
    group = _role_group_ensure(spec)
    user.groups.add(group)
    changed = [flag for flag in ("is_staff", "is_superuser") if _wants(spec, flag, user)]
    for flag in changed:
        setattr(user, flag, True)
    if changed:
        user.save(update_fields=changed)
    # The permission cache (``has_perm``) was read before the group was added.
    for cache in ("_perm_cache", "_user_perm_cache", "_group_perm_cache"):
        user.__dict__.pop(cache, None)
    return user


def _wants(role: Role, flag: str, user: User) -> bool:
    wanted = role.staff if flag == "is_staff" else role.superuser
    return wanted and not getattr(user, flag)


def _login(*, username: str, password: str | None, email: str, **names: str) -> User:
    """The login named ``username``: made, or found (keeping its password unless given)."""
    user = User.objects.filter(username=username).first()
    if user is None:
        return User.objects.create_user(username, email, password, **names)
    if password:
        user.set_password(password)
        user.save(update_fields=["password"])
    return user


@transaction.atomic
def officer_create(*, username: str, password: str | None, email: str = "", **names: str) -> User:
    """A ratings officer: staff (for the admin's corrections), in the group, not a superuser.

    An existing user is made an officer and keeps their password unless one is given.
    """
    user = _login(username=username, password=password, email=email, **names)
    return role_give(user=user, role=OFFICER)


@transaction.atomic
def administrator_create(
    *, username: str, password: str | None, email: str = "", **names: str
) -> User:
    """The club's administrator (a superuser, in the administrators' group), who is its
    ratings officer too: the first-run page's login, who runs the club from the start."""
    user = _login(username=username, password=password, email=email, **names)
    role_give(user=user, role=OFFICER)
    return role_give(user=user, role=ADMINISTRATOR)


@transaction.atomic
def event_directors_set(*, event: Any, users: Iterable[User]) -> None:
    """The tournament directors of ``event``: exactly ``users``, each made a director."""
    people = list(users)
    for user in people:
        role_give(user=user, role=DIRECTOR)
    event.directors.set(people)
