"""A deep-read of many pages read in parts and merged: the same pages and notes as one
reading of all of them, whether the parts are read in-process one after another or by the
chord's tasks (research.runs.chord, called here without Celery), each part read once."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command

from research.names import NOTES, NOTES_MD, PAGES_DIR, PARTS_DIR
from research.runs import chord, execute, manifest
from research.store import RunStore, store_for
from tests.runs import drive, events, serve_many_pages, served_run

pytestmark = pytest.mark.django_db

STAGES_BEFORE = ("retrieve", "filter")


def deepread_files(store: RunStore) -> dict[str, bytes]:
    """What deep-read leaves for the stages after it: the stored pages and the notes."""
    names = [n for n in store.artifact_names() if n.startswith(f"{PAGES_DIR}/")]
    return {name: store.read_bytes(name) for name in [*sorted(names), NOTES, NOTES_MD]}


def read_once(base: str, settings, split: int, part: int) -> RunStore:
    settings.DEEPREAD_SPLIT_PAGES, settings.DEEPREAD_PART_PAGES = split, part
    run = served_run(base)
    drive(run.run_id)
    return store_for(run.run_id)


@pytest.fixture
def base(testweb, allow_loopback) -> str:
    return serve_many_pages(testweb, count=10)


def test_a_deep_read_in_parts_writes_the_same_pages_and_notes_as_one_reading(base, settings):
    whole = read_once(base, settings, split=100, part=100)
    parted = read_once(base, settings, split=4, part=3)

    assert deepread_files(parted) == deepread_files(whole)
    parts = parted.index()["stages"]["deepread"]["parts"]
    assert len(parts["shares"]) == 4 and parts["done"] == [0, 1, 2, 3]
    recorded = [n for n in parted.artifact_names() if n.startswith(f"{PARTS_DIR}/")]
    assert recorded == [f"{PARTS_DIR}/{n}.json" for n in range(4)]
    assert not any(n.startswith(f"{PARTS_DIR}/") for n in whole.artifact_names())
    # What makes the merge more than gluing parts together: a copy found across parts, and
    # a name for an option that only one part's page gives, read into every part's pages.
    notes = parted.read_json(NOTES)
    assert any(s["duplicate_of"] for s in notes["sources"])
    assert notes["aliases"] == {"Alderstream": ["Aldra"]}
    assert parted.read_json(NOTES) == whole.read_json(NOTES)


def test_a_part_already_read_is_not_read_again_when_the_run_resumes(base, settings):
    store = read_once(base, settings, split=4, part=3)
    # As if the worker had died after two parts: the stage running, parts 2 and 3 not done.
    store.update_index(lambda index: index["stages"]["deepread"]["parts"].update(done=[0, 1]))
    manifest.mark_stage(store, "deepread", status="running")
    before = store.read_bytes(NOTES)
    reads = len(events(store, "part_read"))

    execute.execute_stage(store.run_id, "deepread")

    again = [e["part"] for e in events(store, "part_read")[reads:]]
    assert again == [2, 3]
    assert store.index()["stages"]["deepread"]["parts"]["done"] == [0, 1, 2, 3]
    assert store.read_bytes(NOTES) == before


def test_a_rerun_from_deep_read_reads_every_part_again(base, settings):
    store = read_once(base, settings, split=4, part=3)
    reads = len(events(store, "part_read"))
    manifest.reset_from(store.run_id, "deepread")
    assert "parts" not in store.index()["stages"]["deepread"]

    drive(store.run_id)

    assert sorted(e["part"] for e in events(store, "part_read")[reads:]) == [0, 1, 2, 3]


def test_the_chord_reads_each_part_once_whoever_asks_and_merges_once_all_are_read(base, settings):
    whole = read_once(base, settings, split=100, part=100)
    settings.DEEPREAD_SPLIT_PAGES, settings.DEEPREAD_PART_PAGES = 4, 3
    run = served_run(base)
    for stage in STAGES_BEFORE:
        execute.execute_stage(run.run_id, stage)
    store = store_for(run.run_id)

    started, missing = chord.start(run.run_id)
    assert (started.status, missing) == ("split", [0, 1, 2, 3])
    assert store.index()["stages"]["deepread"]["status"] == "running"
    # Another worker holds part 1: this one leaves it, and the merge waits for it.
    with store.lock(part="deepread-1"):
        assert chord.run_part(run.run_id, 1) == "locked"
    assert [chord.run_part(run.run_id, n) for n in (0, 2, 3)] == ["done"] * 3
    assert chord.merge(run.run_id).status == "waiting"
    assert chord.run_part(run.run_id, 1) == "done"
    # The same part sent again (its chord sent twice) is not read again.
    assert chord.run_part(run.run_id, 0) == "skipped"
    assert chord.merge(run.run_id).status == "done"
    assert chord.merge(run.run_id).status == "skipped"

    assert sorted(e["part"] for e in events(store, "part_read")) == [0, 1, 2, 3]
    assert [e["event"] for e in events(store, "part_deferred")] == ["part_deferred"]
    assert len(events(store, "stage_finished")) == len(STAGES_BEFORE) + 1
    assert deepread_files(store) == deepread_files(whole)


def test_a_part_of_a_run_re_run_meanwhile_is_not_read(base, settings):
    settings.DEEPREAD_SPLIT_PAGES, settings.DEEPREAD_PART_PAGES = 4, 3
    run = served_run(base)
    for stage in STAGES_BEFORE:
        execute.execute_stage(run.run_id, stage)
    chord.start(run.run_id)
    manifest.reset_from(run.run_id, "deepread")

    assert chord.run_part(run.run_id, 0) == "stopped"
    assert not events(store_for(run.run_id), "part_read")


def cli_run(base: str, settings, split: int) -> RunStore:
    settings.DEEPREAD_SPLIT_PAGES, settings.DEEPREAD_PART_PAGES = split, 3
    out = io.StringIO()
    call_command(
        "research",
        "Choose between Alderstream and Brightwell",
        "--source",
        f"searxng:{base}",
        "--dimension",
        "licence risk:2",
        "--dimension",
        "maintenance:1",
        stdout=out,
        no_color=True,
    )
    match = re.search(r"^Run (\w+): ", out.getvalue(), re.MULTILINE)
    assert match, out.getvalue()
    return store_for(match.group(1))


def test_the_command_line_reads_a_split_run_in_parts_with_the_same_result(
    base, settings, django_user_model
):
    django_user_model.objects.create_superuser("root", password="x" * 12)
    whole = cli_run(base, settings, split=100)
    parted = cli_run(base, settings, split=4)

    assert len(parted.index()["stages"]["deepread"]["parts"]["done"]) == 4
    assert sorted(e["part"] for e in events(parted, "part_read")) == [0, 1, 2, 3]
    assert deepread_files(parted) == deepread_files(whole)


def test_the_run_page_says_how_many_parts_are_read_while_the_workers_read_them(
    base, settings, ada, ada_client
):
    settings.DEEPREAD_SPLIT_PAGES, settings.DEEPREAD_PART_PAGES = 4, 3
    run = served_run(base)
    run.owner = ada
    run.save(update_fields=["owner"])
    for stage in STAGES_BEFORE:
        execute.execute_stage(run.run_id, stage)

    def deep_read_block() -> str:
        page = ada_client.get(f"/runs/{run.run_id}/progress/").text
        return next(b for b in page.split('<li class="stage ')[1:] if "<h3>Deep-read</h3>" in b)

    chord.start(run.run_id)
    assert "Reading in 4 parts, shared out among the workers: 0 read so far." in deep_read_block()
    chord.run_part(run.run_id, 2)
    chord.run_part(run.run_id, 0)
    assert "Reading in 4 parts, shared out among the workers: 2 read so far." in deep_read_block()
    for number in (1, 3):
        chord.run_part(run.run_id, number)
    chord.merge(run.run_id)
    block = deep_read_block()
    assert "Read in 4 parts, then merged." in block
    assert "<span>pages read</span>" in block
