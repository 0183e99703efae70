"""Forms: each one validates everything the page needs, with its message beside the field.

One module per page family; what callers use is re-exported here.
"""

# The club's member numbering is the model's; the forms' callers have found it here.
from ..models import next_member_numbers, number_taken, suggested_member_number
from .calculator import (
    CALCULATOR_MAX_GAMES,
    CALCULATOR_RESULTS,
    BaseCalculatorGameFormSet,
    CalculatorGameForm,
    CalculatorGameFormSet,
    CalculatorPlayerForm,
    MemberPickField,
    member_label,
)
from .comparison import ComparisonForm, MemberChoiceForm
from .csv_upload import CsvUploadForm, MembersConfirmForm
from .duplicates import DuplicateReasonForm
from .events import EntriesForm, EntryRemoveForm, EventForm, SendBackForm, resolve_players
from .fide import FideListForm
from .grid import (
    GRID_CHOICES,
    MIRRORED,
    GridCell,
    GridForm,
    GridRow,
    short_name,
)
from .members import (
    CHANGE_REASON,
    DATE,
    ROWS_POSTED_WITH,
    MemberEraseForm,
    MemberForm,
    QuickMemberForm,
    SubscriptionForm,
    change_reason_field,
    initial_rating_help,
    reason_required,
    refuse_a_dropped_rating,
    whole_initial_rating,
)
from .paste import (
    PASTE_RESULT,
    PASTE_VERSUS,
    RESULT_JOINS,
    VERSUS_TOKEN,
    PasteRoundForm,
    paste_line_split,
    paste_unknown_result,
    paste_versus,
    read_spaced_result,
)
from .results import (
    ALLOWED,
    RESULT_CHOICES,
    RESULT_LABELS,
    BaseRoundFormSet,
    Pairing,
    PairingForm,
    RoundFormSet,
)
from .subscriptions import RenewForm, SeasonPickForm, SubscriptionRemoveForm, season_from_value
from .tournament_file import KIND_FROM_TRF, TrfConfirmForm, TrfUploadForm

__all__ = [
    "ALLOWED",
    "CALCULATOR_MAX_GAMES",
    "CALCULATOR_RESULTS",
    "CHANGE_REASON",
    "DATE",
    "GRID_CHOICES",
    "KIND_FROM_TRF",
    "MIRRORED",
    "PASTE_RESULT",
    "PASTE_VERSUS",
    "RESULT_CHOICES",
    "RESULT_JOINS",
    "RESULT_LABELS",
    "ROWS_POSTED_WITH",
    "VERSUS_TOKEN",
    "BaseCalculatorGameFormSet",
    "BaseRoundFormSet",
    "CalculatorGameForm",
    "CalculatorGameFormSet",
    "CalculatorPlayerForm",
    "ComparisonForm",
    "CsvUploadForm",
    "DuplicateReasonForm",
    "EntriesForm",
    "EntryRemoveForm",
    "EventForm",
    "FideListForm",
    "GridCell",
    "GridForm",
    "GridRow",
    "MemberChoiceForm",
    "MemberEraseForm",
    "MemberForm",
    "MemberPickField",
    "MembersConfirmForm",
    "Pairing",
    "PairingForm",
    "PasteRoundForm",
    "QuickMemberForm",
    "RenewForm",
    "RoundFormSet",
    "SeasonPickForm",
    "SendBackForm",
    "SubscriptionForm",
    "SubscriptionRemoveForm",
    "TrfConfirmForm",
    "TrfUploadForm",
    "change_reason_field",
    "initial_rating_help",
    "member_label",
    "next_member_numbers",
    "number_taken",
    "paste_line_split",
    "paste_unknown_result",
    "paste_versus",
    "read_spaced_result",
    "reason_required",
    "refuse_a_dropped_rating",
    "resolve_players",
    "season_from_value",
    "short_name",
    "suggested_member_number",
    "whole_initial_rating",
]
