"""The local corpus: a folder of .md/.txt/.html/.pdf files searched offline with FTS5."""

from __future__ import annotations

import os
import random
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from research.outcomes import Outcome
from research.providers.base import SearchResult
from research.providers.documents import Document, iso_date, read_document
from research.providers.search import SourceSpecError, build_provider, parse_sources
from research.providers.search.local import LocalCorpus
from research.providers.search.local_query import query_terms
from tests.research.providers.samples import minimal_pdf


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    write(
        folder,
        "quillnote-licence.md",
        "# Quillnote licensing\n\nQuillnote is released under the AGPL-3.0 licence, which "
        "carries a real licence risk for closed-source products.\n",
    )
    write(
        folder,
        "inkpad/overview.txt",
        "Inkpad overview\n\nInkpad costs 8 dollars per seat and has an active community.\n",
    )
    write(
        folder,
        "zh/hetu.md",
        "# 河图引擎许可说明\n\n河图引擎采用 Apache-2.0 许可证，商业使用的法律风险较低。\n"
        "学习曲线相对较陡，但成本可控。\n",
    )
    write(folder, "zh/qingniao.txt", "青鸟流程是一款轻量的工作流引擎，社区活跃度很高。\n")
    return folder


# --- searching ---------------------------------------------------------------------------


def test_it_finds_english_documents_and_ranks_the_best_match_first(corpus: Path) -> None:
    result = LocalCorpus(corpus).search("Quillnote licence risk", 5)

    assert result.outcome is Outcome.OK
    first = result.hits[0]
    assert first.title == "Quillnote licensing"
    assert "licence risk" in first.snippet
    assert first.local_path == "quillnote-licence.md"  # its place in the folder, no more


def test_a_file_without_a_canonical_url_is_named_by_its_source_and_place_in_the_folder(
    corpus: Path,
) -> None:
    hit = LocalCorpus(corpus, name="notes").search("Inkpad seat", 5).hits[0]

    assert hit.url == "local://notes/inkpad/overview.txt"
    assert hit.title == "Inkpad overview"
    assert str(corpus) not in repr(hit)


def test_a_folder_named_on_the_command_line_names_its_files_by_the_folders_name(
    corpus: Path,
) -> None:
    hit = LocalCorpus(corpus).search("Inkpad seat", 5).hits[0]

    assert hit.url == "local://corpus/inkpad/overview.txt"


def test_it_indexes_files_in_subfolders(corpus: Path) -> None:
    hits = LocalCorpus(corpus).search("active community", 5).hits

    assert [Path(h.local_path or "").name for h in hits] == ["overview.txt"]


def test_it_finds_chinese_text_with_a_three_character_term(corpus: Path) -> None:
    result = LocalCorpus(corpus).search("许可证", 5)

    assert result.outcome is Outcome.OK
    assert [Path(h.local_path or "").name for h in result.hits] == ["hetu.md"]
    assert "许可证" in result.hits[0].snippet


def test_it_finds_two_character_chinese_words_that_trigrams_cannot_match(corpus: Path) -> None:
    hits = LocalCorpus(corpus).search("成本", 5).hits

    assert [Path(h.local_path or "").name for h in hits] == ["hetu.md"]


def test_a_chinese_question_matches_on_its_words_not_its_grammar(corpus: Path) -> None:
    hits = LocalCorpus(corpus).search("青鸟流程和河图引擎哪个好", 5).hits

    assert {Path(h.local_path or "").name for h in hits} == {"hetu.md", "qingniao.txt"}


def test_a_short_latin_term_like_go_is_searchable(tmp_path: Path) -> None:
    write(tmp_path, "go.md", "# Why Go\n\nWe write the relay in Go for its simple deploys.\n")
    write(tmp_path, "rust.md", "# Why Rust\n\nThe relay could be written in Rust.\n")

    hits = LocalCorpus(tmp_path).search("Go", 5).hits

    assert [h.title for h in hits] == ["Why Go"]


