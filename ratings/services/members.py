"""Members: saving their starting details, and merging the records of one person."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import CharField, Count, F, Field, Func, Q, Value
from django.utils import timezone
from simple_history.utils import bulk_update_with_history

from ..models import (
    Entry,
    Game,
    Member,
    MemberMerge,
    RatingChange,
    RatingRun,
    RatingState,
    Subscription,
)
from ..rules.people import Person, PossibleDuplicate, across, possible_duplicates
from ..words.counts import count_phrase
from .audit import reason_kept
from .chain import Position, rating_key
from .corrections import MEMBER_RATING_FIELDS, member_changed, members_first_event
from .member_states import member_states_write
from .rerate import RerateRequest
from .runs import ratings_update, run_logged


def member_save(
    *,
    member: Member,
    changed: Iterable[str],
    user: Any = None,
    reason: str = "",
) -> RatingRun | None:
    """Save an edited member; a change the engine reads (``changed`` fields) re-rates them.

    The chain restarts at ``member_rerate_start``; a member yet to play is rewritten
    alone.
    ``reason``: why the officer changed them, kept with the change in the audit trail.
    """
    with transaction.atomic():
        if reason.strip():
            member._change_reason = reason_kept(reason)  # type: ignore[attr-defined]
        member.save()
        return member_changed(
            member=member, changed=changed, user=user, reason=f"{member}: starting details changed"
        )


class MergeRefused(ValueError):
    """Two member records cannot be merged; the message says why, for the officer."""


def merge_problem(members: Sequence[Member]) -> str | None:
    """Why these records of one person cannot be merged, or None."""
    pks = [m.pk for m in members]
    if len(set(pks)) < 2:
        return "Choose two different members to merge."
    clash = (
        Game.objects.filter(white__in=pks, black__in=pks)
        .select_related("event", "white", "black")
        .first()
    )
    if clash is not None:
        return (
            f"{clash.white} and {clash.black} played each other ({clash.event}, round "
            f"{clash.round}): merging them would make a player play themselves. "
            "Correct that game first."
        )
    return None


#: Fields a duplicate fills in a merge when the record kept has them blank.
MERGE_FILLED_FIELDS = ("fide_id", "title", "born")


def merge_fills(*, sources: Sequence[Member], target: Member) -> dict[str, tuple[Member, Any]]:
    """What merging copies into ``target``: each blank of it a duplicate has, first one first.

    The record kept keeps its own name, number and every field it has; only its blank
    FIDE id, title and date of birth are filled from the duplicates, and a rating brought
    in (with its games) when it brought none.
    """
    fills: dict[str, tuple[Member, Any]] = {}
    for field in MERGE_FILLED_FIELDS:
        if getattr(target, field) in (None, ""):
            for source in sources:
                value = getattr(source, field)
                if value not in (None, ""):
                    fills[field] = (source, value)
                    break
    # A rating brought in (with its games, status and category, as one) is kept when
    # the record kept brought none: otherwise the merge would start the player afresh.
    if target.initial_rating is None:
        bringer = next((s for s in sources if s.initial_rating is not None), None)
        if bringer is not None:
            for field in BROUGHT_IN_FIELDS:
                fills[field] = (bringer, getattr(bringer, field))
    return fills


#: A rating brought in from elsewhere: copied by a merge together or not at all.
BROUGHT_IN_FIELDS = (
    "initial_rating",
    "initial_games",
    "brought_in",
)


def merge_rerate_start(*, sources: Sequence[Member], target: Member) -> Position | None:
    """Where merging ``sources`` into ``target`` restarts the chain (None: nothing to re-rate).

    From the duplicates' first event; from the kept record's own first event if the merge
    fills one of its fields the engine reads (title, date of birth).
    """
    keys = []
    first = members_first_event(member_ids=[m.pk for m in sources])
    if first is not None:
        keys.append(rating_key(first))
    if MEMBER_RATING_FIELDS & set(merge_fills(sources=sources, target=target)):
        own = members_first_event(member_ids=[target.pk])
        if own is not None:
            keys.append(rating_key(own))
    return min(keys) if keys else None


def member_merge(*, source: Member, target: Member, user: Any = None) -> RatingRun | None:
    """Merge the duplicate ``source`` into ``target`` and re-rate from its first event."""
    return members_merge(sources=[source], target=target, user=user)


def members_merge(
    *, sources: Sequence[Member], target: Member, user: Any = None
) -> RatingRun | None:
    """Merge the duplicates ``sources`` into ``target``; re-rate once, from the first event.

    Every game (as white or black), entry and subscription moves to ``target``; an
    entry or subscription ``target`` already has is dropped rather than doubled. The
    duplicates stay on file as merged_into=target, so old links still resolve. The
    kept record's blank FIDE id, title and date of birth are filled from the duplicates
    (``merge_fills``). Both sides' audit trails say what was merged.
    """
    if target.merged_into_id is not None:
        raise MergeRefused(f"{target} was itself merged into another record; keep that one.")
    problem = merge_problem([target, *sources])
    if problem:
        raise MergeRefused(problem)
    ids = [m.pk for m in sources]
    who = user if getattr(user, "is_authenticated", False) else None
    with transaction.atomic():
        start = merge_rerate_start(sources=sources, target=target)
        fills = merge_fills(sources=sources, target=target)
        for source in sources:
            why = (
                f"Merged {source} ({source.member_number}) into {target} ({target.member_number})"
            )
            # What moves, kept so that the merge can be undone (``member_merge_undo``).
            moved: dict[str, Any] = {
                "filled": {
                    f: _plain(getattr(target, f)) for f, (m, _) in fills.items() if m == source
                }
            }
            # Moved row by row with history, so the audit trail shows every game that moved.
            games = list(Game.objects.filter(Q(white=source) | Q(black=source)))
            moved["games_white"] = [g.pk for g in games if g.white_id == source.pk]
            moved["games_black"] = [g.pk for g in games if g.black_id == source.pk]
            for game in games:
                if game.white_id == source.pk:
                    game.white = target
                if game.black_id == source.pk:
                    game.black = target
            bulk_update_with_history(
                games, Game, ["white", "black"], default_user=who, default_change_reason=why
            )
            target_events = set(
                Entry.objects.filter(member=target).values_list("event_id", flat=True)
            )
            moved["entries"], moved["entries_dropped"] = _rows_move(
                Entry.objects.filter(member=source), "event_id", target_events, target, why
            )
            target_seasons = set(
                Subscription.objects.filter(member=target).values_list("season_id", flat=True)
            )
            moved["subscriptions"], moved["subscriptions_dropped"] = _rows_move(
                Subscription.objects.filter(member=source),
                "season_id",
                target_seasons,
                target,
                why,
            )
            moved["earlier"] = []
            for earlier in Member.objects.filter(merged_into=source):
                moved["earlier"].append(earlier.pk)
                earlier.merged_into = target
                earlier._change_reason = why  # type: ignore[attr-defined]
                earlier.save(update_fields=["merged_into"])
            source.merged_into = target
            source._change_reason = why  # type: ignore[attr-defined]
            source.save(update_fields=["merged_into"])
            MemberMerge.objects.create(kept=target, removed=source, moved=moved, merged_by=who)
        # The kept record's own audit trail says what was merged into it (and what filled
        # its blanks), in one row.
        for field, (_, value) in fills.items():
            setattr(target, field, value)
        merged = ", ".join(f"{m.member_number} ({m.name})" for m in sources)
        reason = f"merged {merged} into this record"
        if fills:
            copied = ", ".join(
                f"{getattr(Member._meta.get_field(f), 'verbose_name', f)} from {m.member_number}"
                for f, (m, _) in fills.items()
            )
            reason += f"; copied {copied}"
        target._change_reason = reason[:100]  # type: ignore[attr-defined]
        target.save()
        # The duplicates' ratings go; the kept record's come from the games, re-rated.
        RatingState.objects.filter(member__in=ids).delete()
        RatingChange.objects.filter(member__in=ids).delete()
        member_states_write(member_ids=[target.pk])
        # Both numbers: two records of a duplicate usually share a name ("Ben Carter
        # (R1020) merged into Ben Carter (R1003)").
        names = ", ".join(f"{m.name} ({m.member_number})" for m in sources)
        said = f"{names} merged into {target.name} ({target.member_number})"
        if start is None:
            # No rated game moved, so nothing is re-rated: the log has the merge all the same.
            run_logged(reason=said, user=user)
            return None
        return ratings_update(
            RerateRequest(start=start, members=[target.pk], user=user, reason=said)
        )


def _rows_move(
    rows: Iterable[Any], key: str, taken: set[int], target: Member, why: str
) -> tuple[list[int], list[dict[str, Any]]]:
    """A merged record's entries (or subscriptions) moved to ``target``, one by one so the
    audit trail keeps each with ``why``; one ``target`` already has (same ``key``) goes.
    Returns the ids moved and the fields of those that went (an undo makes them again)."""
    moved, dropped = [], []
    for row in rows:
        row._change_reason = why
        if getattr(row, key) in taken:
            dropped.append(
                {
                    f.attname: _plain(getattr(row, f.attname))
                    for f in row._meta.concrete_fields
                    if f.attname not in ("id", "member_id")
                }
            )
            row.delete()
        else:
            moved.append(row.pk)
            row.member = target
            row.save(update_fields=["member"])
    return moved, dropped


def _plain(value: Any) -> Any:
    """A field's value as JSON keeps it (a date as ISO text, an amount as text)."""
    if isinstance(value, dt.date | Decimal):
        return str(value)
    return value


