from __future__ import annotations

import pytest

from research.stages.sourcekind import classify

OPTIONS = ["Quillsync", "Loamdb", "河图引擎"]


@pytest.mark.parametrize(
    ("url", "title", "kind", "owner"),
    [
        ("https://quillsync.dev/docs/licensing", "Licensing", "primary", "Quillsync"),
        ("https://github.com/loamdb/loamdb", "Loamdb", "primary", "Loamdb"),
        (
            "https://hetu-engine.io/zh/docs/license",
            "许可与授权 | 河图引擎官方文档",
            "primary",
            "河图引擎",
        ),
        ("https://www.ietf.org/rfc/rfc9110", "HTTP Semantics", "primary", None),
        ("https://forum.localfirst.community/t/1842", "Loamdb licence change", "community", None),
        ("https://blog.example.net/post", "Why we left Loamdb", "community", None),
        ("https://news.example.com/quillsync-vs-loamdb", "Quillsync vs Loamdb", "comparison", None),
    ],
)
def test_sources_are_graded_primary_comparison_or_community(url, title, kind, owner):
    graded = classify(url, title, OPTIONS)
    assert (graded.kind, graded.owner) == (kind, owner)
    assert graded.strength == {"primary": 90, "comparison": 60, "community": 30}[kind]


def test_a_comparison_page_is_nobodys_own_page_even_if_it_says_official():
    graded = classify("https://tech.example.cn/a", "Quillsync 与 Loamdb 官方文档对比", OPTIONS)
    assert graded.owner is None