def test_it_returns_no_hit_when_nothing_matches(corpus: Path) -> None:
    result = LocalCorpus(corpus).search("zebrafish xylophone", 5)

    assert result.outcome is Outcome.NO_HIT
    assert result.hits == []
    assert result.detail == "nothing in its documents matches"


def test_what_a_search_says_never_names_the_folder_on_the_server(tmp_path: Path) -> None:
    """It goes into the run's log and to MCP clients, who may be elsewhere."""
    gone = LocalCorpus(tmp_path / "srv" / "corpus").search("Quillnote", 5)

    assert gone.outcome is Outcome.UNAVAILABLE
    assert gone.detail == "its folder is missing on the server"
    assert str(tmp_path) not in gone.detail and "corpus" not in gone.detail


def test_a_query_of_only_stopwords_is_no_hit_not_everything(corpus: Path) -> None:
    assert LocalCorpus(corpus).search("which of the", 5).outcome is Outcome.NO_HIT


def test_it_returns_at_most_limit_hits(tmp_path: Path) -> None:
    for number in range(6):
        write(tmp_path, f"note{number}.md", f"# Note {number}\n\nQuillnote sync note {number}.\n")

    assert len(LocalCorpus(tmp_path).search("Quillnote", 4).hits) == 4


def test_a_missing_folder_is_unavailable_not_no_hit(tmp_path: Path) -> None:
    result = LocalCorpus(tmp_path / "gone").search("Quillnote", 5)

    assert result.outcome is Outcome.UNAVAILABLE
    assert "missing" in result.detail


def test_the_query_keeps_meaningful_terms_only() -> None:
    assert query_terms("Which is better: Node.js or Deno for C++ bindings?") == [
        "better",
        "node.js",
        "deno",
        "c++",
        "bindings",
    ]
    assert query_terms("河图引擎 许可") == ["河图引擎", "许可"]
    assert query_terms("社区活跃度") == ["社区", "区活", "活跃", "跃度"]


# --- canonical URLs, titles and dates ----------------------------------------------------


def test_front_matter_names_the_canonical_url_title_and_date(tmp_path: Path) -> None:
    write(
        tmp_path,
        "licence.md",
        "---\nurl: https://quillnote.dev/docs/licence\ntitle: Licence | Quillnote docs\n"
        "published: 2025-01-02\n---\nQuillnote uses the AGPL.\n",
    )

    hit = LocalCorpus(tmp_path).search("AGPL", 5).hits[0]

    assert hit.url == "https://quillnote.dev/docs/licence"
    assert hit.title == "Licence | Quillnote docs"
    assert hit.published == "2025-01-02"
    assert hit.local_path == "licence.md"
    assert "url:" not in hit.snippet


def test_front_matter_with_a_non_http_url_falls_back_to_the_file_uri(tmp_path: Path) -> None:
    path = write(tmp_path, "x.txt", "---\nurl: javascript:alert(1)\n---\nQuillnote body\n")

    assert read_document(path).url == path.as_uri()


def test_html_names_its_canonical_url_title_and_published_time(tmp_path: Path) -> None:
    write(
        tmp_path,
        "page.html",
        """<!doctype html><html><head><meta charset="utf-8">
        <title>Inkpad pricing</title>
        <link rel="canonical" href="https://inkpad.app/pricing">
        <meta property="article:published_time" content="2025-03-04T10:00:00Z">
        <script>var secret = "Quillnote";</script></head>
        <body><nav>Home Blog</nav><main><p>Inkpad costs 8 dollars per seat.</p></main></body>
        </html>""",
    )

    hit = LocalCorpus(tmp_path).search("Inkpad seat", 5).hits[0]

    assert hit.url == "https://inkpad.app/pricing"
    assert hit.title == "Inkpad pricing"
    assert hit.published == "2025-03-04"
    assert hit.snippet == "Inkpad costs 8 dollars per seat."


