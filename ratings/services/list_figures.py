"""The published lists' figures: each list's size (its members, and those of them with a
usable rating) and the regions with a published member, kept in one row
(``PublishedListFigures``) so that the list's readers need not count every published
member (some 200 ms at 200,000 members, on every read after any change). The officer's
register's counts (its current members, guests and financial members: ``register_size``)
are kept with them, by the same writes, so that the members page need not count every
member either (136 ms of its 180 on PostgreSQL at 60,000 members).

They are kept exact by every write that moves them, in that write's own transaction:

- a rating run counts them afresh as its last step (``list_figures_keep``);
- a member's or a payment's save or delete moves them by that member's difference
  (``list_figures_before`` and ``list_figures_after``, from ``ratings.signals``): the
  member's share of each list and their region, read by the list's own count among them
  before the write and after it, so that the rule is written once (``published_list_size``);
- each published member's standing (``ListStanding``: their place on the whole list, the
  list's sort keys and what its filters ask: region, date of birth, gender) is kept with
  them, and read only while they hold and say so (``standings``): kept again by the
  worker (``list_figures_refresh``, the rows written by ``list_standings``: the list read
  once, only the rows that moved written,
  the places set by one UPDATE over a window of the table; 0.3-0.6 s at 60,000 members,
  1.9-3.3 s after a full re-rate, never inside a rating run, and never holding the
  figures' row: see below); a member's write moves that member's rows, and where their
  place moves, every place below theirs by that one UPDATE in the write's own transaction
  (a list of up to ``list_standings.PLACES_MOVED_NOW`` usable ratings; a longer one is left to the
  worker); any other count of the figures (a rating run's) leaves them not holding until
  the worker keeps them again;
- any other write that may move them (a season's dates, the club's settings or lists, the
  bulk writes of imports and renewals, a run's states written past the model layer)
  forgets them (``list_figures_forget``), and they are counted afresh once it commits;
  while that count runs (a few hundred ms at 200,000 members), marked in the cache
  (``list_figures_being_counted``), the public's readers are served each page's previous
  copy rather than each counting every published member too (``clubratings.cache``), and
  a reader with no copy of the page (or before the count marks itself, or after it
  failed, until the worker's look) is given the last count's figures, kept beside the
  forgetting's mark (``list_figures_read``), never counting them either.

Each of these takes the row's lock first (on PostgreSQL; SQLite has one writer at a time),
so that a count and a difference never cross: a payment made as a run counts waits for the
count's commit (a moment: the count is the run's last step), and the count waits for the
payment's. A run takes the row only to count, never while it rates: an officer's payment
never waits for a long re-rate.

A save outside any transaction (Django's own saves are not atomic) cannot hold the row
from before the write to after it: it forgets the figures, and they are counted afresh.

The worker writes the standings without the row (``_standings_keep``): an officer's
event completion ended behind 6.7 s of it under load (60,000 members). Every write of
the figures numbers them one more (``generation``), and no write moves the list without
writing them (or forgetting them). So the worker reads the number, writes the standings
(a list at a time, each in its own short transaction: nobody reads them while they do
not hold, so a half-written list is never shown), and only then takes the row, for a
moment: if the number is the one it read, nothing moved the list since it was read, and
the standings are marked holding; else they are left not holding, and written again
(only the rows the write moved) at once or at the next look (every second). On SQLite, with one
writer at a time, an officer's write waits at most for one list's rows being written,
never for the list's read or the other lists.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, DatabaseError, IntegrityError, connections, transaction
from django.db.models import F
from django.utils import timezone

from ..models import Member, PublishedListFigures, register_size, seasons_covering
from ..models.listing import published_list_size, published_regions
from ..models.rating_lists import lists_kept
from . import list_standings

log = logging.getLogger("ratings")

_ROW = 1


@dataclass(frozen=True)
class Share:
    """A member's share of the published lists: ``lists``, by time class, [listed, usable]
    (each 0 or 1); ``regions``, their region (if any), published or not; ``register``,
    of the officer's register's counts (``register_size``: current, guest, financial)."""

    lists: dict[str, list[int]]
    regions: frozenset[str]
    register: tuple[int, int, int] = (0, 0, 0)


def _share(member_id: int, day: dt.date) -> Share:
    lists = {
        tc: list(published_list_size(time_class=tc, day=day, among=[member_id]))
        for tc in lists_kept()
    }
    regions = Member.objects.filter(pk=member_id).exclude(region="").values_list("region")
    return Share(
        lists=lists,
        regions=frozenset(region for (region,) in regions),
        register=register_size(day=day, among=[member_id]),
    )


def _figures(*, lock: bool) -> dict[str, Any] | None:
    rows = PublishedListFigures.objects.filter(pk=_ROW)
    if lock:
        rows = rows.select_for_update()
    return rows.values_list("figures", flat=True).first()


def _write(figures: dict[str, Any] | None) -> None:
    """Keep ``figures``, numbered one more than the last (``generation``): whoever read
    the number before a write can tell that it came."""
    rows = PublishedListFigures.objects.filter(pk=_ROW)
    if rows.update(figures=figures, generation=F("generation") + 1):
        return
    try:
        with transaction.atomic():
            PublishedListFigures.objects.create(pk=_ROW, figures=figures, generation=1)
    except IntegrityError:  # another process made the row meanwhile
        rows.update(figures=figures, generation=F("generation") + 1)


def _generation() -> int | None:
    """The number of the figures' last write (None: never written)."""
    rows = PublishedListFigures.objects.filter(pk=_ROW)
    return rows.values_list("generation", flat=True).first()


