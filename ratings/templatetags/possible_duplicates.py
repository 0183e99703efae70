"""The officer's members page's possible duplicates written in one join
(``{% possible_duplicates_items possible_duplicates %}``), each pair as the template's loop
wrote it: its two records' links, why they may be one person and, for an officer who
may merge, the admin's merge form. The loop over the hundred pairs shown (two ``{% url %}``
and a ``{% csrf_token %}`` a pair, a dozen lookups) took as long as the page's queries
(some 12-30 ms of a search's 60-110 at 60,000 members, the machine loaded)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

from ..presentation.links import officer_member_urls
from ..rules.people import PossibleDuplicate

register = template.Library()


@register.simple_tag(takes_context=True)
def possible_duplicates_items(context: Any, pairs: Iterable[PossibleDuplicate]) -> SafeString:
    """The ``<li>`` of each pair, with the page's ``can_merge``, ``merge_url`` and CSRF
    token (read once, as ``{% csrf_token %}`` reads it)."""
    url = officer_member_urls()
    merge = _merge_form(context)
    return mark_safe(
        "".join(
            f'\n    <li class="mb-1">\n'
            f'      <a href="{url(pair.first.ref)}">{conditional_escape(pair.first.name)} '
            f"({conditional_escape(pair.first.where)})</a> and\n"
            f'      <a href="{url(pair.second.ref)}">{conditional_escape(pair.second.name)} '
            f"({conditional_escape(pair.second.where)})</a>: {conditional_escape(pair.why)}\n"
            f"      {merge(pair)}\n"
            "    </li>\n  "
            for pair in pairs
        )
    )


def _merge_form(context: Any) -> Callable[[PossibleDuplicate], str]:
    """Each pair's form to the admin's merge of its two records, for an officer who may
    merge (``can_merge``); nothing otherwise. Its fixed part written once."""
    if not context.get("can_merge"):
        return lambda pair: ""
    token = context.get("csrf_token")
    start = format_html(
        '<form method="post" action="{}" class="d-inline">{}'
        '<input type="hidden" name="action" value="merge_members">',
        context.get("merge_url", ""),
        format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)
        if token and token != "NOTPROVIDED"
        else "",
    )
    chosen = '<input type="hidden" name="_selected_action" value="'
    end = (
        '<button class="btn btn-link btn-sm p-0 align-baseline" type="submit">Merge…</button>'
        "</form>"
    )
    return lambda pair: f'{start}{chosen}{pair.first.ref}">{chosen}{pair.second.ref}">{end}'