def test_script_text_is_not_indexed(tmp_path: Path) -> None:
    write(tmp_path, "p.html", "<html><body><script>Quillnote()</script><p>Inkpad</p></body></html>")

    assert LocalCorpus(tmp_path).search("Quillnote", 5).outcome is Outcome.NO_HIT


def test_html_without_meta_date_uses_its_time_element(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "post.htm",
        '<html><head><title>中文页面</title></head><body><time datetime="2024-11-05">'
        "11月5日</time><p>河图引擎发布了新版本。</p></body></html>",
    )

    doc = read_document(path)

    assert (doc.title, doc.published, doc.url) == ("中文页面", "2024-11-05", path.as_uri())
    assert "河图引擎发布了新版本" in doc.body


def test_dates_are_read_in_common_shapes() -> None:
    assert iso_date("2025/1/2") == "2025-01-02"
    assert iso_date("2025年1月2日") == "2025-01-02"
    assert iso_date("2025-02-30") is None
    assert iso_date("soon") is None


# --- PDFs and unreadable files -----------------------------------------------------------


def test_pdf_text_is_indexed_with_its_title_and_date(tmp_path: Path) -> None:
    pdf = minimal_pdf("Quillnote audit found no critical issues", "Quillnote audit", "20250607")
    (tmp_path / "audit.pdf").write_bytes(pdf)

    result = LocalCorpus(tmp_path).search("Quillnote audit", 5)

    assert result.outcome is Outcome.OK
    hit = result.hits[0]
    assert (hit.title, hit.published) == ("Quillnote audit", "2025-06-07")
    assert "no critical issues" in hit.snippet
    assert hit.url == f"local://{tmp_path.name}/audit.pdf"


def test_unreadable_files_are_skipped_and_the_rest_still_searched(tmp_path: Path) -> None:
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 this is not really a PDF Quillnote")
    (tmp_path / "empty.html").write_bytes(b"")
    write(tmp_path, "good.md", "# Good\n\nQuillnote works offline.\n")

    hits = LocalCorpus(tmp_path).search("Quillnote", 5).hits

    assert [h.title for h in hits] == ["Good"]


def test_files_of_other_types_are_ignored(tmp_path: Path) -> None:
    write(tmp_path, "data.csv", "Quillnote,1\n")
    write(tmp_path, ".hidden/notes.md", "Quillnote hidden\n")

    assert LocalCorpus(tmp_path).search("Quillnote", 5).outcome is Outcome.NO_HIT


# --- keeping the index fresh -------------------------------------------------------------


def test_the_index_is_kept_in_the_app_data_folder_and_reused(corpus: Path, settings) -> None:
    before = sorted(corpus.rglob("*"))
    first = LocalCorpus(corpus)
    assert first.refresh() == 4

    again = LocalCorpus(corpus)
    assert again.index_path.parent == settings.LOCAL_INDEX_DIR
    assert again.refresh() == 0  # nothing changed: no file is parsed again
    assert sorted(corpus.rglob("*")) == before  # nothing was written into the corpus


def test_a_changed_file_is_reindexed_on_the_next_search(corpus: Path) -> None:
    local = LocalCorpus(corpus)
    assert local.search("AGPL", 5).outcome is Outcome.OK
    path = corpus / "quillnote-licence.md"
    mtime = path.stat().st_mtime_ns

    path.write_text("# Quillnote licensing\n\nQuillnote moved to the MIT licence.\n", "utf-8")
    os.utime(path, ns=(mtime + 10**9, mtime + 10**9))  # a coarse clock must not hide it

    assert local.search("AGPL", 5).outcome is Outcome.NO_HIT
    assert local.search("MIT licence", 5).hits[0].title == "Quillnote licensing"


def test_a_deleted_file_leaves_the_index(corpus: Path) -> None:
    local = LocalCorpus(corpus)
    assert local.search("Inkpad", 5).outcome is Outcome.OK

    (corpus / "inkpad" / "overview.txt").unlink()

    assert local.search("Inkpad", 5).outcome is Outcome.NO_HIT


