"""Names shared by the pipeline, the CLI, the web pages and MCP: stages and artifacts.

Stage ids (`deepread`) name files, tasks and manifest keys; labels (`deep-read`) are what the
README, the progress display and the pages say. Either spelling is accepted as input.

Artifact names are a public contract (DESIGN section 1): MCP clients read these files, so
each is spelled out here once and everything else imports it, the run store's own files
(the manifest, the decision log and the locks) included.
"""

from __future__ import annotations

# The pipeline's stages in order (research.artifacts re-exports them with the artifacts).
STAGES: tuple[str, ...] = ("retrieve", "filter", "deepread", "crosscheck", "decide")

STAGE_LABELS: dict[str, str] = {
    "retrieve": "retrieve",
    "filter": "filter",
    "deepread": "deep-read",
    "crosscheck": "cross-validate",
    "decide": "decide",
}
assert tuple(STAGE_LABELS) == STAGES, "every stage needs exactly one label, in pipeline order"

# The stage statuses (research.models.StageRun.Status) that count as finished: a skipped
# stage found its valid output already on disk.
FINISHED: tuple[str, ...] = ("done", "skipped")

_BY_NAME = {**{s: s for s in STAGES}, **{label: s for s, label in STAGE_LABELS.items()}}


class UnknownStage(ValueError):
    """A stage name that is neither an id nor a label; the message lists the right ones."""


def stage_id(name: str) -> str:
    """The stage id for an id or a label: "cross-validate" and "crosscheck" give "crosscheck"."""
    key = name.strip().lower().replace("_", "-")
    if key in _BY_NAME:
        return _BY_NAME[key]
    raise UnknownStage(f"unknown stage {name!r}: choose one of {', '.join(STAGE_LABELS.values())}")


def stage_label(stage: str) -> str:
    return STAGE_LABELS.get(stage, stage)


# The run store's own files: the manifest, the decision log, and the locks.
INDEX = "index.json"
LOG = "log.jsonl"
LOCK = ".lock"
INDEX_LOCK = ".index.lock"

PLAN = "round_0_plan.json"
CANDIDATES = "round_1_candidates.json"
FILTERED = "round_2_filtered.json"
PAGES_DIR = "round_3_pages"
# What each part of a deep-read spread over workers read, merged into the notes and pages.
PARTS_DIR = "round_3_parts"
NOTES = "round_3_notes.json"
NOTES_MD = "round_3_notes.md"
CROSSCHECK = "round_4_crosscheck.json"
DECISION = "round_5_decision.json"
REPORT = "report.md"

# The stage that writes each fixed-name artifact, in the order the pipeline writes them
# (the plan is the first step of retrieve).
ARTIFACT_STAGES: dict[str, str] = {
    PLAN: "retrieve",
    CANDIDATES: "retrieve",
    FILTERED: "filter",
    NOTES: "deepread",
    NOTES_MD: "deepread",
    CROSSCHECK: "crosscheck",
    DECISION: "decide",
    REPORT: "decide",
}


# What the stage prompts call each artifact (templates/prompts/), for the model and for MCP
# clients alike.
PROMPT_ARTIFACTS: dict[str, str] = {
    "index": INDEX,
    "plan": PLAN,
    "candidates": CANDIDATES,
    "filtered": FILTERED,
    "notes": NOTES,
    "notes_md": NOTES_MD,
    "crosscheck": CROSSCHECK,
    "decision": DECISION,
    "report": REPORT,
    "pages": PAGES_DIR,
}


# The owner's corrections of the reader, beside the run's artifacts; the decide stage reads
# them, no stage writes them.
CORRECTIONS = "corrections.json"

# Decisions saved beside the run's own: the same evidence decided again with other weights
# (decisions/<n>-round_5_decision.json, decisions/<n>-report.md, decisions/<n>-about.json).
SAVED_DIR = "decisions"
SAVED_ABOUT = "about.json"


def saved_artifact(number: int, name: str) -> str:
    """The artifact name of one file (DECISION, REPORT or SAVED_ABOUT) of saved decision
    `number`."""
    return f"{SAVED_DIR}/{number}-{name}"


def page_artifact(source_id: str) -> str:
    """The artifact name of the main text deep-read stored for one source."""
    return f"{PAGES_DIR}/{source_id}.md"


def part_artifact(number: int) -> str:
    """The artifact name of what part `number` of a split deep-read read."""
    return f"{PARTS_DIR}/{number}.json"


def artifact_stage(name: str) -> str | None:
    """The stage that writes artifact `name` (a stored page included); None for the
    manifest, the log and anything else."""
    if name.startswith(f"{PAGES_DIR}/"):
        return "deepread"
    return ARTIFACT_STAGES.get(name)
