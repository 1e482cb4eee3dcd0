"""The run page: the five stages as they go, the live partial, cancelling and re-running."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client

from research.context import StageContext
from research.models import Run
from research.questions import default_limits
from research.runs import execute, rows
from research.runs.rows import CANCELLED
from research.runs.runners import retrieve as retrieve_runner
from research.stages.plan import build_plan
from research.store import store_for
from tests.decisions.builders import saas_run
from tests.research.web.conftest import QUESTION, make_run, mark

pytestmark = pytest.mark.django_db


def stage_block(response, label: str) -> str:
    """The HTML of one stage's item in the list."""
    blocks = response.text.split('<li class="stage ')[1:]
    found = [b for b in blocks if f"<h3>{label}</h3>" in b]
    assert len(found) == 1, f"no stage {label!r} on the page"
    return found[0]


def test_a_new_run_shows_five_waiting_stages_and_polls_for_progress(ada, ada_client):
    run = make_run(ada)
    response = ada_client.get(f"/runs/{run.run_id}/")
    assert response.status_code == 200
    assert QUESTION in response.text
    labels = re.findall(r"<h3>(.*?)</h3>", response.text)
    assert labels == ["Retrieve", "Filter", "Deep-read", "Cross-validate", "Decide"]
    assert f'data-progress-url="/runs/{run.run_id}/progress/"' in response.text
    assert 'data-live="true"' in response.text
    assert "js/progress.js" in response.text
    assert "Cancel run" in response.text


def test_the_progress_partial_shows_each_stage_state_and_its_counts_in_words(ada, ada_client):
    run = make_run(ada)
    mark(
        run,
        "retrieve",
        "done",
        {"queries": 18, "candidates": 25, "outcomes": {"OK": 16, "TIMEOUT": 2}},
    )
    mark(run, "filter", "done", {"kept": 12, "dropped": 13, "replans": 1})
    mark(run, "deepread", "running")
    rows.mark_run(run.run_id, Run.Status.RUNNING, "deepread")

    response = ada_client.get(f"/runs/{run.run_id}/progress/")
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    assert "<html" not in response.text  # a fragment, swapped into the page
    retrieve = stage_block(response, "Retrieve")
    assert "st-done" in retrieve and "4.0 s" in retrieve
    assert "<strong>25</strong> <span>candidates found</span>" in retrieve
    # Failed searches are said once for the whole run, with the report's figure (from the
    # searches retrieve wrote), not per stage.
    assert "timed out" not in retrieve
    filtered = stage_block(response, "Filter")
    assert "<strong>12</strong> <span>kept</span>" in filtered
    assert "searched again with broader queries" in filtered
    deepread = stage_block(response, "Deep-read")
    assert "st-running" in deepread and "data-since=" in deepread
    assert "st-pending" in stage_block(response, "Cross-validate")
    assert "2 of 5 done" in response.text
    assert 'data-live="true"' in response.text


def test_the_partial_counts_pages_read_claims_and_contradictions(ada, ada_client):
    run = make_run(ada)
    mark(
        run,
        "deepread",
        "done",
        {"read": 8, "ok": 6, "key_points": 40, "outcomes": {"OK": 6, "BLOCKED": 1, "TIMEOUT": 1}},
    )
    mark(run, "crosscheck", "done", {"claims": 42, "consensus": 5, "contradictions": 3, "gaps": 2})
    response = ada_client.get(f"/runs/{run.run_id}/progress/")
    deepread = stage_block(response, "Deep-read")
    assert "<strong>8</strong> <span>pages read</span>" in deepread
    assert "<strong>6</strong> <span>usable</span>" in deepread
    assert "1 page timed out" in deepread and "1 page was blocked" in deepread
    crosscheck = stage_block(response, "Cross-validate")
    assert "<strong>42</strong> <span>claims</span>" in crosscheck
    assert "<strong>3</strong> <span>contradictions</span>" in crosscheck


