"""A member's standing (``Membership``) as a badge: the register's column and the member's
record show it alike, in the one mapping's words."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from ..models import Membership

register = template.Library()

#: Each standing's colour: a guest is neutral, financial good, in arrears a warning.
MEMBERSHIP_BADGES = {
    Membership.GUEST: "text-bg-secondary",
    Membership.FINANCIAL: "text-bg-success",
    Membership.ARREARS: "text-bg-warning",
}


@register.filter
def membership_badge(membership: str) -> SafeString:
    """``{{ membership|membership_badge }}``: "In arrears" on its warning colour."""
    standing = Membership(membership)
    return format_html(
        '<span class="badge {}">{}</span>',
        MEMBERSHIP_BADGES[standing],
        standing.label.capitalize(),
    )
