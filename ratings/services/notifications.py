"""The club's mail: every message the app sends goes through ``mail_send``.

A message is a kind (its templates in ``templates/mail/``: ``<kind>_subject.txt``,
``<kind>.txt`` and ``<kind>.html``), rendered when it is asked for and written to the
log (``MailMessage``) in the asking transaction; the worker sends it once that
transaction commits, so a page never waits on the mail server and a message about a
change rolled back is never sent. A mail server's refusal for now (an SMTP error, a
connection lost or refused) is retried MAIL_ATTEMPTS times in all, waiting longer each
time; then the message is logged as failed. Each message has a key naming the event it
tells of: asked again for the same key, nothing is written or sent.

Django's password reset comes here too (``forms/accounts.py``). A new kind of message is
a function of its own beside the callers' service (its key, its context) calling
``mail_send``, and its three templates.
"""

from __future__ import annotations

import datetime as dt
import logging
import smtplib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from email.utils import formataddr
from functools import partial
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.utils import timezone
from django_tasks import task

from ..models import ClubSettings, MailMessage

logger = logging.getLogger("ratings.mail")

#: What a mail server says when it cannot take a message now but may later: the SMTP
#: errors, and the network's (refused, reset, timed out, name not resolved).
TEMPORARY_FAILURES: tuple[type[Exception], ...] = (smtplib.SMTPException, OSError)


def mail_sender() -> str:
    """Who the club's mail is from: its sender under its name, or DEFAULT_FROM_EMAIL."""
    club = ClubSettings.load()
    if club.mail_from:
        return formataddr((club.name, club.mail_from))
    return settings.DEFAULT_FROM_EMAIL


def mail_render(*, kind: str, context: Mapping[str, Any]) -> tuple[str, str, str]:
    """The subject (one line), plain text and HTML of a message of ``kind``."""
    if "club" not in context:
        context = {"club": ClubSettings.load(), **context}
    # A header is one line: a template's line breaks would end it early.
    subject = " ".join(render_to_string(f"mail/{kind}_subject.txt", context).split())
    text = render_to_string(f"mail/{kind}.txt", context)
    html = render_to_string(f"mail/{kind}.html", context)
    return subject, text, html


def mail_send(
    *,
    kind: str,
    to: str,
    context: Mapping[str, Any],
    key: str,
    headers: Mapping[str, str] | None = None,
) -> MailMessage | None:
    """Queue the message ``kind`` to ``to`` for the worker, once for ``key``.

    Returns the logged message, or None when ``key`` was already asked for (nothing more
    is sent). Sent after the current transaction commits; never if it rolls back.
    ``headers``: the message's own (a member's: how to unsubscribe in one click).
    """
    _key_checked(key)
    if MailMessage.objects.filter(key=key).exists():
        return None
    subject, text, html = mail_render(kind=kind, context=context)
    try:
        # A savepoint: two requests asking at once, the key's unique constraint keeps
        # one, and the other's transaction goes on.
        with transaction.atomic():
            message = MailMessage.objects.create(
                key=key,
                kind=kind,
                to=to,
                from_email=mail_sender(),
                subject=subject,
                body_text=text,
                body_html=html,
                headers=dict(headers or {}),
            )
    except IntegrityError:
        return None
    transaction.on_commit(partial(mail_enqueue, message_pk=message.pk))
    return message


@dataclass(frozen=True)
class Letter:
    """One message of many asked for at once (``mail_send_many``): as ``mail_send``'s
    arguments."""

    kind: str
    to: str
    context: Mapping[str, Any]
    key: str
    headers: Mapping[str, str] = field(default_factory=dict)


def mail_send_many(letters: Iterable[Letter]) -> int:
    """Queue many messages as ``mail_send`` queues one, in a few queries however many:
    the keys already asked for read at once, the new ones written in one INSERT, handed
    to the worker after the transaction commits. How many were queued."""
    letters = list(letters)
    for letter in letters:
        _key_checked(letter.key)
    asked = set(
        MailMessage.objects.filter(key__in=[letter.key for letter in letters]).values_list(
            "key", flat=True
        )
    )
    sender = mail_sender()
    club = ClubSettings.load()
    rows: dict[str, MailMessage] = {}
    for letter in letters:
        if letter.key in asked or letter.key in rows:
            continue
        # The club read once, not once a message.
        subject, text, html = mail_render(
            kind=letter.kind, context={"club": club, **letter.context}
        )
        rows[letter.key] = MailMessage(
            key=letter.key,
            kind=letter.kind,
            to=letter.to,
            from_email=sender,
            subject=subject,
            body_text=text,
            body_html=html,
            headers=dict(letter.headers),
        )
    if not rows:
        return 0
    with transaction.atomic():
        # Another request asking for one of the keys at once: the unique key keeps its
        # row, and this one's is left out (read back below by key, as bulk inserts do not
        # return their keys everywhere).
        MailMessage.objects.bulk_create(rows.values(), ignore_conflicts=True, batch_size=500)
    # A row another request wrote for one of these keys at once is handed over twice:
    # ``mail_deliver`` claims a message before sending it, so it goes once.
    mine = list(MailMessage.objects.filter(key__in=list(rows)).values_list("pk", flat=True))
    transaction.on_commit(partial(_mail_enqueue_all, message_pks=mine))
    return len(mine)


