"""The admin: the officers' and administrators' tool for corrections.

Games are the record and ratings are derived, so a correction that touches ratings (a
game added, changed or deleted; an event moved, un-rated or deleted; a member's
starting rating; duplicates merged; the rating system changed) re-rates the chain from
the earliest place it touched, in the same transaction, once per request. That is done
here in the ModelAdmin hooks rather than in model signals, so that bulk imports do not
re-rate per game. Every change is kept by django-simple-history with its author; the
history page of each record shows what changed, before and after.
"""

from . import accounts, mail  # noqa: F401  (register the logins' pages and the mail's log)
from .base import (
    AuditAdmin,
    Position,
    ReadOnlyAdmin,
    RerateAdmin,
    delete_selected_saying_rerate,
)
from .club import ClubSettingsAdmin, ClubSettingsForm
from .comparison import ComparisonAdmin, ComparisonRatingAdmin
from .derived import RatingChangeAdmin, RatingRunAdmin, RatingStateAdmin
from .events import (
    INLINE_FIELD_BUDGET,
    INLINE_ROW_EXTRA_FIELDS,
    EntryAdmin,
    EntryInline,
    EventAdmin,
    GameAdmin,
    GameInline,
    RatingPeriodAdmin,
    inline_row_fields,
    inlines_left_out,
)
from .member_imports import MemberImportAdmin, MemberImportLineAdmin
from .members import MemberAdmin, MergedFilter, SeasonAdmin, SubscriptionAdmin, SubscriptionInline

__all__ = [
    "INLINE_FIELD_BUDGET",
    "INLINE_ROW_EXTRA_FIELDS",
    "AuditAdmin",
    "ClubSettingsAdmin",
    "ClubSettingsForm",
    "ComparisonAdmin",
    "ComparisonRatingAdmin",
    "EntryAdmin",
    "EntryInline",
    "EventAdmin",
    "GameAdmin",
    "GameInline",
    "MemberAdmin",
    "MemberImportAdmin",
    "MemberImportLineAdmin",
    "MergedFilter",
    "Position",
    "RatingChangeAdmin",
    "RatingPeriodAdmin",
    "RatingRunAdmin",
    "RatingStateAdmin",
    "ReadOnlyAdmin",
    "RerateAdmin",
    "SeasonAdmin",
    "SubscriptionAdmin",
    "SubscriptionInline",
    "delete_selected_saying_rerate",
    "inline_row_fields",
    "inlines_left_out",
]
