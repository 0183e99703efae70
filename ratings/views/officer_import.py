"""Tournament files in and out: a TRF upload with its preview and confirmation, an event as TRF."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.text import slugify

from .. import services
from ..engine.codec import TITLES
from ..formats import trf, trf_export
from ..formats.pgn import pgn_tournaments
from ..forms import TrfConfirmForm, TrfUploadForm
from ..models import (
    Event,
    Member,
    Season,
    next_member_numbers,
)
from ..rules import tiebreaks
from ..rules.text import TIME_CONTROL_LENGTH
from ..services.tournament_imports import file_member_fields
from ..words.counts import count_phrase
from .common import officer_required

SESSION_KEY = "officer-trf-import"


@officer_required
def trf_upload(request: HttpRequest) -> HttpResponse:
    form = TrfUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        request.session[SESSION_KEY] = {
            "text": form.cleaned_data["text"],
            "filename": form.cleaned_data["file"].name,
            "format": form.cleaned_data["format"],
            "event_name": form.cleaned_data["event_name"],
            "event": 0,
            "done": [],
        }
        return redirect("ratings:officer-import-preview")
    return render(request, "ratings/officer/import.html", {"form": form})


@officer_required
def trf_preview(request: HttpRequest) -> HttpResponse:
    stored = request.session.get(SESSION_KEY)
    if not stored:
        messages.info(request, "Upload a tournament report file first.")
        return redirect("ratings:officer-import")
    tournaments = stored_tournaments(stored)
    index = stored_event(request, stored, len(tournaments))
    tournament = tournaments[index]
    form = TrfConfirmForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        event = _import(form, tournament, request.user)
        # Counted as the preview and the event's page count them: a game has two players,
        # a bye (a line with no opponent) is not a game.
        byes = event.games.filter(black__isnull=True).count()
        played = event.games.count() - byes
        counted = [count_phrase(len(tournament.players), "player"), count_phrase(played, "game")]
        if byes:
            counted.append(count_phrase(byes, "bye"))
        messages.success(
            request,
            f"{event.name} imported: {', '.join(counted)}. Check it, then mark it complete to "
            "rate it.",
        )
        if next_event(request, stored, index, len(tournaments)):
            return redirect("ratings:officer-import-preview")
        del request.session[SESSION_KEY]
        return redirect("ratings:officer-event", pk=event.pk)
    games = tournament.games()
    counts: defaultdict[str, int] = defaultdict(int)
    for game in games:
        counts[game.result] += 1
    return render(
        request,
        "ratings/officer/import_preview.html",
        {
            "form": form,
            "tournament": tournament,
            "filename": stored["filename"],
            # A bye is a line with no opponent (a full, half or zero point bye).
            "games": sum(1 for game in games if game.black is not None),
            "byes": sum(1 for game in games if game.black is None),
            "counts": sorted(counts.items()),
            "rows": form.player_rows(),
            "events": event_choices(stored, tournaments, index),
            "rerates": _rerates(tournament),
        },
    )


def _rerates(tournament: trf.Tournament) -> int:
    """How many rated events an import dated ``tournament.start`` re-rates (those after it)."""
    if tournament.start is None:
        return 0
    start = tournament.end or tournament.start
    return services.rerate_scope(start=(start, tournament.start, 0)).count


def _import(form, tournament: trf.Tournament, user) -> Event:
    data = form.cleaned_data
    event = Event(
        name=data["name"],
        kind=data["kind"],
        start_date=data["start_date"],
        end_date=data["end_date"],
        rounds=max(tournament.rounds, 1),
        time_control=tournament.time_control[:TIME_CONTROL_LENGTH],
        time_class=data["time_class"],
        tie_breaks=tiebreaks.codes_text(tournament.tie_breaks),
        rated=data["rated"],
        online=data["online"],
        duplicate_reason=data["duplicate_reason"].strip(),
    )
    choices = form.choices()
    new = [p for p in tournament.players if choices[p.rank] in ("new", "guest")]
    numbers = iter(next_member_numbers(len(new)))  # the club's pattern, guests alike
    members = dict(
        Member.objects.in_bulk([int(c) for c in choices.values() if c.isdigit()]).items()
    )
    players: dict[int, Member] = {}
    for player in tournament.players:
        choice = choices[player.rank]
        if choice.isdigit():
            players[player.rank] = members[int(choice)]
            continue
        guest = choice == "guest"
        players[player.rank] = Member(
            member_number=next(numbers),
            **file_member_fields(name=player.name, federation=player.federation, born=player.born),
            is_guest=guest,
            fide_id=player.fide_id if player.fide_id.isdigit() else "",
            title=player.title if player.title in TITLES else "",
            gender={"m": "M", "w": "F", "f": "F"}.get(player.sex, ""),
            initial_rating=player.rating if data["use_ratings"] else None,
            # The games the club's system needs behind a rating brought in (the form asks).
            initial_games=(data.get("ratings_games") or 0) if data["use_ratings"] else 0,
        )
    games = [(g.round, g.white, g.black, g.result, g.colours_known) for g in tournament.games()]
    # Paid on the night: on the published list from this event on.
    paid = Season.for_day(timezone.localdate()) if data["new_paid"] else None
    return services.trf_import(
        event=event, games=games, players=players, user=user, paid_season=paid
    )


@officer_required
def event_trf(request: HttpRequest, pk: int) -> HttpResponse:
    """The event as a FIDE tournament report file (TRF16), to download."""
    event = get_object_or_404(Event, pk=pk)
    response = HttpResponse(
        trf_export.event_to_trf(event).encode("utf-8"), content_type="text/plain; charset=utf-8"
    )
    filename = f"{slugify(event.name) or f'event-{event.pk}'}.trf"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# -- a file of several events (PGN) ------------------------------------------------------
# A TRF file is one event; a PGN file may hold several (one per Event and Site). The
# session keeps the file, the event on show and those already imported, so after each
# confirmation the preview moves on to the next event of the file.


def stored_tournaments(stored: dict[str, Any]) -> list[trf.Tournament]:
    """The uploaded file's events (checked on upload: they read again without problems)."""
    if stored.get("format") == "pgn":
        return pgn_tournaments(
            stored["text"].encode("utf-8"), event_name=stored.get("event_name", "")
        )
    return [trf.parse(stored["text"])]


def stored_event(request: HttpRequest, stored: dict[str, Any], count: int) -> int:
    """The event on show: the one chosen by ``?event=N`` (1 to count), else the session's."""
    chosen = request.GET.get("event", "")
    if chosen.isdigit() and 1 <= int(chosen) <= count:
        stored["event"] = int(chosen) - 1
        request.session.modified = True
    index = int(stored.get("event", 0))
    return index if 0 <= index < count else 0


def next_event(request: HttpRequest, stored: dict[str, Any], index: int, count: int) -> bool:
    """Mark the event imported and show the next one not yet imported; False when none is left."""
    done = sorted({*stored.get("done", []), index})
    left = [i for i in range(count) if i not in done]
    if not left:
        return False
    stored.update(done=done, event=next((i for i in left if i > index), left[0]))
    request.session.modified = True
    return True


def event_choices(
    stored: dict[str, Any], tournaments: list[trf.Tournament], index: int
) -> list[dict[str, Any]]:
    """The file's events for the preview's list (empty for a file of one event)."""
    if len(tournaments) < 2:
        return []
    done = set(stored.get("done", []))
    return [
        {
            "number": i + 1,
            "name": t.name,
            "start": t.start,
            "games": len(t.games()),
            "current": i == index,
            "done": i in done,
        }
        for i, t in enumerate(tournaments)
    ]
