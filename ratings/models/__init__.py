"""The club's record: members, subscriptions, events and games.

Games are the record; ratings (RatingState, RatingChange) are derived from them by
the engine through ``ratings.services`` and never edited by hand.
"""

from ..rules.names import name_problem
from ..rules.publication import Membership
from . import rules
from .club import SYSTEM_CHOICES, ClubSettings, RatingList, Season
from .comparison import Comparison, ComparisonRating
from .events import (
    EVENT_DAYS_AHEAD,
    Entry,
    Event,
    EventQuerySet,
    Game,
    RatingPeriod,
    complete_problem,
    entry_with_games_problem,
    event_date_problem,
)
from .fide import FIDE_KINDS, FideRating
from .imports import MemberImport, MemberImportLine
from .mail import MailMessage
from .member_numbers import next_member_numbers, number_taken, suggested_member_number
from .members import (
    EARLIEST_DATE,
    MAX_INITIAL_RATING,
    MailConsent,
    Member,
    MemberQuerySet,
    member_names,
    name_search,
    register_size,
)
from .membership import Subscription, financial_condition, published_condition, seasons_covering
from .merges import MemberMerge
from .public_pages import PublicPagesVersion, PublicPagesWithdrawal, PublishedListFigures
from .publications import Publication, PublicationEntry
from .rating import USABLE, JSONText, RatingChange, RatingRun, RatingState, is_usable
from .standings import ListStanding

__all__ = [
    "EARLIEST_DATE",
    "EVENT_DAYS_AHEAD",
    "FIDE_KINDS",
    "MAX_INITIAL_RATING",
    "SYSTEM_CHOICES",
    "USABLE",
    "ClubSettings",
    "Comparison",
    "ComparisonRating",
    "Entry",
    "Event",
    "EventQuerySet",
    "FideRating",
    "Game",
    "JSONText",
    "ListStanding",
    "MailConsent",
    "MailMessage",
    "Member",
    "MemberImport",
    "MemberImportLine",
    "MemberMerge",
    "MemberQuerySet",
    "Membership",
    "PublicPagesVersion",
    "PublicPagesWithdrawal",
    "Publication",
    "PublicationEntry",
    "PublishedListFigures",
    "RatingChange",
    "RatingList",
    "RatingPeriod",
    "RatingRun",
    "RatingState",
    "Season",
    "Subscription",
    "complete_problem",
    "entry_with_games_problem",
    "event_date_problem",
    "financial_condition",
    "is_usable",
    "member_names",
    "name_problem",
    "name_search",
    "next_member_numbers",
    "number_taken",
    "published_condition",
    "register_size",
    "rules",
    "seasons_covering",
    "suggested_member_number",
]
