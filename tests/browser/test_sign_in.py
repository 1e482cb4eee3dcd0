from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_wrong_password_is_refused_and_the_right_one_signs_in(page, live_server):
    get_user_model().objects.create_user("ada", password="correct horse battery")
    sign_in(page, live_server.url, "ada", "wrong password")
    assert "/accounts/login/" in page.url
    assert page.get_by_text("enter a correct username and password", exact=False).is_visible()
    shot(page, "sign-in-refused")
    sign_in(page, live_server.url, "ada", "correct horse battery")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    assert page.get_by_text("ada").first.is_visible()
    shot(page, "signed-in")
