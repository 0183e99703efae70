"""A member erased at their request: who they were is removed from the record and its
history, what they played stays, so no other member's rating moves.

Their games, rating changes and states stay as they are (no re-rate: nothing the engine
reads changes), under the name "Former member <pk>" and a number of the same kind; their
subscriptions stay, as the club's accounts. What the club's rating systems rate a player
with besides their games (ecf-2020: a new player's age and title,
``RatingSystem.reads_player_details``) is kept, for the same reason, and the officer's
confirmation says so.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from ..models import ClubSettings, FideRating, Member, number_taken
from ..models.rating_lists import lists_kept
from ..rules.names import name_key
from .audit import reason_kept
from .public_pages import public_pages_changed

#: The member's fields an erasure empties, with what each becomes.
ERASED_FIELDS: dict[str, Any] = {
    "email": "",
    "mail_consent_at": None,
    "mail_consent_how": "",
    "mail_wanted": [],
    "born": None,
    "gender": "",
    "region": "",
    "title": "",
    "fide_id": "",
    "name_in_files": "",
    "birth_year": None,
    "federation": "",
}


class EraseRefused(ValueError):
    """A member cannot be erased; the message says why, for the officer."""


def former_name(member: Member) -> str:
    return f"Former member {member.pk}"


def former_number(member: Member) -> str:
    """A number of the erased kind no one else has (a club's own "former-7" aside)."""
    number = f"former-{member.pk}"
    while number_taken(number, besides=member):
        number += "x"
    return number


def erase_kept(*, club: ClubSettings | None = None) -> frozenset[str]:
    """The personal fields an erasure keeps: those a list's system rates with."""
    club = club or ClubSettings.load()
    kept: set[str] = set()
    for time_class in lists_kept():
        kept |= club.engine(time_class).reads_player_details
    return frozenset(kept) & frozenset(ERASED_FIELDS)


def member_erase(*, member: Member, reason: str, by: Any) -> Member:
    """Remove who ``member`` was: their name and number become "Former member N" and
    "former-N", their contact and personal fields are emptied (but those the ratings read,
    ``erase_kept``), and every earlier version of their record in the history is scrubbed
    alike. Their games and ratings stay. ``reason`` is kept with the erasure."""
    if not reason.strip():
        raise EraseRefused("Say why the member is erased: it is kept with the erasure.")
    if member.merged_into_id is not None:
        raise EraseRefused("This record was merged into another: erase that member instead.")
    kept = erase_kept()
    cleared = {name: value for name, value in ERASED_FIELDS.items() if name not in kept}
    with transaction.atomic():
        member = Member.objects.select_for_update().get(pk=member.pk)
        replaced = {"name": former_name(member), "member_number": former_number(member)}
        replaced["name_key"] = name_key(replaced["name"])  # the key spells the name too
        # Every earlier version first: the history keeps that a change was made, by whom
        # and when, never what the member was called or how to reach them.
        member.history.all().update(**replaced, **cleared)
        # Merged duplicates of theirs are the same person under another record.
        for duplicate in Member.objects.filter(merged_into=member):
            dup = {"name": former_name(duplicate), "member_number": former_number(duplicate)}
            dup["name_key"] = name_key(dup["name"])
            duplicate.history.all().update(**dup, **cleared)
            Member.objects.filter(pk=duplicate.pk).update(**dup, **cleared)
        # FIDE's list as read for them (their name as FIDE writes it, birth year): the
        # list is read again by FIDE id, which is erased.
        FideRating.objects.filter(
            member__in=[member, *Member.objects.filter(merged_into=member)]
        ).delete()
        for name, value in {**replaced, **cleared}.items():
            setattr(member, name, value)
        member._change_reason = reason_kept(f"Erased: {reason}")  # type: ignore[attr-defined]
        member._history_user = by  # type: ignore[attr-defined]
        member.save()
        # Who they were is withdrawn: no page's previous copy may still name them.
        public_pages_changed(hides=True)
    return member
