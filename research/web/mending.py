"""A run's manifest mended before a page reads the run, and the page saying so."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest
from django.utils.translation import gettext

from research import services
from research.models import Run


def mend(request: HttpRequest, run: Run, *, say: bool = True) -> None:
    """Rebuild the run's missing or unreadable manifest when nothing else changes by it;
    `say` tells the person on the page that comes next."""
    damage = services.mend_manifest(run)
    if damage is not None and say:
        messages.info(
            request,
            gettext(
                "This run's manifest, index.json, could not be read (%(problem)s). Verdict "
                "rebuilt it from the run's files, which are all sound; nothing else changed."
            )
            % {"problem": damage.problem},
        )
