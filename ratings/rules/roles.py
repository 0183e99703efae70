"""The club's people: each role, once, as data (its group, its permissions, its staff status).

A role is a Django group with exactly the permissions below (made or repaired by the data
migration ``0030_roles_people_and_roles`` and by ``services.accounts.role_groups_ensure``);
a person may hold several. What each permission lets a page do is asked in one place,
``ratings/views/access.py``; this table only says which permissions each role carries.

- The administrator runs the club: everything, including the club settings and logins. An
  administrator is also a Django superuser (the admin's every right, the logins and the
  task queue), so ``is_superuser`` and the group agree; the group names the role on the
  people's page and carries ``administer_club`` for a login made one without the flag.
- The ratings officer keeps the record: members, subscriptions, events, results, rating,
  rating periods, publishing and the admin's corrections (today's "officer").
- A tournament director enters the events they are given (``Event.directors``): their
  players, rounds and results; nothing else (no rating, publishing, payments, other events).
- The treasurer keeps members' subscriptions and payments only.

Only the officer and the administrator are staff (the admin is for corrections); a
director's and a treasurer's work is on the officer's pages, so the admin never opens
for them and holds no permission of theirs.
"""

from __future__ import annotations

from dataclasses import dataclass

ADMINISTRATOR = "administrator"
OFFICER = "officer"
DIRECTOR = "director"
TREASURER = "treasurer"

#: The custom permissions, on ``ClubSettings.Meta`` (codename, what it lets one do).
PERMISSIONS: list[tuple[str, str]] = [
    ("officer", "Can keep members, enter results and rate events"),
    ("administer_club", "Can change the club's settings and its logins"),
    ("direct_events", "Can enter the players and results of the events they direct"),
    ("keep_subscriptions", "Can record and take back members' payments"),
]

#: The record: officers keep it, in their pages and in the admin (corrections).
RECORD_MODELS = ("member", "subscription", "season", "event", "entry", "game")
#: Closed through the officer pages; the admin shows them.
PERIOD_MODELS = ("ratingperiod",)
#: Derived or the administrator's: officers read them. The club settings (the rating
#: system) are the administrator's to change: switching systems re-rates everything.
READ_ONLY_MODELS = ("ratingstate", "ratingchange", "ratingrun", "clubsettings", "ratinglist")


def _officer_permissions() -> tuple[str, ...]:
    codenames = ["officer"]
    codenames += [
        f"{action}_{model}"
        for model in RECORD_MODELS
        for action in ("view", "add", "change", "delete")
    ]
    codenames += [f"{action}_{model}" for model in PERIOD_MODELS for action in ("view", "change")]
    codenames += [f"view_{model}" for model in READ_ONLY_MODELS]
    return tuple(codenames)


@dataclass(frozen=True)
class Role:
    key: str
    group: str  # the Django group's name
    title: str  # as the pages name it
    permissions: tuple[str, ...]  # codenames of the ``ratings`` app
    staff: bool  # opens the admin
    superuser: bool = False


ROLES: dict[str, Role] = {
    ADMINISTRATOR: Role(
        key=ADMINISTRATOR,
        group="Administrators",
        title="Administrator",
        permissions=(
            *_officer_permissions(),
            "administer_club",
            "keep_subscriptions",
            "change_clubsettings",
            "change_ratinglist",
        ),
        staff=True,
        superuser=True,
    ),
    OFFICER: Role(
        key=OFFICER,
        group="Ratings officers",
        title="Ratings officer",
        permissions=_officer_permissions(),
        staff=True,
    ),
    DIRECTOR: Role(
        key=DIRECTOR,
        group="Tournament directors",
        title="Tournament director",
        permissions=("direct_events",),
        staff=False,
    ),
    TREASURER: Role(
        key=TREASURER,
        group="Treasurers",
        title="Treasurer",
        permissions=("keep_subscriptions",),
        staff=False,
    ),
}
