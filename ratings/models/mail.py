"""The log of the club's mail: every message, to whom, what, when, sent or failed.

A message is written here when it is asked for, inside the transaction that asked, and
sent by the worker once that transaction commits (``services/notifications.py``). Its
key names the event it tells of, once: asked again for the same event, nothing more is
written or sent.
"""

from __future__ import annotations

from django.db import models


class MailMessage(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"

    key = models.CharField(
        max_length=200,
        unique=True,
        help_text="The event this message tells of: the same key is never sent twice.",
    )
    kind = models.CharField(max_length=60, help_text="Which message: its templates' name.")
    to = models.EmailField(max_length=254)
    from_email = models.CharField("from", max_length=320)
    subject = models.CharField(max_length=200)
    # What the worker sends, rendered when the message was asked for; emptied once it is
    # sent or has failed for good, as a message may carry a one-time link (a password
    # reset) that must not outlive its sending in a log others read.
    body_text = models.TextField(blank=True)
    body_html = models.TextField(blank=True)
    # Headers of its own (a member's message: List-Unsubscribe and List-Unsubscribe-Post,
    # RFC 8058), sent as they are.
    headers = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    created = models.DateTimeField(auto_now_add=True)
    sent = models.DateTimeField(null=True, blank=True)
    failed = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(
        blank=True,
        help_text="The mail server's last refusal, if any (kept when a later attempt went).",
    )

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = "mail message"
        indexes = [models.Index(fields=["-created"], name="mail_message_created")]

    def __str__(self) -> str:
        return f"{self.kind} to {self.to}"
