"""The club's settings (its rating system) and its seasons."""

from __future__ import annotations

import datetime as dt
import zoneinfo

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.utils import timezone
from simple_history.models import HistoricalRecords

from ..engine import DEFAULT_SYSTEM, SYSTEMS, RatingSystem, get_system, system_choices
from ..rules.places_of_play import list_place, online_list
from ..rules.roles import PERMISSIONS
from ..rules.time_classes import CHOICES as TIME_CLASSES
from ..rules.time_classes import STANDARD
from . import rules


def time_zones() -> list[str]:
    """Every IANA time zone the server knows, sorted (the first-run page's choices)."""
    return sorted(zoneinfo.available_timezones())


def validate_time_zone(value: str) -> None:
    if value and value not in zoneinfo.available_timezones():
        raise ValidationError(
            f"{value!r} is not a time zone (e.g. Pacific/Auckland, Europe/London)."
        )


#: The engine's systems, asked each time (a callable: a migration keeps the reference, not
#: the list, so a system added in the engine alone needs none).
SYSTEM_CHOICES = system_choices


class ClubSettings(models.Model):
    """The club's one row of settings; ``ClubSettings.load()`` always returns it."""

    name = models.CharField(
        max_length=120, default="Our Chess Club", validators=[rules.validate_text]
    )
    rating_system = models.CharField(max_length=20, choices=SYSTEM_CHOICES, default=DEFAULT_SYSTEM)
    system_params = models.JSONField(
        "system parameters",
        default=dict,
        blank=True,
        help_text='Overrides of the system\'s documented parameters, e.g. {"floor": 900}.',
    )
    season_start_month = models.PositiveSmallIntegerField(
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(12)],
        help_text="The month a subscription season starts (1 = January).",
    )
    time_zone = models.CharField(
        max_length=64,
        blank=True,
        validators=[validate_time_zone],
        help_text='The club\'s time zone (e.g. Pacific/Auckland): it decides "today", hence '
        "who is financial. Empty: the server's TIME_ZONE.",
    )
    live_list_only = models.BooleanField(
        "live list only",
        default=False,
        help_text="For a club that publishes continuously: the rating list page shows the "
        "live ratings and no publications.",
    )

    fide_on_list = models.BooleanField(
        "FIDE ratings on the published list",
        default=False,
        help_text="Show each member's FIDE rating (from FIDE's list the officer last "
        "uploaded) as a column beside the club's rating on the published list.",
    )

    class Unpublished(models.TextChoices):
        """How members whose ratings are not published (in arrears, guests) appear on the
        public pages: the rule asks only that their ratings are withheld, but a club may not
        want even their names out (a lapsed member, a minor)."""

        NAMED = "named", "Name them, withhold their ratings"
        KEPT_OFF = "kept-off", "Keep them off public pages"

    unpublished_members = models.CharField(
        "unpublished members on public pages",
        max_length=10,
        choices=Unpublished.choices,
        default=Unpublished.NAMED,
        help_text="Members not on the published list (in arrears, guests). Name them: their "
        "names, numbers, games and scores are public and their ratings are withheld, as is "
        "every figure worked from one (a published opponent's expected score against them, an "
        "average opponent that counts them); but a published opponent's own rating change is "
        "public, so a reader who knows the system can still work out an unpublished "
        "member's rating from a game between them. Keep them off: public "
        'pages, exports and the API call each of them "Unpublished player", with no number '
        "and no member page (their number answers as one that does not exist), so no "
        "rating change can be tied to them. The officer's pages show everyone either way.",
    )
    # What a federation's rating officer needs in a tournament report file's header
    # (FIDE's TRF lines 022, 032, 102, 112): the club's, for every event it exports.
    city = models.CharField(
        max_length=60,
        blank=True,
        validators=[rules.validate_text],
        help_text="Where the club plays (TRF 022).",
    )
    federation = models.CharField(
        max_length=3,
        blank=True,
        validators=[RegexValidator(r"^[A-Z]{3}$", "FIDE's three capital letters, e.g. NZL.")],
        help_text="The club's federation, FIDE's three letters (TRF 032).",
    )
    chief_arbiter = models.CharField(
        max_length=60,
        blank=True,
        validators=[rules.validate_text],
        help_text="The chief arbiter, with a FIDE id if any (TRF 102).",
    )
    deputy_arbiters = models.TextField(
        blank=True,
        validators=[rules.validate_lines],
        help_text="Deputy arbiters, one a line (TRF 112, one line each).",
    )
    mail_from = models.EmailField(
        "mail sender",
        blank=True,
        help_text="The address the club's mail comes from, under the club's name (e.g. "
        "ratings@ourclub.org). Empty: the server's DEFAULT_FROM_EMAIL.",
    )
    subscriptions_paid_to = models.CharField(
        "subscriptions paid to",
        max_length=200,
        blank=True,
        help_text="Who takes a season's subscription, as a member in arrears is told it "
        "(e.g. “the treasurer, Sam Lee, at any club night”).",
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = "club settings"
        verbose_name_plural = "club settings"
        # The roles' permissions (ratings/rules/roles.py), on the club's one row.
        permissions = [*PERMISSIONS]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def load(cls) -> ClubSettings:
        obj, _ = cls.objects.get_or_create(pk=1)
        return obj

    @property
    def keeps_unpublished_off(self) -> bool:
        """Whether the club keeps unpublished members off its public pages (its setting):
        the public reads each as an "Unpublished player" (``pages.kept_off``)."""
        return self.unpublished_members == self.Unpublished.KEPT_OFF

    def clean(self) -> None:
        if not isinstance(self.system_params, dict):
            raise ValidationError({"system_params": "Must be a JSON object."})
        system = SYSTEMS.get(self.rating_system)
        if system is not None:
            problems = system.check_params(self.system_params, path="")
            problems += _time_control_problems(self.rating_system, self.system_params, STANDARD)
            if problems:
                raise ValidationError({"system_params": [p.lstrip(".") for p in problems]})

    def params(self) -> dict[str, object]:
        """The standard list's parameters as the engine takes them: ecf-2020 rates it as
        standard play, whatever the stored parameters say."""
        return _with_time_control(self.rating_system, self.system_params, STANDARD)

    def engine(self, time_class: str = STANDARD) -> RatingSystem:
        """The system of list ``time_class`` (a time class, or an online list's key,
        ``rules/places_of_play.py``; standard: the club's own)."""
        if time_class == STANDARD:
            return get_system(self.rating_system, self.params())
        played, online = list_place(time_class)
        own = RatingList.objects.filter(
            time_class=played, online=online, kept=RatingList.Kept.OWN
        ).first()
        if own is None:
            return get_system(self.rating_system, self.params())
        return own.engine()

    def season_for(self, day: dt.date) -> tuple[str, dt.date, dt.date]:
        """The name, first and last day of the season containing ``day``."""
        month = self.season_start_month
        year = day.year if day.month >= month else day.year - 1
        start = dt.date(year, month, 1)
        end = dt.date(year + 1, month, 1) - dt.timedelta(days=1)
        name = str(year) if month == 1 else f"{year}/{str(year + 1)[-2:]}"
        return name, start, end


def club_time_zone_activate(settings: ClubSettings | None = None) -> None:
    """Make the club's time zone (``ClubSettings.time_zone``) the current one; empty, or a
    zone the server no longer knows: the server's ``TIME_ZONE``. Here, beside the setting,
    so that the middleware (each request) and the worker's tasks (each run) both reach it
    from below them."""
    zone = (settings or ClubSettings.load()).time_zone
    try:
        timezone.activate(zoneinfo.ZoneInfo(zone)) if zone else timezone.deactivate()
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        timezone.deactivate()


class RatingList(models.Model):
    """How the club rates one time control other than standard play over the board, or
    one time control played online.

    Over the board, rapid and blitz are rated with the standard list (the default, and
    how a club with one list works), on a list of their own with its own system, or not at
    all. Online games (``online``) are on a list of their own or not rated (the default,
    a time class with no row): never mixed into an over-the-board list. Each list is its
    own rating chain.
    """

    class Kept(models.TextChoices):
        STANDARD = "standard", "With the standard list"
        OWN = "own", "On a list of its own"
        UNRATED = "unrated", "Not rated"

    time_class = models.CharField(max_length=10, choices=TIME_CLASSES)
    #: Where the games it says of are played: over the board (False) or online.
    online = models.BooleanField(
        "played online",
        default=False,
        help_text="Online games are rated on a list of their own or not at all, never with "
        "a list of games over the board.",
    )
    kept = models.CharField("rated", max_length=10, choices=Kept.choices, default=Kept.STANDARD)
    rating_system = models.CharField(max_length=20, choices=SYSTEM_CHOICES, default=DEFAULT_SYSTEM)
    system_params = models.JSONField(
        "system parameters",
        default=dict,
        blank=True,
        help_text="Overrides of the system's documented parameters. ecf-2020's time control "
        "is set from the list's.",
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["online", "time_class"]
        constraints = [
            models.UniqueConstraint(
                fields=["time_class", "online"], name="one_rating_list_a_place"
            )
        ]

    def __str__(self) -> str:
        place = "Online " if self.online else ""
        name = self.get_time_class_display()
        return f"{place}{name.lower() if self.online else name} list"

    @property
    def key(self) -> str:
        """The list's key, as its derived rows name it ("rapid", "online-blitz")."""
        return online_list(self.time_class) if self.online else self.time_class

    def clean(self) -> None:
        if self.time_class == STANDARD and not self.online:
            raise ValidationError(
                {
                    "time_class": "Standard play over the board is the club's own list: its "
                    "system is the club settings'."
                }
            )
        if self.online and self.kept == self.Kept.STANDARD:
            raise ValidationError(
                {
                    "kept": "Online games are rated on a list of their own or not at all, never "
                    "with the games played over the board."
                }
            )
        if not isinstance(self.system_params, dict):
            raise ValidationError({"system_params": "Must be a JSON object."})
        system = SYSTEMS.get(self.rating_system)
        if system is not None:
            problems = system.check_params(self.params(), path="")
            problems += _time_control_problems(
                self.rating_system, self.system_params, self.time_class
            )
            if problems:
                raise ValidationError({"system_params": [p.lstrip(".") for p in problems]})

    def params(self) -> dict[str, object]:
        """The list's parameters as the engine takes them: ecf-2020 rates it as its time
        control (defaults lowered for rapid and blitz), whatever the stored ones say."""
        return _with_time_control(self.rating_system, self.system_params, self.time_class)

    def engine(self) -> RatingSystem:
        return get_system(self.rating_system, self.params())


def _with_time_control(system_id: str, params: object, time_class: str) -> dict[str, object]:
    """``params`` as the list of ``time_class`` play rates with them: the system's say."""
    out = dict(params) if isinstance(params, dict) else {}
    system = SYSTEMS.get(system_id)
    return system.list_params(out, time_class) if system is not None else out


def _time_control_problems(system_id: str, params: object, time_class: str) -> list[str]:
    """Parameters contradicting the list they are for (a list rates its own time control)."""
    system = SYSTEMS.get(system_id)
    if system is None or not isinstance(params, dict):
        return []
    return system.list_param_problems(params, time_class)


class Season(models.Model):
    """A subscription season: paying for it makes a member financial within its dates."""

    name = models.CharField(max_length=20, unique=True)
    start = models.DateField()
    end = models.DateField()

    class Meta:
        ordering = ["-start"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.start and self.end and self.end < self.start:
            raise ValidationError({"end": "A season cannot end before it starts."})

    @classmethod
    def span_for(cls, day: dt.date) -> tuple[str, dt.date, dt.date]:
        """The name, first and last day of the season covering ``day``: the one recorded,
        else as the club settings date it (nothing created: a form's question reads it)."""
        existing = cls.objects.filter(start__lte=day, end__gte=day).first()
        if existing:
            return existing.name, existing.start, existing.end
        return ClubSettings.load().season_for(day)

    @classmethod
    def for_day(cls, day: dt.date) -> Season:
        """The season covering ``day``, created from the club settings if need be."""
        existing = cls.objects.filter(start__lte=day, end__gte=day).first()
        if existing:
            return existing
        name, start, end = ClubSettings.load().season_for(day)
        season, _ = cls.objects.get_or_create(name=name, defaults={"start": start, "end": end})
        return season
