"""Events: completing them, closing rating periods, entering results, importing them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from ..engine import EventResult
from ..models import (
    ClubSettings,
    Entry,
    Event,
    Game,
    Member,
    RatingPeriod,
    RatingRun,
    Season,
    complete_problem,
    entry_with_games_problem,
    member_names,
    rules,
)
from ..models.rating_lists import event_list_of
from ..rules.time_classes import STANDARD
from .audit import audit_user, delete_with_history, reason_kept
from .chain import (
    Position,
    RerateScope,
    engine_events,
    period_for,
    players_of,
    rating_key,
    rerate_scope,
    states_before,
)
from .corrections import EVENT_RATING_FIELDS, event_changed, event_rerate_needed
from .duplicates import event_duplicate_reason_keep
from .event_entries import entries_create
from .event_stages import event_rated_tell
from .list_figures import list_figures_forget
from .member_states import member_states_create
from .rapid_standing import rapid_feeds_standard, rapid_ratings_set
from .rerate import RerateRequest
from .results_version import results_unchanged_check
from .runs import ratings_update
from .subscriptions import PAID_ON_JOINING, subscriptions_renew


def event_preview(*, event: Event) -> tuple[EventResult | None, RerateScope]:
    """What rating ``event`` would give, without saving, and what else it re-rates.

    For period systems the preview rates the whole period the event falls in (its
    complete events plus this one): the figures stay provisional until it closes.
    Only the players of what it rates are read.
    """
    rating_list = event_list_of(event) or STANDARD
    system = ClubSettings.load().engine(rating_list)
    group = [event]
    period = RatingPeriod.objects.for_event(event, system=system, time_class=rating_list)
    if period is not None:
        group = list(
            period.events().filter(rated=True, status=Event.Status.COMPLETE).exclude(pk=event.pk)
        )
        group = sorted([*group, event], key=rating_key)
    inputs = engine_events(group)
    key = rating_key(group[0])
    states = states_before(key, system, players_of(inputs), rating_list)
    if rapid_feeds_standard(system, rating_list):
        states.update(
            rapid_ratings_set(states=states, key=key, member_ids=players_of(inputs), system=system)
        )
    result = system.rate(states.values(), inputs)
    mine = next((r for r in result.events if r.id == str(event.pk)), None)
    return mine, rerate_scope(start=event, system=system, time_class=rating_list)


def event_complete(
    *, event: Event, user: Any = None, duplicate_reason: str = "", base_url: str = ""
) -> RatingRun | None:
    """Mark ``event`` complete and rate it (and re-rate every later event) if its turn has come.

    Per-event systems rate it at once. Period systems rate it when its period closes
    (or at once, if the event belongs to a period already closed: a late event).
    Returns the rating run, or None when the event waits for its period.
    ``duplicate_reason``: why its games, already recorded in another event, are rated
    here too (``rules.duplicates``; the completion's form asks), kept with the event.
    Its directors are told by mail (links from ``base_url``, the site's address).
    """
    problem = complete_problem(event)
    if problem:
        raise rules.RecordRefused(problem)

    with transaction.atomic():
        if duplicate_reason.strip():
            event_duplicate_reason_keep(event=event, reason=duplicate_reason, user=user)
        event.status = Event.Status.COMPLETE
        event.save(update_fields=["status"])
        event_rated_tell(event=event, user=user, base_url=base_url)
        rating_list = event_list_of(event)
        if not event.rated or rating_list is None:
            return None
        system = ClubSettings.load().engine(rating_list)
        if system.period_based:
            period = period_for(event, system, rating_list)
            if period is None or not period.is_closed:
                return None
        return ratings_update(
            RerateRequest(start=event, changed=event, user=user, reason=f"{event.name} rated")
        )


#: What a rated event's results changed without a reason are told.
RESULTS_REASON_NEEDED = (
    "Say why: this event is rated, and the reason is kept in the history of each result "
    "changed, with who changed it and when."
)


class ReasonNeeded(Exception):
    """A rated event's results would change and no reason was given: nothing saved."""

    def __str__(self) -> str:
        return RESULTS_REASON_NEEDED


def entries_add(
    *,
    event: Event,
    members: Iterable[Member],
    user: Any = None,
    reason: str = "",
    reason_required: bool = False,
) -> int:
    """Enter ``members`` in ``event`` (those already in it stay as they are); how many were
    new. ``reason``: why (a rated event's players corrected), kept in each entry's history.
    ``reason_required``: a rated event (``event_rerate_needed``) is given no new player
    without a ``reason`` (``ReasonNeeded``, nothing saved); a draft needs none."""
    ids = [m.pk for m in members]
    why = reason_kept(reason) or None
    with transaction.atomic():
        if reason_required and why is None and event_rerate_needed(event=event):
            have = set(event.entries.values_list("member_id", flat=True))
            if set(ids) - have:
                raise ReasonNeeded
        return entries_create(event=event, member_ids=ids, user=user, reason=why)


def entry_remove(*, entry: Entry, user: Any = None, reason: str = "") -> None:
    """Take a player with no games out of an event (entered by mistake): the history keeps
    the entry, who removed it and ``reason``. Refused (``rules.RecordRefused``) while the
    player has games in the event."""
    if problem := entry_with_games_problem(entry):
        raise rules.RecordRefused(problem)
    with transaction.atomic():
        delete_with_history([entry], user=audit_user(user), reason=reason_kept(reason))


#: What entering a game again may change about it (as fields, and as attributes).
GAME_FIELDS = ["round", "board", "white", "black", "result", "colours_known"]
_GAME_VALUES = ["round", "board", "white_id", "black_id", "result", "colours_known"]


def _games_match(old: Sequence[Game], new: Sequence[Game]) -> list[tuple[Game | None, Game]]:
    """Pair each new game with the old one it re-enters (None: a game not there before).

    First the same round and players (either colours), then the same round and board.
    """
    by_players: dict[tuple[int, frozenset[int | None]], list[Game]] = {}
    for game in old:
        by_players.setdefault((game.round, frozenset((game.white_id, game.black_id))), []).append(
            game
        )
    matched: dict[int, Game] = {}
    for index, game in enumerate(new):
        same = by_players.get((game.round, frozenset((game.white_id, game.black_id))))
        if same:
            matched[index] = same.pop(0)
    left = {id(g) for games in by_players.values() for g in games}
    by_board: dict[tuple[int, int | None], Game] = {
        (g.round, g.board): g for g in reversed(old) if id(g) in left and g.board
    }
    for index, game in enumerate(new):
        if index not in matched and (game.round, game.board) in by_board:
            matched[index] = by_board.pop((game.round, game.board))
    return [(matched.get(index), game) for index, game in enumerate(new)]


def games_replace(
    *,
    event: Event,
    games: Sequence[Game],
    rounds: Iterable[int] | None,
    pairs_only: bool = False,
    user: Any = None,
    reason: str = "",
    version: str | None = None,
    duplicate_reason: str = "",
    reason_required: bool = False,
) -> RatingRun | None:
    """Make the games of ``rounds`` (None: every round) ``games``, atomically.

    A game entered again (same round and players, or same round and board) is updated in
    place when something about it changed and left alone when nothing did; games no
    longer there are deleted and new ones created. The audit trail records each change,
    before and after, with ``user``. ``pairs_only``: only games between two players are
    replaced (a round robin's grid); byes and absences stay as they are.

    Every player in them is entered in the event. If anything changed, a rated event (or
    a complete one waiting to be rated) is re-rated from its place in the chain onwards.
    ``reason``: why the officer changed them (a rated event's results corrected), kept
    with each change in the audit trail. Refused (``rules.RecordRefused``, nothing saved):
    an event still to start, a player against themselves or twice in a round, a round the
    event does not have. ``version``: the results as the officer's page showed them
    (``results_version``); if those rounds changed since, ``ResultsChanged`` and nothing
    saved. ``duplicate_reason``: why games already recorded in another event are entered
    here too (``rules.duplicates``), kept with the event. ``reason_required``: a rated
    event's results (``event_rerate_needed``) are not changed without a ``reason``
    (``ReasonNeeded``, nothing saved); a draft's, or a save that changes nothing, need none.
    """
    who = audit_user(user)
    why = reason_kept(reason) or None
    if problem := rules.results_too_early_problem(event):
        raise rules.RecordRefused(problem)
    for game in games:
        if problem := rules.self_play_problem(game.white_id, game.black_id) or rules.round_problem(
            game.round, event.rounds
        ):
            raise rules.RecordRefused(problem)
    with transaction.atomic():
        # One save of an event's results at a time: a second officer saving the same
        # round waits, then finds the first one's games and matches them, not pairs anew.
        Event.objects.select_for_update().filter(pk=event.pk).first()
        if duplicate_reason.strip():
            event_duplicate_reason_keep(event=event, reason=duplicate_reason, user=user)
        if version is not None:
            results_unchanged_check(
                event=event, version=version, rounds=rounds, pairs_only=pairs_only
            )
        old = event.games.order_by("round", "board", "pk")
        if rounds is not None:
            old = old.filter(round__in=list(rounds))
        if pairs_only:
            old = old.exclude(black__isnull=True)
        old_games = list(old)
        created, updated, kept = [], [], set()
        for previous, game in _games_match(old_games, games):
            game.event = event
            if previous is None:
                created.append(game)
                continue
            kept.add(previous.pk)
            if any(getattr(previous, v) != getattr(game, v) for v in _GAME_VALUES):
                for v in _GAME_VALUES:
                    setattr(previous, v, getattr(game, v))
                updated.append(previous)
        gone = [g for g in old_games if g.pk not in kept]
        if (
            reason_required
            and why is None
            and (gone or updated or created)
            and event_rerate_needed(event=event)
        ):
            raise ReasonNeeded
        delete_with_history(gone, user=who, reason=why or "")
        if updated:
            bulk_update_with_history(
                updated, Game, GAME_FIELDS, default_user=who, default_change_reason=why
            )
        if created:
            bulk_create_with_history(created, Game, default_user=who, default_change_reason=why)
        # Each player at most once a round, across the rounds kept and those replaced:
        # refused here rolls the whole save back.
        twice = rules.twice_in_round_problems(
            event.games.values_list("round", "white_id", "black_id"), names=member_names
        )
        if twice:
            raise rules.RecordRefused(twice)
        players = [g.white_id for g in games] + [g.black_id for g in games if g.black_id]
        entries_create(event=event, member_ids=players, user=user, reason=why)
        if (gone or updated or created) and event_rerate_needed(event=event):
            return ratings_update(
                RerateRequest(
                    start=event, changed=event, user=user, reason=f"{event.name}: results changed"
                )
            )
    return None


def event_save(
    *,
    event: Event,
    previous: Position | None,
    changed: Iterable[str] = EVENT_RATING_FIELDS,
    user: Any = None,
    reason: str = "",
) -> RatingRun | None:
    """Save an edited event; a rated one is re-rated from the earlier of its old and new places.

    Only a change to one of the ``EVENT_RATING_FIELDS`` (of the ``changed`` fields)
    re-rates: a renamed event keeps its ratings as they are (``event_changed``, which the
    admin's event form asks too).
    ``reason``: why the officer changed it, kept with the change in the audit trail.
    """
    with transaction.atomic():
        if reason.strip():
            event._change_reason = reason_kept(reason)  # type: ignore[attr-defined]
        event.save()
        return event_changed(
            event=event,
            previous=previous,
            changed=changed,
            user=user,
            reason=f"{event.name}: event changed",
        )


def trf_import(
    *,
    event: Event,
    games: Sequence[tuple[int, int, int | None, str, bool]],
    players: dict[int, Member],
    user: Any = None,
    paid_season: Season | None = None,
) -> Event:
    """Create an imported event with its entries and games in one transaction.

    ``players`` maps the file's starting ranks to members (unsaved ones are created:
    the new members and guests the officer chose, each recorded as brought in by the
    event); ``games`` are (round, white rank, black rank or None, result, colours known);
    ``paid_season``: the new members (not the guests) paid it on the night. Everything
    is in the audit trail, by ``user``.
    """
    who = audit_user(user)
    if games and (problem := rules.results_too_early_problem(event)):
        raise rules.RecordRefused(problem)
    # Members new here have no pk yet: each is known by the object itself.
    twice = rules.twice_in_round_problems(
        (
            (r, id(players[w]), id(players[b]) if b is not None else None)
            for r, w, b, _, _ in games
        ),
        names={id(m): m.name for m in players.values()},
    )
    if twice:
        raise rules.RecordRefused(twice)
    with transaction.atomic():
        for record in (event, *players.values()):
            if record.pk is None and who is not None:
                record._history_user = who  # type: ignore[attr-defined]
        if event.duplicate_reason:
            # The event's history says why its games are recorded twice.
            event._change_reason = reason_kept(  # type: ignore[attr-defined]
                f"games recorded again: {event.duplicate_reason}"
            )
        event.save()
        new = [m for m in players.values() if m.pk is None]
        for member in new:
            member.brought_in_by = event
        if new:
            # In one statement (and their states in one more): a big open brings dozens.
            bulk_create_with_history(new, Member, default_user=who)
            member_states_create(members=new)
            # Past the model layer: the published lists' figures are counted again.
            list_figures_forget()
            if paid_season is not None:
                subscriptions_renew(
                    members=[m for m in new if not m.is_guest],
                    season=paid_season,
                    user=user,
                    reason=PAID_ON_JOINING,
                )
        members = {m.pk: m for m in players.values()}.values()
        bulk_create_with_history(
            [Entry(event=event, member=m) for m in members], Entry, default_user=who
        )
        bulk_create_with_history(
            [
                Game(
                    event=event,
                    round=round_,
                    white=players[white],
                    black=players[black] if black is not None else None,
                    result=result,
                    colours_known=known,
                )
                for round_, white, black, result, known in games
            ],
            Game,
            default_user=who,
        )
    return event