def test_a_new_file_is_found_without_a_manual_rebuild(corpus: Path) -> None:
    local = LocalCorpus(corpus)
    assert local.search("Notably", 5).outcome is Outcome.NO_HIT

    write(corpus, "notably.md", "# Notably\n\nNotably syncs through WebDAV.\n")

    assert local.search("Notably", 5).hits[0].title == "Notably"


def test_an_index_from_another_schema_version_is_rebuilt(corpus: Path) -> None:
    with sqlite3.connect(LocalCorpus(corpus).index_path) as conn:
        conn.execute("CREATE TABLE docs (junk TEXT)")
        conn.execute("PRAGMA user_version = 999")

    assert LocalCorpus(corpus).search("Quillnote", 5).outcome is Outcome.OK


def search_together(local: LocalCorpus, query: str, searchers: int) -> list[SearchResult]:
    """Run `searchers` searches in threads that all start at the same moment."""
    together = threading.Barrier(searchers, timeout=5)
    results: list[SearchResult] = []

    def search() -> None:
        together.wait()
        results.append(local.search(query, 5))

    threads = [threading.Thread(target=search) for _ in range(searchers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_searches_started_together_on_a_new_index_all_find_the_documents(
    tmp_path: Path,
) -> None:
    # Retrieve sends several queries to one corpus at once, and the first run on a folder
    # finds no index: every search must wait for one build instead of dropping another's.
    for attempt in range(5):  # each attempt starts from a folder with no index
        folder = tmp_path / f"corpus{attempt}"
        for n in range(12):
            write(folder, f"note{n}.md", f"# Quillnote note {n}\n\nQuillnote is MIT licensed.\n")
        results = search_together(LocalCorpus(folder), "Quillnote licence", searchers=8)
        assert [(r.outcome, len(r.hits)) for r in results] == [(Outcome.OK, 5)] * 8


def test_the_index_of_a_folder_that_is_gone_is_removed(tmp_path: Path, settings) -> None:
    gone = tmp_path / "gone"
    write(gone, "note.md", "# Quillnote\n\nQuillnote notes.\n")
    old = LocalCorpus(gone)
    old.refresh()
    assert old.index_path.exists()
    for path in gone.iterdir():
        path.unlink()
    gone.rmdir()

    write(tmp_path / "new", "note.md", "# Inkpad\n\nInkpad notes.\n")
    LocalCorpus(tmp_path / "new").refresh()

    assert not old.index_path.exists()
    assert len(list(settings.LOCAL_INDEX_DIR.glob("*.sqlite3"))) == 1


# --- source specs -------------------------------------------------------------------------


def test_a_local_spec_builds_a_local_corpus(corpus: Path) -> None:
    provider = build_provider(f"local:{corpus}")

    assert isinstance(provider, LocalCorpus)
    assert provider.folder == corpus.resolve()
    assert provider.search("Quillnote", 3).outcome is Outcome.OK


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("local:", "name the folder"),
        ("local:/no/such/folder", "does not exist"),
        ("bing", "unknown kind 'bing'"),
        ("", "unknown kind ''"),
    ],
)
def test_bad_local_specs_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(SourceSpecError, match=message):
        build_provider(spec)


def test_a_file_is_not_a_local_folder(corpus: Path) -> None:
    with pytest.raises(SourceSpecError, match="is a file, not a folder"):
        build_provider(f"local:{corpus / 'quillnote-licence.md'}")


def test_parse_sources_normalises_and_deduplicates(corpus: Path) -> None:
    specs = [f"local:{corpus}", f"LOCAL:{corpus}/", "ddgs", " ddgs "]

    assert parse_sources(specs) == [f"local:{corpus}", "ddgs"]


def test_parse_sources_needs_at_least_one_source() -> None:
    with pytest.raises(SourceSpecError, match="no sources"):
        parse_sources([])


# --- files that are not trusted -----------------------------------------------------------


