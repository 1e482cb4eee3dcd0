"""Cross-validate after the model read every sentence in deep-read: the model's readings are
the stances, the rules keep typed facts and never score a sentence the model read, an unsure
reading is not scored, and a typed fact of a sentence the model read is kept unscored."""

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
    # Every scored claim is the model's; the rules' typed facts are kept as values.
    assert {c.read_by for c in scored} == {"model"}
    assert [c.value for c in crosscheck.claims if c.kind == "fact" and "$40" in c.quote]


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


def test_on_a_sentence_the_model_read_its_reading_scores_and_the_rules_typed_fact_does_not(
    llm_settings, llm_stub, store, ctx, tmp_path
):
    # The rules would read the MIT licence as low licence risk; this model reads it as a
    # risk. The model read the sentence, so its reading is the one scored.
    llm_stub.default = reads(("Alderstream is released", "Alderstream", "licence risk", -1))
    crosscheck = checked(tmp_path, store, ctx)

    mit = [c for c in crosscheck.claims if c.quote.startswith("Alderstream is released")]
    assert {c.read_by for c in mit} == {"model", "rules"}
    [fact] = [c for c in mit if c.read_by == "rules"]
    assert (fact.attribute, fact.value, fact.polarity) == ("licence", "MIT", 0)
    [stance] = [c for c in mit if c.read_by == "model"]
    assert (stance.dimension, stance.polarity) == ("licence risk", -1)
    assert events(store, "claim_mixed") == []
