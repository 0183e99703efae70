"""Focus seen wherever it is (WCAG 2.4.7, 2.4.11, 1.4.11), in Windows High Contrast too,
and a menu that Escape closes."""

from __future__ import annotations

import pytest

from ..factories import officer_user
from .test_keyboard import focused, tab_to
from .test_officer_workflow import log_in

pytestmark = pytest.mark.django_db(transaction=True)

OUTLINE = """() => { const s = getComputedStyle(document.activeElement);
  return {style: s.outlineStyle, width: parseFloat(s.outlineWidth), color: s.outlineColor}; }"""

#: The contrast of the focused element's outline against the navigation bar behind it.
CONTRAST_ON_BAR = """() => {
  const rgb = text => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ring = lum(rgb(getComputedStyle(document.activeElement).outlineColor));
  const bar = lum(rgb(getComputedStyle(document.querySelector('nav.navbar')).backgroundColor));
  return (Math.max(ring, bar) + 0.05) / (Math.min(ring, bar) + 0.05);
}"""


def test_in_forced_colours_a_field_of_an_officer_form_shows_its_focus(page):
    page.emulate_media(forced_colors="active")
    officer_user()
    log_in(page, "/officer/events/add/")
    tab_to(page, lambda f: f["id"] == "id_name")
    outline = page.evaluate(OUTLINE)
    assert outline["style"] != "none"
    assert outline["width"] >= 2


def test_a_link_on_the_dark_menu_bar_shows_its_focus_at_3_to_1(page):
    page.goto("/")
    tab_to(page, lambda f: f["tag"] == "A" and f["text"] == "Rating list")
    assert page.evaluate(OUTLINE)["style"] != "none"
    assert page.evaluate(CONTRAST_ON_BAR) >= 3


def test_escape_closes_the_open_menu_on_a_phone(page):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/")
    menu_button = page.get_by_role("button", name="Menu")
    menu_button.click()
    assert page.get_by_role("link", name="Rating list").is_visible()
    page.get_by_role("link", name="Rating list").focus()
    page.keyboard.press("Escape")
    assert page.get_by_role("link", name="Rating list").is_hidden()
    assert menu_button.get_attribute("aria-expanded") == "false"
    assert focused(page)["text"] == ""  # back on the menu button, which shows an icon only
    assert page.evaluate("() => document.activeElement.hasAttribute('data-menu-toggle')")
