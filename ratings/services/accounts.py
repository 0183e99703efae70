"""Who may do what: the roles' groups (``ratings/rules/roles.py``), and the people in them."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group, Permission, User
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from ..rules.roles import ADMINISTRATOR, DIRECTOR, OFFICER, ROLES, TREASURER, Role
from .notifications import mail_send

OFFICERS_GROUP = ROLES[OFFICER].group

__all__ = [
    "ADMINISTRATOR",
    "DIRECTOR",
    "OFFICER",
    "OFFICERS_GROUP",
    "TREASURER",
    "PersonRefused",
    "administrator_create",
    "event_directors_set",
    "officer_create",
    "officers_group_ensure",
    "person_invite",
    "person_remove",
    "person_roles_set",
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


class PersonRefused(ValueError):
    """A change to the club's logins that would leave it without its administrator."""


def _clear_permission_cache(user: User) -> None:
    for cache in ("_perm_cache", "_user_perm_cache", "_group_perm_cache"):
        user.__dict__.pop(cache, None)


def _administrators() -> Any:
    """The active logins holding the administrator's role (the flag or the group)."""
    return (
        User.objects.filter(is_active=True)
        .filter(Q(is_superuser=True) | Q(groups__name=ROLES[ADMINISTRATOR].group))
        .distinct()
    )


def _is_last_administrator(user: User) -> bool:
    """``user`` is an active administrator, and no other login is."""
    administrators = _administrators()
    return (
        administrators.filter(pk=user.pk).exists()
        and not administrators.exclude(pk=user.pk).exists()
    )


@transaction.atomic
def person_roles_set(*, user: User, roles: Iterable[str], events: Iterable[Any] = ()) -> User:
    """``user`` holds exactly ``roles`` (and, as a director, directs exactly ``events``).

    The staff and superuser flags follow the roles; the club's last administrator keeps
    the role (else nobody could change the settings or the logins without a shell).
    """
    wanted = [role for role in ROLES if role in set(roles)]
    unknown = set(roles) - set(ROLES)
    if unknown:
        raise PersonRefused(f"No such role: {', '.join(sorted(unknown))}.")
    if ADMINISTRATOR not in wanted and _is_last_administrator(user):
        raise PersonRefused(
            "This is the club's last administrator: give the role to someone else first."
        )
    groups = [_role_group_ensure(ROLES[role]) for role in wanted]
    others = user.groups.exclude(name__in=[spec.group for spec in ROLES.values()])
    user.groups.set([*others, *groups])
    user.is_staff = any(ROLES[role].staff for role in wanted)
    user.is_superuser = any(ROLES[role].superuser for role in wanted)
    user.save(update_fields=["is_staff", "is_superuser"])
    user.directed_events.set(list(events) if DIRECTOR in wanted else [])
    _clear_permission_cache(user)
    return user


def invitation_link(*, user: User, base_url: str) -> str:
    """The one-time link to choose a password: Django's reset token, which no longer
    matches once a password is set (it hashes the password) or PASSWORD_RESET_TIMEOUT ends."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    path = reverse("invitation_accept", kwargs={"uidb64": uid, "token": token})
    return base_url.rstrip("/") + path


@transaction.atomic
def person_invite(
    *,
    email: str,
    name: str,
    roles: Iterable[str],
    events: Iterable[Any] = (),
    invited_by: User,
    base_url: str,
) -> User:
    """A login for ``email`` with ``roles``, its password to be chosen from the link the
    invitation mails (its login name is the address). A login removed before is brought
    back, its old password unusable; an active login with the address is refused."""
    email = User.objects.normalize_email(email.strip())
    username = email.lower()
    user = User.objects.filter(Q(username__iexact=username) | Q(email__iexact=email)).first()
    if user is not None and user.is_active:
        raise PersonRefused(f"{email} has a login already: change its roles instead.")
    if user is None:
        user = User(username=username)
    user.email = email
    user.first_name = name.strip()[:150]
    user.is_active = True
    # No password until the invited person chooses one: nobody can log in as them.
    user.set_unusable_password()
    user.save()
    person_roles_set(user=user, roles=roles, events=events)
    link = invitation_link(user=user, base_url=base_url)
    digest = hashlib.sha256(link.encode()).hexdigest()[:40]
    mail_send(
        kind="invitation",
        to=email,
        key=f"invitation:{user.pk}:{digest}",
        context={
            "user": user,
            "username": user.get_username(),
            "invited_by": invited_by.get_full_name() or invited_by.get_username(),
            "roles": [ROLES[role].title for role in ROLES if role in set(roles)],
            "events": [event.name for event in user.directed_events.order_by("start_date")],
            "invitation_url": link,
            # A lapsed link is renewed there ("Forgotten your password?"): the people page
            # refuses to invite an address that has a login.
            "login_url": base_url.rstrip("/") + reverse("login"),
            "timeout_days": max(1, settings.PASSWORD_RESET_TIMEOUT // 86400),
        },
    )
    return user


@transaction.atomic
def person_remove(*, user: User, removed_by: User) -> User:
    """``user`` can no longer log in (deactivated, their record kept for the audit trail);
    never oneself, never the club's last administrator."""
    if user.pk == removed_by.pk:
        raise PersonRefused("You cannot remove your own login.")
    if _is_last_administrator(user):
        raise PersonRefused("This is the club's last administrator: it cannot be removed.")
    user.is_active = False
    user.save(update_fields=["is_active"])
    return user
