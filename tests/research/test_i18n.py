"""The Chinese translations: every message translated, the same facts in both languages,
and compiled without GNU gettext."""

from __future__ import annotations

import re
import string
import subprocess
import sys
import time
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from django.core.exceptions import ImproperlyConfigured

from research.apps import ensure_catalogs
from research.i18n.build import LOCALE_DIR, compile_catalogs

ROOT = LOCALE_DIR.parent
PO = LOCALE_DIR / "zh_Hans" / "LC_MESSAGES" / "django.po"
PERCENT = re.compile(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?[sdrf%]")


def catalog():
    with PO.open("rb") as f:
        return read_po(f, locale="zh_Hans")


def messages():
    return [m for m in catalog() if m.id]


def placeholders(text: str) -> tuple[set[str], list[str]]:
    braces = {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    return braces, sorted(
        m.group(0) if not m.group(1) else m.group(1) for m in PERCENT.finditer(text)
    )


def test_every_message_has_its_chinese():
    untranslated = [
        m.id for m in messages() if not all(m.string if isinstance(m.string, tuple) else [m.string])
    ]
    assert untranslated == []
    assert [m.id for m in messages() if m.fuzzy] == []


def test_a_translation_keeps_every_fact_of_its_english():
    for m in messages():
        english = m.id if isinstance(m.id, str) else m.id[-1]
        chinese = m.string if isinstance(m.string, str) else m.string[0]
        braces, percents = placeholders(english)
        assert placeholders(chinese)[0] == braces, english
        if "%" in english:
            assert sorted(placeholders(chinese)[1]) == sorted(percents), english


def test_the_chinese_is_chinese():
    # Punctuation and units aside, a translation that is all ASCII was left in English.
    english = [
        m.id
        for m in messages()
        if isinstance(m.string, str)
        and re.search(r"[A-Za-z]{3}", re.sub(r"\{\w*\}|%\(\w+\)\w", "", m.id))
        and m.string.isascii()
    ]
    assert english == []


def test_the_translations_compile_without_gnu_gettext(tmp_path: Path):
    folder = tmp_path / "zh_Hans" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "django.po").write_bytes(PO.read_bytes())
    assert compile_catalogs(tmp_path) == [folder / "django.mo"]
    with (folder / "django.mo").open("rb") as f:
        compiled = read_mo(f)
    assert compiled["Sign out"].string == "退出登录"
    assert compile_catalogs(tmp_path) == []  # up to date: left alone


def test_processes_compiling_the_translations_at_once_each_leave_a_whole_catalogue(
    tmp_path: Path,
):
    """Every parallel test worker compiles the stale .mo as it starts; none of them fails,
    and the .mo they leave is whole."""
    folder = tmp_path / "zh_Hans" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "django.po").write_bytes(PO.read_bytes())
    script = (
        "import sys, time; from pathlib import Path; "
        "from research.i18n.build import compile_catalogs; "
        "time.sleep(max(0.0, float(sys.argv[2]) - time.time())); "
        "compile_catalogs(Path(sys.argv[1]))"
    )
    start = str(time.time() + 2)  # each process parses the .po at the same moment
    procs = [
        subprocess.Popen([sys.executable, "-c", script, str(tmp_path), start], cwd=ROOT)
        for _ in range(6)
    ]
    assert [proc.wait(60) for proc in procs] == [0] * 6
    with (folder / "django.mo").open("rb") as f:
        compiled = read_mo(f)
    assert compiled["Sign out"].string == "退出登录"
    assert sorted(p.name for p in folder.iterdir()) == ["django.mo", "django.po"]


# A literal message the code asks gettext for, and one a template translates.
ASKED = re.compile(
    r"\b(?:gettext|gettext_lazy|gettext_noop|ngettext|ngettext_lazy)\(\s*((?:\"(?:[^\"\\]|\\.)*\"\s*)+)"
)
TRANSLATED = re.compile(r'{%\s*translate\s+"([^"]*)"')


def asked_for() -> list[tuple[str, str]]:
    root = LOCALE_DIR.parent
    found = []
    for package in ("research", "decisions", "reports"):
        for path in (root / package).rglob("*.py"):
            for m in ASKED.finditer(path.read_text(encoding="utf-8")):
                found.append((path.name, eval(f"({m.group(1)})")))  # adjacent literals joined
    for path in (root / "templates").rglob("*.html"):
        # Django's {% translate %} looks a message up with every % doubled.
        found += [
            (path.name, m.group(1).replace("%", "%%"))
            for m in TRANSLATED.finditer(path.read_text())
        ]
    return found


def test_every_message_the_product_asks_for_has_its_chinese():
    known = {m.id if isinstance(m.id, str) else m.id[0] for m in messages()}
    asked = asked_for()
    assert len(asked) > 300  # the search itself still finds the product's messages
    assert [(where, text) for where, text in asked if text not in known] == []


def test_no_message_is_listed_twice():
    # Babel keeps the last of two entries silently; GNU msgfmt refuses the catalogue.
    ids = re.findall(r'^msgid "(.+)"$', PO.read_text(encoding="utf-8"), re.MULTILINE)
    assert sorted({i for i in ids if ids.count(i) > 1}) == []


def test_a_stale_catalogue_is_compiled_when_the_product_starts(tmp_path: Path):
    folder = tmp_path / "zh_Hans" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "django.po").write_bytes(PO.read_bytes())
    ensure_catalogs(tmp_path)
    with (folder / "django.mo").open("rb") as f:
        assert read_mo(f)["Sign out"].string == "退出登录"


def test_a_catalogue_that_cannot_be_compiled_stops_start_up_saying_how(tmp_path, monkeypatch):
    def read_only(folder: Path) -> list[Path]:
        raise PermissionError(30, "Read-only file system")

    monkeypatch.setattr("research.i18n.build.compile_catalogs", read_only)
    with pytest.raises(ImproperlyConfigured) as error:
        ensure_catalogs(tmp_path)
    assert "Read-only file system" in str(error.value)
    assert "run `python -m research.i18n.build` where the project is writable" in str(error.value)


def test_the_research_app_compiles_the_catalogues_as_it_starts(monkeypatch):
    called = []
    monkeypatch.setattr("research.apps.ensure_catalogs", lambda: called.append(True))
    from django.apps import apps

    apps.get_app_config("research").ready()
    assert called == [True]
