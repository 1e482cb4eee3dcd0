"""Configured sources: the names people choose from, and what they stand for."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from research import sources
from research.sources import SourceChoice


def test_configured_sources_are_listed_in_order_with_labels_that_hide_the_spec(settings):
    settings.SOURCES = {"notes": "local:/srv/notes", "web": "searxng:http://10.0.0.5:8888"}
    settings.DEFAULT_SOURCES = ["web"]
    assert sources.configured_sources() == [
        SourceChoice("notes", "local:/srv/notes", "notes · local documents", default=False),
        SourceChoice("web", "searxng:http://10.0.0.5:8888", "web · web search (SearXNG)", True),
    ]
    assert sources.label_for("local:/srv/notes") == "notes · local documents"
    assert sources.label_for("local:/elsewhere") == "local documents"


def test_names_resolve_to_their_specs_and_unknown_names_are_all_reported(settings):
    settings.SOURCES = {"notes": "local:/srv/notes", "ddg": "ddgs"}
    assert sources.resolve(["DDG", "notes", "ddg"]) == ["ddgs", "local://notes"]
    with pytest.raises(sources.UnknownSource) as caught:
        sources.resolve(["ddg", "local:/etc", "wiki"])
    assert caught.value.names == ["local:/etc", "wiki"]


def test_without_sources_the_default_specs_are_offered_named_after_their_kind(settings):
    settings.SOURCES = {}
    settings.DEFAULT_SOURCES = ["local:/a", "ddgs", "local:/b"]
    assert [(c.name, c.spec, c.default) for c in sources.configured_sources()] == [
        ("local", "local:/a", True),
        ("ddgs", "ddgs", True),
        ("local-2", "local:/b", True),
    ]


def test_default_sources_may_be_names_or_raw_specs(settings):
    settings.SOURCES = {"notes": "local:/srv/notes"}
    settings.DEFAULT_SOURCES = ["notes", "ddgs"]
    assert sources.default_specs() == ["local://notes", "ddgs"]


def test_a_run_records_a_local_folder_by_name_and_searches_the_folder_it_names(
    ada, settings, tmp_path
):
    from research import uploads

    settings.SOURCES = {"notes": "local:/srv/notes"}
    settings.DEFAULT_SOURCES = ["local:/srv/notes"]
    settings.VAR_DIR = tmp_path / "var"
    uploads.save(ada, "plan.md", b"# Plan\n\nQuillsync syncs offline.\n")
    assert sources.default_specs() == ["local://notes"]
    assert sources.resolve(["mine"], ada) == ["local://mine"]
    assert sources.real_spec("local://notes") == "local:/srv/notes"
    assert sources.real_spec("local://mine", ada) == f"local:{uploads.folder_for(ada)}"
    assert sources.label_for("local://notes") == "notes · local documents"
    with pytest.raises(sources.UnknownSource):
        sources.real_spec("local://gone")


def test_a_source_of_unknown_kind_is_a_configuration_error(settings):
    settings.SOURCES = {"wiki": "confluence:https://wiki"}
    with pytest.raises(ImproperlyConfigured, match="unknown kind 'confluence'"):
        sources.configured_sources()


def test_a_document_uploaded_to_the_real_var_folder_is_not_offered_to_a_test(ada, settings):
    """Someone's `make run` upload in ./var/uploads must not change what tests see."""
    import shutil

    import research.settings as configured_settings
    from research import uploads

    real_uploads = configured_settings.VAR_DIR / "uploads"
    made = real_uploads if not real_uploads.exists() else real_uploads / str(ada.pk)
    made = made if not made.exists() else None
    (real_uploads / str(ada.pk)).mkdir(parents=True, exist_ok=True)
    planted = real_uploads / str(ada.pk) / f"planted-by-a-test-{id(settings)}.md"
    planted.write_text("# Quillsync\nQuillsync is cheap.\n", encoding="utf-8")
    try:
        assert uploads.documents(ada) == []
        assert [c.name for c in sources.available_sources(ada)] == [
            c.name for c in sources.available_sources(None)
        ]
    finally:
        planted.unlink()
        if made is not None:
            shutil.rmtree(made)
