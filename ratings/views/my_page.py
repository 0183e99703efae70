"""A member's own pages, public URLs whose signed link is the key: "my page", asking for
the link, and unsubscribing in one click (RFC 8058). Never cached: each is one member's."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from .. import services
from ..pages import my_page as pages
from ..rules.member_links import (
    MY_PAGE_DAYS,
    LinkBad,
    LinkExpired,
    my_page_token,
)
from ..rules.time_classes import STANDARD
from .common import club_of

#: What "send me my link" says, whoever asks: it tells no one whose address is known.
ASKED = (
    "If that address is on a member's record with their consent to club mail, a link to "
    f"their page is on its way. It works for {MY_PAGE_DAYS} days."
)


class MyLinkForm(forms.Form):
    email = forms.EmailField(
        label="Your email address",
        max_length=254,
        help_text="The address the club has on your record.",
    )


def _site(request: HttpRequest) -> str:
    return request.build_absolute_uri("/")


@never_cache
def my_page_ask(request: HttpRequest) -> HttpResponse:
    """ "Send me my link": a form for an address, answered alike whoever's it is."""
    form = MyLinkForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        services.my_page_link_ask(email=form.cleaned_data["email"], site=_site(request))
        messages.success(request, ASKED)
        return redirect("ratings:my-page-ask")
    return render(request, "ratings/public/my_page_ask.html", {"form": form})


@never_cache
@require_safe
def my_page(request: HttpRequest, token: str) -> HttpResponse:
    """The member's own page, or, for a link out of date or no one's, why and a new one."""
    try:
        member = pages.member_of_my_page_token(token)
    except (LinkExpired, LinkBad) as problem:
        return render(
            request,
            "ratings/public/my_page_ask.html",
            {"form": MyLinkForm(), "expired": isinstance(problem, LinkExpired), "bad_link": True},
        )
    context = pages.my_page(member=member, club=club_of(request), rating_list=STANDARD)
    return render(request, "ratings/public/my_page.html", context)


@csrf_exempt  # RFC 8058: a mail program POSTs with no form of ours; the signed link is the key
@never_cache
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: a button to confirm (a link scanner following it stops nothing). POST: the kind
    of mail withdrawn, in that one request."""
    try:
        member, kind = pages.member_of_unsubscribe_token(token)
    except LinkBad:
        return render(request, "ratings/public/unsubscribe.html", {"bad_link": True})
    done = request.method == "POST"
    if done:
        services.member_unsubscribe(member=member, kind=kind)
    return render(
        request,
        "ratings/public/unsubscribe.html",
        {
            "member": member,
            "what": pages.kind_label(kind),
            "done": done,
            "my_page_token": my_page_token(member),
        },
    )
