"""Making an API token on the account page, then refreshing it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"


@pytest.fixture
def account(page, live_server, django_user_model):
    django_user_model.objects.create_user("ada", password=PASSWORD)
    sign_in(page, live_server.url, "ada", PASSWORD)
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(f"{live_server.url}/accounts/")
    return page


def test_refreshing_after_making_a_token_shows_the_page_not_an_error(account):
    account.get_by_role("textbox", name="New token").fill("laptop")
    account.get_by_role("button", name="Create token").click()
    secret = account.locator("#new-token")
    expect(secret).to_have_value(re.compile(r"^vdt_"))
    expect(account.get_by_text("shown only this once")).to_be_visible()

    refreshed = account.reload()
    assert refreshed.status == 200
    expect(account.get_by_role("heading", name="Your account")).to_be_visible()
    expect(secret).to_have_count(0)
    expect(account.get_by_role("button", name="Revoke laptop")).to_be_visible()
    expect(account.get_by_text("already have a token")).to_have_count(0)
    shot(account, "account-refreshed")


def test_in_chinese_the_new_token_is_shown_once_and_a_refresh_is_quiet(account):
    account.get_by_role("button", name="简体中文").click()
    account.get_by_role("textbox", name="新令牌").fill("笔记本")
    account.get_by_role("button", name="创建令牌").click()
    expect(account.locator("#new-token")).to_have_value(re.compile(r"^vdt_"))
    expect(account.get_by_text("只显示这一次")).to_be_visible()

    assert account.reload().status == 200
    expect(account.locator("#new-token")).to_have_count(0)
    expect(account.get_by_text("只显示这一次")).to_have_count(0)
