"""Compiles the translations (locale/<lang>/LC_MESSAGES/django.po) into the .mo files Django
reads, with Babel rather than GNU gettext's msgfmt, so a fresh machine needs nothing beyond
requirements.txt. `make run` and `make test` run it; a .mo newer than its .po is left alone.

    python -m research.i18n.build
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"


def compile_catalogs(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Writes every stale .mo under `locale_dir`; returns the ones written."""
    written = []
    for po in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parts[-3])
        tmp = mo.with_suffix(".mo.tmp")
        with tmp.open("wb") as f:
            write_mo(f, catalog)
        tmp.replace(mo)
        written.append(mo)
    return written


if __name__ == "__main__":
    for path in compile_catalogs():
        print(f"compiled {path.relative_to(LOCALE_DIR.parent)}")
    sys.exit(0)
