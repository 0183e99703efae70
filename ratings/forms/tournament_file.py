"""A TRF upload and the officer's answers on its preview (who is who, what to create)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.html import format_html, format_html_join

from ..formats import trf
from ..formats.pgn import is_pgn, pgn_tournaments
from ..formats.tournament_files import (
    KIND_FROM_TRF,
    MAX_FILE_BYTES,
    event_time_class_and_why,
    file_size_problem,
)
from ..formats.trf import Player
from ..models import ClubSettings, Event, Member, name_problem, rules
from ..rules.brought_in import brought_in_problem
from ..rules.duplicates import NONE_FOUND, Duplicates
from ..rules.text import EVENT_NAME_LENGTH
from ..rules.time_classes import CHOICES as TIME_CLASSES
from ..services.duplicates import duplicate_reason_problem, duplicates_of
from ..services.tournament_imports import match_players, players_possible_duplicates
from ..words.counts import count_phrase
from .events import resolve_players
from .members import DATE

# -- TRF import -------------------------------------------------------------------------


class TrfUploadForm(forms.Form):
    file = forms.FileField(
        label="Tournament report file (TRF) or games (PGN)",
        help_text="The FIDE report your pairing program exports (Swiss Manager, Vega, "
        "JaVaFo, bbpPairings, Lichess…): TRF16 or TRF-2026; or a PGN file of games, "
        "read from their headers (Event, Site, Date, Round, White, Black, Result).",
    )
    event_name = forms.CharField(
        label="One event for every game (PGN only)",
        max_length=120,
        required=False,
        validators=[rules.validate_text],
        help_text="Left empty, a PGN file gives one event for each Event and Site of its games.",
    )

    MAX_BYTES = MAX_FILE_BYTES

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        upload = data.get("file")
        if upload is None:
            return data
        if upload.size > self.MAX_BYTES:
            # Refused before it is read: the upload sits in a temporary file (bigger than
            # FILE_UPLOAD_MAX_MEMORY_SIZE), not in memory.
            problem = (file_size_problem("-", upload.size) or "").removeprefix("-: ")
            self.add_error("file", problem[:1].upper() + problem[1:] + ".")
            return data
        raw = upload.read()
        if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
            # Read as Latin-1 it would be a NUL every other character, on every line.
            self.add_error("file", "The file is UTF-16 text: save it as UTF-8 (or Latin-1).")
            return data
        data["format"] = "pgn" if is_pgn(upload.name, raw) else "trf"
        if data["format"] == "pgn":
            text = raw.decode("utf-8-sig") if _utf8(raw) else raw.decode("latin-1")
        else:
            text = trf.decode(raw)
        try:
            if data["format"] == "pgn":
                tournament = pgn_tournaments(raw, event_name=data.get("event_name", ""))[0]
            else:
                tournament = trf.parse(text)
        except trf.TrfError as error:
            self.add_error("file", str(error))
            return data
        data["text"] = text
        data["tournament"] = tournament
        return data


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return False
    return True


def _fide_id_holders(players: Sequence[Player]) -> dict[str, Member]:
    """The members holding the file's players' FIDE ids, by id without leading zeros."""
    ids = {p.fide_id.lstrip("0") for p in players if p.fide_id.lstrip("0")}
    if not ids:
        return {}
    # Digits only (the reader keeps nothing else as an id), so safe in a pattern.
    pattern = r"^0*(" + "|".join(sorted(i for i in ids if i.isdigit())) + ")$"
    holders = Member.objects.active().filter(fide_id__regex=pattern)
    return {m.fide_id.lstrip("0"): m for m in holders}


class TrfConfirmForm(forms.Form):
    """The event's details and, for each player in the file, who they are here."""

    name = forms.CharField(max_length=120)
    kind = forms.ChoiceField(choices=Event.Kind.choices)
    start_date = forms.DateField(widget=DATE)
    end_date = forms.DateField(widget=DATE)
    time_class = forms.ChoiceField(
        label="Standard, rapid or blitz",
        choices=TIME_CLASSES,
        help_text="Read from the file's time control where it says; check it.",
    )
    rated = forms.BooleanField(required=False, initial=True)
    #: Over the board or online: a server's export (Lichess, chess.com) reads as online.
    online = forms.TypedChoiceField(
        label="Played",
        choices=[("over-the-board", "Over the board"), ("online", "Online")],
        coerce=lambda value: value == "online",
        empty_value=False,  # type: ignore[arg-type]  # coerce gives a bool, so blank is one too; the stubs allow text only
        # Not posted (a confirmation from before the question): over the board.
        required=False,
        widget=forms.RadioSelect,
    )
    new_paid = forms.BooleanField(
        label="The new members (not the guests) have paid this season's subscription today",
        required=False,
        initial=False,
        help_text="Otherwise they are added in arrears: rated, but off the published list.",
    )
    # Offered, never used unasked: a file's ratings are FIDE's or a federation's, not the
    # club's, and a new player here starts without one unless the officer says so.
    use_ratings = forms.BooleanField(
        label="Start the new members and guests from the file's ratings",
        required=False,
        initial=False,
    )

    duplicate_reason = forms.CharField(
        label="Why these games are to be recorded again",
        required=False,
        initial="",
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Asked only when the file's games are already recorded in another event "
        "(see above): kept with the event and in its history.",
    )

    #: The most players the box's words name with the rating it would use.
    RATINGS_NAMED = 8

    def __init__(self, *args, tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        kind = next(
            (k for word, k in KIND_FROM_TRF if word in tournament.kind.lower()), Event.Kind.SWISS
        )
        time_class, why = event_time_class_and_why(tournament.time_control, tournament.name)
        if tournament.time_class:
            time_class, why = tournament.time_class, "the file's XXT line (a club's export)"
        self.initial.update(
            name=tournament.name[:EVENT_NAME_LENGTH] or "Imported tournament",
            kind=kind,
            start_date=tournament.start,
            end_date=tournament.end or tournament.start,
            time_class=time_class,
            rated=tournament.rated is not False,
            online="online" if tournament.online_why else "over-the-board",
        )
        # Where it was played, and why it was read so: the officer may change it.
        self.fields["online"].help_text = (
            format_html(
                "Read as online: {}. Online games are rated only on a list of online play "
                "the club keeps, never with games over the board. Change it if wrong.",
                tournament.online_why,
            )
            if tournament.online_why
            else "Nothing in the file says it was played online. Online games are rated "
            "only on a list of online play the club keeps, never with games over the board."
        )
        # The class read, and why: the officer checks it and may change it.
        # (Escaped: the name and time control are the file's, and help text is not.)
        self.fields["time_class"].help_text = format_html(
            "Read as {}: {}. Change it if wrong.", time_class, why
        )
        self.matches = self._match(tournament.players)
        # Games already recorded elsewhere, as the file's players are matched: shown at
        # the preview; at the confirmation, found with the officer's choices (``clean``).
        self.duplicates = NONE_FOUND
        # Players who may be one person with another or with a member not matched: shown.
        self.possible_duplicates = players_possible_duplicates(
            ((f"player {p.rank}", p.name, p.fide_id, p.born) for p in tournament.players),
            matched=[m.pk for m in self.matches.values()],
        )
        if not self.is_bound:
            self.duplicates = self._duplicates({r: m.pk for r, m in self.matches.items()})
        self.fields["use_ratings"].help_text = self._ratings_offered(tournament.players)
        self.system = ClubSettings.load().engine()
        if self.system.brought_in_needs_games:
            # A file gives a rating's figure, never the games behind it, which this system
            # needs to start from it (without them the player would start as new).
            self.fields["ratings_games"] = forms.IntegerField(
                label="Rated games behind the file's ratings",
                required=False,
                min_value=0,
                max_value=rules.MAX_GAMES,
                help_text=f"The club's system ({self.system.title}) keeps a rating brought in "
                "only with the games played before it: the new players start from the "
                "file's ratings with this many games each.",
            )
        # An open most of whose players are not the club's (an external event some members
        # played in): the others are guests by default, not dozens of new members.
        external = len(self.matches) * 2 < len(tournament.players)
        for player in tournament.players:
            match = self.matches.get(player.rank)
            options = [("new", "New member"), ("guest", "Guest")]
            if external:
                options.reverse()
            if match is not None:
                options.insert(0, (str(match.pk), f"{match.name} ({match.member_number})"))
            self.fields[f"p{player.rank}"] = forms.ChoiceField(
                choices=options,
                initial=options[0][0],
                label=player.name,
                widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
            )
            # Matching by hand: a member the matcher missed (another spelling), found by
            # their number or name.
            self.fields[f"m{player.rank}"] = forms.CharField(
                required=False,
                initial="",
                label=f"{player.name}: or this member",
                widget=forms.TextInput(
                    attrs={
                        "class": "form-control form-control-sm",
                        "type": "search",
                        "placeholder": "or a number or name",
                    }
                ),
            )

    def _ratings_offered(self, players: Sequence[Player]) -> str:
        """The box's words: the ratings ticking it would use (the file's players not
        matched to a member), or that the file gives them none. The names are the file's:
        escaped, as a form's help text is written into the page as it stands."""
        rated = [p for p in players if p.rating is not None and p.rank not in self.matches]
        if not rated:
            return "The file gives none of the players not matched to a member a rating."
        named = format_html_join(
            ", ", "{} {}", ((p.name, p.rating) for p in rated[: self.RATINGS_NAMED])
        )
        more = len(rated) - self.RATINGS_NAMED
        return format_html(
            "Ticked, they start here from the file's ratings: {}{}. Unticked, they start as "
            "new players. The file's ratings are usually FIDE's or a federation's, not the "
            "club's.",
            named,
            f" and {count_phrase(more, 'more player')} (the Rating column)" if more > 0 else "",
        )

    @staticmethod
    def _match(players) -> dict[int, Member]:
        """Members for the file's players (``tournament_imports.match_players``, shared with the
        ``import_trf`` and ``import_pgn`` commands)."""
        return match_players((p.rank, p.name, p.fide_id) for p in players)

    def _duplicates(self, members: dict[int, int]) -> Duplicates:
        """The file's games (players as ``members``: rank to member id) already recorded in
        another event (``rules.duplicates``)."""
        start = self.cleaned_data_or_none("start_date") or self.tournament.start
        end = self.cleaned_data_or_none("end_date") or self.tournament.end or start
        if start is None:
            return NONE_FOUND
        games = [
            (
                g.round,
                members.get(g.white),
                members.get(g.black) if g.black is not None else None,
                g.result,
            )
            for g in self.tournament.games()
        ]
        return duplicates_of(start=start, end=max(start, end), games=games)

    def cleaned_data_or_none(self, field: str) -> Any:
        return getattr(self, "cleaned_data", {}).get(field)

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"]
        problem = name_problem(name)
        if problem:
            raise ValidationError(problem)
        return name

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        start, end = data.get("start_date"), data.get("end_date")
        if start and end:
            # The event form's date rules (order, a mistyped year), on the file's dates.
            try:
                Event(start_date=start, end_date=end).clean()
            except ValidationError as error:
                for field, problems in error.message_dict.items():
                    self.add_error(field, problems)
            problem = rules.results_too_early_problem(
                Event(name=data.get("name") or "This event", start_date=start)
            )
            if problem and "start_date" not in self.errors:
                self.add_error("start_date", problem)
        self._hand_matches(data)
        self._check_duplicates(data)
        chosen = [v for k, v in data.items() if k.startswith("p") and v and v.isdigit()]
        twice = {v for v in chosen if chosen.count(v) > 1}
        rating_field = Member._meta.get_field("initial_rating")
        holders = _fide_id_holders(self.tournament.players)
        for player in self.tournament.players:
            choice = data.get(f"p{player.rank}")
            if choice in twice:
                self.add_error(f"p{player.rank}", "Two players in the file are this member.")
            holder = holders.get(player.fide_id.lstrip("0"))
            if choice in ("new", "guest") and holder is not None:
                self.add_error(
                    f"p{player.rank}",
                    f"Line {player.line}: {player.name}'s FIDE id {player.fide_id} is "
                    f"{holder.name}'s ({holder.member_number}): one FIDE id is one person. "
                    "Choose that member, or correct the id in the file.",
                )
            if (
                choice in ("new", "guest")
                and player.rating is not None
                and data.get("use_ratings")
                and "ratings_games" not in self.errors
            ):
                fields = {
                    "initial_rating": player.rating,
                    "initial_games": data.get("ratings_games"),
                }
                if problem := brought_in_problem(self.system, fields):
                    self.add_error(
                        "ratings_games",
                        f"{problem} Here: the games behind the file's ratings, or untick "
                        "“Start the new members and guests from the file's ratings”.",
                    )
            if (
                choice in ("new", "guest")
                and player.rating is not None
                and data.get("use_ratings")
            ):
                # A member made from the file starts from its rating: the member form's
                # rules apply to it.
                try:
                    rating_field.run_validators(player.rating)
                except ValidationError as error:
                    self.add_error(
                        f"p{player.rank}",
                        f"Line {player.line}: the file gives {player.name} the rating "
                        f"{player.rating}. {' '.join(error.messages)} Correct the file, or "
                        "choose the member this player is.",
                    )
        return data

    def _check_duplicates(self, data: dict[str, Any]) -> None:
        """Games already recorded in another event are saved again only with a reason;
        so is an event of the same name and start as one recorded."""
        reason = data.get("duplicate_reason", "")
        chosen = {p.rank: data.get(f"p{p.rank}", "") for p in self.tournament.players}
        members = {rank: int(c) for rank, c in chosen.items() if c and c.isdigit()}
        self.duplicates = self._duplicates(members)
        if problem := duplicate_reason_problem(self.duplicates, reason):
            self.add_error("duplicate_reason", problem)
            return
        name, start = data.get("name"), data.get("start_date")
        same = (
            Event.objects.filter(name=name, start_date=start).first() if name and start else None
        )
        if same is not None and not reason.strip():
            self.add_error(
                "duplicate_reason",
                f"“{same.name}” starting {start:%d %b %Y} is already recorded. Open it to "
                "check its games, or say here why this file is to be recorded again.",
            )

    def _hand_matches(self, data: dict[str, Any]) -> None:
        """A member typed beside a player wins over the list's choice."""
        typed = {p.rank: data.get(f"m{p.rank}", "").strip() for p in self.tournament.players}
        tokens = [t for t in typed.values() if t]
        if not tokens:
            return
        found, problems = resolve_players(tokens, Member.objects.active())
        for rank, token in typed.items():
            if not token:
                continue
            if token in problems:
                self.add_error(f"m{rank}", problems[token])
            else:
                data[f"p{rank}"] = str(found[token].pk)

    def choices(self) -> dict[int, str]:
        return {p.rank: self.cleaned_data[f"p{p.rank}"] for p in self.tournament.players}

    def player_rows(self):
        for player in self.tournament.players:
            yield (
                player,
                self[f"p{player.rank}"],
                self.matches.get(player.rank),
                self[f"m{player.rank}"],
            )
