"""Who may do what, asked in one place: the pages (``views/common.py``'s decorators), the
officer's home and navigation, and the admin (through the roles' groups' permissions)
all read these. Which permissions each role's group carries is ``rules/roles.py``.

A superuser holds every permission, so the administrator passes every test here.
"""

from __future__ import annotations

from typing import Any

from .roles import ADMINISTRATOR, DIRECTOR, OFFICER, ROLES, TREASURER

OFFICER_PERMISSION = "ratings.officer"
ADMINISTER_PERMISSION = "ratings.administer_club"
DIRECT_PERMISSION = "ratings.direct_events"
SUBSCRIPTIONS_PERMISSION = "ratings.keep_subscriptions"

#: The permission that marks each role: holding it is holding the role.
ROLE_PERMISSION = {
    ADMINISTRATOR: ADMINISTER_PERMISSION,
    OFFICER: OFFICER_PERMISSION,
    DIRECTOR: DIRECT_PERMISSION,
    TREASURER: SUBSCRIPTIONS_PERMISSION,
}


def holds(user: Any, role: str) -> bool:
    """Whether ``user`` holds ``role`` (an anonymous visitor holds none)."""
    return bool(user.is_authenticated and user.has_perm(ROLE_PERMISSION[role]))


def holds_any(user: Any, roles: tuple[str, ...]) -> bool:
    return any(holds(user, role) for role in roles)


def roles_of(user: Any) -> list[str]:
    """The roles ``user`` holds, in the table's order (the officer's home reads them)."""
    return [role for role in ROLES if holds(user, role)]


def is_administrator(user: Any) -> bool:
    """Changes the club's settings and its logins."""
    return holds(user, ADMINISTRATOR)


def keeps_subscriptions(user: Any) -> bool:
    """Records and takes back members' payments: the treasurer, and the officer."""
    return holds_any(user, (OFFICER, TREASURER))


def can_direct(user: Any, event: Any) -> bool:
    """Enters ``event``'s players, rounds and results: the officer, or a tournament
    director given this event (``event`` an Event or its pk)."""
    if holds(user, OFFICER):
        return True
    if not holds(user, DIRECTOR):
        return False
    # The reverse side of Event.directors: the rule asks the login, not the models.
    pk = event if isinstance(event, int) else event.pk
    return bool(user.directed_events.filter(pk=pk).exists())


def results_closed_to(user: Any, event: Any) -> str | None:
    """Why ``user`` may not change ``event``'s players and results now, or None.

    A director's part ends when they submit the event: what the officer rates must be
    what was submitted, so a submitted event is read-only to its director until the
    officer sends it back, and a rated one stays the officer's (a change re-rates).
    """
    if holds(user, OFFICER):
        return None
    # The stages' names (Event.SUBMITTED, Event.RATED), read off the event: the rule
    # does not import the models.
    if event.stage == event.SUBMITTED:
        return (
            f"{event.name} is submitted for rating: its players and results are read-only "
            "until the ratings officer rates it or sends it back."
        )
    if event.stage == event.RATED:
        return f"{event.name} is rated: only the ratings officer changes its results now."
    return None