def test_a_failed_stage_says_what_went_wrong_in_plain_words_and_stops_polling(ada, ada_client):
    run = make_run(ada)
    mark(run, "retrieve", "done", {"candidates": 3})
    mark(
        run, "filter", "failed", error="internal error during filter (KeyError); see the server log"
    )
    rows.mark_run(
        run.run_id,
        Run.Status.FAILED,
        "filter",
        "filter: internal error during filter (KeyError); see the server log",
    )
    response = ada_client.get(f"/runs/{run.run_id}/progress/")
    banner = response.text.split('<ol class="stages">')[0]
    assert "The run stopped at Filter." in banner
    assert "Filter stopped on an unexpected error (KeyError)" in banner
    assert "Filter stopped on an unexpected error (KeyError)" in stage_block(response, "Filter")
    assert "internal error during" not in response.text
    assert 'data-live="false"' in response.text
    assert "Cancel run" not in response.text
    # Retrieve and the failed filter can run again; later stages need filter's output first.
    assert "Re-run from here" in stage_block(response, "Retrieve")
    assert "Re-run from here" in stage_block(response, "Filter")
    assert "Re-run from here" not in stage_block(response, "Deep-read")
    assert 'value="filter"><button type="submit" class="btn primary">Re-run from Filter' in (
        response.text
    )


def test_a_run_whose_files_are_gone_says_so_and_offers_no_rerun(ada, ada_client, started):
    import shutil

    run = make_run(ada)
    mark(run, "retrieve", "done", {"candidates": 3})
    mark(run, "filter", "running")
    rows.mark_run(run.run_id, Run.Status.RUNNING, "filter")
    shutil.rmtree(store_for(run.run_id).path)
    rows.fail_lost_run(run.run_id, rows.FOLDER_GONE)

    response = ada_client.get(f"/runs/{run.run_id}/progress/")

    banner = response.text.split('<ol class="stages">')[0]
    assert "The run stopped at Filter." in banner
    assert "Its files on the server are gone (deleted while the run was going?)" in banner
    assert "Re-run" not in response.text
    response = ada_client.post(f"/runs/{run.run_id}/rerun/", {"stage": "filter"}, follow=True)
    assert "files are gone from the server, so it cannot be re-run" in response.text
    assert started == []


def test_a_run_no_worker_has_taken_says_so(ada, ada_client):
    run = make_run(ada)
    Run.objects.filter(pk=run.pk).update(updated=run.created.replace(year=2020))
    response = ada_client.get(f"/runs/{run.run_id}/progress/")
    assert "Waiting for a worker." in response.text


def test_a_finished_run_leads_to_its_report_with_the_recommendation_and_confidence(
    ada_client, finished_run
):
    decision = store_for(finished_run.run_id).read_json("round_5_decision.json")
    response = ada_client.get(f"/runs/{finished_run.run_id}/")
    assert f'href="/runs/{finished_run.run_id}/report/"' in response.text
    assert "Open the report" in response.text
    option = decision["recommendation"]["option"] or "No recommendation"
    assert f'<p class="verdict-option">{option}</p>' in response.text
    assert f"{round(decision['assessment']['confidence'])}<small>/100</small>" in response.text
    assert 'data-live="false"' in response.text
    assert response.text.count("st-done") >= 5


def test_a_run_whose_best_option_rests_on_one_site_says_so_instead_of_not_found(
    ada_client, finished_run
):
    store = store_for(finished_run.run_id)
    decision = store.read_json("round_5_decision.json")
    reason = "Loamdb has the highest weighted total, but all of it comes from one site."
    decision["recommendation"].update(option=None, single_site="loamdb.io", reasons=[reason])
    store.write_json("round_5_decision.json", decision)  # through the store: its checksum

    response = ada_client.get(f"/runs/{finished_run.run_id}/")

    assert '<p class="verdict-option">No recommendation</p>' in response.text
    assert "comes from one site, loamdb.io" in response.text
    assert "two or more independent sites" in response.text
    assert "could not be found or reached" not in response.text
    report = ada_client.get(f"/runs/{finished_run.run_id}/report/").text
    assert card_reasons(response.text) == report_reasons(report) != []


def card_reasons(page: str) -> list[str]:
    """The reasons on the run page's card, as text."""
    card = page.split("data-reasons>", 1)[1].split("</ul>", 1)[0]
    return [_text(item) for item in re.findall(r"<li>(.*?)</li>", card, re.S)]


def report_reasons(page: str) -> list[str]:
    why = page.split('<div class="why">', 1)[1].split("</ol>", 1)[0]
    return [_text(item) for item in re.findall(r"<li>(.*?)</li>", why, re.S)]


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html).strip()


