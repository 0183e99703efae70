"""The club's mail to its members: their new rating when a list is published (or why it
is withheld), their "my page" link, and unsubscribing in one click.

Every message asks ``rules.mail`` first (``member_may_be_mailed``; the link a member asks
for, ``member_consents``), carries a one-click unsubscribe (RFC 8058) and a link to the
member's page, where their preferences are. ``site``: the address the links start with
(``https://ratings.ourclub.org``), from the request that asks.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F, FilteredRelation, Q, QuerySet
from django.urls import reverse
from django.utils import timezone

from ..models import (
    ClubSettings,
    Member,
    Publication,
    RatingState,
    Season,
    financial_condition,
    listing,
)
from ..models.rating_lists import lists_kept
from ..rules.mail import NEW_RATING, STATUS_CHANGE, member_consents, member_may_be_mailed
from ..rules.member_links import EVERY_KIND, MY_PAGE_DAYS, my_page_token, unsubscribe_token
from ..rules.rating_lists import list_words
from ..rules.status_changes import member_status_changes, status_mail_key, told_ahead
from ..rules.time_classes import STANDARD
from ..words.figures import shown_change
from .notifications import Letter, mail_render, mail_send, mail_send_many
from .publishing import PublishRefused, list_publish

#: The two messages of a publication, each with its templates in templates/mail/.
LIST_PUBLISHED = "list_published"
RATING_WITHHELD = "rating_withheld"
MY_PAGE_LINK = "my_page_link"
#: A member's status changing within the next month (``status_changes_tell``).
STATUS_CHANGED = "status_changed"


def member_urls(*, member: Member, site: str, kind: str = EVERY_KIND) -> dict[str, str]:
    """The links every member's message carries: their page, and unsubscribing."""
    site = site.rstrip("/")
    return {
        "my_page_url": site + reverse("ratings:my-page", args=[my_page_token(member)]),
        "unsubscribe_url": site
        + reverse("ratings:unsubscribe", args=[unsubscribe_token(member, kind)]),
    }


