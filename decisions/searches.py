"""How the run's searches went, in one figure and one wording for every page and the report:
the searches that could not be made (retrieve's, and a broader search's after too few
sources survived the filter), and whether no search engine could be reached at all.

"Could not look" is kept apart from "found nothing": a search that answered with no hits was
made; one that timed out, was refused or could not reach its engine was not.
"""

from __future__ import annotations

from collections import Counter
from contextlib import nullcontext
from dataclasses import dataclass

from django.utils.translation import gettext, ngettext

from research.artifacts import ProviderCall
from research.i18n import in_language


@dataclass(frozen=True)
class Searches:
    made: int  # every search asked for, whatever became of it
    failed: int  # those that could not be made (the engine did not answer)
    reason: str  # the first failed search's reason, as the provider gave it
    by_provider: dict[str, int]  # failed searches per provider spec

    @property
    def offline(self) -> bool:
        """No search at all could be made: no network, or no engine's name resolves."""
        return self.made > 0 and self.failed == self.made


def searches(calls: list[ProviderCall]) -> Searches:
    failed = [c for c in calls if not c.outcome.looked]
    reason = next((c.detail or c.outcome.value for c in failed), "")
    return Searches(len(calls), len(failed), reason, dict(Counter(c.provider for c in failed)))


def offline_sentence(found: Searches, language: str | None = None) -> str:
    """The one sentence the first screen gives when no search could be made."""
    with in_language(language) if language else nullcontext():
        return gettext("No search engine could be reached from this server: %s.") % (
            found.reason.rstrip(".") or gettext("no answer")
        )


def failed_sentence(n: int, language: str | None = None) -> str:
    """ "3 searches could not be made": the count every page and the report give."""
    with in_language(language) if language else nullcontext():
        return ngettext("%(n)d search could not be made", "%(n)d searches could not be made", n) % {
            "n": n
        }
