"""Moves data between the database and the rating engine, one module per concern.

Games are the record and ratings are derived: every function here that touches
ratings leaves RatingState and RatingChange equal to what the configured system gives
for the games as they now stand, inside one transaction. Nothing here runs a query
per member or per game.

- ``chain``: which events are rated, in what order, from what states (reads only).
- ``rerate``: re-rating the chain from a point, incrementally; now or in the background.
- ``events``: previews, completing events, results entry, TRF import.
- ``periods``: closing rating periods, and whether one may be closed now.
- ``members``: members' starting details, merging duplicates.
- ``corrections``: what a change to the record moves and the re-rate it asks for (below
  ``events`` and ``members``, whose saves call it, and the admin's).
- ``subscriptions``: seasons paid, payments taken back, renewals, their audit lines.
- ``calculator``: the public what-if.
- ``publishing``: publishing the list (a publication frozen with its date and note).
- ``notifications``: the club's mail, queued for the worker after commit and logged.
- ``member_mail``: the members' mail: a published list's messages (and their preview), the
  "my page" link, unsubscribing, a member's status changing within the month.
"""

from ..models.breakdowns import breakdown_json, breakdown_read, breakdown_stored, game_line_change
from .calculator import (
    CALCULATOR_TYPED_GAMES,
    calculator_rate,
    calculator_states,
    calculator_typed,
)
from .chain import (
    Position,
    RerateScope,
    engine_events,
    member_initial_state,
    period_for,
    rateable_events,
    rateable_q,
    rating_key,
    rerate_scope,
    state_from_json,
    states_before,
)
from .corrections import (
    EVENT_RATING_FIELDS,
    MEMBER_RATING_FIELDS,
    PERIOD_RATING_FIELDS,
    deletion_rerate_count,
    deletion_rerate_start,
    event_changed,
    event_rerate_needed,
    event_rerate_start,
    games_changed,
    member_changed,
    member_rerate_start,
    period_changed,
    players_entered,
    records_delete,
)
from .event_members import (
    event_delete_members_chosen,
    event_members_brought_in,
    members_brought_in_delete,
)
from .events import (
    GAME_FIELDS,
    RESULTS_REASON_NEEDED,
    ReasonNeeded,
    entries_add,
    entry_remove,
    event_complete,
    event_preview,
    event_save,
    games_replace,
    trf_import,
)
from .game_lines import (
    changes_breakdown_fill,
    event_breakdowns,
    event_changes_derive,
    period_event_breakdowns,
)
from .list_figures import (
    list_figures_after,
    list_figures_before,
    list_figures_forget,
    list_figures_keep,
    list_figures_kept,
    list_figures_refresh,
)
from .member_mail import (
    MailPreview,
    list_publish_telling_members,
    member_unsubscribe,
    my_page_link_ask,
    my_page_link_send,
    publication_mail_preview,
    publication_mail_send,
    status_changes_tell,
)
from .member_privacy import EraseRefused, erase_kept, member_erase
from .member_states import member_states_create, member_states_write
from .members import (
    BROUGHT_IN_FIELDS,
    MERGE_FILLED_FIELDS,
    MergeRefused,
    UndoRefused,
    member_merge,
    member_merge_undo,
    member_merges_undoable,
    member_save,
    members_merge,
    members_possible_duplicates,
    merge_fills,
    merge_problem,
    merge_rerate_start,
    possible_duplicates_find,
)
from .notifications import mail_send
from .periods import (
    PeriodRefused,
    earlier_open_periods,
    period_close,
    period_close_problem,
    period_close_warning,
    periods_close_past,
)
from .public_pages import public_pages_changed, public_pages_version, public_pages_withdrawn
from .publishing import (
    PublishRefused,
    list_publish,
    list_size,
    publication_latest,
    publication_on,
)
from .record_version import RecordChanged, record_unchanged_check, record_version
from .rerate import RerateRequest
from .results_version import ResultsChanged, results_unchanged_check, results_version
from .runs import (
    position_from_json,
    position_json,
    ratings_rerate,
    ratings_rerate_soon,
    ratings_update,
    rerate_estimate,
    rerate_games,
    rerate_in_the_page,
    rerate_run,
    rerates_for_a_page,
    run_check_alive,
    run_progress,
    run_retry,
    runs_take_over,
)
from .subscriptions import (
    MEMBERSHIP_FILTERS,
    PAID_ON_JOINING,
    AuditLine,
    members_with_membership,
    renewal_candidates,
    subscription_audit,
    subscription_on_joining,
    subscription_record,
    subscription_remove,
    subscriptions_renew,
)
from .systems import (
    SwitchScope,
    rating_list_set,
    rating_system_set,
    rating_system_switch_scope,
)