def unsubscribe_headers(unsubscribe_url: str) -> dict[str, str]:
    """RFC 8058's headers: a mail program's "unsubscribe" button POSTs to the link."""
    return {
        "List-Unsubscribe": f"<{unsubscribe_url}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }


def _consenting(members: QuerySet[Any], prefix: str = "") -> QuerySet[Any]:
    """Those with an address and a consent recorded: the database's share of the
    question; ``member_may_be_mailed`` asks the rest of each row read."""
    return members.filter(**{f"{prefix}mail_consent_at__isnull": False}).exclude(
        **{f"{prefix}email": ""}
    )


def _previous(publication: Publication) -> Publication | None:
    return (
        Publication.objects.filter(time_class=publication.time_class, pk__lt=publication.pk)
        .order_by("-published_at", "-pk")
        .first()
    )


def publication_letters(*, publication: Publication, site: str) -> list[Letter]:
    """The messages of one publication: to each consenting member listed, their rating,
    its change since the list before and their place; to each consenting member rated
    but in arrears, a note that their rating is kept. Three queries, however many."""
    previous = _previous(publication)
    entries = _consenting(publication.entries.select_related("member"), "member__")
    if previous is not None:
        entries = entries.annotate(
            old=FilteredRelation(
                "member__publication_entries",
                condition=Q(member__publication_entries__publication=previous),
            ),
            old_display=F("old__display"),
        )
    common = {
        "publication": publication,
        "previous": previous,
        "list_name": ""
        if publication.time_class == STANDARD
        else list_words(publication.time_class),
        "publication_url": site.rstrip("/") + publication.get_absolute_url(),
    }
    told = [entry for entry in entries if member_may_be_mailed(entry.member, NEW_RATING)]
    # Each one's status to come, as the list's system says it: one query for them all.
    system = ClubSettings.load().engine(publication.time_class)
    states = {
        state.member_id: state
        for state in RatingState.objects.filter(
            time_class=publication.time_class,
            member_id__in=[entry.member_id for entry in told],
        )
    }
    letters = []
    for entry in told:
        member = entry.member
        letters.append(
            _letter(
                kind=LIST_PUBLISHED,
                member=member,
                publication=publication,
                site=site,
                context={
                    **common,
                    "entry": entry,
                    "old_display": getattr(entry, "old_display", None),
                    "change": _signed(
                        shown_change(getattr(entry, "old_display", None), entry.display)
                    ),
                    "status_changes": member_status_changes(
                        states.get(member.pk), system, today=publication.day
                    ),
                },
            )
        )
    season = Season.objects.filter(start__lte=publication.day, end__gte=publication.day).first()
    paid_to = ClubSettings.load().subscriptions_paid_to
    for member in withheld_members(publication=publication):
        if not member_may_be_mailed(member, NEW_RATING):
            continue
        letters.append(
            _letter(
                kind=RATING_WITHHELD,
                member=member,
                publication=publication,
                site=site,
                context={
                    **common,
                    "state": getattr(member, "rating_state", None),
                    "season": season,
                    "paid_to": paid_to,
                },
            )
        )
    return letters


def withheld_members(*, publication: Publication) -> QuerySet[Member]:
    """The consenting members rated on the publication's list but left off it for want of
    a subscription covering its day (not guests, not merged records: no subscription
    would publish them)."""
    members = (
        Member.objects.filter(
            merged_into__isnull=True, is_guest=False, mail_consent_at__isnull=False
        )
        .exclude(email="")
        .exclude(financial_condition(publication.day))
    )
    rated = listing.with_ratings(members, ranked=False, time_class=publication.time_class)
    # ``rating_state``: the FilteredRelation of ``with_state`` (django-stubs cannot see it).
    return rated.filter(rating_state__rating__isnull=False)  # type: ignore[misc]


def _signed(change: float | None) -> str:
    if change is None:
        return ""
    figure = f"{change:g}"
    return figure if change < 0 else f"+{figure}"


def _letter(
    *, kind: str, member: Member, publication: Publication, site: str, context: dict[str, Any]
) -> Letter:
    urls = member_urls(member=member, site=site, kind=NEW_RATING)
    return Letter(
        kind=kind,
        to=member.email,
        key=f"publication:{publication.pk}:member:{member.pk}",
        context={**context, "member": member, **urls},
        headers=unsubscribe_headers(urls["unsubscribe_url"]),
    )


def publication_mail_send(*, publication: Publication, site: str) -> int:
    """Queue the publication's messages, sent once it commits; never twice for one
    publication (each message's key names it and the member). How many were queued."""
    return mail_send_many(publication_letters(publication=publication, site=site))


def list_publish_telling_members(*, site: str, **publish: Any) -> Publication:
    """Publish the list (``list_publish``'s arguments) and queue its messages in the same
    transaction: sent once the publication commits, never for one rolled back."""
    with transaction.atomic():
        publication = list_publish(**publish)
        publication_mail_send(publication=publication, site=site)
    return publication


@dataclass(frozen=True)
class MailPreview:
    """What publishing now would send: how many to the listed and to the withheld, to
    whom, and one message as it would read."""

    listed: list[str]
    withheld: list[str]
    example_subject: str
    example_text: str

    @property
    def total(self) -> int:
        return len(self.listed) + len(self.withheld)


class _Previewed(Exception):
    def __init__(self, preview: MailPreview) -> None:
        self.preview = preview


def publication_mail_preview(*, time_class: str = STANDARD, site: str) -> MailPreview | None:
    """The messages publishing the list now would send, made by publishing it in a
    transaction rolled back, so the preview is those messages themselves (places,
    changes) and not a second reckoning of them. None while publishing would be refused."""
    try:
        with transaction.atomic():
            publication = list_publish(time_class=time_class)
            letters = publication_letters(publication=publication, site=site)
            subject, text = "", ""
            if letters:
                # The example shows no member's own links: they are the member's keys.
                hidden = {"my_page_url": "(their own link)", "unsubscribe_url": "(their own link)"}
                subject, text, _ = mail_render(
                    kind=letters[0].kind, context={**letters[0].context, **hidden}
                )
            raise _Previewed(
                MailPreview(
                    listed=[_name(letter) for letter in letters if letter.kind == LIST_PUBLISHED],
                    withheld=[
                        _name(letter) for letter in letters if letter.kind == RATING_WITHHELD
                    ],
                    example_subject=subject,
                    example_text=text,
                )
            )
    except _Previewed as done:
        return done.preview
    except PublishRefused:
        return None


def _name(letter: Letter) -> str:
    return f"{letter.context['member'].name} <{letter.to}>"


def my_page_link_send(*, member: Member, site: str) -> bool:
    """Mail ``member`` the link to their page, if they consented to club mail; whether it
    was queued. A link asked for twice in a minute is sent once."""
    if not member_consents(member):
        return False
    urls = member_urls(member=member, site=site)
    minute = timezone.now().strftime("%Y%m%d%H%M")
    return (
        mail_send(
            kind=MY_PAGE_LINK,
            to=member.email,
            key=f"my_page_link:member:{member.pk}:{minute}",
            context={"member": member, "days": MY_PAGE_DAYS, **urls},
            headers=unsubscribe_headers(urls["unsubscribe_url"]),
        )
        is not None
    )


def my_page_link_ask(*, email: str, site: str) -> None:
    """ "Send me my link": the link to each consenting member with this address; nothing
    to anyone else, and the asker is told the same either way."""
    for member in _consenting(Member.objects.filter(email__iexact=email.strip())):
        my_page_link_send(member=member, site=site)


def member_unsubscribe(*, member: Member, kind: str) -> None:
    """Withdraw one kind of club mail from ``member``'s wishes (EVERY_KIND: all)."""
    wanted = [] if kind == EVERY_KIND else [k for k in (member.mail_wanted or []) if k != kind]
    if wanted != (member.mail_wanted or []):
        member.mail_wanted = wanted
        member.save(update_fields=["mail_wanted"])


def status_change_letters(*, today: dt.date, site: str) -> list[Letter]:
    """The messages telling consenting members their status changes within the next month
    (``told_ahead``), one a change, on each list the club keeps: a query a list."""
    club = ClubSettings.load()
    letters = []
    for time_class in lists_kept():
        system = club.engine(time_class)
        states = (
            RatingState.objects.filter(
                time_class=time_class,
                member__merged_into__isnull=True,
                member__mail_consent_at__isnull=False,
            )
            .exclude(member__email="")
            .select_related("member")
            .order_by("member__name", "member_id")
        )
        for state in states:
            member = state.member
            if not member_may_be_mailed(member, STATUS_CHANGE):
                continue
            for change in member_status_changes(state, system, today=today):
                if not told_ahead(change, today=today):
                    continue
                urls = member_urls(member=member, site=site, kind=STATUS_CHANGE)
                letters.append(
                    Letter(
                        kind=STATUS_CHANGED,
                        to=member.email,
                        key=status_mail_key(
                            member_pk=member.pk, time_class=time_class, change=change
                        ),
                        context={
                            "member": member,
                            "state": state,
                            "change": change,
                            "status": system.status_word(state.display),
                            "list_name": "" if time_class == STANDARD else list_words(time_class),
                            **urls,
                        },
                        headers=unsubscribe_headers(urls["unsubscribe_url"]),
                    )
                )
    return letters


def status_changes_tell(*, today: dt.date, site: str) -> int:
    """Queue the status messages due on ``today`` (``status_change_letters``); each change
    is told once, however often this runs (its key names the member, list, status and
    day). How many were queued."""
    return mail_send_many(status_change_letters(today=today, site=site))