def test_a_run_whose_leader_rests_on_gaps_says_why_and_what_would_settle_it(
    ada_client, finished_run
):
    store = store_for(finished_run.run_id)
    decision = saas_run().decide()  # SQLite's evidence covers a third of the weight
    store.write_json("round_5_decision.json", decision.model_dump(mode="json"))

    response = ada_client.get(f"/runs/{finished_run.run_id}/")

    assert '<p class="verdict-option">No recommendation</p>' in response.text
    assert 'data-withheld="thin_evidence"' in response.text
    assert "could not be found or reached" not in response.text
    rec = decision.recommendation
    assert rec.no_recommendation_reason in unescape(response.text)
    assert rec.would_settle in unescape(response.text)
    assert "Low confidence" in response.text  # held below the threshold


def test_cancelling_a_running_run_stops_it_at_the_running_stage(ada, ada_client):
    run = make_run(ada)
    mark(run, "retrieve", "done", {"candidates": 25})
    mark(run, "filter", "running")
    rows.mark_run(run.run_id, Run.Status.RUNNING, "filter")

    response = ada_client.post(f"/runs/{run.run_id}/cancel/", follow=True)
    run.refresh_from_db()
    assert run.status == Run.Status.FAILED and run.error == CANCELLED
    stages = store_for(run.run_id).index()["stages"]
    assert [stages[s]["status"] for s in stages] == [
        "done",
        "cancelled",
        "pending",
        "pending",
        "pending",
    ]
    assert "The run was cancelled." in response.text
    assert "<strong>Cancelled.</strong> It stopped before Filter finished." in response.text
    assert "Not run" in stage_block(response, "Decide")
    assert 'data-live="false"' in response.text
    assert store_for(run.run_id).read_log()[-1]["event"] == "run_cancelled"


def test_a_cancelled_run_is_listed_as_cancelled(ada, ada_client):
    run = make_run(ada)
    ada_client.post(f"/runs/{run.run_id}/cancel/")
    assert "pill st-cancelled" in ada_client.get("/runs/").text


def test_cancelling_a_run_that_already_stopped_changes_nothing(ada_client, finished_run):
    response = ada_client.post(f"/runs/{finished_run.run_id}/cancel/", follow=True)
    finished_run.refresh_from_db()
    assert finished_run.status == Run.Status.DONE
    assert "nothing was cancelled" in response.text


def test_rerunning_from_a_stage_resets_it_and_every_later_one_and_queues_it(
    ada_client, finished_run, started
):
    response = ada_client.post(
        f"/runs/{finished_run.run_id}/rerun/", {"stage": "crosscheck"}, follow=True
    )
    finished_run.refresh_from_db()
    assert started == [(finished_run.run_id, "crosscheck")]
    assert finished_run.status == Run.Status.QUEUED and not finished_run.error
    stages = store_for(finished_run.run_id).index()["stages"]
    assert [stages[s]["status"] for s in stages] == ["done", "done", "done", "pending", "pending"]
    assert "Re-running from cross-validate." in response.text


def test_a_stage_whose_earlier_stages_have_not_finished_is_not_rerun(ada, ada_client, started):
    run = make_run(ada)
    mark(run, "retrieve", "done", {"candidates": 3})
    mark(run, "filter", "failed", error="no candidates")
    rows.mark_run(run.run_id, Run.Status.FAILED, "filter", "filter: no candidates")
    response = ada_client.post(f"/runs/{run.run_id}/rerun/", {"stage": "decide"}, follow=True)
    assert not started
    assert "Decide needs the stages before it. Re-run from Filter instead." in response.text


def test_a_cancelled_run_offers_to_continue_where_it_stopped(ada, ada_client, started):
    run = make_run(ada)
    mark(run, "retrieve", "done", {"candidates": 25})
    mark(run, "filter", "running")
    rows.mark_run(run.run_id, Run.Status.RUNNING, "filter")
    ada_client.post(f"/runs/{run.run_id}/cancel/")
    response = ada_client.get(f"/runs/{run.run_id}/progress/")
    assert 'value="filter"><button type="submit" class="btn primary">Continue from Filter' in (
        response.text
    )
    ada_client.post(f"/runs/{run.run_id}/rerun/", {"stage": "filter"})
    assert started == [(run.run_id, "filter")]


def test_a_run_still_going_is_not_rerun(ada, ada_client, started):
    run = make_run(ada)
    response = ada_client.post(f"/runs/{run.run_id}/rerun/", {"stage": "filter"}, follow=True)
    assert not started
    assert "Cancel it before re-running" in response.text


def test_rerunning_needs_a_real_stage(ada_client, finished_run, started):
    response = ada_client.post(
        f"/runs/{finished_run.run_id}/rerun/", {"stage": "../../etc"}, follow=True
    )
    assert not started
    assert "Choose a stage to re-run from." in response.text


