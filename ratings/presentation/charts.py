"""Charts drawn on the server as inline SVG: no JavaScript, nothing fetched, prints as drawn."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from ..words.counts import count_phrase


@dataclass(frozen=True)
class Point:
    day: dt.date
    rating: float
    label: str  # what the point is: the event's name


class PeriodChange(Protocol):
    """What ``period_points`` reads of a saved rating change (a RatingChange)."""

    period: str
    before: float | None
    after: float | None
    display_before: str

    @property
    def event(self) -> Any: ...  # its start_date, end_date and name


def day_before(event: Any) -> dt.date:
    """Where the rating a member brought to ``event`` is drawn: the day before it starts,
    so a one-night event's before and after are two points, not one drawn twice."""
    return event.start_date - dt.timedelta(days=1)


def period_points(changes: Sequence[PeriodChange], named: Callable[[str], str]) -> list[Point]:
    """One point per rating period, from a member's changes in rating order.

    Each change of a period carries the whole period's before and after, so the period
    is one point: its rating after, dated at the member's last event of the period (and,
    first, the rating the member brought to their first period, if they had one).
    ``named`` gives a period's name from its label: the label is a key, not words.
    """
    periods: dict[str, list[PeriodChange]] = {}
    for change in changes:
        periods.setdefault(change.period or f"event {change.event.pk}", []).append(change)
    points: list[Point] = []
    for number, (key, group) in enumerate(periods.items()):
        first, last = group[0], group[-1]
        period = named(key) if first.period else key
        if number == 0 and first.before is not None and first.display_before:
            points.append(Point(day_before(first.event), first.before, f"before {period}"))
        if last.after is None:
            continue
        names = ", ".join(dict.fromkeys(c.event.name for c in group))
        points.append(Point(last.event.end_date, last.after, f"{period} ({names})"))
    return points


def _n(value: float) -> str:
    return f"{value:.1f}"


def _anchor(day: dt.date, first: dt.date, last: dt.date) -> str:
    """Labels at the ends of the axis lean inwards, so they stay inside the picture."""
    if first == last:
        return "middle"
    return "start" if day == first else "end" if day == last else "middle"


def rating_scale(ratings: Sequence[float]) -> tuple[int, int, int]:
    """A round grid step for these ratings, and the axis' low and high on that step."""
    step = _nice_step(max(ratings) - min(ratings) or 1)
    low = math.floor((min(ratings) - step / 4) / step) * step
    high = math.ceil((max(ratings) + step / 4) / step) * step
    return step, low, high


def rating_grid(
    *, left: float, right: float, y: Callable[[float], float], step: int, low: int, high: int
) -> SafeString:
    """The horizontal grid lines of a rating axis, each labelled with its rating."""
    return format_html_join(
        "",
        '<line class="grid" x1="{}" x2="{}" y1="{}" y2="{}"/>'
        '<text class="tick" x="{}" y="{}" text-anchor="end">{}</text>',
        (
            (left, right, _n(y(v)), _n(y(v)), left - 6, _n(y(v) + 4), v)
            for v in range(int(low), int(high) + 1, step)
        ),
    )


def _nice_step(span: float) -> int:
    """A round rating step giving about four to six grid lines."""
    for step in (10, 20, 25, 50, 100, 200, 250, 500):
        if span / step <= 6:
            return step
    return 1000


#: A chart 720 wide has no room for more: a long history's line keeps every n-th point
#: (and the first and last), and at most this many of them are dots one can hover.
MAX_LINE = 720
MAX_DOTS = 120


def _thin(points: Sequence[Point], most: int) -> Sequence[Point]:
    """Every n-th point, the first and the last among them, ``most`` at most."""
    if len(points) <= most:
        return points
    step = math.ceil((len(points) - 1) / (most - 1))
    kept = list(points[::step])
    if kept[-1] is not points[-1]:
        kept[-1] = points[-1]
    return kept


