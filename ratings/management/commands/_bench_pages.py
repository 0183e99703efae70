"""bench's page figures: each page as a reader gets it (rendered, kept, after a payment,
with the lists' figures forgotten), timed as ``bench`` prints them (docs/performance.md).
Apart from the command so that its rating figures and its page figures read each alone."""

from __future__ import annotations

import re
import statistics
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.core.management.base import CommandError
from django.db.models import Count
from django.urls import reverse
from django.utils import timezone

from ratings import services
from ratings.models import Game, Member, PublishedListFigures, Season, Subscription
from ratings.services import list_figures
from ratings.services.accounts import officer_create


class PageTimings:
    """The page figures of ``bench.Bench``, which gives ``client`` (a test client),
    ``repeat`` (GETs a figure), ``warm_up`` (one GET untimed first), ``say`` and ``figure``."""

    client: Any
    repeat: int
    warm_up: bool

    def say(self, message: str) -> None:
        raise NotImplementedError

    def figure(self, name: str, value: float, unit: str) -> None:
        raise NotImplementedError

    def get(self, url: str) -> tuple[float, bytes]:
        """Seconds to GET ``url`` and read the whole body (a streamed one to its end)."""
        clock = time.perf_counter()
        response = self.client.get(url)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        seconds = time.perf_counter() - clock
        if response.status_code != 200:
            raise CommandError(f"GET {url}: status {response.status_code}")
        return seconds, body

    def timed(
        self, url: str, *, kept: bool = False, before: Callable[[], None] | None = None
    ) -> tuple[float, bytes]:
        """The median of ``--repeat`` GETs of ``url``, and the last body, after one GET
        not timed: a serving process has its templates compiled and its database pages
        cached, where the bench has just re-rated a million games. Each timed GET renders
        the page, as for the first reader after a rating run: no kept copy answers (the
        cache is emptied before it), and the run's own count of the lists stands
        (``services.list_figures``). ``before``: a change made before each GET (a
        payment, say), as for the first reader after it. ``kept``: the copy the cache
        keeps once the page is rendered, as every later reader gets it. ``warm_up``
        False (``--no-warm-up``): no GET untimed."""
        if self.warm_up:
            self.get(url)
        times, body = [], b""
        for _ in range(self.repeat):
            if before is not None:
                before()
            elif not kept:
                cache.clear()
            seconds, body = self.get(url)
            times.append(seconds)
        return statistics.median(times), body

    def payment(self) -> Callable[[], None]:
        """A payment for this season made, or taken back, in turn, as an officer does
        (``services``): the public pages' version moves, and the lists' figures move by
        the one member. Each is timed into ``self.payments``."""
        season = Season.for_day(timezone.localdate())
        member = Member.objects.active().exclude(subscriptions__season=season).first()
        if member is None:
            raise CommandError("every member has paid for this season: no payment to make")
        self.payments: list[float] = []

        def pay() -> None:
            clock = time.perf_counter()
            paid = Subscription.objects.filter(member=member, season=season).first()
            if paid is None:
                services.subscription_record(member=member, season=season)
            else:
                services.subscription_remove(subscription=paid)
            self.payments.append(time.perf_counter() - clock)

        return pay

    def forgotten(self) -> None:
        """The lists' figures forgotten a moment ago and not yet counted again, the public
        pages' version moved: as the first reader after a write nobody follows member by
        member (a season's dates, an import) finds them before its count marks itself
        under way, or after that count failed, before the worker's next look."""
        row = PublishedListFigures.objects.get()
        figures = {**(row.figures or {}), list_figures.FORGOTTEN: timezone.now().isoformat()}
        PublishedListFigures.objects.update(figures=figures)
        services.public_pages_changed()

    def forgotten_while_counted(self) -> None:
        """The lists' figures forgotten, as ``forgotten``, and their count under way (the
        forgetting write's own once it commits, ``services.list_figures``)."""
        self.forgotten()
        cache.set(list_figures.COUNTING_KEY, True, list_figures.COUNTING_MARK)

    def pages(self) -> None:
        self.client.logout()
        listed = reverse("ratings:list")
        self.say(f"Pages, {self.repeat} GETs each, rendered...")
        # Each member's standing written, as the worker does at its next look after a run.
        clock = time.perf_counter()
        services.list_figures_refresh()
        self.figure("list_standings_write_ms", (time.perf_counter() - clock) * 1000, "ms")
        kept = services.list_figures_kept()
        self.say(f"  the lists' figures as the last run kept them: {kept or 'none, counted'}")
        seconds, body = self.timed(listed)
        self.figure("list_page_ms", seconds * 1000, "ms")
        seconds, _ = self.timed(listed, kept=True)
        self.figure("list_page_cached_ms", seconds * 1000, "ms")
        pages = [int(n) for n in re.findall(rb"[?&;]page=(\d+)", body)]
        last = max(pages, default=1)
        self.say(f"  the list has {last} pages")
        seconds, _ = self.timed(f"{listed}?page={last}")
        self.figure("list_last_page_ms", seconds * 1000, "ms")
        seconds, _ = self.timed(listed, before=self.payment())
        self.figure("list_page_after_payment_ms", seconds * 1000, "ms")
        self.figure("payment_ms", statistics.median(self.payments) * 1000, "ms")
        # The payments put members on the list and off it: the worker's next look writes
        # the standings again, as here.
        services.list_figures_refresh()
        self.live_list()
        # Last of the list's figures: it leaves them to be counted.
        seconds, _ = self.timed(listed, before=self.forgotten)
        self.figure("list_page_recounted_ms", seconds * 1000, "ms")
        clock = time.perf_counter()
        services.list_figures_keep()
        self.figure("list_figures_count_ms", (time.perf_counter() - clock) * 1000, "ms")
        # The same first reader while the write that forgot them counts them (its own
        # count once it commits, or the worker's): served the page's previous copy.
        seconds, _ = self.timed(listed, before=self.forgotten_while_counted)
        self.figure("list_page_while_counted_ms", seconds * 1000, "ms")
        cache.delete(list_figures.COUNTING_KEY)
        services.list_figures_keep()
        seconds, body = self.timed(f"{listed}?_export=csv")
        self.say(f"  CSV: {len(body.splitlines())} lines")
        self.figure("list_csv_s", seconds, "s")
        number = self.busiest_member()
        seconds, _ = self.timed(reverse("ratings:member", args=[number]))
        self.figure("member_page_ms", seconds * 1000, "ms")
        seconds, _ = self.timed(reverse("ratings:calculator"))
        self.figure("calculator_ms", seconds * 1000, "ms")
        self.officer_members()

    #: The officer's members page as they read it: the first page, a membership filter
    #: (its counts are kept with the list's figures), a name search.
    OFFICER_MEMBERS = {"": "", "arrears": "status=arrears", "search": "q=smith"}

    def officer_members(self) -> None:
        """The officer's members page (``pages.register``), signed in as an officer: the
        page of a club of any size an officer opens most."""
        officer = officer_create(username="bench-officer", password=None)
        self.client.force_login(officer)
        members = reverse("ratings:officer-members")
        for name, query in self.OFFICER_MEMBERS.items():
            seconds, _ = self.timed(f"{members}?{query}" if query else members)
            self.figure(f"officer_members{'_' + name if name else ''}_ms", seconds * 1000, "ms")
        # With the figures (the register's counts among them) forgotten: counted.
        seconds, _ = self.timed(members, before=self.forgotten)
        self.figure("officer_members_recounted_ms", seconds * 1000, "ms")
        services.list_figures_keep()
        self.client.logout()

    #: The live list's columns a reader sorts by, each way (``RatingListTable``).
    LIVE_SORTS = ("rank", "name", "rating", "games", "last_change", "region", "last_played")

    def live_list(self) -> None:
        """The live list as readers filter and sort it: by a region, juniors, women, each
        column each way, and with the lists' figures forgotten (its first reader after a
        write nobody follows member by member counts them)."""
        live = reverse("ratings:live-list")
        region = (
            Member.objects.exclude(region="").order_by().values_list("region", flat=True).first()
        )
        queries = {"region": f"region={region}", "juniors": "age=U16", "women": "women=on"}
        for name, query in queries.items():
            seconds, _ = self.timed(f"{live}?{query}")
            self.figure(f"live_{name}_ms", seconds * 1000, "ms")
        for column in self.LIVE_SORTS:
            for way in ("", "-"):
                seconds, _ = self.timed(f"{live}?sort={way}{column}")
                name = f"live_sort_{'desc_' if way else ''}{column}_ms"
                self.figure(name, seconds * 1000, "ms")
        seconds, _ = self.timed(live, before=self.forgotten)
        self.figure("live_recounted_ms", seconds * 1000, "ms")
        services.list_figures_keep()

    def busiest_member(self) -> str:
        games: Counter[int] = Counter()
        for side in ("white_id", "black_id"):
            rows = Game.objects.exclude(**{side: None}).values_list(side).annotate(n=Count("pk"))
            games.update(dict(rows.order_by()))
        active = set(Member.objects.active().values_list("pk", flat=True))
        pk, count = next((pk, n) for pk, n in games.most_common() if pk in active)
        member = Member.objects.get(pk=pk)
        self.say(f"  the member with most games: {member} ({member.member_number}), {count}")
        return member.member_number
