"""Long members files on their way in (read and saved by the worker): viewed and deleted
here, uploaded and confirmed on the officer's import page."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse

from ..models import MemberImport, MemberImportLine
from .base import ReadOnlyAdmin


@admin.register(MemberImport)
class MemberImportAdmin(ReadOnlyAdmin):
    list_display = ["started", "user", "filename", "rows_total", "status", "finished"]
    list_filter = ["status"]
    list_select_related = ["user"]
    # The file and its preview: megabytes of members' details, read on the officer's page.
    exclude = ["text", "preview"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A file never confirmed may be cleared away; its members' details go with it.
        return admin.ModelAdmin.has_delete_permission(self, request, obj)

    def view_on_site(self, obj: MemberImport) -> str:
        return reverse("ratings:officer-import-register-job", args=[obj.pk])


@admin.register(MemberImportLine)
class MemberImportLineAdmin(ReadOnlyAdmin):
    """A preview's lines, read only: they go with their file."""

    list_display = ["member_import", "position"]
    list_select_related = ["member_import"]