def _taken(*, using: str, wait: bool) -> bool:
    """The figures' row taken for this transaction. With ``wait`` false, taking nothing
    while another transaction holds it (PostgreSQL): False."""
    if not wait and connections[using].features.has_select_for_update_skip_locked:
        rows = PublishedListFigures.objects.filter(pk=_ROW)
        held = rows.select_for_update(skip_locked=True).values_list("pk", flat=True)
        return held.first() is not None or not rows.exists()
    _figures(lock=True)
    return True


def _counted(kept: list[str], *, day: dt.date, standings: bool) -> dict[str, Any]:
    """The figures, counted as this transaction sees the published lists on ``day``."""
    return {
        "day": day.isoformat(),
        "lists": {tc: list(published_list_size(time_class=tc, day=day)) for tc in kept},
        "regions": published_regions(day=day),
        "register": list(register_size(day=day)),
        "seasons": _seasons(day),
        "standings": standings,
    }


def _seasons(day: dt.date) -> list[int]:
    return sorted(pk for (pk,) in seasons_covering(day).values_list("pk"))


def _current(figures: dict[str, Any] | None, day: dt.date) -> bool:
    """Whether ``figures`` hold on ``day``: kept that day, or on a day the same seasons
    covered (a member is financial by a season covering the day, so the lists change
    from one day to the next only where a season starts or ends), and no write forgot
    them since (``FORGOTTEN``)."""
    if not figures or FORGOTTEN in figures:
        return False
    if figures.get("day") == day.isoformat():
        return True
    return "seasons" in figures and figures["seasons"] == _seasons(day)


def list_figures_keep(
    *, using: str = DEFAULT_DB_ALIAS, wait: bool = True, standings: bool = False
) -> bool:
    """Count the published lists as this transaction leaves them, and keep their figures:
    a rating run's last step, so that its readers read them rather than every published
    member. Takes the row first: the count sees every write that moved the figures
    before it, and none moves them until it commits. With ``wait`` false, counts nothing
    while another transaction holds the row (PostgreSQL): that write counts them as it
    commits. Without ``standings`` the members' standings no longer hold (a rating run
    moves most places) until the worker keeps them. ``standings``: the worker's
    (``list_figures_refresh``): each member's standing kept again first, without the row
    (``_standings_keep``: the rows that moved, 0.3-0.6 s at 60,000 members, 1.9-3.3 s
    after a full re-rate), then the figures, holding the row only for that moment.
    Whether it kept them."""
    if standings:
        return _standings_keep(using=using)
    with transaction.atomic(using=using):
        if not _taken(using=using, wait=wait):
            return False
        day = timezone.localdate()
        _write(_counted(lists_kept(), day=day, standings=False))
    return True


