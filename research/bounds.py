"""What any surface takes at most, before anything reads it, and how an answer quotes it.

Every surface (the form, the command line, the MCP tools over stdio and HTTP, the form's
pre-fill endpoint) refuses text over these bounds without parsing it, and an error answer
quotes at most a short prefix of what was sent and lists at most a few problems, so that no
input, however large, makes an answer large. The bounds on the text a run takes (the
question's 2,000 characters, a name's 100) live with the question's rules
(research.stages.plan.rules); these are looser, for text as it is typed, spaces and all.
"""

from __future__ import annotations

from research.stages.plan.rules import MAX_NAME_CHARS, MAX_QUESTION_CHARS

QUESTION_CHARS = 4 * MAX_QUESTION_CHARS  # the question as typed, line breaks and all
NAME_CHARS = 2 * MAX_NAME_CHARS  # an option, a dimension, a source or an artifact, as typed
NAMES = 50  # options, dimensions or sources in one question
WEIGHT_CHARS = 32  # a weight as text: "0.25", "30%"
RUN_ID_CHARS = 64  # research.store.files: a run id is at most 64 characters
URL_CHARS = 2_048
QUERY_CHARS = 1_000
SNIPPET_CHARS = 4_000  # a candidate's title or snippet
DATE_CHARS = 40
URI_CHARS = 1_000  # a resource's address: research://runs/<run id>/<artifact name>

QUOTE_CHARS = 40  # what an error quotes of a value it refuses
MESSAGE_CHARS = 300  # one problem, in words
PROBLEMS = 3  # problems listed for one field; "and N more" says how many others
ANSWER_BYTES = 4_096  # the most any error answer is, whatever was sent


def quoted(value: object, chars: int = QUOTE_CHARS) -> str:
    """`value` as an error quotes it: its repr, of its first `chars` characters only."""
    if isinstance(value, str):
        return repr(value[:chars]) + ("…" if len(value) > chars else "")
    shown = repr(value)
    return shown if len(shown) <= chars else shown[:chars] + "…"


def cut(value: object, chars: int = QUOTE_CHARS) -> str:
    """`value` as text, of its first `chars` characters only."""
    text = str(value)
    return text if len(text) <= chars else text[:chars] + "…"


def shortened(message: str, chars: int = MESSAGE_CHARS) -> str:
    return message if len(message) <= chars else message[: chars - 1] + "…"


def listed(problems: list[str], more: str = "… and %(n)s more.", most: int = PROBLEMS) -> list[str]:
    """The first `most` problems, each shortened, then `more` saying how many others there
    are (`more` may be translated: it takes %(n)s)."""
    shown = [shortened(p) for p in problems[:most]]
    if len(problems) > most:
        shown.append(more % {"n": f"{len(problems) - most:,}"})
    return shown