class CountingReader:
    """read_document, counting the files it is asked to read."""

    def __init__(self) -> None:
        self.paths: list[Path] = []
        self.lock = threading.Lock()

    def __call__(self, path: Path, root: Path, max_bytes: int) -> Document:
        with self.lock:
            self.paths.append(path)
        return read_document(path, root, max_bytes)


def test_a_file_over_the_size_cap_is_skipped_with_a_logged_reason_and_never_read(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    write(tmp_path, "small.md", "# Small\n\nQuillnote fits.\n")
    with (tmp_path / "huge.txt").open("wb") as handle:
        handle.write(b"Quillnote ")
        handle.truncate(50_000_000)  # sparse: 50 MB on paper, nothing on disk
    reader = CountingReader()

    hits = LocalCorpus(tmp_path, reader=reader).search("Quillnote", 5).hits

    assert [h.title for h in hits] == ["Small"]
    assert reader.paths == [tmp_path / "small.md"]
    assert "huge.txt is 50,000,000 bytes, over the 5,000,000-byte limit" in caplog.text


def test_the_size_cap_comes_from_the_settings(corpus: Path, settings) -> None:
    settings.LOCAL_MAX_BYTES = 2048

    assert build_provider(f"local:{corpus}").max_bytes == 2048  # type: ignore[attr-defined]


def test_a_symlink_out_of_the_corpus_is_neither_indexed_nor_returned(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "corpus"
    write(folder, "notes.md", "# Notes\n\nNothing secret here.\n")
    secret = write(tmp_path, "outside/secret.txt", "Quillnote root password hunter2\n")
    (folder / "secret.txt").symlink_to(secret)
    (folder / "passwd.txt").symlink_to("/etc/passwd")
    (folder / "elsewhere").symlink_to(secret.parent, target_is_directory=True)

    local = LocalCorpus(folder)

    assert local.search("Quillnote password", 5).outcome is Outcome.NO_HIT
    assert local.search("root", 5).outcome is Outcome.NO_HIT
    assert "secret.txt leads out of the corpus folder" in caplog.text


def test_a_symlink_that_stays_inside_the_corpus_is_read(tmp_path: Path) -> None:
    original = write(tmp_path, "notes/licence.md", "# Licence\n\nQuillnote is MIT licensed.\n")
    (tmp_path / "alias.md").symlink_to(original)

    hits = LocalCorpus(tmp_path).search("Quillnote", 5).hits

    assert {h.local_path for h in hits} == {"notes/licence.md", "alias.md"}


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("junk.txt", random.Random(5).randbytes(8000)),
        ("picture.md", b"\x89PNG\r\n\x1a\n" + bytes(200) + b"Quillnote"),
        ("archive.html", b"PK\x03\x04" + bytes(200) + b"Quillnote"),
    ],
)
def test_binary_files_with_text_names_are_not_indexed(
    tmp_path: Path, name: str, content: bytes
) -> None:
    (tmp_path / name).write_bytes(content + b" Quillnote")

    assert LocalCorpus(tmp_path).search("Quillnote", 5).outcome is Outcome.NO_HIT


def test_a_pdf_named_as_markdown_is_read_as_the_pdf_it_is(tmp_path: Path) -> None:
    (tmp_path / "audit.md").write_bytes(minimal_pdf("Quillnote audit passed", "Audit", "20250101"))

    hit = LocalCorpus(tmp_path).search("Quillnote audit", 5).hits[0]

    assert hit.title == "Audit"
    assert "audit passed" in hit.snippet


