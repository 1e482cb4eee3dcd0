"""A person's own documents: uploaded or added by URL, offered on their question form as
the source "mine", searched by their runs, and out of everyone else's reach."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from research import services, uploads
from research.questions import QuestionInvalid, Submission, clean_question
from research.store import store_for
from tests.runs import CORPUS_EN, drive

pytestmark = pytest.mark.django_db
MINE = reverse("web:my-sources")
QUESTION = "For our local-first notes app, choose between Quillsync, Loamdb and Tessera"


@pytest.fixture(autouse=True)
def var_dir(settings, tmp_path: Path, runs_dir) -> Path:
    settings.VAR_DIR = tmp_path / "var"
    settings.VAR_DIR.mkdir()
    return settings.VAR_DIR


def upload(client, name: str, data: bytes, **extra):
    return client.post(MINE, {"documents": SimpleUploadedFile(name, data), **extra})


def errors_of(response) -> str:
    return " ".join(re.findall(r"<li>(.*?)</li>", response.content.decode(), re.S))


def test_uploaded_documents_are_listed_offered_and_cited_in_the_report(
    ada, ada_client, started, var_dir
):
    for page in sorted(CORPUS_EN.glob("*.html")):
        response = upload(ada_client, page.name, page.read_bytes())
        assert response.status_code == 302, errors_of(response)
    listing = ada_client.get(MINE).content.decode()
    assert "quillsync-docs-licensing.html" in listing
    form = ada_client.get(reverse("web:new")).content.decode()
    assert 'value="mine"' in form

    response = ada_client.post(reverse("web:new"), {"question": QUESTION, "sources": ["mine"]})
    assert response.status_code == 302
    run_id = response.url.rstrip("/").rsplit("/", 1)[-1]
    drive(run_id)
    report = store_for(run_id).read_text("report.md")
    quotes = [q for q in re.findall(r"“([^”]{20,})”|\"([^\"]{20,})\"", report) for q in q if q]
    uploaded = " ".join(
        re.sub(r"\s+", " ", p.read_text(encoding="utf-8")) for p in CORPUS_EN.glob("*.html")
    )
    assert quotes and any(q.strip(" .…") in uploaded for q in quotes), report[:2000]
    page = ada_client.get(reverse("web:report", args=[run_id])).content.decode()
    assert str(var_dir) not in page


@pytest.mark.parametrize(
    "name, data, message",
    [
        ("notes.exe", b"MZ\x90\x00binary", "not a document the search can read"),
        ("fake.pdf", b"# just text\n", "not a document the search can read"),
        ("picture.md", b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "not a document the search can read"),
        ("empty.md", b"", "is empty"),
    ],
)
def test_a_file_that_cannot_be_searched_is_refused_in_plain_words(
    ada, ada_client, name, data, message
):
    response = upload(ada_client, name, data)
    assert response.status_code == 400
    assert message in errors_of(response)
    assert uploads.documents(ada) == []


def test_a_file_over_the_local_size_limit_is_refused(ada, ada_client, settings):
    settings.LOCAL_MAX_BYTES = 2048
    response = upload(ada_client, "big.md", b"a" * 4096)
    assert response.status_code == 400
    assert "over the 2,048-byte limit" in errors_of(response)
    assert uploads.documents(ada) == []


def test_a_file_name_with_a_path_is_stored_inside_the_folder_only(ada, ada_client, var_dir):
    response = upload(ada_client, "../../escaped.md", b"# Notes\n\nQuillsync is fine.\n")
    assert response.status_code == 302
    assert not (var_dir / "escaped.md").exists() and not (var_dir.parent / "escaped.md").exists()
    assert [d.name for d in uploads.documents(ada)] == ["escaped.md"]


@pytest.mark.parametrize(
    "name, message",
    [
        (b"bad-\xff\xfe.md", "not valid UTF-8"),
        ("../x.md", "not a plain file name"),
        ("..", "not a plain file name"),
        (".hidden.md", "not a plain file name"),
        ("a\x00b.md", "not a plain file name"),
    ],
)
def test_hostile_file_names_are_refused(ada, name, message):
    with pytest.raises(uploads.UploadRefused, match=message):
        uploads.save(ada, name, b"# Notes\n")
    assert uploads.documents(ada) == []


def test_nothing_chosen_says_what_to_do(ada_client):
    response = ada_client.post(MINE, {})
    assert response.status_code == 400
    assert "Choose a file to upload or paste a URL" in errors_of(response)


# --- one person's documents are theirs alone --------------------------------------------


@pytest.fixture
def adas_document(ada, ada_client):
    assert upload(ada_client, "secret-plan.md", b"# Plan\n\nQuillsync wins.\n").status_code == 302
    return "secret-plan.md"


def test_another_user_neither_sees_nor_can_name_nor_delete_them(
    adas_document, bob, bob_client, ada
):
    assert "secret-plan.md" not in bob_client.get(MINE).content.decode()
    assert 'value="mine"' not in bob_client.get(reverse("web:new")).content.decode()
    response = bob_client.post(reverse("web:new"), {"question": QUESTION, "sources": ["mine"]})
    assert response.status_code == 200
    assert "Unknown source" in response.content.decode()
    delete = bob_client.post(reverse("web:my-source-delete", args=[adas_document]))
    assert delete.status_code == 404
    assert [d.name for d in uploads.documents(ada)] == [adas_document]


def test_another_user_cannot_name_them_through_the_service_or_a_raw_path(adas_document, ada, bob):
    with pytest.raises(QuestionInvalid, match="Unknown source"):
        services.submit_question(bob, Submission(QUESTION, sources=["mine"]), enqueue=False)
    raw = f"local:{uploads.folder_for(ada)}"
    with pytest.raises(QuestionInvalid):
        services.submit_question(bob, Submission(QUESTION, sources=[raw]), enqueue=False)
    run = services.submit_question(ada, Submission(QUESTION, sources=["mine"]), enqueue=False)
    assert run.sources == [raw]


def test_the_cli_resolves_mine_for_the_named_user_only(adas_document, ada, bob, runs_dir):
    with pytest.raises(CommandError, match="mine"):
        call_command("research", QUESTION, "--source", "mine", "--user", "bob", "--queue")
    question = clean_question(Submission(QUESTION, sources=["mine"]), True, owner=ada)
    assert question.sources == [f"local:{uploads.folder_for(ada)}"]


def test_the_owner_can_delete_a_document(adas_document, ada, ada_client):
    response = ada_client.post(reverse("web:my-source-delete", args=[adas_document]))
    assert response.status_code == 302
    assert uploads.documents(ada) == []
    assert 'value="mine"' not in ada_client.get(reverse("web:new")).content.decode()


# --- pages added by URL --------------------------------------------------------------------


def test_a_page_added_by_url_is_stored_as_a_document_naming_its_address(
    ada, ada_client, testweb, allow_loopback
):
    url = testweb.add(
        "/notes/quillsync",
        "<html><head><title>Quillsync licence</title></head><body><article><h1>Quillsync"
        "</h1><p>Quillsync is released under the Apache 2.0 licence.</p></article></body></html>",
        content_type="text/html; charset=utf-8",
    )
    response = ada_client.post(MINE, {"url": url})
    assert response.status_code == 302, errors_of(response)
    (doc,) = uploads.documents(ada)
    assert doc.name.endswith(".html")
    stored = (uploads.folder_for(ada) / doc.name).read_text(encoding="utf-8")
    assert url in stored and "Apache 2.0" in stored


def test_a_url_that_fails_is_refused_with_the_reason(ada, ada_client, testweb, allow_loopback):
    missing = testweb.url("/nowhere")
    response = ada_client.post(MINE, {"url": missing})
    assert response.status_code == 400
    assert "could not be fetched" in errors_of(response)
    response = ada_client.post(MINE, {"url": "ftp://example.org/file.md"})
    assert "is not an http(s) address" in errors_of(response)
    assert uploads.documents(ada) == []


def test_a_url_on_a_private_network_is_refused_by_the_guarded_fetcher(ada, ada_client, testweb):
    url = testweb.add("/private", "<p>internal</p>", content_type="text/html")
    response = ada_client.post(MINE, {"url": url})
    assert response.status_code == 400
    assert "could not be fetched" in errors_of(response)
    assert uploads.documents(ada) == []


def test_the_page_and_its_refusals_speak_chinese_to_a_chinese_browser(ada, ada_client):
    # The refusal is worded in the request's language; the test's own thread goes back to
    # English afterwards, as the next test expects.
    from django.utils import translation

    with translation.override("en"):
        _speaks_chinese(ada_client)


def _speaks_chinese(ada_client):
    chinese = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans,zh;q=0.9"}
    page = ada_client.get(MINE, **chinese).content.decode()
    assert "我的文档" in page and "上传文件" in page
    response = ada_client.post(MINE, {"documents": SimpleUploadedFile("empty.md", b"")}, **chinese)
    assert "empty.md 是空文件。" in errors_of(response)


def test_past_the_count_cap_a_document_is_refused_but_one_can_still_be_replaced(
    ada, ada_client, settings
):
    settings.UPLOADS_PER_USER = 2
    for name in ("a.md", "b.md"):
        assert upload(ada_client, name, b"# Quillsync\n\nMIT licence.\n").status_code == 302
    refused = upload(ada_client, "c.md", b"# Loamdb\n\nApache licence.\n")
    assert refused.status_code == 400
    assert "You keep 2 documents, the most you may: delete one to add c.md." in errors_of(refused)
    assert [d.name for d in uploads.documents(ada)] == ["a.md", "b.md"]
    replaced = upload(ada_client, "a.md", b"# Quillsync\n\nNow under the GPL.\n")
    assert replaced.status_code == 302
    assert b"GPL" in (uploads.folder_for(ada) / "a.md").read_bytes()


def test_past_the_byte_cap_a_document_is_refused_with_the_room_left(
    ada, ada_client, bob, bob_client, settings
):
    settings.UPLOAD_BYTES_PER_USER = 2048
    assert upload(ada_client, "a.md", b"# Quillsync\n\n" + b"a" * 1500).status_code == 302
    refused = upload(ada_client, "b.md", b"# Loamdb\n\n" + b"b" * 1500)
    assert refused.status_code == 400
    assert "your documents may take 2,048 bytes in all and 535 are free" in errors_of(refused)
    assert [d.name for d in uploads.documents(ada)] == ["a.md"]
    # The cap is each user's own.
    assert upload(bob_client, "b.md", b"# Loamdb\n\n" + b"b" * 1500).status_code == 302
