"""A member's current state exists from the moment they are added.

Re-rates rewrite only the members they touch, so a member added with no games must get
their state here: a new member who brings a rating is on the list at once.
"""

from __future__ import annotations

from typing import Any

from django.db import DEFAULT_DB_ALIAS
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from simple_history.models import HistoricalChanges

from .models import Member, PublicPagesVersion


@receiver(post_save, sender=Member, dispatch_uid="member_state_on_add")
def member_state_on_add(
    sender: type[Member], instance: Member, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    if created and not raw:
        from . import services

        services.member_states_create(members=[instance])


def _public_pages_changed(sender: type[Any], raw: bool = False, **kwargs: Any) -> None:
    """Any save or delete of the club's records retires the cached public pages
    (``services.public_pages``)."""
    if (
        raw
        or sender._meta.app_label != "ratings"
        or sender is PublicPagesVersion
        or issubclass(sender, HistoricalChanges)  # the audit trail's copy of a save
    ):
        return
    from .services.public_pages import public_pages_changed

    public_pages_changed(using=kwargs.get("using") or DEFAULT_DB_ALIAS)


post_save.connect(_public_pages_changed, dispatch_uid="public_pages_on_save")
post_delete.connect(_public_pages_changed, dispatch_uid="public_pages_on_delete")
