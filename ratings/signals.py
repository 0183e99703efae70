"""A member's current state exists from the moment they are added.

Re-rates rewrite only the members they touch, so a member added with no games must get
their state here: a new member who brings a rating is on the list at once.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from .models import Member


@receiver(post_save, sender=Member, dispatch_uid="member_state_on_add")
def member_state_on_add(
    sender: type[Member], instance: Member, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    if created and not raw:
        from . import services

        services.member_states_create(members=[instance])
