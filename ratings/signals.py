"""A member's current state exists from the moment they are added.

Re-rates rewrite only the members they touch, so a member added with no games must get
their state here: a new member who brings a rating is on the list at once.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.db import DEFAULT_DB_ALIAS
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from simple_history.models import HistoricalChanges

from .models import Member, PublicPagesVersion, RatingChange, RatingState


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
    if raw:
        return
    from .services.public_pages import public_pages_changed

    public_pages_changed(using=kwargs.get("using") or DEFAULT_DB_ALIAS)


def _moves_public_pages(model: type[Any]) -> bool:
    """The models whose saves and deletes retire the cached public pages: the club's record,
    not the pages' version itself, nor the audit trail's copies, nor the re-rate's own rows
    (a re-rate moves the version once, when it has written them)."""
    return not (
        model is PublicPagesVersion
        or issubclass(model, HistoricalChanges)
        or model in (RatingChange, RatingState)
    )


# Connected model by model, never for every sender: a delete receiver for every model would
# make Django load each row a queryset's delete() removes (its "fast delete" is only for
# models nobody listens to), and a full re-rate deletes a million rating changes.
for _model in apps.get_app_config("ratings").get_models():
    if _moves_public_pages(_model):
        post_save.connect(
            _public_pages_changed, sender=_model, dispatch_uid=f"public_pages_on_save.{_model}"
        )
        post_delete.connect(
            _public_pages_changed, sender=_model, dispatch_uid=f"public_pages_on_delete.{_model}"
        )