def list_figures_kept() -> dict[str, Any] | None:
    """The published lists' figures as kept (``list_figures_keep``): ``lists``, each
    list's size by its time class (its members, and those of them with a usable rating),
    and ``regions``, those with a published member. None when a write forgot them, or
    they were kept on a day other seasons covered (``_current``): count them, or read
    ``list_figures_read``."""
    figures = _figures(lock=False)
    return figures if _current(figures, timezone.localdate()) else None


#: The key a write that forgets the figures leaves on them: when it did (the last count's
#: figures stay beside it, ``list_figures_read``).
FORGOTTEN = "forgotten"
#: The most seconds a public reader is given the last count's figures once they stop
#: holding (``list_figures_read``): the forgetting write's own count after it commits, or
#: the worker's look (every second, ``list_figures_refresh``), counts them well within
#: it. Past it, nothing is counting them (no worker running): the reader counts.
LAST_COUNT_SERVED = 60
#: The fewest members on a list (as last counted) whose readers are given the last
#: count's figures: a smaller club's count costs less than its page (a few ms at 10,000),
#: so its readers count, and their pages are exact to the member at once.
LAST_COUNT_FROM = 10_000


def list_figures_read() -> tuple[dict[str, Any] | None, bool]:
    """For a public reader, the figures row read once: the figures as kept and whether
    they hold (as ``list_figures_kept``); else the last count's and False, where they
    stopped holding moments ago (a write forgot them, or a season began or ended at
    midnight) and their count is due any moment (``LAST_COUNT_SERVED``); else (None,
    False): count them.

    The reader given the last count's reads the list's size, its usable ratings and the
    regions from them rather than count every published member (200-530 ms at 200,000)
    while the count that keeps them again runs, as the readers of a page with a previous
    copy are served that meanwhile (``clubratings.cache``). What that reader is given is
    not kept: the next reader's page has the figures counted. The rows themselves are
    read as ever, the publication rule asked of each: only the figures are the last
    count's (the pager's size, the whole list's usable ratings: its last page may end a
    few rows early or late, for those moments). Only for lists of ``LAST_COUNT_FROM``
    members or more."""
    figures = _figures(lock=False)
    if _current(figures, timezone.localdate()):
        return figures, True
    return _last_count(figures), False


def _last_count(figures: dict[str, Any] | None) -> dict[str, Any] | None:
    """``figures``, which do not hold, as the last count's a reader may be given, or None."""
    if not figures:
        return None
    if max((listed for listed, _ in figures["lists"].values()), default=0) < LAST_COUNT_FROM:
        return None
    now = timezone.now()
    if FORGOTTEN in figures:
        since = dt.datetime.fromisoformat(figures[FORGOTTEN])
    else:
        today = timezone.localdate(now)
        yesterday = today - dt.timedelta(days=1)
        if "seasons" not in figures or figures["seasons"] != _seasons(yesterday):
            return None  # out of date since before today: nothing is counting them
        # A season began or ended at midnight.
        since = timezone.make_aware(dt.datetime.combine(today, dt.time()))
    if (now - since).total_seconds() > LAST_COUNT_SERVED:
        return None
    return {**figures, "standings": False}


#: The cache's mark, in every process, of a count of forgotten figures under way (a
#: forgetting write's own count once it commits, the worker's), and the most seconds it
#: stands (a process killed mid-count).
COUNTING_KEY = "published-list-figures-counting"
COUNTING_MARK = 60


