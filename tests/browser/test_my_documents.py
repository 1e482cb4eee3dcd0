"""A person adds their own document in the browser and finds it on the question form."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import expect

from tests.browser.conftest import shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"


def test_a_person_uploads_a_document_sees_it_offered_and_deletes_it(
    page, live_server, django_user_model, settings, tmp_path
):
    settings.SOURCES = [("notes", f"local:{tmp_path}")]
    settings.VAR_DIR = tmp_path / "var"
    settings.VAR_DIR.mkdir()
    django_user_model.objects.create_user("ada", password=PASSWORD)
    sign_in(page, live_server.url, "ada", PASSWORD)
    page.wait_for_url(lambda url: "/accounts/login/" not in url)

    page.get_by_role("link", name="My documents").click()
    expect(page.get_by_role("heading", name="My documents", exact=True)).to_be_visible()
    page.get_by_label("Upload files").set_input_files(
        [{"name": "tool.exe", "mimeType": "application/octet-stream", "buffer": b"MZ\x90\x00"}]
    )
    page.get_by_role("button", name="Add").click()
    expect(page.locator("#upload-errors")).to_contain_text("tool.exe is not a document")

    page.get_by_label("Upload files").set_input_files(
        [{"name": "plan.md", "mimeType": "text/markdown", "buffer": b"# Plan\n\nQuillsync.\n"}]
    )
    page.get_by_role("button", name="Add").click()
    expect(page.get_by_role("cell", name="plan.md")).to_be_visible()
    shot(page, "my-documents")

    page.get_by_role("link", name="New question", exact=True).click()
    expect(page.locator("input[name=sources][value=mine]")).to_be_attached()

    page.get_by_role("link", name="My documents").click()
    page.get_by_role("button", name="Delete").click()
    expect(page.get_by_text("You have not added any documents yet.")).to_be_visible()


@pytest.mark.slow
def test_a_question_asked_of_my_documents_cites_them_in_its_report(
    page, live_server, django_user_model, settings, tmp_path, workers
):
    """Uploaded in the browser, searched by a real worker, cited in the report."""
    notes = Path(django_settings.BASE_DIR) / "tests" / "fixtures" / "corpus" / "notes_en"
    settings.SOURCES = []
    settings.DEFAULT_SOURCES = []
    settings.VAR_DIR = tmp_path / "var"
    settings.VAR_DIR.mkdir()
    workers.start()
    django_user_model.objects.create_user("ada", password=PASSWORD)
    sign_in(page, live_server.url, "ada", PASSWORD)
    page.wait_for_url(lambda url: "/accounts/login/" not in url)

    page.get_by_role("link", name="My documents").click()
    readme = notes / "quillsync-github-readme.html"
    others = [notes / "loamdb-github-readme.html", notes / "tessera-docs-release-policy.html"]
    page.get_by_label("Upload files").set_input_files([str(p) for p in (readme, *others)])
    page.get_by_role("button", name="Add").click()
    expect(page.get_by_role("cell", name=readme.name)).to_be_visible()

    page.get_by_role("link", name="New question", exact=True).click()
    page.get_by_role("textbox", name="Question").fill(
        "Choose between Quillsync, Loamdb and Tessera, weighing maintenance activity"
    )
    page.locator("input[name=sources][value=mine]").check()
    page.get_by_role("button", name="Start research").click()
    page.wait_for_url(re.compile(r"/runs/[0-9a-f]+/$"))
    page.get_by_role("link", name=re.compile("open the report", re.I)).wait_for(timeout=120_000)
    page.get_by_role("link", name=re.compile("open the report", re.I)).click()
    page.wait_for_url(re.compile(r"/report/$"))

    # A quote from the uploaded README, and its source named by title, not by a server path.
    expect(
        page.get_by_text(re.compile("actively maintained by a core team")).first
    ).to_be_attached()
    assert str(settings.VAR_DIR) not in page.content()
    shot(page, "my-documents-cited")


@pytest.mark.parametrize(
    "language, said",
    [
        (
            "en",
            "You already had a document named “plan.md”. Both are kept: the new one is "
            "“plan (2).md”.",
        ),
        ("zh-hans", "你已有一个名为“plan.md”的文档。两份都已保留：新的一份是“plan (2).md”。"),
    ],
    ids=["en", "zh"],
)
def test_a_second_upload_of_the_same_name_keeps_both_and_says_so(
    page, live_server, django_user_model, settings, tmp_path, language, said
):
    settings.VAR_DIR = tmp_path / "var"
    settings.VAR_DIR.mkdir()
    django_user_model.objects.create_user("ada", password=PASSWORD)
    sign_in(page, live_server.url, "ada", PASSWORD)
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(f"{live_server.url}/sources/mine/")
    if language != "en":
        page.get_by_role("button", name="简体中文").click()
    chooser = page.locator("#documents")
    for text in (b"# Plan\n\nFirst.\n", b"# Plan\n\nSecond.\n"):
        chooser.set_input_files([{"name": "plan.md", "mimeType": "text/markdown", "buffer": text}])
        page.locator("form.upload-form button[type=submit]").click()
        expect(page.get_by_role("cell", name="plan.md", exact=True)).to_be_visible()

    expect(page.get_by_role("status")).to_contain_text(said)
    expect(page.get_by_role("cell", name="plan (2).md", exact=True)).to_be_visible()
    shot(page, f"my-documents-kept-both-{language}")
