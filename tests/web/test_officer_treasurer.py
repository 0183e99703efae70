"""What a treasurer does on the officer's pages: a season paid or taken back with an audit
line, the register filtered by membership, a season's renewals at once, "paid tonight"."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from ratings import services
from ratings.models import Member, Season, Subscription

from ..conftest import TRF_FILES
from ..factories import EventFactory, MemberFactory, SeasonFactory, paid_up

pytestmark = pytest.mark.django_db


def member_page(client, member):  # type: ignore[no-untyped-def]
    return client.get(reverse("ratings:officer-member", args=[member.pk])).content.decode()


def test_recording_a_payment_on_the_members_page_writes_who_recorded_it(
    officer_client, current_season, alice
):
    officer_client.post(
        reverse("ratings:officer-member-subscribe", args=[alice.pk]),
        {"season": str(current_season.pk), "paid_on": str(timezone.localdate()), "amount": "20"},
    )
    assert alice.is_financial_on()
    page = member_page(officer_client, alice)
    assert f"olivia:</span> Payment recorded: {current_season.name}" in page
    assert "20.00" in page


def test_removing_a_payment_asks_first_and_saves_nothing_until_confirmed(
    officer_client, current_season, alice
):
    payment = paid_up(alice, current_season).subscriptions.get()
    url = reverse("ratings:officer-subscription-remove", args=[alice.pk, payment.pk])
    page = officer_client.get(url).content.decode()
    assert f"Remove Alice Archer's payment for {current_season.name}?" in page
    assert Subscription.objects.filter(pk=payment.pk).exists()


def test_removing_a_payment_puts_the_member_in_arrears_with_the_reason_in_the_audit(
    officer_client, current_season, alice
):
    payment = paid_up(alice, current_season).subscriptions.get()
    url = reverse("ratings:officer-subscription-remove", args=[alice.pk, payment.pk])
    response = officer_client.post(url, {"reason": "recorded against the wrong member"})
    assert response.status_code == 302
    assert not alice.is_financial_on()
    page = member_page(officer_client, alice)
    assert f"Payment removed: {current_season.name}" in page
    assert "reason: recorded against the wrong member" in page


def test_a_payment_of_another_member_cannot_be_removed_through_this_member(
    officer_client, current_season, alice, bob
):
    payment = paid_up(bob, current_season).subscriptions.get()
    url = reverse("ratings:officer-subscription-remove", args=[alice.pk, payment.pk])
    assert officer_client.post(url).status_code == 404
    assert bob.is_financial_on()


def test_an_edited_payment_says_what_changed(officer_client, current_season, alice):
    payment = paid_up(alice, current_season).subscriptions.get()
    payment.paid_on = dt.date(2026, 3, 4)
    payment.save()
    assert "Payment changed: paid" in member_page(officer_client, alice)
    assert "→ 4 Mar 2026" in member_page(officer_client, alice)


@pytest.mark.parametrize(
    ("status", "shown"),
    [("financial", ["Alice Archer"]), ("arrears", ["Bob Brown"]), ("guest", ["Carol Chen"])],
)
def test_the_register_filters_by_membership_today(
    officer_client, current_season, alice, bob, carol, status, shown
):
    paid_up(alice, current_season)
    carol.is_guest = True
    carol.save()
    response = officer_client.get(reverse("ratings:officer-members"), {"status": status})
    names = [m.name for m in response.context["table"].data]
    assert names == shown


def test_the_register_counts_each_membership(officer_client, current_season, alice, bob, carol):
    paid_up(alice, current_season)
    carol.is_guest = True
    carol.save()
    response = officer_client.get(reverse("ratings:officer-members"))
    assert [(key, count) for key, _, count in response.context["filters"]] == [
        ("financial", 1),
        ("arrears", 1),
        ("guest", 1),
    ]


def test_renewals_tick_last_seasons_members_and_leave_out_those_who_paid(
    officer_client, current_season, alice, bob, carol
):
    before = SeasonFactory(
        name="before",
        start=current_season.start - dt.timedelta(days=365),
        end=current_season.start - dt.timedelta(days=1),
    )
    paid_up(alice, before)
    paid_up(carol, current_season)
    response = officer_client.get(reverse("ratings:officer-renew"))
    rows = response.context["rows"]
    assert [m.name for m in rows] == ["Alice Archer", "Bob Brown"]
    assert response.context["ticked"] == {str(alice.pk)}


def test_renewing_records_every_ticked_member_at_once_with_the_audit(
    officer_client, current_season, alice, bob, carol
):
    response = officer_client.post(
        reverse("ratings:officer-renew"),
        {
            "season": str(current_season.pk),
            "paid_on": str(timezone.localdate()),
            "amount": "25",
            "members": [alice.pk, bob.pk],
        },
    )
    assert response.status_code == 302
    paid = Subscription.objects.filter(season=current_season)
    assert sorted(paid.values_list("member__name", flat=True)) == ["Alice Archer", "Bob Brown"]
    assert f"renewed for {current_season.name}" in member_page(officer_client, alice)


def test_renewing_a_season_not_yet_recorded_records_it_by_the_clubs_rule(officer_client, alice):
    value = services_choice_for_today()
    officer_client.post(
        reverse("ratings:officer-renew"),
        {"season": value, "paid_on": str(timezone.localdate()), "members": [alice.pk]},
    )
    assert alice.is_financial_on()


def services_choice_for_today() -> str:
    from ratings.forms.members import season_options

    return season_options()[1]


def test_renewing_with_no_one_ticked_is_refused_at_the_list(officer_client, current_season, alice):
    response = officer_client.post(
        reverse("ratings:officer-renew"),
        {"season": str(current_season.pk), "paid_on": str(timezone.localdate())},
    )
    assert "Tick the members who have paid." in response.content.decode()
    assert not Subscription.objects.exists()


def test_renewing_leaves_a_members_earlier_payment_as_it_was(current_season, alice):
    paid_up(alice, current_season)
    first = alice.subscriptions.get()
    assert services.subscriptions_renew(members=[alice], season=current_season) == 0
    assert alice.subscriptions.get() == first


def test_a_new_member_paid_tonight_is_financial_at_once(officer_client, current_season):
    officer_client.post(
        reverse("ratings:officer-member-add"),
        {"name": "Nina New", "member_number": "N77", "initial_games": "0", "paid_tonight": "on"},
    )
    nina = Member.objects.get(member_number="N77")
    assert nina.is_financial_on()
    assert "Payment recorded" in member_page(officer_client, nina)


def test_a_new_member_not_paid_tonight_starts_in_arrears(officer_client):
    officer_client.post(
        reverse("ratings:officer-member-add"),
        {"name": "Nina New", "member_number": "N77", "initial_games": "0"},
    )
    assert not Member.objects.get(member_number="N77").is_financial_on()


def test_a_guest_paid_tonight_is_refused_at_the_field(officer_client):
    response = officer_client.post(
        reverse("ratings:officer-member-add"),
        {
            "name": "Gus Guest",
            "member_number": "G77",
            "initial_games": "0",
            "is_guest": "on",
            "paid_tonight": "on",
        },
    )
    assert "A guest pays no subscription" in response.content.decode()
    assert not Member.objects.filter(member_number="G77").exists()


def test_the_edit_form_has_no_paid_tonight(officer_client, alice):
    response = officer_client.get(reverse("ratings:officer-member", args=[alice.pk]))
    assert "paid_tonight" not in response.context["form"].fields


def test_a_member_added_inside_an_event_can_have_paid_tonight(officer_client):
    event = EventFactory()
    officer_client.post(
        reverse("ratings:officer-event-players", args=[event.pk]),
        {"quick-name": "Nina New", "quick-paid_tonight": "on"},
    )
    assert Member.objects.get(name="Nina New").is_financial_on()


def test_a_trf_imports_new_members_as_paid_when_the_officer_says_so(officer_client):
    officer_client.post(
        reverse("ratings:officer-import"),
        {"file": SimpleUploadedFile("g.trf", (TRF_FILES / "gros-open-2010.trf").read_bytes())},
    )
    form = officer_client.get(reverse("ratings:officer-import-preview")).context["form"]
    data = {name: form[name].value() for name in form.fields}
    data.update({f"p{n}": "new" for n in range(2, 53)})
    data.update(rated="on", new_paid="on", p1="guest")
    officer_client.post(reverse("ratings:officer-import-preview"), data)
    season = Season.for_day(timezone.localdate())
    new = Member.objects.filter(is_guest=False)
    assert new.count() == 51
    assert Subscription.objects.filter(season=season).count() == 51


def test_removing_a_subscription_in_the_admin_adds_no_empty_change_to_the_member(
    admin_client, current_season
):
    alice = MemberFactory(name="Alice Archer", member_number="A1")
    payment = paid_up(alice, current_season).subscriptions.get()
    before = alice.history.count()
    url = reverse("admin:ratings_member_change", args=[alice.pk])
    form = admin_client.get(url).context["adminform"].form
    data = {k: ("" if v is None else v) for k, v in form.initial.items() if k in form.fields}
    data.update(
        {
            "subscriptions-TOTAL_FORMS": "1",
            "subscriptions-INITIAL_FORMS": "1",
            "subscriptions-0-id": str(payment.pk),
            "subscriptions-0-member": str(alice.pk),
            "subscriptions-0-season": str(current_season.pk),
            "subscriptions-0-paid_on": str(payment.paid_on),
            "subscriptions-0-DELETE": "on",
        }
    )
    response = admin_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert not Subscription.objects.exists()
    assert alice.history.count() == before


def test_the_payment_form_offers_the_next_season_once_this_one_is_paid(current_season, alice):
    from ratings.forms import SubscriptionForm

    paid_up(alice, current_season)
    form = SubscriptionForm(member=alice)
    assert form["season"].value() == form.fields["season"].choices[0][0]
    assert form["season"].value() != str(current_season.pk)


def test_a_whole_initial_rating_is_shown_without_a_decimal(officer_client):
    member = MemberFactory(initial_rating=1400.0)
    response = officer_client.get(reverse("ratings:officer-member", args=[member.pk]))
    assert 'value="1400"' in response.content.decode()
