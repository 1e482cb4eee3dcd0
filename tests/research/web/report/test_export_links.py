"""The rewrite of stored-extract links that makes report.md work outside its run folder."""

from __future__ import annotations

import re
from pathlib import Path

from reports.export import absolute_page_links, file_urls, viewer_urls

MARKDOWN = (
    "[1] [Title](https://example.org/a) · stored extract: "
    "[round_3_pages/s1.md](round_3_pages/s1.md)\n"
    "See [the quote](round_3_pages/s2.md#q-abc).\n"
    "[ref]: round_3_pages/s3.md\n"
    "Not a link: round_3_pages/s4.md\n"
)


def test_links_to_extracts_point_at_the_viewer_and_keep_their_fragment():
    out = absolute_page_links(MARKDOWN, viewer_urls("https://verdict.example/", "r1"))
    assert "(https://verdict.example/runs/r1/evidence/s1/)" in out
    assert "(https://verdict.example/runs/r1/evidence/s2/#q-abc)" in out
    assert "[ref]: https://verdict.example/runs/r1/evidence/s3/" in out
    assert "[round_3_pages/s1.md]" in out  # the visible text still names the file
    assert "Not a link: round_3_pages/s4.md" in out
    assert "https://example.org/a" in out


def test_links_can_point_at_the_files_of_the_run_folder(tmp_path: Path):
    out = absolute_page_links(MARKDOWN, file_urls(tmp_path / "r1"))
    expected = (tmp_path / "r1" / "round_3_pages" / "s1.md").resolve().as_uri()
    assert f"({expected})" in out
    assert not re.search(r"\]\(round_3_pages/", out)
