"""A member's current state exists from the moment they are added.

Re-rates rewrite only the members they touch, so a member added with no games must get
their state here: a new member who brings a rating is on the list at once.
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.db import DEFAULT_DB_ALIAS
from django.db.models.signals import post_delete, post_save, pre_delete, pre_save
from django.dispatch import receiver
from simple_history.models import HistoricalChanges

from . import services
from .models import (
    ClubSettings,
    Comparison,
    ComparisonRating,
    Entry,
    Event,
    Game,
    ListStanding,
    Member,
    MemberImport,
    MemberImportLine,
    Publication,
    PublicationEntry,
    PublicPagesVersion,
    PublishedListFigures,
    RatingChange,
    RatingPeriod,
    RatingRun,
    RatingState,
    Season,
    Subscription,
)
from .services.list_figures import (
    Share,
    list_figures_after,
    list_figures_before,
    list_figures_forget,
)
from .services.public_pages import public_pages_changed


@receiver(post_save, sender=Member, dispatch_uid="member_state_on_add")
def member_state_on_add(
    sender: type[Member], instance: Member, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    if created and not raw:
        services.member_states_create(members=[instance])


def _withdraws(sender: type[Any], instance: Any, saved: bool) -> bool:
    """Whether a save or delete may withdraw something from the public: no previous copy
    of a page may then be served (``services.public_pages``). Read from the row as saved,
    with no query: a delete always (a payment, a result, a publication gone); a member
    saved as a guest or merged (no longer published); the club's settings saved while
    they keep unpublished members off; a season saved (its dates decide who is
    financial). A few saves that withdraw nothing are counted too: only their pages'
    readers wait for a render once."""
    if not saved:
        return True
    if sender is Member:
        return bool(instance.is_guest or instance.merged_into_id is not None)
    if sender is ClubSettings:
        return bool(instance.unpublished_members == ClubSettings.Unpublished.KEPT_OFF)
    return sender is Season


def _public_pages_changed(
    sender: type[Any], instance: Any = None, raw: bool = False, **kwargs: Any
) -> None:
    """Any save or delete of the club's records retires the cached public pages
    (``services.public_pages``)."""
    if raw:
        return
    # The published lists' figures: followed, or forgotten, by the receivers below.
    public_pages_changed(
        using=kwargs.get("using") or DEFAULT_DB_ALIAS,
        hides=_withdraws(sender, instance, saved="created" in kwargs),
    )


def _moves_public_pages(model: type[Any]) -> bool:
    """The models whose saves and deletes retire the cached public pages: the club's record,
    not the pages' version itself, nor the audit trail's copies, nor the re-rate's own rows
    (a re-rate moves the version once, when it has written them), nor a members file on its
    way in (its save moves the version when it writes the members)."""
    return not (
        model
        in (PublicPagesVersion, PublishedListFigures, ListStanding, MemberImport, MemberImportLine)
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


# -- the published lists' figures (``services.list_figures``) ------------------------------

#: Records whose writes never move the published lists' figures (who is on a list, with
#: a usable rating or not, and their regions): those read the members, their payments,
#: the seasons, the ratings' states and the club's settings and lists, and no others.
#: A re-rate's states are the run's to count.
_FIGURES_UNMOVED = (
    Comparison,
    ComparisonRating,
    Entry,
    Event,
    Game,
    Publication,
    PublicationEntry,
    RatingPeriod,
    RatingRun,
)


def _members_moved(sender: type[Any], instance: Any, using: str) -> set[int]:
    """The members a save of a member or a payment may move on the lists: the member,
    and a payment's member before the save too (the admin may move a payment)."""
    if sender is Member:
        return {instance.pk} if instance.pk else set()
    ids = {instance.member_id}
    if instance.pk:
        stored = Subscription.objects.using(using).filter(pk=instance.pk)
        ids |= set(stored.values_list("member_id", flat=True))
    return ids


def _figures_before_save(
    sender: type[Any], instance: Any, raw: bool = False, using: str = DEFAULT_DB_ALIAS, **_: Any
) -> None:
    if raw:
        return
    moved = _members_moved(sender, instance, using)
    instance._list_figures_before = list_figures_before(member_ids=moved, using=using)


def _figures_after_save(
    sender: type[Any],
    instance: Any,
    created: bool = False,
    raw: bool = False,
    using: str = DEFAULT_DB_ALIAS,
    **_: Any,
) -> None:
    if raw:
        return
    before = instance.__dict__.pop("_list_figures_before", None)
    if before is not None and created and sender is Member:
        before = {**before, instance.pk: Share(lists={}, regions=frozenset())}  # new: none
    list_figures_after(before=before, using=using)


def _figures_before_delete(
    sender: type[Any], instance: Any, using: str = DEFAULT_DB_ALIAS, **_: Any
) -> None:
    # A payment a member's or a season's delete takes with it too: harmless, as those
    # forget the figures (``_figures_forgotten``), before or after it.
    moved = {instance.member_id}
    instance._list_figures_before = list_figures_before(member_ids=moved, using=using)


def _figures_after_delete(
    sender: type[Any], instance: Any, using: str = DEFAULT_DB_ALIAS, **_: Any
) -> None:
    before = instance.__dict__.pop("_list_figures_before", None)
    list_figures_after(before=before, using=using)


def _figures_forgotten(sender: type[Any], raw: bool = False, **kwargs: Any) -> None:
    """A write nobody follows member by member (a season's dates, the club's settings or
    lists, a member's delete, which may free those merged into them): the figures are
    forgotten, and counted afresh once it commits. Not a new season, nor a season's
    delete: nobody has paid for those (payments hold their season)."""
    if raw or (sender is Season and (kwargs.get("created") or "created" not in kwargs)):
        return
    list_figures_forget(using=kwargs.get("using") or DEFAULT_DB_ALIAS)


# Connected after ``member_state_on_add``: a new member's share is read with their states.
for _model in apps.get_app_config("ratings").get_models():
    if not _moves_public_pages(_model) or _model in _FIGURES_UNMOVED:
        continue
    uid = f"list_figures.{_model}"
    if _model in (Member, Subscription):
        pre_save.connect(_figures_before_save, sender=_model, dispatch_uid=f"{uid}.pre_save")
        post_save.connect(_figures_after_save, sender=_model, dispatch_uid=f"{uid}.post_save")
    else:
        post_save.connect(_figures_forgotten, sender=_model, dispatch_uid=f"{uid}.post_save")
    if _model is Subscription:
        pre_delete.connect(_figures_before_delete, sender=_model, dispatch_uid=f"{uid}.pre_del")
        post_delete.connect(_figures_after_delete, sender=_model, dispatch_uid=f"{uid}.post_del")
    else:
        post_delete.connect(_figures_forgotten, sender=_model, dispatch_uid=f"{uid}.post_del")