def possible_duplicates_find(
    *, coming: Sequence[Person], matched: Iterable[int] = ()
) -> list[PossibleDuplicate]:
    """The records coming in (a file's rows, ``rules.people.Person``) that may be one person
    with each other or with a current member (``rules.people``), in one query: only the
    members sharing a name key or a FIDE id with one coming in are read. ``matched`` are
    the members the file's rows already are (a members file's numbers, a tournament
    file's matched players): the same record, not a duplicate of itself."""
    coming = list(coming)
    keys = {p.key for p in coming if p.key}
    ids = {p.fide_id.lstrip("0") for p in coming if p.fide_id.strip().isdigit()} - {""}
    if not keys and not ids:
        return []
    rows = (
        Member.objects.active()
        # "0123" and "123" are one id: compared without leading zeros, in one IN list (a
        # condition per id overflowed SQLite's expression depth past a thousand ids).
        .annotate(
            bare_fide_id=Func(F("fide_id"), Value("0"), function="LTRIM", output_field=CharField())
        )
        .filter(Q(name_key__in=keys) | Q(bare_fide_id__in=ids))
        .exclude(pk__in=list(matched))
        .values_list("pk", "name", "born", "fide_id", "member_number")
    )
    recorded = [
        Person(ref=pk, name=name, born=born, fide_id=fide_id, where=f"member {number}")
        for pk, name, born, fide_id, number in rows
    ]
    return possible_duplicates(coming) + across(coming, recorded)


