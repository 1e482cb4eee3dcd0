"""Compiles the translations (locale/<lang>/LC_MESSAGES/django.po) into the .mo files Django
reads, with Babel rather than GNU gettext's msgfmt, so a fresh machine needs nothing beyond
requirements.txt. `make run` and `make test` run it; a .mo newer than its .po is left alone.

    python -m research.i18n.build
"""

from __future__ import annotations

import os
import sys
import tempfile
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
        # A temporary file of its own: two processes compiling at once (parallel test
        # workers, `make` beside a running server) each replace the .mo whole.
        descriptor, tmp = tempfile.mkstemp(dir=mo.parent, prefix=".django.", suffix=".mo")
        try:
            with os.fdopen(descriptor, "wb") as f:
                write_mo(f, catalog)
            os.chmod(tmp, 0o644)  # mkstemp's file is the owner's only; a catalogue is not
            os.replace(tmp, mo)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        written.append(mo)
    return written


if __name__ == "__main__":
    for path in compile_catalogs():
        print(f"compiled {path.relative_to(LOCALE_DIR.parent)}")
    sys.exit(0)