def rating_history_svg(
    points: Sequence[Point], *, title: str, width: int = 720, height: int = 300
) -> SafeString:
    """A line of the member's rating after each rated event, dated along the bottom.

    Events are spaced by date, so a long gap shows as one. The chart scales to its
    container (viewBox) and carries its own <title> and <desc> for screen readers.
    """
    if len(points) < 2:
        # One point is no history (a lone dot on an empty chart): the page says the rating.
        return SafeString("")
    left, right, top, bottom = 72, 16, 16, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    ratings = [p.rating for p in points]
    step, low, high = rating_scale(ratings)
    first, last = points[0].day, points[-1].day
    days = (last - first).days or 1

    def x(day: dt.date) -> float:
        if len(points) == 1:
            return left + plot_w / 2
        return left + plot_w * (day - first).days / days

    def y(rating: float) -> float:
        return top + plot_h * (high - rating) / (high - low)

    grid = rating_grid(left=left, right=width - right, y=y, step=step, low=low, high=high)
    years = sorted({p.day.year for p in points})
    if len(years) > 2:
        every = math.ceil(len(years) / 8)  # a long history labels every n-th year
        ticks = [
            (dt.date(yr, 1, 1), str(yr))
            for yr in years
            if dt.date(yr, 1, 1) >= first and (yr - years[0]) % every == 0
        ]
    else:
        ticks = [(first, f"{first:%-d %b %Y}")]
        if last != first:
            ticks.append((last, f"{last:%-d %b %Y}"))
    x_ticks = format_html_join(
        "",
        '<text class="tick" x="{}" y="{}" text-anchor="{}">{}</text>',
        (
            (_n(x(day)), height - bottom + 16, _anchor(day, first, last), label)
            for day, label in ticks
        ),
    )
    line = " ".join(f"{x(p.day):.1f},{y(p.rating):.1f}" for p in _thin(points, MAX_LINE))
    # Written with f-strings, the label alone escaped (the rest are numbers and a date):
    # format_html escaped each of a dot's five parts, 120 dots a long history.
    dots = mark_safe(
        "".join(
            f'<circle class="point" cx="{x(p.day):.1f}" cy="{y(p.rating):.1f}" r="3.5">'
            f"<title>{escape(p.label)}: {round(p.rating)} ({p.day.isoformat()})</title></circle>"
            for p in _thin(points, MAX_DOTS)
        )
    )
    desc = (
        f"{count_phrase(len(points), 'point')} from {first:%-d %b %Y} ({round(points[0].rating)}) "
        f"to {last:%-d %b %Y} ({round(points[-1].rating)})."
    )
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {w} {h}" role="img" '
        'aria-labelledby="chart-title chart-desc" preserveAspectRatio="xMinYMid meet">'
        '<title id="chart-title">{title}</title><desc id="chart-desc">{desc}</desc>'
        "{grid}"
        '<line class="axis" x1="{l}" x2="{l}" y1="{t}" y2="{b}"/>'
        '<line class="axis" x1="{l}" x2="{r}" y1="{b}" y2="{b}"/>'
        '<text class="axis-label" x="12" y="{mid}" text-anchor="middle" '
        'transform="rotate(-90 12 {mid})">Rating</text>'
        '<text class="axis-label" x="{cx}" y="{h2}" text-anchor="middle">Date</text>'
        "{xt}"
        '<polyline class="line" points="{line}"/>'
        "{dots}</svg>",
        w=width,
        h=height,
        title=title,
        desc=desc,
        grid=grid,
        l=left,
        r=width - right,
        t=top,
        b=height - bottom,
        mid=_n(top + plot_h / 2),
        cx=_n(left + plot_w / 2),
        h2=height - 4,
        xt=x_ticks,
        line=mark_safe(line),  # numbers only, built above
        dots=dots,
    )


def changes_bar_svg(
    rows: Sequence[tuple[str, int]], *, title: str, width: int = 480, chart_id: str = "changes"
) -> SafeString:
    """Rises and falls as bars either side of zero, one row a member, largest first.

    A list of signed changes reads faster as bars: who moved, which way and how far.
    Gains alone (no falls) take the whole width from zero. ``chart_id`` tells two charts
    of a page apart (their titles' ids).
    """
    if not rows:
        return SafeString("")
    # Names, then room for a fall's figure, the bars either side of zero, a rise's figure.
    label_w, gap, right, row_h, top = 150, 40, 40, 24, 8
    height = top * 2 + row_h * len(rows)
    if any(change < 0 for _, change in rows):
        half = (width - label_w - gap - right) / 2
        zero = label_w + gap + half
    else:
        half = width - label_w - right
        zero = label_w
    most = max(abs(change) for _, change in rows) or 1
    bars = []
    for number, (name, change) in enumerate(rows):
        y = top + number * row_h
        length = half * abs(change) / most
        x = zero if change >= 0 else zero - length
        css = "bar-up" if change > 0 else "bar-down" if change < 0 else "bar-zero"
        shown = name if len(name) <= 20 else name[:19] + "…"
        value_x = zero + length + 4 if change >= 0 else zero - length - 4
        anchor = "start" if change >= 0 else "end"
        bars.append(
            format_html(
                '<g class="{}"><title>{}: {}</title>'
                '<text class="tick" x="{}" y="{}" text-anchor="end">{}</text>'
                '<rect x="{}" y="{}" width="{}" height="{}"/>'
                '<text class="value" x="{}" y="{}" text-anchor="{}">{}</text></g>',
                css,
                name,
                f"{change:+d}",
                label_w - 8,
                _n(y + row_h * 0.68),
                shown,
                _n(x),
                _n(y + 3),
                _n(max(length, 1)),
                row_h - 6,
                _n(value_x),
                _n(y + row_h * 0.68),
                anchor,
                f"{change:+d}",
            )
        )
    return format_html(
        '<svg class="changes-chart" viewBox="0 0 {w} {h}" role="img" '
        'aria-labelledby="{chart_id}-title" preserveAspectRatio="xMinYMin meet">'
        '<title id="{chart_id}-title">{title}</title>{bars}'
        '<line class="axis" x1="{z}" x2="{z}" y1="{t}" y2="{b}"/></svg>',
        chart_id=chart_id,
        w=width,
        h=height,
        title=title,
        bars=mark_safe("".join(bars)),  # each built by format_html above
        z=_n(zero),
        t=top,
        b=height - top,
    )