__all__ = [
    "BROUGHT_IN_FIELDS",
    "CALCULATOR_TYPED_GAMES",
    "EVENT_RATING_FIELDS",
    "GAME_FIELDS",
    "MEMBERSHIP_FILTERS",
    "MEMBER_RATING_FIELDS",
    "MERGE_FILLED_FIELDS",
    "PAID_ON_JOINING",
    "PERIOD_RATING_FIELDS",
    "RESULTS_REASON_NEEDED",
    "AuditLine",
    "EraseRefused",
    "MailPreview",
    "MergeRefused",
    "PeriodRefused",
    "Position",
    "PublishRefused",
    "ReasonNeeded",
    "RecordChanged",
    "RerateRequest",
    "RerateScope",
    "ResultsChanged",
    "SwitchScope",
    "UndoRefused",
    "breakdown_json",
    "breakdown_read",
    "breakdown_stored",
    "calculator_rate",
    "calculator_states",
    "calculator_typed",
    "changes_breakdown_fill",
    "deletion_rerate_count",
    "deletion_rerate_start",
    "earlier_open_periods",
    "engine_events",
    "entries_add",
    "entry_remove",
    "erase_kept",
    "event_breakdowns",
    "event_changed",
    "event_changes_derive",
    "event_complete",
    "event_delete_members_chosen",
    "event_members_brought_in",
    "event_preview",
    "event_rerate_needed",
    "event_rerate_start",
    "event_save",
    "game_line_change",
    "games_changed",
    "games_replace",
    "list_figures_after",
    "list_figures_before",
    "list_figures_forget",
    "list_figures_keep",
    "list_figures_kept",
    "list_figures_refresh",
    "list_publish",
    "list_publish_telling_members",
    "list_size",
    "mail_send",
    "member_changed",
    "member_erase",
    "member_initial_state",
    "member_merge",
    "member_merge_undo",
    "member_merges_undoable",
    "member_rerate_start",
    "member_save",
    "member_states_create",
    "member_states_write",
    "member_unsubscribe",
    "members_brought_in_delete",
    "members_merge",
    "members_possible_duplicates",
    "members_with_membership",
    "merge_fills",
    "merge_problem",
    "merge_rerate_start",
    "my_page_link_ask",
    "my_page_link_send",
    "period_changed",
    "period_close",
    "period_close_problem",
    "period_close_warning",
    "period_event_breakdowns",
    "period_for",
    "periods_close_past",
    "players_entered",
    "position_from_json",
    "position_json",
    "possible_duplicates_find",
    "public_pages_changed",
    "public_pages_version",
    "public_pages_withdrawn",
    "publication_latest",
    "publication_mail_preview",
    "publication_mail_send",
    "publication_on",
    "rateable_events",
    "rateable_q",
    "rating_key",
    "rating_list_set",
    "rating_system_set",
    "rating_system_switch_scope",
    "ratings_rerate",
    "ratings_rerate_soon",
    "ratings_update",
    "record_unchanged_check",
    "record_version",
    "records_delete",
    "renewal_candidates",
    "rerate_estimate",
    "rerate_games",
    "rerate_in_the_page",
    "rerate_run",
    "rerate_scope",
    "rerates_for_a_page",
    "results_unchanged_check",
    "results_version",
    "run_check_alive",
    "run_progress",
    "run_retry",
    "runs_take_over",
    "state_from_json",
    "states_before",
    "status_changes_tell",
    "subscription_audit",
    "subscription_on_joining",
    "subscription_record",
    "subscription_remove",
    "subscriptions_renew",
    "trf_import",
]
