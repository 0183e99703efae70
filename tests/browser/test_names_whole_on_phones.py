"""A player's name is read whole on a phone: the round entry's boxes show the member
number and the full name chosen, not "R1044 · Chloe Tayl"."""

import pytest

from ..factories import EventFactory, MemberFactory, officer_user
from .test_officer_workflow import log_in

pytestmark = pytest.mark.django_db(transaction=True)

#: Whether the chosen option's words fit the box they are shown in: the text measured in
#: the box's own font against the box's width less its padding (the arrow sits in it).
FITS = """select => {
  const style = getComputedStyle(select);
  const context = document.createElement('canvas').getContext('2d');
  context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const words = context.measureText(select.selectedOptions[0].text).width;
  const room = select.clientWidth - parseFloat(style.paddingLeft)
    - parseFloat(style.paddingRight);
  return words <= room;
}"""


def test_at_390_px_the_players_chosen_on_a_board_show_their_whole_names(page):
    officer_user()
    white = MemberFactory(member_number="R1060", name="Nina Petersen-Walsh")
    black = MemberFactory(member_number="R1044", name="Chloe Taylor-Whitfield")
    event = EventFactory(name="Club Cup", rounds=3)
    for member in (white, black):
        event.entries.create(member=member)
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, f"/officer/events/{event.pk}/rounds/1/")
    page.get_by_label("Board 1 white").select_option(label="R1060 · Nina Petersen-Walsh")
    page.get_by_label("Board 1 black").select_option(label="R1044 · Chloe Taylor-Whitfield")
    assert page.get_by_label("Board 1 white").evaluate(FITS)
    assert page.get_by_label("Board 1 black").evaluate(FITS)