def test_cancel_and_rerun_take_only_posts_with_their_csrf_token(ada, ada_client, started):
    run = make_run(ada)
    assert ada_client.get(f"/runs/{run.run_id}/cancel/").status_code == 405
    assert ada_client.get(f"/runs/{run.run_id}/rerun/").status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(ada)
    assert strict.post(f"/runs/{run.run_id}/cancel/").status_code == 403
    assert strict.post(f"/runs/{run.run_id}/rerun/", {"stage": "retrieve"}).status_code == 403
    run.refresh_from_db()
    assert run.status == Run.Status.QUEUED and not started


def test_the_summary_card_gives_reasons_without_claim_ids():
    from research.web.present import readable_reason as _readable

    assert _readable("On cost it scores 71.0 (claims c001, c004).") == "On cost it scores 71.0."
    assert _readable("在成本方面得 71.0 分（论断 c001, c004）。") == "在成本方面得 71.0 分。"
    assert (
        _readable("It leads Loamdb (67.9) by 9.0 points.")
        == "It leads Loamdb (67.9) by 9.0 points."
    )


def _analysed(run: Run, analysis: dict, tokens: dict) -> None:
    def change(index: dict) -> None:
        index["analysis"] = analysis
        index["tokens"] = tokens

    store_for(run.run_id).update_index(change)


def test_a_run_without_a_model_says_its_analysis_was_deterministic(ada, ada_client):
    run = make_run(ada)
    response = ada_client.get(f"/runs/{run.run_id}/progress/")
    assert "Deterministic analysis (no LLM)" in response.text
    assert "tokens" not in response.text


def test_an_llm_run_names_its_model_and_the_tokens_each_stage_used(ada, ada_client, settings):
    settings.LLM_MAX_TOKENS_PER_RUN = 15000
    run = make_run(ada)
    mark(run, "retrieve", "done", {"queries": 4, "candidates": 9})
    mark(run, "filter", "done", {"kept": 5, "dropped": 4})
    _analysed(
        run,
        {"mode": "llm", "model": "qwen3:8b"},
        {
            "retrieve": {"prompt": 300, "completion": 120},
            "filter": {"prompt": 900, "completion": 80},
            "total": 1400,
        },
    )
    response = ada_client.get(f"/runs/{run.run_id}/progress/")
    assert "LLM-assisted analysis" in response.text
    assert "<code>qwen3:8b</code>" in response.text
    assert "1,400 tokens of 15,000" in response.text
    assert "420 tokens" in stage_block(response, "Retrieve")
    assert "980 tokens" in stage_block(response, "Filter")
    assert "tokens" not in stage_block(response, "Deep-read")


def test_a_run_whose_token_budget_ran_out_says_where_it_went_on_without_the_model(ada, ada_client):
    run = make_run(ada)
    _analysed(
        run,
        {"mode": "llm", "model": "m", "budget": 2000, "budget_exhausted": {"stage": "deepread"}},
        {"deepread": {"prompt": 1900, "completion": 100}, "total": 2000},
    )
    text = ada_client.get(f"/runs/{run.run_id}/progress/").text
    assert "2,000 tokens of 2,000" in text
    assert "The token budget ran out during deep-read" in text
    assert "deterministic reader" in text


def test_a_stage_where_some_model_answers_went_unused_says_the_reader_stood_in(ada, ada_client):
    run = make_run(ada)
    mark(run, "retrieve", "done", {"queries": 4, "candidates": 9})
    mark(run, "filter", "done", {"kept": 5, "dropped": 4})

    def outcomes(index: dict) -> None:
        index["analysis"] = {"mode": "llm", "model": "m"}
        index["provider_outcomes"] = {
            "retrieve": {"ddgs": {"OK": 4}, "llm": {"OK": 1}},
            "filter": {"llm": {"OK": 1, "UNAVAILABLE": 1}},
        }

    store_for(run.run_id).update_index(outcomes)
    response = ada_client.get(f"/runs/{run.run_id}/progress/")
    assert (
        "The model&#x27;s answer was used for 1 of 2 calls; the deterministic reader&#x27;s own "
        "judgement stands for the other 1"
    ) in stage_block(response, "Filter")
    assert "The model" not in stage_block(response, "Retrieve")


