"""The club's mail to its members: the kinds of message a member may ask for, and the one
question every message asks before it goes (``member_may_be_mailed``).

A new kind of message is one line in ``MAIL_KINDS``: the member's form, the admin and the
members file read their choices from it, and a member's wishes are kept as its keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class MailKind:
    """A kind of message the club sends: its key (kept on the member) and how the member's
    form asks for it."""

    key: str
    label: str


NEW_RATING = "new_rating"
STATUS_CHANGE = "status_change"
CLUB_NEWS = "club_news"

MAIL_KINDS = (
    MailKind(NEW_RATING, "My new rating when a list is published"),
    MailKind(STATUS_CHANGE, "When my rating's status is about to change"),
    MailKind(CLUB_NEWS, "Club news and the calendar"),
)

MAIL_KIND_KEYS = tuple(kind.key for kind in MAIL_KINDS)


def mail_kind_choices() -> list[tuple[str, str]]:
    return [(kind.key, kind.label) for kind in MAIL_KINDS]


def unknown_mail_kinds(keys: Any) -> list[str]:
    """The keys that name no kind of message (a slip in a file or the admin)."""
    if not isinstance(keys, list):
        return [str(keys)]
    return [str(key) for key in keys if key not in MAIL_KIND_KEYS]


def member_may_be_mailed(member: Any, kind: str) -> bool:
    """Whether the club may send ``member`` a message of ``kind``: only with an address,
    their consent to club mail recorded, and that kind wanted. The one place every
    message asks (a merged record is no one's address any more)."""
    if kind not in MAIL_KIND_KEYS:
        raise ValueError(f"{kind!r} is not a kind of club mail ({', '.join(MAIL_KIND_KEYS)})")
    return member_consents(member) and kind in (member.mail_wanted or [])


def member_consents(member: Any) -> bool:
    """Whether ``member`` has an address and their consent to club mail recorded: what a
    message they ask for themselves (their "my page" link) needs, whatever kinds they
    want."""
    return bool(
        member.email
        and member.mail_consent_at is not None
        and getattr(member, "merged_into_id", None) is None
    )
