"""The club's logins as the administrator's people page shows them."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import Prefetch

from ..models import Event
from ..rules.roles import ADMINISTRATOR, ROLES


def roles_held(user: User) -> list[str]:
    """The roles ``user``'s groups (prefetched) and flags give, in the table's order."""
    groups = {group.name for group in user.groups.all()}
    return [
        role.key
        for role in ROLES.values()
        if role.group in groups or (role.key == ADMINISTRATOR and user.is_superuser)
    ]


def people_rows() -> list[dict[str, Any]]:
    """Every login, active first, with its roles and the events it directs (three queries)."""
    users = User.objects.prefetch_related(
        "groups", Prefetch("directed_events", queryset=Event.objects.order_by("-start_date"))
    ).order_by("-is_active", "username")
    return [
        {
            "user": user,
            "roles": [ROLES[role].title for role in roles_held(user)],
            "events": list(user.directed_events.all()),
            "invited": not user.has_usable_password() and user.last_login is None,
        }
        for user in users
    ]
