"""The page title's "Error: " when a form on the page came back with errors (WCAG 3.3.1,
as Django's admin does): a screen reader reads the title first, and a tab or the window
list shows the title alone, so the error is said before anything else."""

from __future__ import annotations

from typing import cast

from django import template
from django.forms import BaseForm
from django.forms.formsets import BaseFormSet

register = template.Library()


def _has_errors(value: object) -> bool:
    # Only a form already checked by its view: asking an unchecked bound form for its
    # errors would validate it here, in the template, and could query.
    # Django keeps no public "validated" flag: _errors is None until a form is checked.
    # By type(), not isinstance(): isinstance asks a lazy value (the context's csrf_token)
    # for its __class__, which makes the form token and leaves the page unkept.
    kind = type(value)
    if issubclass(kind, BaseForm):
        return bool(getattr(value, "_errors", None))
    if issubclass(kind, BaseFormSet):
        formset = cast(BaseFormSet, value)
        return getattr(formset, "_errors", None) is not None and formset.total_error_count() > 0
    return False


@register.simple_tag(takes_context=True)
def error_title(context: template.Context) -> str:
    """``Error: `` when any form or formset the page was given holds errors, else nothing."""
    return "Error: " if any(_has_errors(v) for v in context.flatten().values()) else ""
