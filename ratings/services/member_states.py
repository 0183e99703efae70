"""Members' current states written from their starting details, with no event re-rated:
a member just added, or one whose starting details changed before they played.

Below the services that save members and events and the corrections that re-rate them,
which all write states through it.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from ..models import ClubSettings, Member
from ..models.rating_lists import lists_kept
from .chain import member_initial_state
from .list_figures import list_figures_forget
from .public_pages import public_pages_changed
from .rerate_chain import AFTER_ALL, Chain


def member_states_create(*, members: Iterable[Member]) -> None:
    """Give members just added their current states: as they came in (no change to look
    up), in one statement however many."""
    members = [m for m in members if m.merged_into_id is None]
    if not members:
        return
    club = ClubSettings.load()
    for rating_list in lists_kept():
        system = club.engine(rating_list)
        chain = Chain(system, AFTER_ALL, rating_list)
        for member in members:
            chain.states[str(member.pk)] = member_initial_state(member, system, rating_list)
        chain.active = chain.touched = {m.pk for m in members}
        chain.write_states(everyone=False)


def member_states_write(*, member_ids: Iterable[int]) -> None:
    """Rewrite these members' current states from their starting details and last change.

    For a member just added, or one whose starting details changed and who has played
    in no event the chain rates: no event needs rating again.
    """
    member_ids = list(member_ids)
    club = ClubSettings.load()
    with transaction.atomic():
        # The states are written past the model layer: the public pages read them, and
        # the published lists' figures are counted again.
        public_pages_changed()
        list_figures_forget()
        for rating_list in lists_kept():
            chain = Chain(club.engine(rating_list), AFTER_ALL, rating_list)
            chain.take_in(member_ids)
            chain.write_states(everyone=False)