def test_repairing_a_run_whose_manifest_is_corrupt_rebuilds_it_and_goes_on(
    ada_client, finished_run, started
):
    store = store_for(finished_run.run_id)
    store.path.joinpath("index.json").write_text("{", encoding="utf-8")
    store.artifact_path("round_5_decision.json").write_text("{}", encoding="utf-8")

    response = ada_client.post(f"/runs/{finished_run.run_id}/repair/", follow=True)

    assert (
        "Verdict rebuilt the manifest from the files that are sound, up to cross-validate; "
        "the run goes on from decide." in response.text
    )
    assert started == [(finished_run.run_id, "decide")]
    stages = store.index()["stages"]
    assert [stages[s]["status"] for s in stages] == ["done"] * 4 + ["pending"]
    assert Run.objects.get(pk=finished_run.pk).status == "queued"


def test_a_stage_whose_input_is_damaged_fails_saying_which_file_and_what_to_rerun(
    ada_client, finished_run
):

    from research.store import ArtifactDamaged

    store = store_for(finished_run.run_id)
    path = store.artifact_path("round_4_crosscheck.json")
    path.write_bytes(path.read_bytes()[:-10] + b"   \n}\n\n\n\n")

    with pytest.raises(ArtifactDamaged):
        execute.execute_stage(finished_run.run_id, "decide", force=True)

    then = store.artifact_entry("round_4_crosscheck.json")["bytes"]
    run = Run.objects.get(pk=finished_run.pk)
    assert run.error == (
        "decide: round_4_crosscheck.json is damaged: its contents no longer match the checksum "
        f"recorded when it was written ({then:,} bytes then, {path.stat().st_size:,} bytes "
        "now). Re-run from cross-validate to write it again."
    )


def test_a_run_whose_manifest_is_damaged_can_still_be_cancelled(ada, ada_client):
    run = make_run(ada)
    rows.mark_run(run.run_id, Run.Status.RUNNING, "filter")
    store_for(run.run_id).path.joinpath("index.json").write_text("{", encoding="utf-8")

    response = ada_client.post(f"/runs/{run.run_id}/cancel/", follow=True)

    assert response.status_code == 200
    assert "The run was cancelled." in response.text
    assert Run.objects.get(pk=run.pk).error == CANCELLED


def test_options_read_from_the_question_show_while_the_later_stages_run(ada, ada_client):
    run = make_run(ada, question="For our notes app, choose between Quillsync, Loamdb and Tessera")
    page = ada_client.get(f"/runs/{run.run_id}/")
    assert "to be read from the question" in page.text
    params = store_for(run.run_id).index()["params"]
    plan = build_plan(rows.question_of(params), default_limits())
    store_for(run.run_id).write_json("round_0_plan.json", plan)
    mark(run, "retrieve", "running")
    partial = ada_client.get(f"/runs/{run.run_id}/progress/").text
    options_now = partial.split('<template id="options-now">', 1)[1].split("</template>", 1)[0]
    assert "Quillsync, Loamdb, Tessera" in options_now and "(from the question)" in options_now
    assert "Quillsync, Loamdb, Tessera" in ada_client.get(f"/runs/{run.run_id}/").text


def test_retrieve_writes_the_options_before_it_searches(ada, monkeypatch):
    run = make_run(ada, question="For our notes app, choose between Quillsync, Loamdb and Tessera")
    seen: list[list[str]] = []

    def searching(plan, *args, **kwargs):
        stored = store_for(run.run_id).read_json("round_0_plan.json")
        seen.append(stored["options"])
        raise RuntimeError("stop here: only the plan matters")

    monkeypatch.setattr(retrieve_runner, "retrieve", searching)
    with pytest.raises(RuntimeError):
        retrieve_runner.run_retrieve(store_for(run.run_id), StageContext())
    assert seen == [["Quillsync", "Loamdb", "Tessera"]]


def test_ask_again_sent_twice_makes_one_new_run(ada, ada_client, started):
    run = make_run(ada)
    Run.objects.filter(pk=run.pk).update(status=Run.Status.DONE)
    page = ada_client.get(f"/runs/{run.run_id}/")
    key = re.search(r'name="submission_key" value="([^"]+)"', page.text).group(1)

    first = ada_client.post(f"/runs/{run.run_id}/again/", {"submission_key": key})
    second = ada_client.post(f"/runs/{run.run_id}/again/", {"submission_key": key}, follow=True)

    again = Run.objects.exclude(pk=run.pk).get()
    assert first["Location"] == f"/runs/{again.run_id}/"
    assert second.redirect_chain == [(f"/runs/{again.run_id}/", 302)]
    assert "no second run was made" in second.text