def test_a_fifo_in_the_corpus_is_skipped_not_waited_on(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.txt")
    write(tmp_path, "note.md", "# Note\n\nQuillnote notes.\n")

    assert LocalCorpus(tmp_path).search("Quillnote", 5).outcome is Outcome.OK


# --- bounded time -----------------------------------------------------------------------


def test_a_search_that_outlasts_its_deadline_is_a_timeout(tmp_path: Path) -> None:
    write(tmp_path, "note.md", "# Note\n\nQuillnote notes.\n")
    release = threading.Event()

    def slow(path: Path, root: Path, max_bytes: int) -> Document:
        release.wait(30)
        return read_document(path, root, max_bytes)

    started = time.monotonic()
    try:
        result = LocalCorpus(tmp_path, deadline=0.3, reader=slow).search("Quillnote", 5)
    finally:
        release.set()

    assert result.outcome is Outcome.TIMEOUT
    assert "did not answer within the 0.3 s deadline" in result.detail
    assert time.monotonic() - started < 0.3 * 4


def test_searches_started_together_parse_each_file_once(tmp_path: Path) -> None:
    for n in range(6):
        write(tmp_path, f"note{n}.md", f"# Quillnote note {n}\n\nQuillnote is MIT licensed.\n")
    reader = CountingReader()

    results = search_together(LocalCorpus(tmp_path, reader=reader), "Quillnote", searchers=8)

    assert {r.outcome for r in results} == {Outcome.OK}
    assert sorted(reader.paths) == sorted(tmp_path.glob("*.md"))


def test_a_local_spec_takes_its_deadline_and_index_folder_from_the_settings(
    corpus: Path, settings
) -> None:
    settings.SEARCH_DEADLINE = 11.0

    built = build_provider(f"local:{corpus}")

    assert isinstance(built, LocalCorpus)
    assert built.deadline == 11.0
    assert built.index_path.parent == settings.LOCAL_INDEX_DIR


# --- names that are not UTF-8 -------------------------------------------------------------


def bad_name(folder: Path, name: bytes, text: str) -> None:
    """A file whose name is these bytes, as a Windows share or an old archive leaves them."""
    with open(os.path.join(os.fsencode(folder), name), "wb") as handle:
        handle.write(text.encode("utf-8"))


def test_a_file_whose_name_is_not_utf8_is_skipped_with_its_reason_and_the_rest_searched(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    write(tmp_path, "good.md", "# Good\n\nQuillnote is MIT licensed.\n")
    bad_name(tmp_path, b"bad-\xff\xfe-name.md", "# Bad\n\nQuillnote is secretly GPL.\n")
    os.mkdir(os.path.join(os.fsencode(tmp_path), b"old-\xe9t\xe9"))
    bad_name(tmp_path, b"old-\xe9t\xe9/notes.md", "# Old\n\nQuillnote archive notes.\n")

    result = LocalCorpus(tmp_path).search("Quillnote", 5)

    assert result.outcome is Outcome.OK
    assert [h.title for h in result.hits] == ["Good"]
    assert "bad-\\xff\\xfe-name.md: the file name is not valid UTF-8" in caplog.text
    assert "old-\\xe9t\\xe9: the folder name is not valid UTF-8" in caplog.text


def test_refusals_are_logged_once_per_index_build_not_once_per_search(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    write(tmp_path, "good.md", "# Good\n\nQuillnote is MIT licensed.\n")
    bad_name(tmp_path, b"bad-\xff.md", "Quillnote")
    corpus = LocalCorpus(tmp_path)

    for _ in range(3):
        corpus.search("Quillnote", 5)
    assert caplog.text.count("bad-\\xff.md") == 1

    write(tmp_path, "new.md", "# New\n\nQuillnote 2.0 is out.\n")  # the index is built again
    corpus.search("Quillnote", 5)
    corpus.search("Quillnote", 5)
    assert caplog.text.count("bad-\\xff.md") == 2


def test_a_corpus_folder_whose_own_name_is_not_utf8_could_not_be_searched_and_says_why(
    tmp_path: Path,
) -> None:
    folder = Path(os.fsdecode(os.path.join(os.fsencode(tmp_path), b"corpus-\xff")))
    folder.mkdir()
    write(folder, "note.md", "# Note\n\nQuillnote notes.\n")

    result = LocalCorpus(folder).search("Quillnote", 5)

    assert result.outcome is Outcome.UNAVAILABLE
    assert "its folder's name is not valid UTF-8, so it cannot be indexed" in result.detail
