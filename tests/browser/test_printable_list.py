"""The published list to print, in Chromium: A4 sheets with the column heads on each."""

from __future__ import annotations

import re

import pytest

from ..factories import MemberFactory, paid_up, rating_state

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_printable_list_prints_as_a4_pages_heads_repeated_and_no_site_chrome(
    page, current_season
):
    for n in range(120):  # more than one sheet holds
        member = paid_up(MemberFactory(name=f"Player {n:03}"), current_season)
        rating_state(member, rating=2000 - n, display=str(2000 - n), games=10)
    page.goto("/ratings/print/")
    assert page.locator(".list-print-table tbody tr").count() == 120
    page.emulate_media(media="print")
    assert not page.locator("nav.navbar").is_visible()
    assert not page.get_by_role("button", name="Print or save as PDF").is_visible()
    head = page.locator(".list-print-table thead")
    assert head.evaluate("e => getComputedStyle(e).display") == "table-header-group"
    pdf = page.pdf(prefer_css_page_size=True)
    sheets = re.findall(rb"/MediaBox\s*\[\s*0 0 (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)\s*\]", pdf)
    assert len(sheets) >= 2
    assert all(round(float(w)) == 595 and round(float(h)) == 842 for w, h in sheets)  # A4
