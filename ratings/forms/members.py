"""Forms for members and their subscriptions (the club's member numbering: ``models``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, MutableMapping
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone

from ..engine import BroughtInField
from ..models import (
    ClubSettings,
    Entry,
    FideRating,
    Member,
    Season,
    Subscription,
    number_taken,
    rules,
    suggested_member_number,
)
from ..models.members import CONSENT_NEEDS_EMAIL
from ..rules.brought_in import (
    STANDING,
    brought_in_problem,
    standing_problems,
    tidy_standing,
)
from ..rules.mail import mail_kind_choices
from ..services.audit import REASON_LENGTH

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")

#: The box a correction's form asks why in, as the admin's correction forms and the round
#: pages do: kept as the change's history "Reason", with who made it and when.
CHANGE_REASON = "change_reason"


def change_reason_field(example: str) -> forms.CharField:
    return forms.CharField(
        label="Reason for the change",
        max_length=REASON_LENGTH,
        required=False,
        validators=[rules.validate_text],
        # Asked of any change (``reason_required``): said before the officer meets the error.
        help_text=(
            "Needed with any change: kept in the history with it, who made it and when "
            f"(e.g. “{example}”)."
        ),
    )


#: What a correction saved without a reason is told.
REASON_NEEDED = "Say why: the reason is kept in the history with the change, who made it and when."


#: The attribute of a record being edited that names the tables of its rows posted with
#: it (the admin's inlines: an event's games and entries), whose changes need the
#: record's reason too.
ROWS_POSTED_WITH = "_rows_posted_with"


def reason_required(form: forms.BaseForm) -> None:
    """A correction needs its reason: a saved record whose fields the form changes, or
    the rows posted with it (``ROWS_POSTED_WITH``: a result corrected in an event's games
    table, the event's own fields unchanged), is refused without one (the admin's
    corrections and the officer's pages alike). A form sent unchanged asks for none, as it
    changes nothing."""
    if getattr(form.instance, "pk", None) is None or CHANGE_REASON not in form.fields:  # type: ignore[attr-defined]
        return
    if CHANGE_REASON in form.errors or (form.cleaned_data.get(CHANGE_REASON) or "").strip():
        return
    rows = getattr(form.instance, ROWS_POSTED_WITH, ())  # type: ignore[attr-defined]
    if set(form.changed_data) - {CHANGE_REASON} or any(table.has_changed() for table in rows):
        form.add_error(CHANGE_REASON, REASON_NEEDED)


def whole_initial_rating(initial: MutableMapping[str, Any]) -> None:
    """Show a whole initial rating as one (1400, not "1400.0"): it is stored as a float."""
    rating = initial.get("initial_rating")
    if isinstance(rating, float) and rating.is_integer():
        initial["initial_rating"] = int(rating)


# -- members ----------------------------------------------------------------------------


#: A word brought in with a rating is asked in a field of this name and the word's
#: (``brought_in_status``): the member's record keeps the words together (``brought_in``).
WORD_FIELD = "brought_in_{}"


def ask_what_the_system_reads(
    form: forms.ModelForm[Member],
    *,
    games_always: bool = False,
) -> None:
    """Keep on ``form`` only what the club's system reads with a rating brought in: the
    games where it needs them (acf-1993, ecf-2020; ``games_always``: the member's own
    form, which shows them whatever the system), and a field for each word it declares
    (``engine.BroughtInField``: acf-1993's status, ecf-2020's category), with the
    engine's label and words; a switch of system keeps the other words in the record."""
    system = ClubSettings.load().engine()
    if not (games_always or system.brought_in_needs_games):
        del form.fields["initial_games"]
    kept = form.instance.brought_in or {}
    words = {WORD_FIELD.format(f.name): word_field(f, kept) for f in system.brought_in_fields}
    # Each word asked beside the games (or the rating) it goes with.
    after = "initial_games" if "initial_games" in form.fields else "initial_rating"
    fields = list(form.fields.items())
    at = next((i + 1 for i, (name, _) in enumerate(fields) if name == after), len(fields))
    form.fields = dict([*fields[:at], *words.items(), *fields[at:]])


def word_field(field: BroughtInField, kept: Mapping[str, str] | None = None) -> forms.ChoiceField:
    """The form's field asking ``field``'s word, with the engine's label and words, and
    the word the record keeps (``kept``) as it starts."""
    return forms.ChoiceField(
        label=field.label,
        required=False,
        choices=[("", "---------"), *field.choices],
        help_text=field.help_text,
        initial=(kept or {}).get(field.name, ""),
    )


class WordsAsked:
    """A member's form asking the words brought in each in a field of its own: a change
    to one is a change to the record's ``brought_in`` (what re-rates, what the history
    says changed)."""

    @property
    def changed_data(self) -> list[str]:
        changed = list(super().changed_data)  # type: ignore[misc]
        if any(name.startswith(WORD_FIELD.format("")) for name in changed):
            changed.append(STANDING)
        return changed


def words_given(form: forms.ModelForm[Member]) -> dict[str, str]:
    """The words brought in as the form gives them: the record's, with those the form
    asks over them."""
    words = dict(form.instance.brought_in or {})
    for name in list(words):
        if WORD_FIELD.format(name) in form.fields:
            del words[name]
    for name, value in form.cleaned_data.items():
        if name.startswith(WORD_FIELD.format("")) and name in form.fields:
            words[name.removeprefix(WORD_FIELD.format(""))] = value
    return tidy_standing(words)


def _given(form: forms.ModelForm[Member], name: str) -> object:
    """The form's value of ``name`` where it asks it, else the record's."""
    if name in form.fields:
        return form.cleaned_data.get(name)
    return getattr(form.instance, name)


def refuse_a_dropped_rating(form: forms.ModelForm[Member]) -> None:
    """A rating brought in that the club's system would drop (a new player's start
    instead) is refused at the field, naming what it lacks: kept or refused, never
    dropped. Fields the form does not show are the record's. Each word asked is checked
    at its field (one a system reads, describing a rating, with games where it weighs
    them); kept, the words go to the record."""
    if "initial_rating" in form.errors:
        return
    words = words_given(form)
    rating = _given(form, "initial_rating")
    games = _given(form, "initial_games") or 0
    asked = {n: v for n, v in words.items() if WORD_FIELD.format(n) in form.fields}
    for name, problem in standing_problems(rating, games, asked).items():  # type: ignore[arg-type]
        form.add_error(WORD_FIELD.format(name), problem)
    if rating is None:
        # A rating cleared takes its words with it: they described it.
        words = {}
    fields = {"initial_rating": rating, "initial_games": games, STANDING: words}
    if refused := brought_in_problem(ClubSettings.load().engine(), fields):
        form.add_error("initial_rating", refused)
    form.instance.brought_in = words


PAID_TONIGHT_HELP = (
    "Record this season's subscription as paid today, so the member is on the published "
    "list from their first game."
)


class WhichSeasonField(forms.ChoiceField):
    """Paid tonight, asked as which season; a form sent with the box ("on", a page from
    before the question) pays this season, as the box did."""

    def to_python(self, value: object) -> str:
        text = super().to_python(value)
        return "current" if text.lower() in ("on", "true") else text


#: How near its end the current season must be for "paid tonight" to ask which season
#: the payment is for: a newcomer paying in the last two months may be paying for the next.
ASK_WHICH_SEASON = dt.timedelta(days=61)


def paid_tonight_field() -> forms.Field:
    """Paid tonight: a box for this season; when this season ends within two months, a
    question instead, this season or the next (the value "current" or "next")."""
    today = timezone.localdate()
    name, _, end = Season.span_for(today)
    if end - today > ASK_WHICH_SEASON:
        return forms.BooleanField(
            label="Paid this season's subscription today",
            required=False,
            help_text=PAID_TONIGHT_HELP,
        )
    following, start, _ = Season.span_for(end + dt.timedelta(days=1))
    return WhichSeasonField(
        label="Paid a subscription today",
        required=False,
        widget=forms.RadioSelect,
        initial="",
        choices=[
            ("", "Not paid"),
            ("current", f"This season, {name} (ends {end.day} {end:%B %Y})"),
            ("next", f"Next season, {following} (from {start.day} {start:%B %Y})"),
        ],
        help_text=f"This season ends on {end.day} {end:%B %Y}: say which one was paid for. "
        "A payment puts the member on the published list for that season.",
    )


def refuse_paying_guest(form: forms.BaseForm) -> None:
    """A guest pays no subscription: ticking both is a slip the officer should settle."""
    data = form.cleaned_data
    if data.get("paid_tonight") and data.get("is_guest"):
        form.add_error(
            "paid_tonight",
            "A guest pays no subscription: untick “guest” to add a paying member, or untick this.",
        )


def mail_wanted_field() -> forms.MultipleChoiceField:
    """The kinds of club mail a member asks for, one box each (``rules.mail.MAIL_KINDS``)."""
    return forms.MultipleChoiceField(
        label="Messages wanted",
        choices=mail_kind_choices(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Sent only while their consent to club mail is recorded.",
    )


class MemberForm(WordsAsked, forms.ModelForm):
    """A member's details; a new member's form can also record this season paid."""

    mail_consent = forms.BooleanField(
        label="Consents to club mail",
        required=False,
        help_text="Tick when the member has agreed to be sent club mail (kept with the date); "
        "untick when they withdraw it.",
    )
    mail_wanted = mail_wanted_field()

    class Meta:
        model = Member
        fields = [
            "name",
            "member_number",
            "is_guest",
            "born",
            "gender",
            "region",
            "title",
            "fide_id",
            "initial_rating",
            "initial_games",
            "email",
            "mail_consent",
            "mail_consent_how",
            "mail_wanted",
        ]
        widgets = {"born": DATE}
        error_messages = {"initial_games": {"min_value": "Games played cannot be below 0."}}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["initial_rating"].help_text = initial_rating_help()
        whole_initial_rating(self.initial)
        self.fields["mail_consent"].initial = self.instance.mail_consent_at is not None
        ask_what_the_system_reads(self, games_always=True)
        if self.instance.pk is None:
            self.fields["paid_tonight"] = paid_tonight_field()
            if not self.is_bound:
                suggested = suggested_member_number()
                self.fields["member_number"].initial = suggested
                self.fields["member_number"].help_text = (
                    f"{suggested} is the next free number in the club's pattern; "
                    "type another if the member already has one."
                )
        else:
            self.fields[CHANGE_REASON] = change_reason_field(
                "rating brought in from the wrong list"
            )
            offer_fide_rating(self)

    def clean_member_number(self) -> str:
        number = self.cleaned_data["member_number"]
        if number_taken(number, besides=self.instance):
            raise ValidationError("Another member has this number.")
        return number

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        refuse_paying_guest(self)
        refuse_a_dropped_rating(self)
        consent_settled(self, data)
        reason_required(self)
        return data


def consent_settled(form: forms.ModelForm[Member], data: dict[str, Any]) -> None:
    """The member's consent as the box says: given now (its date kept while it stands),
    or withdrawn (date and how cleared). Consent needs an address to send to."""
    member = form.instance
    if not data.get("mail_consent"):
        member.mail_consent_at = None
        data["mail_consent_how"] = ""
        return
    if not data.get("email"):
        if "email" not in form.errors:
            form.add_error("mail_consent", CONSENT_NEEDS_EMAIL)
        return
    # How it was given is the model's to ask (``mail_problems``), as the admin asks it.
    if member.mail_consent_at is None:
        member.mail_consent_at = timezone.now()


def offer_fide_rating(form: forms.ModelForm[Member]) -> None:
    """A member yet to play here, with no rating brought in, whom FIDE's list rates: their
    FIDE standard rating is offered as the rating they bring in, with where it comes from
    ("FIDE standard 1850, list of 2026-11"), where the club's system can start from the
    figure alone; where it needs more (the games before it), the note says so and nothing
    is filled in. Only offered: the officer saves it or not."""
    member = form.instance
    fide = FideRating.objects.filter(member=member).first()
    if (
        form.is_bound
        or fide is None
        or not fide.is_of(member.fide_id)
        or fide.standard is None
        or fide.standard_month is None
        or member.initial_rating is not None
        or Entry.objects.filter(member=member).exists()
    ):
        return
    system = ClubSettings.load().engine()
    source = f"FIDE standard {fide.standard}, list of {fide.standard_month:%Y-%m}"
    field = form.fields["initial_rating"]
    missing = system.brought_in_missing(rating=fide.standard, games=0)
    if missing is None:
        form.initial["initial_rating"] = fide.standard
        field.help_text = f"Offered from FIDE's list: {source}. {field.help_text}"
    else:
        field.help_text = (
            f"{source}: the club's system ({system.title}) keeps it only with {missing}. "
            f"{field.help_text}"
        )


def initial_rating_help() -> str:
    """The initial rating's help text, saying when the club's system ignores it for guests."""
    text = str(Member._meta.get_field("initial_rating").help_text)
    system = ClubSettings.load().engine()
    guest = system.params.get("guest_rating")
    if guest is None:
        return text
    return (
        f"{text} Under the club's system ({system.title}) guests are rated at a fixed "
        f"{float(guest):g} whatever this says."
    )


class QuickMemberForm(WordsAsked, forms.ModelForm):
    """A guest or a new member added from inside an event, on the spot."""

    member_number = forms.CharField(
        max_length=32,
        required=False,
        help_text="Leave blank to have the next free number in the club's pattern given.",
    )

    class Meta:
        model = Member
        # The games and standing asked only where the club's system reads them.
        fields = ["name", "member_number", "is_guest", "initial_rating", "initial_games"]
        error_messages = {"initial_games": {"min_value": "Games played cannot be below 0."}}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["initial_rating"].help_text = initial_rating_help()
        ask_what_the_system_reads(self)
        if "initial_games" in self.fields:
            # A newcomer without a rating has no games to give: blank is none.
            self.fields["initial_games"].required = False
        self.fields["paid_tonight"] = paid_tonight_field()

    def clean_initial_games(self) -> int:
        return self.cleaned_data.get("initial_games") or 0

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        refuse_paying_guest(self)
        refuse_a_dropped_rating(self)
        return data

    def clean_member_number(self) -> str:
        number = self.cleaned_data["member_number"].strip()
        if number and number_taken(number):
            raise ValidationError("Another member has this number.")
        return number

    def save(self, commit: bool = True) -> Member:
        member = super().save(commit=False)
        if not member.member_number:
            member.member_number = suggested_member_number()
        if commit:
            member.save()
        return member


class SubscriptionForm(forms.ModelForm):
    """A payment for a season: any recorded season, or this season or the next one before
    they are recorded (saving creates it by the club's season rule, ``Season.for_day``)."""

    season = forms.ChoiceField(label="Season")
    field_order = ["season", "paid_on", "amount"]

    class Meta:
        model = Subscription
        fields = ["paid_on", "amount"]
        widgets = {"paid_on": DATE}

    def __init__(self, *args, member: Member, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.member = member
        self.new_season: dt.date | None = None
        choices, current = season_options()
        cast(forms.ChoiceField, self.fields["season"]).choices = choices
        initial = self.initial.get("season")
        if isinstance(initial, Season):
            self.initial["season"] = str(initial.pk)
        elif initial is None:
            self.initial["season"] = current
        paid = {str(pk) for pk in member.subscriptions.values_list("season_id", flat=True)}
        if self.initial["season"] in paid and choices and choices[0][0] not in paid:
            # This season is paid already: the payment to record is the next one's.
            self.initial["season"] = choices[0][0]

    def clean_season(self) -> Season | None:
        value = self.cleaned_data["season"]
        if value.startswith("new:"):
            self.new_season = dt.date.fromisoformat(value.removeprefix("new:"))
            return None
        season = Season.objects.get(pk=int(value))
        if Subscription.objects.filter(member=self.member, season=season).exists():
            raise ValidationError(f"{self.member} has already paid for {season}.")
        return season

    def chosen_season(self) -> Season:
        """The season chosen, recorded now by the club's season rule if it was not yet."""
        return season_chosen(self.cleaned_data["season"], self.new_season)

    def save(self, commit: bool = True) -> Subscription:
        self.instance.member = self.member
        self.instance.season = self.chosen_season()
        return super().save(commit)


def season_options() -> tuple[list[tuple[str, str]], str]:
    """The seasons a payment may be for, newest first: every recorded season, and this
    season and the next before they are recorded (``new:<first day>``); and the choice of
    today's season."""
    today = timezone.localdate()
    club = ClubSettings.load()
    this = club.season_for(today)
    following = club.season_for(this[2] + dt.timedelta(days=1))
    seasons = list(Season.objects.all())
    choices = [(s.start, str(s.pk), s.name) for s in seasons]
    for name, start, _end in (this, following):
        if not any(s.start <= start <= s.end or s.name == name for s in seasons):
            choices.append((start, f"new:{start.isoformat()}", f"{name} (new season)"))
    choices.sort(key=lambda c: c[0], reverse=True)
    current = next((s for s in seasons if s.start <= today <= s.end), None)
    initial = str(current.pk) if current else f"new:{this[1].isoformat()}"
    return [(value, label) for _, value, label in choices], initial


def season_chosen(season: Season | None, new_start: dt.date | None) -> Season:
    if season is None and new_start is not None:
        return Season.for_day(new_start)
    assert season is not None
    return season


class MemberEraseForm(forms.Form):
    """Erasing a member at their request: the reason is kept with the erasure."""

    reason = forms.CharField(
        label="Reason",
        max_length=REASON_LENGTH,
        help_text="Kept in the history with the erasure (e.g. “asked to be removed, 3 May”).",
    )
    confirm = forms.BooleanField(
        label="I understand this cannot be undone",
        help_text="Their name and personal details are removed from the record and its "
        "history for good; their games and ratings stay.",
    )
