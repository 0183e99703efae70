"""The public rating calculator: pick a member (a search box), enter games, see the change."""

from __future__ import annotations

from typing import Any

from django.db.models import (
    Case,
    Q,
    QuerySet,
    When,
)
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from .. import services
from ..engine import RatingSystem
from ..forms import (
    CalculatorGameFormSet,
    CalculatorPlayerForm,
)
from ..models import (
    ClubSettings,
    Member,
    name_search,
)
from ..pages import calculator as what_if
from ..pages import explain
from ..words import figures
from .common import is_officer

# -- the calculator --------------------------------------------------------------------


def _calculator_members(officer: bool) -> QuerySet[Member]:
    """The members one may pick: the published ones (an officer: everyone rated)."""
    members = Member.objects.active() if officer else Member.objects.published()
    return members.listable().exclude(rating_state__display="")  # type: ignore[misc]  # with_state's FilteredRelation


#: The most members the search box offers at once, and the fewest letters it searches on.
SEARCH_LIMIT = 20
SEARCH_MIN = 2


def member_search(request: HttpRequest) -> JsonResponse:
    """The calculator's search box: up to 20 members one may pick whose name (every word
    typed) or number matches ``q``, with their rating as the list shows it."""
    query = request.GET.get("q", "").strip()[:60]
    if len(query) < SEARCH_MIN:
        return JsonResponse({"members": []})
    members = _calculator_members(is_officer(request))
    members = members.filter(name_search(query))
    # Names that begin as typed first ("ben ch": Ben Chen before Ben Archer).
    first = Case(
        When(Q(name__istartswith=query) | Q(member_number__iexact=query), then=0), default=1
    )
    rows = (
        members.annotate(first=first)
        .order_by("first", "name", "member_number")
        .values_list("member_number", "name", "rating_state__display")[:SEARCH_LIMIT]
    )
    found = [
        {"number": number, "name": name, "rating": display, "label": f"{name} ({number})"}
        for number, name, display in rows
    ]
    return JsonResponse({"members": found})


def _initial(request: HttpRequest) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The answers so far, put back into fresh forms with one more game row."""
    get = request.GET
    player = {f: get.get(f"p-{f}", "") for f in ("member", "rating", "games")}
    try:
        count = min(int(get.get("g-TOTAL_FORMS", 0)), 39)
    except ValueError:
        count = 0
    games = [
        {f: get.get(f"g-{i}-{f}", "") for f in ("opponent", "rating", "result")}
        for i in range(count)
    ]
    return player, [*games, {}]


def calculator(request: HttpRequest) -> HttpResponse:
    """What if I beat her? A GET form, so a what-if can be bookmarked and shared."""
    members = _calculator_members(is_officer(request))
    system = ClubSettings.load().engine()
    outcome = None
    if "add" in request.GET:
        player_initial, games_initial = _initial(request)
        player_form = CalculatorPlayerForm(initial=player_initial, members=members, prefix="p")
        formset = CalculatorGameFormSet(
            initial=games_initial, prefix="g", form_kwargs={"members": members}
        )
        formset.extra = 0
    elif "go" in request.GET:
        player_form = CalculatorPlayerForm(request.GET, members=members, prefix="p")
        formset = CalculatorGameFormSet(request.GET, prefix="g", form_kwargs={"members": members})
        if player_form.is_valid() and formset.is_valid():
            outcome = _calculate(player_form.cleaned_data, formset, system=system)
            if outcome is None:
                player_form.add_error(
                    "member", "You cannot play yourself: choose another opponent."
                )
    else:
        player_form = CalculatorPlayerForm(members=members, prefix="p")
        formset = CalculatorGameFormSet(prefix="g", form_kwargs={"members": members})
    return render(
        request,
        "ratings/public/calculator.html",
        {
            "player_form": player_form,
            "formset": formset,
            "outcome": outcome,
            "system": system,
        },
    )


def _calculate(
    player: dict[str, Any], formset: Any, *, system: RatingSystem[Any]
) -> dict[str, Any] | None:
    rows = [f.cleaned_data for f in formset.forms if not f.is_blank]
    picked = {row["opponent"].pk: row["opponent"] for row in rows if row["opponent"] is not None}
    labels = {pk: f"{m.name} ({m.rating_state.display})" for pk, m in picked.items()}
    if player["member"] is not None:
        if player["member"].pk in picked:
            return None
        picked[player["member"].pk] = player["member"]
    states = what_if.calculator_states(members=picked.values())
    if player["member"] is not None:
        me = states[player["member"].pk]
    else:
        me = what_if.calculator_typed(key="you", rating=player["rating"], games=player["games"])
    games = []
    names = {}
    for number, row in enumerate(rows, 1):
        if row["opponent"] is not None:
            opponent = states[row["opponent"].pk]
            names[opponent.id] = labels[row["opponent"].pk]
        else:
            opponent = what_if.calculator_typed(
                key=f"typed-{number}",
                rating=row["rating"],
                games=what_if.CALCULATOR_TYPED_GAMES,
            )
            names[opponent.id] = f"a player rated {row['rating']:g}"
        games.append((opponent, float(row["result"])))
    change = what_if.calculator_rate(player=me, games=games)
    columns = explain.line_columns([line.detail for line in change.games], change.detail, system)
    lines = [
        {
            "opponent": names.get(line.opponent, line.opponent),
            "opponent_rating": line.opponent_rating,
            "score": line.score,
            "expected": line.expected,
            "change": services.game_line_change(line={**line.detail, "change": line.change}),
            "rated": line.rated,
            "extra": [explain.line_text(key, line.detail.get(key), system) for key in columns],
        }
        for line in change.games
    ]
    detail = {k: v for k, v in change.detail.items() if isinstance(v, int | float | str)}
    return {
        "change": change,
        "lines": lines,
        "detail": detail,
        "breakdown": explain.breakdown_items(detail, system),
        "columns": [explain.line_label(key, system) for key in columns],
        # The change the reader can check: the figures shown, less each other
        # ("2303 → 2304" is +1, not the unrounded +1.6).
        "delta": figures.shown_change(change.display_before, change.display_after),
    }