@contextmanager
def _counting_marked() -> Iterator[None]:
    """While forgotten figures are counted, say so (``list_figures_being_counted``): the
    public pages' readers meanwhile are served each page's previous copy rather than
    each counting every published member too (``clubratings.cache``)."""
    try:
        cache.set(COUNTING_KEY, True, COUNTING_MARK)
    except Exception:  # a cache that cannot be reached: the readers count, as before
        log.warning("the figures' count under way could not be marked")
    try:
        yield
    finally:
        try:
            cache.delete(COUNTING_KEY)
        except Exception:
            log.warning("the figures' count under way could not be unmarked")


def list_figures_being_counted() -> bool:
    """Whether forgotten figures are being counted now, by whichever process."""
    try:
        return bool(cache.get(COUNTING_KEY))
    except Exception:
        return False


def list_figures_refresh() -> bool:
    """Count the figures if they are not current: kept before a season began or ended
    (its subscriptions lapse or count at midnight), or forgotten by a write whose count
    after it failed. The worker's look every second, so that the list's readers that
    morning find them counted rather than each counting them; and each member's standing
    written where a rating run (or anything that counted the figures) left it not holding,
    so the list's pages read their own rows again. Whether it counted."""
    kept = list_figures_kept()
    if kept is not None and kept.get("standings"):
        return False
    if kept is None:
        with _counting_marked():
            return list_figures_keep(wait=False, standings=True)
    return list_figures_keep(wait=False, standings=True)


def _count_after_commit() -> None:
    try:
        with _counting_marked():
            list_figures_keep()
    except DatabaseError:  # SQLite busy with a long writer: the readers count meanwhile
        log.warning("the published lists' figures were not counted after a write")


def _count_once_committed(using: str) -> None:
    connection = connections[using]
    if not connection.in_atomic_block:
        _count_after_commit()
    elif not any(entry[1] is _count_after_commit for entry in connection.run_on_commit):
        transaction.on_commit(_count_after_commit, using=using)


#: Set while a rating run makes the change it brings (``list_figures_counted_by_the_run``).
_COUNTED_BY_THE_RUN: ContextVar[bool] = ContextVar("counted_by_the_run", default=False)


@contextmanager
def list_figures_counted_by_the_run() -> Iterator[None]:
    """Writes a rating run makes in its own transaction before it rates (a background
    system switch's settings, a list's keeping) leave the figures to the run's count, its
    last step in that transaction: forgetting them would take their row at the run's start
    and hold it while it rates, and every payment meanwhile would wait for the run."""
    token = _COUNTED_BY_THE_RUN.set(True)
    try:
        yield
    finally:
        _COUNTED_BY_THE_RUN.reset(token)


def list_figures_forget(*, using: str = DEFAULT_DB_ALIAS) -> None:
    """A write that may move the figures in a way nobody followed: forget them, and count
    them afresh once this transaction commits (its readers count meanwhile)."""
    if _COUNTED_BY_THE_RUN.get():
        return
    with transaction.atomic(using=using):
        _write(_forgotten(_figures(lock=True)))
    _count_once_committed(using)


def _forgotten(figures: dict[str, Any] | None) -> dict[str, Any] | None:
    """``figures`` marked forgotten now, the last count's kept beside the mark for the
    moments until they are counted (``list_figures_read``); already forgotten, still when
    they were first (how long they have not held)."""
    if not figures:
        return None
    forgotten = figures.get(FORGOTTEN) or timezone.now().isoformat()
    return {**figures, FORGOTTEN: forgotten, "standings": False}


# -- a member's difference, around each save or delete that may move it -------------------


