"""What `make run` prints about the sources: the ones the form offers, and a warning when
every one is a web search whose engine's name this server cannot resolve."""

from __future__ import annotations

import socket

from research.management.sources_check import DDG_HOST, sources_report


def no_dns(host: str, port: int):
    raise socket.gaierror(-3, "Temporary failure in name resolution")


def resolves(host: str, port: int):
    return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("192.0.2.1", port))]


def test_it_names_the_sources_the_form_offers(settings, tmp_path):
    settings.SOURCES = {"notes": f"local:{tmp_path}", "ddg": "ddgs"}
    lines = sources_report(resolves)
    assert lines[0] == "The question form offers these sources:"
    assert "  notes: local documents" in lines and "  ddg: web search (DuckDuckGo)" in lines
    assert str(tmp_path) not in "\n".join(lines)


def test_it_warns_when_the_only_source_is_a_web_search_whose_name_does_not_resolve(settings):
    settings.SOURCES = {"ddg": "ddgs"}
    warning = sources_report(no_dns)[-1]
    assert warning.startswith("Warning: the only sources are web searches")
    assert DDG_HOST in warning and "Temporary failure in name resolution" in warning


def test_no_warning_when_names_resolve_or_a_local_folder_is_there(settings, tmp_path):
    settings.SOURCES = {"ddg": "ddgs"}
    assert not any(line.startswith("Warning") for line in sources_report(resolves))
    settings.SOURCES = {"notes": f"local:{tmp_path}", "ddg": "ddgs"}
    assert not any(line.startswith("Warning") for line in sources_report(no_dns))


def test_a_searxng_at_an_address_needs_no_name(settings):
    settings.SOURCES = {"web": "searxng:http://127.0.0.1:8888"}
    asked = []
    lines = sources_report(lambda host, port: asked.append(host))
    assert asked == [] and not any(line.startswith("Warning") for line in lines)


def test_without_sources_it_says_how_to_name_them(settings):
    settings.SOURCES = {}
    settings.DEFAULT_SOURCES = []
    assert sources_report(no_dns) == [
        "The question form offers no sources: set SOURCES (or DEFAULT_SOURCES) in .env, "
        "e.g. SOURCES=notes=local:/srv/notes,ddg=ddgs"
    ]
