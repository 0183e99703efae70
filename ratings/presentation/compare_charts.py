"""The comparison's charts, drawn on the server as SVG like ratings/presentation/charts.py:
a calibration chart per system and a member's ratings over time under every system."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from ..words.counts import count_phrase
from .charts import _n, rating_grid, rating_scale


def calibration_svg(
    bins: Sequence[Sequence[float]], *, title: str, key: str, size: int = 260
) -> SafeString:
    """Expected score (across) against the score made (up), one dot per bin of expected
    score with any games in it, on the diagonal of a perfect forecast.

    ``bins``: [low, high, count, sum of expected, sum of actual] rows; ``key`` makes the
    ids of the chart's title and description unique on the page.
    """
    left, right, top, bottom = 40, 10, 10, 36
    plot = size - left - max(right, 0)
    height = plot + top + bottom

    def x(value: float) -> float:
        return left + plot * value

    def y(value: float) -> float:
        return top + plot * (1 - value)

    used = [(e / c, a / c, int(c)) for _, _, c, e, a in bins if c]
    grid = format_html_join(
        "",
        '<line class="grid" x1="{}" x2="{}" y1="{}" y2="{}"/>'
        '<line class="grid" x1="{}" x2="{}" y1="{}" y2="{}"/>'
        '<text class="tick" x="{}" y="{}" text-anchor="end">{}</text>'
        '<text class="tick" x="{}" y="{}" text-anchor="middle">{}</text>',
        (
            (
                left,
                left + plot,
                _n(y(v)),
                _n(y(v)),
                _n(x(v)),
                _n(x(v)),
                top,
                top + plot,
                left - 4,
                _n(y(v) + 4),
                label,
                _n(x(v)),
                top + plot + 14,
                label,
            )
            for v, label in ((0.0, "0"), (0.5, "0.5"), (1.0, "1"))
        ),
    )
    line = " ".join(f"{x(e):.1f},{y(a):.1f}" for e, a, _ in used)
    dots = format_html_join(
        "",
        '<circle class="point" cx="{}" cy="{}" r="4"><title>expected {} · scored {} · '
        "{} sides</title></circle>",
        ((_n(x(e)), _n(y(a)), f"{e:.2f}", f"{a:.2f}", c) for e, a, c in used),
    )
    worst = max((abs(e - a) for e, a, c in used if c >= 20), default=None)
    desc = (
        "No game had an expectation."
        if not used
        else f"{count_phrase(len(used), 'bin')}; the largest gap between expected and scored "
        f"in a bin of 20 or more sides is {worst:.2f}."
        if worst is not None
        else f"{count_phrase(len(used), 'bin')}, none of 20 sides or more."
    )
    return format_html(
        '<svg class="calibration-chart" viewBox="0 0 {w} {h}" role="img" '
        'aria-labelledby="cal-{k}-title cal-{k}-desc">'
        '<title id="cal-{k}-title">{title}</title><desc id="cal-{k}-desc">{desc}</desc>'
        "{grid}"
        '<line class="diagonal" x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}"/>'
        '<polyline class="line" points="{line}"/>{dots}'
        '<text class="axis-label" x="{cx}" y="{hb}" text-anchor="middle">expected</text>'
        '<text class="axis-label" x="10" y="{cy}" text-anchor="middle" '
        'transform="rotate(-90 10 {cy})">scored</text>'
        "</svg>",
        w=size,
        h=height,
        k=key,
        title=title,
        desc=desc,
        grid=grid,
        x0=_n(x(0)),
        y0=_n(y(0)),
        x1=_n(x(1)),
        y1=_n(y(1)),
        line=mark_safe(line),  # numbers only, built above
        dots=dots,
        cx=_n(left + plot / 2),
        hb=height - 4,
        cy=_n(top + plot / 2),
    )


def ratings_over_time_svg(
    series: Sequence[tuple[str, Sequence[tuple[dt.date, float]]]],
    *,
    title: str,
    width: int = 720,
    height: int = 320,
) -> SafeString:
    """One line per system (``series``: (name, [(day, rating), ...])) on one rating scale,
    so that where the systems' scales differ the gap shows too. Each line has the class
    ``series-N`` (its colour) in the order given."""
    drawn = [(name, points) for name, points in series if points]
    if not drawn:
        return SafeString("")
    left, right, top, bottom = 64, 16, 16, 36
    plot_w, plot_h = width - left - right, height - top - bottom
    ratings = [r for _, points in drawn for _, r in points]
    days = [d for _, points in drawn for d, _ in points]
    step, low, high = rating_scale(ratings)
    first, last = min(days), max(days)
    span = (last - first).days or 1

    def x(day: dt.date) -> float:
        return left + plot_w * (day - first).days / span

    def y(rating: float) -> float:
        return top + plot_h * (high - rating) / (high - low)

    grid = rating_grid(left=left, right=width - right, y=y, step=step, low=low, high=high)
    ticks = format_html_join(
        "",
        '<text class="tick" x="{}" y="{}" text-anchor="{}">{}</text>',
        (
            (_n(x(first)), height - bottom + 16, "start", f"{first:%b %Y}"),
            (_n(x(last)), height - bottom + 16, "end", f"{last:%b %Y}"),
        ),
    )
    lines = format_html_join(
        "",
        '<polyline class="line series-{}" points="{}"><title>{}</title></polyline>',
        (
            (
                number,
                mark_safe(" ".join(f"{x(d):.1f},{y(r):.1f}" for d, r in points)),
                name,
            )
            for number, (name, points) in enumerate(series)
            if points
        ),
    )
    ends = format_html_join(
        "",
        '<circle class="point series-{}" cx="{}" cy="{}" r="3.5"><title>{}: {} ({})</title>'
        "</circle>",
        (
            (
                number,
                _n(x(points[-1][0])),
                _n(y(points[-1][1])),
                name,
                round(points[-1][1]),
                f"{points[-1][0]:%b %Y}",
            )
            for number, (name, points) in enumerate(series)
            if points
        ),
    )
    desc = "; ".join(f"{name}: {round(points[-1][1])} at the end" for name, points in drawn)
    return format_html(
        '<svg class="rating-chart compare-chart" viewBox="0 0 {w} {h}" role="img" '
        'aria-labelledby="history-title history-desc" preserveAspectRatio="xMinYMid meet">'
        '<title id="history-title">{title}</title><desc id="history-desc">{desc}</desc>'
        "{grid}"
        '<line class="axis" x1="{l}" x2="{l}" y1="{t}" y2="{b}"/>'
        '<line class="axis" x1="{l}" x2="{r}" y1="{b}" y2="{b}"/>'
        "{ticks}{lines}{ends}</svg>",
        w=width,
        h=height,
        title=title,
        desc=desc,
        grid=grid,
        l=left,
        r=width - right,
        t=top,
        b=height - bottom,
        ticks=ticks,
        lines=lines,
        ends=ends,
    )
