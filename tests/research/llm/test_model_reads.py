"""Cross-validate after the model read every sentence in deep-read: the model's readings are
the stances, the rules keep typed facts and never score a sentence the model read, an unsure
reading is not scored, and a typed fact the model reads the other way makes its cell mixed."""

from __future__ import annotations

from research.stages.crosscheck import cross_validate
from tests.research.llm.test_deepread import PAGE, a_plan, opened, pages, read, reads
from tests.runs import events

HOSTED = "Its hosted plan costs $40 per seat per month"
FREE = "Brightwell charges nothing for self-hosting"


def checked(tmp_path, store, ctx):
    plan = a_plan()
    result = read(pages(tmp_path / "corpus", [PAGE]), ctx, opened(store, ctx), plan)
    return cross_validate(plan, result.notes, result.pages, ctx)


def test_the_rules_never_score_a_sentence_the_model_read(
    llm_settings, llm_stub, store, ctx, tmp_path
):
    # The model finds no judgement in the self-hosting sentence, which the rules would read
    # as good for Brightwell's cost; it reads the hosted price as bad for Alderstream.
    llm_stub.default = reads((HOSTED, "Alderstream", "cost", -1))
    crosscheck = checked(tmp_path, store, ctx)

    scored = [c for c in crosscheck.claims if c.polarity and c.dimension and not c.flag]
    assert [c for c in scored if c.kind == "stance"] == [c for c in scored if c.read_by == "model"]
    [hosted] = [c for c in scored if c.kind == "stance"]
    assert (hosted.option, hosted.dimension, hosted.polarity) == ("Alderstream", "cost", -1)
    assert hosted.quote.startswith(HOSTED) and hosted.confidence == 0.9
    assert not [c for c in crosscheck.claims if c.quote.startswith(FREE) and c.kind == "stance"]
    # Typed facts are the rules' own.
    assert {c.read_by for c in scored if c.kind == "fact"} <= {"rules"}


def test_a_reading_the_model_is_unsure_of_is_not_scored(
    llm_settings, llm_stub, store, ctx, tmp_path
):
    llm_stub.default = reads(
        (FREE, "Brightwell", "cost", 1, 0.5),
        (HOSTED, "Alderstream", "cost", -1, 0.95),
    )
    crosscheck = checked(tmp_path, store, ctx)

    stances = [c for c in crosscheck.claims if c.kind == "stance"]
    assert [(c.option, c.polarity) for c in stances] == [("Alderstream", -1)]
    [drawn] = events(store, "claims_drawn")
    assert "Brightwell / cost (0.50, the model)" in drawn["unsure"]


def test_a_typed_fact_the_model_reads_the_other_way_leaves_the_sentence_mixed(
    llm_settings, llm_stub, store, ctx, tmp_path
):
    # The rules read the MIT licence as low licence risk; this model reads it as a risk.
    llm_stub.default = reads(("Alderstream is released", "Alderstream", "licence risk", -1))
    crosscheck = checked(tmp_path, store, ctx)

    mit = [c for c in crosscheck.claims if c.quote.startswith("Alderstream is released")]
    assert {c.read_by for c in mit} == {"model", "rules"}
    assert all(c.polarity == 0 for c in mit if c.dimension == "licence risk")
    mixed = events(store, "claim_mixed")
    assert {e["read_by"] for e in mixed} == {"model", "rules"}