def list_figures_before(
    *, member_ids: Iterable[int], using: str = DEFAULT_DB_ALIAS
) -> dict[int, Share] | None:
    """A write that may move these members' places on the published lists, and no one
    else's, is about to be made: their shares as they stand, for ``list_figures_after``
    (None: there are no figures to move, or nothing can hold them until it is made)."""
    if not connections[using].in_atomic_block:
        return None  # ``list_figures_after`` forgets them
    figures = _figures(lock=True)
    day = timezone.localdate()
    if not _current(figures, day):
        # Kept under other seasons, or forgotten by a write whose count never came: counted
        # once this write commits, for its readers.
        _count_once_committed(using)
        return None
    return {pk: _share(pk, day) for pk in member_ids}


def list_figures_after(*, before: dict[int, Share] | None, using: str = DEFAULT_DB_ALIAS) -> None:
    """The write ``list_figures_before`` read the shares for is made: move the figures by
    each member's difference."""
    if not connections[using].in_atomic_block:
        list_figures_forget(using=using)
        return
    if not before:
        return
    figures = _figures(lock=True)
    day = timezone.localdate()
    if not _current(figures, day):
        return  # forgotten meanwhile, or counted under other seasons
    assert figures is not None
    moved: set[str] = set()
    if figures.get("standings") and not all(
        [list_standings.standing_kept_again(pk, day=day, using=using) for pk in before]
    ):
        # A member joined the list, left it or moved on it (their rows written again,
        # unplaced): every place below theirs moves, set again here by one UPDATE over
        # the table's window where few move (``list_standings.standings_placed_now``); else left to
        # the worker's next look (``list_figures_refresh``).
        figures["standings"] = list_standings.standings_placed_now(using=using)
    for pk, was in before.items():
        now = _share(pk, day)
        for tc, counts in figures["lists"].items():
            a, b = was.lists.get(tc, [0, 0]), now.lists.get(tc, [0, 0])
            figures["lists"][tc] = [n - x + y for n, x, y in zip(counts, a, b, strict=True)]
        moved |= was.regions | now.regions
        if "register" in figures:  # kept before the register's counts were
            counts = zip(figures["register"], was.register, now.register, strict=True)
            figures["register"] = [n - x + y for n, x, y in counts]
    if moved:
        kept = set(figures["regions"]) - moved
        figures["regions"] = sorted(kept | set(published_regions(day, of=moved)))
    _write(figures)


# -- each published member's standing, kept with the figures (``list_standings``) ------

#: How many times one look of the worker writes the standings again when writes moved
#: the list as it wrote them (each time after the first writes only what they moved).
STANDINGS_TRIES = 3


def _standings_keep(*, using: str) -> bool:
    """Each member's standing kept again and marked holding with the figures, holding
    the figures' row only to mark them (see the module's docstring): an officer's rating
    run, a payment, anything that keeps the figures never waits for the rows' writing.
    Whether they were marked holding."""
    with list_standings.the_one_standings_writer(using) as alone:
        if not alone:
            return False  # another worker writes them
        for _ in range(STANDINGS_TRIES):
            day = timezone.localdate()
            generation = _generation()
            kept = lists_kept()
            list_standings.standings_write(kept, day=day, using=using)
            if _standings_mark(kept, generation=generation, day=day, using=using):
                return True
    return False


def _standings_mark(kept: list[str], *, generation: int | None, day: dt.date, using: str) -> bool:
    """The standings just written from the lists of ``day`` marked holding with the
    figures, if no write of the figures came since their number was ``generation`` (read
    before the lists were): else a write moved the list meanwhile, and they do not hold.
    Takes the figures' row only if free at once (PostgreSQL): whoever holds it writes
    the figures. Whether they were marked."""
    with transaction.atomic(using=using):
        if not _taken(using=using, wait=False) or _generation() != generation:
            return False
        figures = _figures(lock=False)
        if _current(figures, day) and figures is not None and set(figures["lists"]) == set(kept):
            # The figures hold (nothing moved them since): no count needed.
            _write({**figures, "standings": True})
        else:
            _write(_counted(kept, day=day, standings=True))
    return True