#: The names held twice read at a time by ``members_possible_duplicates`` when it wants a few.
NAMES_A_BATCH = 200


def members_possible_duplicates(*, most: int | None = None) -> list[PossibleDuplicate]:
    """The current members who may be one person (``rules.people``), in the order of
    their names, for the officer's members page: the names held twice, then those
    members. ``most``: the page shows that many; the names held twice are read in their
    order a batch at a time until more than ``most`` pairs are found (``most + 1`` pairs
    at most: one more says there are more), so that a club of thousands of namesakes is
    not read whole for a page's hundred.

    Pairs of one FIDE id are of one name here: two current members never hold one id
    (``fide_id_one_member``)."""
    held_twice = (
        Member.objects.in_order()
        .exclude(name_key="")
        .values("name_key")
        .annotate(held=Count("pk"))
        .filter(held__gt=1)
        .order_by("name_key")
        .values_list("name_key", flat=True)
    )
    found: list[PossibleDuplicate] = []
    after: str | None = None
    while True:
        names = held_twice if after is None else held_twice.filter(name_key__gt=after)
        keys = list(names) if most is None else list(names[:NAMES_A_BATCH])
        if not keys:
            break
        rows = (
            Member.objects.in_order()
            .filter(name_key__in=keys)
            .order_by("name_key", "member_number")
            .values_list("pk", "name", "born", "fide_id", "member_number", "name_key")
        )
        found += possible_duplicates(
            Person(ref=pk, name=name, born=born, fide_id=fide_id, where=number, known_key=key)
            for pk, name, born, fide_id, number, key in rows
        )
        if most is None or len(found) > most or len(keys) < NAMES_A_BATCH:
            break
        after = keys[-1]
    return found if most is None else found[: most + 1]


class UndoRefused(ValueError):
    """A merge that cannot be undone as things stand; the message says why."""