def _mail_enqueue_all(*, message_pks: list[int]) -> None:
    for pk in message_pks:
        mail_enqueue(message_pk=pk)


def _key_checked(key: str) -> None:
    if not 0 < len(key) <= MailMessage._meta.get_field("key").max_length:  # type: ignore[operator]
        raise ValueError(f"a mail's key is 1 to 200 characters, got {key!r}")


def mail_enqueue(*, message_pk: int, delay: float = 0) -> None:
    """Hand the message to the worker, to be sent ``delay`` seconds from now.

    A backend that cannot wait (the immediate one of tests) sends at once.
    """
    delivery = mail_deliver_in_background
    if delay and delivery.get_backend().supports_defer:
        delivery = delivery.using(run_after=timezone.now() + dt.timedelta(seconds=delay))
    delivery.enqueue(message_pk=message_pk)


def mail_retry_delay(*, attempts: int) -> float:
    """Seconds to wait after ``attempts`` failed tries: MAIL_RETRY_SECONDS, doubling."""
    return float(settings.MAIL_RETRY_SECONDS * 2 ** (attempts - 1))


def mail_deliver(*, message_pk: int) -> str:
    """Send the queued message ``message_pk`` (the worker's task); its status after."""
    message = MailMessage.objects.filter(pk=message_pk).first()
    if message is None or message.status != MailMessage.Status.QUEUED:
        # Sent or failed already (a task the queue handed out twice): nothing to do.
        return message.status if message else "gone"
    # This attempt claimed: of two workers holding the same task, one sends.
    claimed = MailMessage.objects.filter(
        pk=message.pk, status=MailMessage.Status.QUEUED, attempts=message.attempts
    ).update(attempts=F("attempts") + 1)
    if not claimed:
        return "claimed"
    message.attempts += 1
    email = EmailMultiAlternatives(
        subject=message.subject,
        body=message.body_text,
        from_email=message.from_email,
        to=[message.to],
        headers=message.headers or None,
    )
    email.attach_alternative(message.body_html, "text/html")
    try:
        email.send()
    except TEMPORARY_FAILURES as error:
        if message.attempts < settings.MAIL_ATTEMPTS:
            delay = mail_retry_delay(attempts=message.attempts)
            MailMessage.objects.filter(pk=message.pk).update(error=_said(error))
            logger.warning(
                "Mail %s to %s refused (attempt %d), retried in %.0f s: %s",
                message.kind,
                message.to,
                message.attempts,
                delay,
                _said(error),
            )
            mail_enqueue(message_pk=message.pk, delay=delay)
            return "retrying"
        _failed(message, error)
        return MailMessage.Status.FAILED
    except Exception as error:
        # Not the server's "later" (a bad address, a bug): trying again will not help.
        _failed(message, error)
        raise
    MailMessage.objects.filter(pk=message.pk).update(
        status=MailMessage.Status.SENT, sent=timezone.now(), body_text="", body_html=""
    )
    logger.info("Mail %s sent to %s", message.kind, message.to)
    return MailMessage.Status.SENT


@task()
def mail_deliver_in_background(*, message_pk: int) -> str:
    """The worker's task: send the logged mail message ``message_pk``, or queue its retry."""
    return mail_deliver(message_pk=message_pk)


def _said(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"[:2000]


def _failed(message: MailMessage, error: BaseException) -> None:
    MailMessage.objects.filter(pk=message.pk).update(
        status=MailMessage.Status.FAILED,
        failed=timezone.now(),
        error=_said(error),
        body_text="",
        body_html="",
    )
    logger.error(
        "Mail %s to %s failed after %d attempts: %s",
        message.kind,
        message.to,
        message.attempts,
        _said(error),
    )
