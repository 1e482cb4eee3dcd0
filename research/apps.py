from pathlib import Path

from django.apps import AppConfig
from django.core.exceptions import ImproperlyConfigured


class ResearchConfig(AppConfig):
    name = "research"
    verbose_name = "Research runs"

    def ready(self) -> None:
        ensure_catalogs()


def ensure_catalogs(locale_dir: Path | None = None) -> None:
    """The Chinese pages and reports read the compiled catalogue: one missing or older than
    its source is compiled at start (as `make` does), so a process started without `make`
    (a container, a package) never speaks English where it should not. Where it cannot be
    written, start-up stops and says how to build it."""
    from research.i18n.build import LOCALE_DIR, compile_catalogs

    folder = locale_dir or LOCALE_DIR
    try:
        compile_catalogs(folder)
    except OSError as exc:
        raise ImproperlyConfigured(
            f"The translations in {folder} are not compiled and cannot be written here "
            f"({exc.strerror or exc}): run `python -m research.i18n.build` where the project "
            "is writable (make does), then start again."
        ) from exc