def member_merge_undo(*, merge: MemberMerge, user: Any = None) -> RatingRun | None:
    """Undo ``merge``: the duplicate is a member again with the games, entries and
    subscriptions the merge moved (those dropped as doubles made again), the earlier
    duplicates it held point at it again, the record kept's blanks the merge filled are
    blank again; both are re-rated from the first event the merge re-rated.

    What changed since is respected: a game since deleted or given to another player
    stays as it is (only games still the kept record's go back)."""
    who = user if getattr(user, "is_authenticated", False) else None
    with transaction.atomic():
        # The merge's row locked and read again: an undo posted twice at once (a double
        # click) waits here for the first, then finds it undone and is told so.
        merge = (
            MemberMerge.objects.select_for_update(of=("self",))
            .select_related("kept", "removed")
            .get(pk=merge.pk)
        )
        kept, removed = merge.kept, merge.removed
        if merge.undone_at is not None:
            raise UndoRefused(
                f"This merge was undone already "
                f"({timezone.localtime(merge.undone_at):%d %b %Y, %H:%M}): nothing was changed."
            )
        if removed.merged_into_id != kept.pk:
            raise UndoRefused(
                f"{removed} ({removed.member_number}) is no longer merged into {kept}."
            )
        if kept.merged_into_id is not None:
            raise UndoRefused(
                f"{kept} ({kept.member_number}) was itself merged into another record since: "
                "undo that merge first."
            )
        moved = merge.moved
        why = (
            f"Merge of {removed} ({removed.member_number}) into {kept} ({kept.member_number}) "
            "undone"
        )
        # The record kept's blanks first: a FIDE id filled from the duplicate is held by
        # one member at a time.
        filled = moved.get("filled", {})
        restored = []
        for field, before in filled.items():
            if getattr(kept, field) == getattr(removed, field):  # not changed since
                model_field = Member._meta.get_field(field)
                # Only the member's own columns are filled by a merge, never a relation.
                assert isinstance(model_field, Field)
                setattr(kept, field, model_field.to_python(before))
                restored.append(field)
        if restored:
            kept._change_reason = why[:100]  # type: ignore[attr-defined]
            kept.save(update_fields=restored)
        removed.merged_into = None
        removed._change_reason = why[:100]  # type: ignore[attr-defined]
        removed.save(update_fields=["merged_into"])
        for earlier in Member.objects.filter(pk__in=moved.get("earlier", []), merged_into=kept):
            earlier.merged_into = removed
            earlier._change_reason = why[:100]  # type: ignore[attr-defined]
            earlier.save(update_fields=["merged_into"])
        white, black = set(moved.get("games_white", [])), set(moved.get("games_black", []))
        games = list(Game.objects.filter(pk__in=white | black))
        back = []
        for game in games:
            if game.pk in white and game.white_id == kept.pk:
                game.white = removed
            if game.pk in black and game.black_id == kept.pk:
                game.black = removed
            back.append(game)
        bulk_update_with_history(
            back, Game, ["white", "black"], default_user=who, default_change_reason=why
        )
        _rows_back(Entry, moved.get("entries", []), moved.get("entries_dropped", []), merge, why)
        _rows_back(
            Subscription,
            moved.get("subscriptions", []),
            moved.get("subscriptions_dropped", []),
            merge,
            why,
        )
        merge.undone_at = timezone.now()
        merge.undone_by = who
        merge.save(update_fields=["undone_at", "undone_by"])
        member_states_write(member_ids=[kept.pk, removed.pk])
        keys = []
        if (first := members_first_event(member_ids=[removed.pk])) is not None:
            keys.append(rating_key(first))
        if MEMBER_RATING_FIELDS & set(restored) and (
            own := members_first_event(member_ids=[kept.pk])
        ):
            keys.append(rating_key(own))
        if not keys:
            return None
        return ratings_update(
            RerateRequest(
                start=min(keys),
                members=[kept.pk, removed.pk],
                user=user,
                reason=f"{removed.name} ({removed.member_number}) taken back out of "
                f"{kept.name} ({kept.member_number}): merge undone",
            )
        )


def _rows_back(
    model: Any, ids: list[int], dropped: list[dict[str, Any]], merge: Any, why: str
) -> None:
    """Entries (or subscriptions) a merge moved, back to the duplicate (those still the
    kept record's), and those it dropped made again for the duplicate (unless made since)."""
    for row in model.objects.filter(pk__in=ids, member=merge.kept):
        row.member = merge.removed
        row._change_reason = why[:100]
        row.save(update_fields=["member"])
    for fields in dropped:
        values = {
            name: model._meta.get_field(name.removesuffix("_id")).to_python(value)
            if not name.endswith("_id")
            else value
            for name, value in fields.items()
        }
        key = {k: v for k, v in values.items() if k in ("event_id", "season_id")}
        if model.objects.filter(member=merge.removed, **key).exists():
            continue
        row = model(member=merge.removed, **values)
        row._change_reason = why[:100]
        row.save()


def member_merges_undoable(*, member: Member) -> list[MemberMerge]:
    """The merges into ``member`` not undone, newest first, each with ``counts``: what
    undoing it gives back, in words ("4 games, 2 entries, 1 payment")."""
    merges = list(
        MemberMerge.objects.filter(kept=member, undone_at__isnull=True).select_related(
            "removed", "merged_by"
        )
    )
    for merge in merges:
        moved = merge.moved
        games = len(set(moved.get("games_white", [])) | set(moved.get("games_black", [])))
        entries = len(moved.get("entries", [])) + len(moved.get("entries_dropped", []))
        payments = len(moved.get("subscriptions", [])) + len(
            moved.get("subscriptions_dropped", [])
        )
        merge.counts = (  # type: ignore[attr-defined]
            f"{count_phrase(games, 'game')}, {count_phrase(entries, 'entry', 'entries')}, "
            f"{count_phrase(payments, 'payment')}"
        )
    return merges
