"""Only the CSS and script the pages use, measured as Chromium measures it (its coverage):
over the site's pages, how many bytes of each stylesheet some page applied and how much of
each script ran. The full Bootstrap was about 90 % unused on every page."""

from __future__ import annotations

from collections import defaultdict

import pytest

from ..web.matrix_club import build_club, every_pattern, url_for
from ..web.test_permission_matrix import TABLE
from .test_accessibility import goto, is_html, log_in

pytestmark = pytest.mark.django_db(transaction=True)


def merged(ranges: list[tuple[int, int]]) -> int:
    """Bytes covered by the union of [start, end) ranges."""
    total, reach = 0, -1
    for start, end in sorted(ranges):
        start = max(start, reach)
        if end > start:
            total += end - start
            reach = end
    return total


def ran_bytes(functions: list[dict]) -> tuple[list[tuple[int, int]], int]:
    """The byte ranges of a script that ran, as DevTools counts them: each range marks its
    bytes ran or not, an inner range (a block not taken) over its outer one."""
    size = max((r["endOffset"] for f in functions for r in f["ranges"]), default=0)
    ran = bytearray(size)
    for function in functions:
        for r in function["ranges"]:
            ran[r["startOffset"] : r["endOffset"]] = bytes([r["count"] > 0]) * (
                r["endOffset"] - r["startOffset"]
            )
    spans, start = [], None
    for i, flag in enumerate([*ran, 0]):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            spans.append((start, i))
            start = None
    return spans, size


def measure(page, urls: list[str]) -> dict[str, tuple[int, int]]:
    """For each stylesheet and script: (bytes used on some page, bytes)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    cdp.send("Profiler.enable")
    used: dict[str, list[tuple[int, int]]] = defaultdict(list)
    sizes: dict[str, int] = {}
    for url in urls:
        sheets: dict[str, str] = {}
        cdp.on(
            "CSS.styleSheetAdded",
            lambda e, sheets=sheets: sheets.__setitem__(
                e["header"]["styleSheetId"], e["header"]["sourceURL"]
            ),
        )
        cdp.send("CSS.startRuleUsageTracking")
        cdp.send("Profiler.startPreciseCoverage", {"callCount": False, "detailed": True})
        if not is_html(goto(page, url)):
            cdp.send("CSS.stopRuleUsageTracking")
            cdp.send("Profiler.stopPreciseCoverage")
            continue
        for rule in cdp.send("CSS.stopRuleUsageTracking")["ruleUsage"]:
            name = sheets.get(rule["styleSheetId"], "")
            if "/static/" in name and rule["used"]:
                used[name.rsplit("/static/", 1)[1]].append(
                    (rule["startOffset"], rule["endOffset"])
                )
        for sheet_id, name in sheets.items():
            if "/static/" in name:
                text = cdp.send("CSS.getStyleSheetText", {"styleSheetId": sheet_id})["text"]
                sizes[name.rsplit("/static/", 1)[1]] = len(text)
        for script in cdp.send("Profiler.takePreciseCoverage")["result"]:
            if "/static/" in script["url"]:
                name = script["url"].rsplit("/static/", 1)[1]
                ran, size = ran_bytes(script["functions"])
                used[name] += ran
                sizes[name] = size
        cdp.send("Profiler.stopPreciseCoverage")
    return {name: (merged(used[name]), size) for name, size in sizes.items()}


def test_most_of_the_css_the_pages_load_is_used_somewhere(browser, live_server):
    club = build_club()
    context = browser.new_context(base_url=live_server.url)
    log_in(context, live_server, club, "officer")
    page = context.new_page()
    urls = [
        url_for(p, club)
        for p in every_pattern()
        if p.key.startswith("ratings:") and TABLE[p.key]["officer"].split()[0] == "ok"
    ]
    figures = measure(page, urls)
    context.close()
    for name, (used, size) in sorted(figures.items()):
        print(f"COVERAGE {name}: {used} of {size} bytes used ({100 * used / size:.0f} %)")
    css_used = sum(u for n, (u, _) in figures.items() if n.endswith(".css"))
    css_size = sum(s for n, (_, s) in figures.items() if n.endswith(".css"))
    assert css_used / css_size > 0.33, figures
