"""The round-robin grid of a twelve-player event fits a 1280-pixel screen: no column cut
off, none to scroll to."""

import pytest

from ratings.models import Event

from ..factories import EventFactory, MemberFactory, officer_user
from .test_officer_workflow import log_in

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Aroha Ngata", "James Whitfield", "Priya Sharma", "Tomasz Kowalski", "Wiremu Tane",
    "Chen Li", "Sophie Brown", "Rajesh Patel", "Hannah Stewart", "Graham MacDonald",
    "Margaret Fraser", "Kenji Takahashi",
]  # fmt: skip


def test_a_twelve_player_grid_shows_every_column_at_1280_px(page):
    officer_user()
    event = EventFactory(name="Club championship", kind=Event.Kind.ROUND_ROBIN, rounds=11)
    for n, name in enumerate(NAMES):
        event.entries.create(member=MemberFactory(member_number=f"R{1001 + n}", name=name))
    log_in(page, f"/officer/events/{event.pk}/grid/")
    box = page.locator(".grid-scroll")
    scroll, client = box.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert scroll <= client, f"the grid is {scroll}px wide in a {client}px box"
    last = page.locator(".crosstable-entry thead th").last
    assert last.inner_text() == "12" and last.is_visible()
