"""A person's own documents: uploaded or added by URL, offered on their question form as
the source "mine", searched by their runs, and out of everyone else's reach."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from research import services, sources, uploads
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
    # Recorded by name: the folder is looked up for the run's owner only when it reads.
    assert run.sources == ["local://mine"]
    assert sources.real_spec("local://mine", ada) == raw


def test_the_cli_resolves_mine_for_the_named_user_only(adas_document, ada, bob, runs_dir):
    with pytest.raises(CommandError, match="mine"):
        call_command("research", QUESTION, "--source", "mine", "--user", "bob", "--queue")
    question = clean_question(Submission(QUESTION, sources=["mine"]), True, owner=ada)
    assert question.sources == ["local://mine"]
    assert sources.real_spec("local://mine", ada) == f"local:{uploads.folder_for(ada)}"


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


# --- what the page says when a file is not simply added --------------------------------------

NOTE = b"# Notes\n\nQuillsync is fine.\n"


def test_a_second_file_of_the_same_name_keeps_both_and_says_so(ada, ada_client):
    assert upload(ada_client, "notes.md", NOTE).status_code == 302
    second = ada_client.post(
        MINE, {"documents": SimpleUploadedFile("notes.md", b"# Newer notes\n")}, follow=True
    )
    page = second.content.decode()
    assert "You already had a document named “notes.md”. Both are kept: the new one is " in page
    assert "“notes (2).md”" in page
    assert [d.name for d in uploads.documents(ada)] == ["notes (2).md", "notes.md"]
    assert (uploads.folder_for(ada) / "notes.md").read_bytes() == NOTE
    assert (uploads.folder_for(ada) / "notes (2).md").read_bytes() == b"# Newer notes\n"
    upload(ada_client, "notes.md", b"# Third\n")
    assert "notes (3).md" in [d.name for d in uploads.documents(ada)]


def test_the_same_name_is_said_in_chinese_to_a_chinese_browser(ada, ada_client):
    upload(ada_client, "笔记.md", NOTE)
    page = ada_client.post(
        MINE,
        {"documents": SimpleUploadedFile("笔记.md", b"# Newer\n")},
        HTTP_ACCEPT_LANGUAGE="zh-Hans",
        follow=True,
    ).content.decode()
    assert "你已有一个名为“笔记.md”的文档。两份都已保留：新的一份是“笔记 (2).md”。" in page


def raw_upload(client, file_name: bytes, data: bytes = NOTE, **extra):
    """A file sent the way a client sends a name it does not encode as UTF-8."""
    body = (
        b'--XyZ\r\nContent-Disposition: form-data; name="documents"; filename="'
        + file_name
        + b'"\r\nContent-Type: text/markdown\r\n\r\n'
        + data
        + b"\r\n--XyZ--\r\n"
    )
    return client.generic(
        "POST", MINE, body, content_type="multipart/form-data; boundary=XyZ", **extra
    )


def test_a_file_whose_name_cannot_be_read_is_refused_saying_so_and_how_to_fix_it(ada, ada_client):
    response = raw_upload(ada_client, b"caf\xe9 notes.md")  # Latin-1, not UTF-8
    assert response.status_code == 400
    said = errors_of(response)
    assert "The name of a file you chose could not be read (it is not in UTF-8)" in said
    assert "Rename it with ordinary letters and digits" in said
    assert "Choose a file to upload" not in said
    assert uploads.documents(ada) == []
    chinese = raw_upload(ada_client, b"caf\xe9.md", HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert "文件名无法读取（不是 UTF-8 编码）" in errors_of(chinese)


def test_a_readable_name_sent_the_same_way_is_stored(ada, ada_client):
    assert raw_upload(ada_client, "café notes.md".encode()).status_code == 302
    assert [d.name for d in uploads.documents(ada)] == ["café notes.md"]


def test_the_form_still_needs_its_csrf_token(ada):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(ada)
    assert upload(client, "notes.md", NOTE).status_code == 403
    assert uploads.documents(ada) == []


MEETUP = (
    b"# Meetup notes\n\nQuillsync, Loamdb and Tessera were all discussed at the meetup on "
    b"Tuesday. The room was full and the coffee ran out early.\n"
)


def test_a_run_over_documents_that_judge_nothing_says_what_was_and_was_not_found(
    ada, ada_client, started
):
    assert upload(ada_client, "meetup.md", MEETUP).status_code == 302
    response = ada_client.post(reverse("web:new"), {"question": QUESTION, "sources": ["mine"]})
    run_id = response.url.rstrip("/").rsplit("/", 1)[-1]
    drive(run_id)
    report = store_for(run_id).read_text("report.md")
    assert "could be verified" not in report and "verified claim" not in report
    assert (
        "Found in the sources read ([1]): 1 passage worth noting. Not found: a passage that "
        "names an option and judges it on one of the dimensions" in report
    )
    assert "This does not say the sources are wrong" in report
    assert "The sources read ([1]) do not judge any option on the dimensions asked about" in report


def test_in_chinese_a_run_over_documents_that_judge_nothing_does_not_blame_them(
    ada, ada_client, started
):
    meetup = "# 聚会记录\n\n周二的聚会上讨论了青鸟流程、河图引擎和星轨调度。会场坐满了人。\n"
    upload(ada_client, "聚会.md", meetup.encode())
    question = "青鸟流程、河图引擎、星轨调度三选一，哪个更适合我们的审批系统？"
    response = ada_client.post(reverse("web:new"), {"question": question, "sources": ["mine"]})
    run_id = response.url.rstrip("/").rsplit("/", 1)[-1]
    drive(run_id)
    report = store_for(run_id).read_text("report.md")
    assert "没有可以核实的主张" not in report and "得到核实" not in report
    assert "这并不说明来源有误" in report
    assert "没有就所问的维度评价任何选项，因此不作推荐。" in report


def test_past_the_count_cap_a_document_is_refused_even_under_a_name_already_kept(
    ada, ada_client, settings
):
    settings.UPLOADS_PER_USER = 2
    for name in ("a.md", "b.md"):
        assert upload(ada_client, name, b"# Quillsync\n\nMIT licence.\n").status_code == 302
    refused = upload(ada_client, "c.md", b"# Loamdb\n\nApache licence.\n")
    assert refused.status_code == 400
    assert "You keep 2 documents, the most you may: delete one to add c.md." in errors_of(refused)
    # Both files of one name are kept, so a second a.md would be a third document.
    again = upload(ada_client, "a.md", b"# Quillsync\n\nNow under the GPL.\n")
    assert again.status_code == 400
    assert [d.name for d in uploads.documents(ada)] == ["a.md", "b.md"]
    assert b"MIT" in (uploads.folder_for(ada) / "a.md").read_bytes()


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
