"""A TRF upload and the officer's answers on its preview (who is who, what to create)."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from ..models import Event, Member, name_problem
from ..tournament_files import match_players
from .members import DATE

# -- TRF import -------------------------------------------------------------------------


class TrfUploadForm(forms.Form):
    file = forms.FileField(
        label="Tournament report file (TRF)",
        help_text="The FIDE report your pairing program exports (Swiss Manager, Vega, "
        "JaVaFo, bbpPairings, Lichess…): TRF16 or TRF-2026.",
    )

    MAX_BYTES = 5_000_000

    def clean(self) -> dict:  # type: ignore[type-arg]
        from .. import trf

        data = super().clean()
        upload = data.get("file")
        if upload is None:
            return data
        if upload.size > self.MAX_BYTES:
            self.add_error("file", "This file is too large for a tournament report.")
            return data
        raw = upload.read()
        if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
            # Read as Latin-1 it would be a NUL every other character, on every line.
            self.add_error("file", "The file is UTF-16 text: save it as UTF-8 (or Latin-1).")
            return data
        text = trf.decode(raw)
        try:
            tournament = trf.parse(text)
        except trf.TrfError as error:
            self.add_error("file", str(error))
            return data
        data["text"] = text
        data["tournament"] = tournament
        return data


KIND_FROM_TRF = (
    ("round", Event.Kind.ROUND_ROBIN),
    ("robin", Event.Kind.ROUND_ROBIN),
    ("team", Event.Kind.LEAGUE),
    ("swiss", Event.Kind.SWISS),
)


class TrfConfirmForm(forms.Form):
    """The event's details and, for each player in the file, who they are here."""

    name = forms.CharField(max_length=120)
    kind = forms.ChoiceField(choices=Event.Kind.choices)
    start_date = forms.DateField(widget=DATE)
    end_date = forms.DateField(widget=DATE)
    rated = forms.BooleanField(required=False, initial=True)

    def __init__(self, *args, tournament, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        kind = next(
            (k for word, k in KIND_FROM_TRF if word in tournament.kind.lower()), Event.Kind.SWISS
        )
        self.initial.update(
            name=tournament.name[:120] or "Imported tournament",
            kind=kind,
            start_date=tournament.start,
            end_date=tournament.end or tournament.start,
            rated=True,
        )
        self.matches = self._match(tournament.players)
        for player in tournament.players:
            match = self.matches.get(player.rank)
            options = [("new", "New member"), ("guest", "Guest")]
            if match is not None:
                options.insert(0, (str(match.pk), f"{match.name} ({match.member_number})"))
            self.fields[f"p{player.rank}"] = forms.ChoiceField(
                choices=options,
                initial=options[0][0],
                label=player.name,
                widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
            )

    @staticmethod
    def _match(players) -> dict[int, Member]:  # type: ignore[no-untyped-def]
        """Members for the file's players (``tournament_files.match_players``, shared with the
        ``import_trf`` and ``import_pgn`` commands)."""
        return match_players((p.rank, p.name, p.fide_id) for p in players)

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"]
        problem = name_problem(name)
        if problem:
            raise ValidationError(problem)
        return name

    def clean(self) -> dict:  # type: ignore[type-arg]
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end:
            # The event form's date rules (order, a mistyped year), on the file's dates.
            try:
                Event(start_date=start, end_date=end).clean()
            except ValidationError as error:
                for field, problems in error.message_dict.items():
                    self.add_error(field, problems)
        name = data.get("name")
        if name and start and Event.objects.filter(name=name, start_date=start).exists():
            self.add_error(
                "name",
                f"{name} starting {start:%d %b %Y} is already recorded: importing it again "
                "would record its games twice. Delete that event first, or rename this one.",
            )
        chosen = [v for k, v in data.items() if k.startswith("p") and v and v.isdigit()]
        twice = {v for v in chosen if chosen.count(v) > 1}
        rating_field = Member._meta.get_field("initial_rating")
        for player in self.tournament.players:
            choice = data.get(f"p{player.rank}")
            if choice in twice:
                self.add_error(f"p{player.rank}", "Two players in the file are this member.")
            if choice in ("new", "guest") and player.rating is not None:
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

    def choices(self) -> dict[int, str]:
        return {p.rank: self.cleaned_data[f"p{p.rank}"] for p in self.tournament.players}

    def player_rows(self):  # type: ignore[no-untyped-def]
        for player in self.tournament.players:
            yield player, self[f"p{player.rank}"], self.matches.get(player.rank)
