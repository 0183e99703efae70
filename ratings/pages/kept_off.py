"""Who a viewer reads as an "Unpublished player": the club's choice to keep unpublished
members off its public pages (``ClubSettings.keeps_unpublished_off``), asked of the
members a page shows. The rule itself is ``Member.objects.published()``
(``models/members.py``); how a kept-off member reads, ``rules.publication.as_shown``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..models import ClubSettings, Member
from ..rules.publication import sees_every_rating

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser


def keeps_off(club: ClubSettings | None = None) -> bool:
    """Whether the club keeps unpublished members off its public pages (its setting,
    ``club`` or read)."""
    return (club or ClubSettings.load()).keeps_unpublished_off


def kept_off(
    ids: Iterable[int],
    *,
    viewer: AbstractBaseUser | AnonymousUser,
    club: ClubSettings | None = None,
    day: dt.date | None = None,
) -> set[int]:
    """Which of these members ``viewer`` reads as an "Unpublished player": the unpublished
    ones when the club keeps them off public pages; nobody for an officer, or when the
    club names them."""
    if sees_every_rating(viewer) or not keeps_off(club):
        return set()
    asked = list({pk for pk in ids if pk is not None})
    return set(asked) - Member.objects.filter(pk__in=asked).published_pks(day, among=asked)


def shown_on_public_pages(
    member: Member,
    *,
    viewer: AbstractBaseUser | AnonymousUser,
    club: ClubSettings | None = None,
) -> bool:
    """Whether ``viewer`` may read this member's own page (and its CSV and API answer):
    not when the club keeps unpublished members off public pages, unless an officer."""
    return not kept_off([member.pk], viewer=viewer, club=club)
