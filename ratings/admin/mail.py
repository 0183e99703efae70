"""The log of the club's mail, read in the admin: to whom, what, when, sent or failed.

Read-only (the worker writes it), and the administrator's alone for now: an address
and what was sent to it are no officer's business. A message's body is never shown:
it may carry a one-time link.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from ..models import MailMessage
from .base import ReadOnlyAdmin


@admin.register(MailMessage)
class MailMessageAdmin(ReadOnlyAdmin):
    list_display = ["created", "kind", "to", "subject", "status", "attempts", "sent", "failed"]
    list_filter = ["status", "kind"]
    search_fields = ["to", "subject"]
    date_hierarchy = "created"
    fields = (
        "created",
        "kind",
        "to",
        "from_email",
        "subject",
        "status",
        "attempts",
        "sent",
        "failed",
        "error",
        "key",
    )
    readonly_fields = fields

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_superuser)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_active and request.user.is_superuser)
