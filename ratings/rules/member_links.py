"""A member's own links: "my page" (their page, privately) and one-click unsubscribing.

Each is the member's number in the record signed with Django's signing (``SECRET_KEY``,
a salt of its own), so a link is the member's key and nothing is stored. A link names the
member's address as it was when sent (a digest, not the address): a changed address, an
erased record or a merged one voids every link sent before. "My page" lasts
``MY_PAGE_DAYS``; an unsubscribe link does not expire, as a message read a year on must
still stop the next.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from django.core import signing
from django.utils.crypto import salted_hmac

from .mail import MAIL_KIND_KEYS

if TYPE_CHECKING:
    from ..models import Member

MY_PAGE_DAYS = 30
MY_PAGE_SALT = "ratings.member-links.my-page"
UNSUBSCRIBE_SALT = "ratings.member-links.unsubscribe"
#: An unsubscribe link's kind when it withdraws every kind at once.
EVERY_KIND = "all"


class LinkExpired(Exception):
    """A link once good whose days are over: the member may ask for a new one."""


class LinkBad(Exception):
    """A link that is no one's: altered, cut short, or voided by a changed address."""


def _address_digest(member: Member) -> str:
    return salted_hmac("ratings.member-links.address", member.email.lower()).hexdigest()[:16]


def my_page_token(member: Member) -> str:
    return signing.TimestampSigner(salt=MY_PAGE_SALT).sign(
        f"{member.pk}.{_address_digest(member)}"
    )


def unsubscribe_token(member: Member, kind: str = EVERY_KIND) -> str:
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign(
        f"{member.pk}.{kind}.{_address_digest(member)}"
    )


def address_matches(member: Member | None, digest: str) -> bool:
    """Whether ``member`` (as the read side found them by the link's number) is still the
    one the link was sent to: a current record with the same address."""
    return (
        member is not None
        and member.merged_into_id is None
        and bool(member.email)
        and _address_digest(member) == digest
    )


def my_page_token_read(token: str) -> tuple[str, str]:
    """The member's number in the record and their address's digest that this "my page"
    link carries; LinkExpired or LinkBad (``pages.my_page`` finds the member)."""
    signer = signing.TimestampSigner(salt=MY_PAGE_SALT)
    try:
        value = signer.unsign(token, max_age=dt.timedelta(days=MY_PAGE_DAYS))
    except signing.SignatureExpired as expired:
        raise LinkExpired from expired
    except signing.BadSignature as bad:
        raise LinkBad from bad
    pk, _, digest = value.partition(".")
    return pk, digest


def unsubscribe_token_read(token: str) -> tuple[str, str, str]:
    """The member's number in the record, the kind of message (or EVERY_KIND) this link
    withdraws and their address's digest; LinkBad."""
    try:
        value = signing.Signer(salt=UNSUBSCRIBE_SALT).unsign(token)
    except signing.BadSignature as bad:
        raise LinkBad from bad
    pk, kind, digest = [*value.split(".", 2), "", ""][:3]
    if kind != EVERY_KIND and kind not in MAIL_KIND_KEYS:
        raise LinkBad
    return pk, kind, digest
