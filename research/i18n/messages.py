"""The sentences Verdict writes into a run (the report, its pages, and the notes the stages
and the scores write), in English, by the part of the product that writes them. Each is a
gettext message id: its Chinese is in locale/zh_Hans/LC_MESSAGES/django.po, and
research.i18n looks a sentence up in a run's language. Data only: no logic lives here."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext_noop

# How much a page counts, and why (research.reading.sourcekind).
SOURCE_KINDS: dict[str, Any] = {
    "own": gettext_noop("the site of {o}"),
    "own_judgement": gettext_noop("{o}'s own page judging itself counts as a review"),
    "interested": gettext_noop("interested party: published by {o}'s vendor"),
    "self_praise": gettext_noop("interested party: {o}'s vendor judging itself against rivals"),
    "user_written": gettext_noop("{host} is written by users (forum, issue or discussion)"),
    "standard": gettext_noop("{host} is a primary source"),
    "community": gettext_noop("{host} is a forum or blog"),
    "comparison": gettext_noop("{host} is a secondary article"),
}


# The notes on each cell of the score matrix (decisions.scoring).
SCORING: dict[str, Any] = {
    "shrunk": (
        gettext_noop(
            "base = 50 + (raw {raw:.1f} - 50) x {n:.2f} / ({n:.2f} + {k:g}) = {base:.1f}: "
            "{sites} {site_word} took a side, with evidence weight {n:.2f}"
        )
    ),
    "site": gettext_noop("site"),
    "sites": gettext_noop("sites"),
    "no_side": gettext_noop("no source takes a side, so base is 50"),
    "model_lean": (
        gettext_noop(
            "the model gave the lean, {raw:.1f}, citing {claims}: base = 50 + ({raw:.1f} - 50) "
            "x {n:.2f} / ({n:.2f} + {k:g}) = {base:.1f}, with evidence weight {n:.2f} from the "
            "{sites} {site_word} behind the claims it cited"
        )
    ),
    "rules_lean": gettext_noop("for comparison, the rules alone: {rules}"),
    "model_dropped": gettext_noop(
        "the model's judgement of this cell was not used ({reason}), so the rules gave the lean"
    ),
    "standing": gettext_noop("{source} counts {strength:g}: {why}"),
    "capped": (
        gettext_noop(
            "{site} says {option} is no longer maintained (“{quote}”), so base is capped at "
            "{base:g} and the score at {score:g}"
        )
    ),
    "revived": (
        gettext_noop(
            "{site} ({newer}) says {option} is active after the statement that it is not "
            "(“{quote}”), so the score is not capped"
        )
    ),
    "superseded": (
        gettext_noop(
            "superseded by a later source: {claims} ({sites}) describe an earlier state; "
            "{contradiction} puts the difference down to a change over time and {current} "
            "({current_site}) describes the current state, so they count neither in base nor "
            "against consistency"
        )
    ),
    "superseded_one": (
        gettext_noop(
            "superseded by a later source: {claims} ({sites}) describes an earlier state; "
            "{contradiction} puts the difference down to a change over time and {current} "
            "({current_site}) describes the current state, so it counts neither in base nor "
            "against consistency"
        )
    ),
    "consistency": gettext_noop("consistency = {agreed:g} ({backing}) {terms} = {value:.1f}"),
    "corroborated": gettext_noop("two or more sites"),
    "single": gettext_noop("one site"),
    "penalty": gettext_noop("- {points:g} for {id} ({why})"),
    "why_error": gettext_noop("nothing explains it"),
    "why_scope": gettext_noop("other versions or setups: half"),
    "why_time": gettext_noop("a change over time, current side unknown: half"),
    "why_settled": gettext_noop("superseded by a later source: nothing"),
}


# How confidence was computed (decisions.assessment).
ASSESSMENT: dict[str, Any] = {
    "no_claims": (
        gettext_noop("No claims were found in any source that could be read, so confidence is 0.")
    ),
    "names": {
        "coverage": gettext_noop("coverage"),
        "consistency": gettext_noop("consistency"),
        "timeliness": gettext_noop("timeliness"),
        "verifiability": gettext_noop("verifiability"),
    },
    "formula": gettext_noop("confidence = {terms} = {raw:.1f}"),
    "contradicted": (
        gettext_noop(
            " (contradicted points behind consistency: {full} counted in full; {half} at half, "
            "as other versions or setups or a change over time may explain them; {settled} not "
            "at all, superseded by a later source)"
        )
    ),
    "support": (
        gettext_noop(
            "; corroboration is {c:.1f} (the share of scored cells backed by two or more "
            "independent sites, not only forums or interested parties), so it is multiplied "
            "by 0.6 + 0.4 x {f:.2f} = {factor:g}, giving {value:.1f}"
        )
    ),
    "no_gap": gettext_noop("; fewer than two options have a total, so no margin penalty applies."),
    "held": gettext_noop(
        " No recommendation is given, so confidence is held below the threshold of "
        "{threshold}: {value:.1f}."
    ),
    "wide": gettext_noop(
        "; the top two options are {gap:.1f} points apart, so no margin penalty applies."
    ),
    "close": (
        gettext_noop(
            "; the top two options are only {gap:.1f} points apart, so it is multiplied by "
            "0.8 + 0.02 x {gap:.1f} = {factor:g}, giving {value:.1f}."
        )
    ),
}


# The recommendation's reasons, and what could not be reached or read (decisions.decide).
DECIDE: dict[str, Any] = {
    "nothing": gettext_noop(
        "Nothing found judges any option on the dimensions asked about, so nothing is recommended."
    ),
    "top": gettext_noop(
        "{option} has the highest weighted total, {total:.1f}/100, with evidence on "
        "{covered} of {dims} dimensions, {share}% of the weight."
    ),
    "single_site": gettext_noop(
        "{option} has the highest weighted total, {total:.1f}/100 (evidence on "
        "{covered} of {dims} dimensions, {share}% of the weight), but all of its scored "
        "evidence comes from one site, {site}. A recommendation needs evidence from two or "
        "more independent sites, so none is given."
    ),
    "thin": gettext_noop(
        "{option} has the highest weighted total, {total:.1f}/100, but its evidence covers "
        "only {share}% of the weight ({covered} of {dims} dimensions), less than the half a "
        "recommendation needs, so none is given."
    ),
    "unshared": gettext_noop(
        "{option} has the highest weighted total, {total:.1f}/100, but its lead over {runner} "
        "comes only from dimensions where {runner} has no evidence: on {shared}, where both "
        "have evidence, {option} does not lead, so no recommendation is given."
    ),
    "unshared_none": gettext_noop(
        "{option} has the highest weighted total, {total:.1f}/100, but {runner} has no "
        "evidence on any dimension where {option} has, so the lead rests on gaps and no "
        "recommendation is given."
    ),
    "settle": gettext_noop("Evidence on {cells} would settle it."),
    "settle_group": gettext_noop("{dims} for {option}"),
    "settle_groups": gettext_noop(", and on "),
    "list_sep": gettext_noop(", "),
    "list_and": gettext_noop(" and "),
    "lead": gettext_noop("It leads {runner} ({total:.1f}) by {gap:.1f} points."),
    "best": gettext_noop("On {dim} it scores {score:.1f} (claims {ids})."),
    "page": gettext_noop("{url}: {status}"),
    "provider": gettext_noop("{provider}: {failed} ({outcome})"),
    "not_read": gettext_noop("{title} ({url})"),
}


# The information that would raise confidence (decisions.missing).
MISSING: dict[str, Any] = {
    "join": gettext_noop(", "),
    "sep": gettext_noop("; "),
    "cell": gettext_noop("{option} x {dim}"),
    "item": gettext_noop("“{title}” ({url}): {why}"),
    "budget": gettext_noop("beyond the reading budget of {n} pages"),
    "failed": gettext_noop("could not be read ({status})"),
    "more": gettext_noop("and {n} more"),
    "thin": gettext_noop(
        "Scored on a single site, or only on forums and interested parties: {cells}; "
        "an independent review or primary source for each would raise confidence"
    ),
    "no_primary": gettext_noop(
        "No primary source (official site, repository or specification) for {o}"
    ),
    "disagree": gettext_noop(
        "Sources disagree on {o}'s {subject}: {said}; a primary, current statement would settle it"
    ),
    "changed": gettext_noop(
        "Sources disagree on {o}'s {subject}, likely a change over time: {said}; the "
        "project's own current statement would confirm it"
    ),
    "scoped": gettext_noop(
        "Sources disagree on {o}'s {subject}, likely for different versions or setups: "
        "{said}; a source naming the version or setup you would use would settle it"
    ),
    "then_now": gettext_noop("{a} earlier, {b} now"),
    "overall": gettext_noop("overall merit"),
    "vs": gettext_noop("{a} vs {b}"),
    "stale": gettext_noop(
        "Evidence on {o} x {d} is all older than {years} years (newest {newest}); "
        "a current source would help"
    ),
}


# The report's section headings, by section id (reports.check.SECTIONS).
REPORT_HEADINGS: dict[str, str] = {
    "summary": gettext_noop("Summary"),
    "background": gettext_noop("Background"),
    "options": gettext_noop("Options"),
    "dimensions": gettext_noop("Dimensions and weights"),
    "matrix": gettext_noop("Score matrix"),
    "contradictions": gettext_noop("Contradictions and consensus"),
    "recommendation": gettext_noop("Recommendation"),
    "confidence": gettext_noop("Confidence and missing information"),
    "sources": gettext_noop("Sources"),
}


# Every other string of the Markdown report (reports.strings.Strings).
REPORT: dict[str, str] = {
    "title": gettext_noop("Decision report: {question}"),
    "run_line": gettext_noop("Run `{run_id}` · {mode} · generated {generated}"),
    "mode_deterministic": gettext_noop("deterministic analysis (no LLM)"),
    "mode_llm": gettext_noop("LLM-assisted analysis"),
    "mode_llm_named": gettext_noop("LLM-assisted analysis ({model})"),
    "mode_model_lost": (
        gettext_noop(
            "; the model could not be reached from {stage} on, so the deterministic reader "
            "did the rest"
        )
    ),
    "mode_budget_out": (
        gettext_noop(
            "; the token budget ran out at {stage}, so the deterministic reader did the rest"
        )
    ),
    "mode_time_out": (
        gettext_noop(
            "; the model's time ran out at {stage} (LLM_STAGE_SECONDS), so the deterministic "
            "reader "
            "did the rest of that stage"
        )
    ),
    "mode_time_lost": (
        gettext_noop(
            "; the model gave no usable answer within its time at {stage} (LLM_STAGE_SECONDS), so "
            "the deterministic reader did the rest"
        )
    ),
    "mode_llm_in": gettext_noop(" in {stages}"),
    "mode_model_unused": (
        gettext_noop(
            "deterministic analysis: the model ({model}) was configured, but none of its answers "
            "was used"
        )
    ),
    "why_unused_lost": gettext_noop(" (it could not be reached from {stage} on)"),
    "why_unused_budget": gettext_noop(" (the token budget ran out at {stage})"),
    "why_unused_time": gettext_noop(" (its time ran out at {stage}, LLM_STAGE_SECONDS)"),
    # the opening
    "low_confidence": (
        gettext_noop(
            "Low confidence ({confidence}/100, below the threshold of {threshold}): "
            "this result is not fit for direct decision use."
        )
    ),
    "would_raise": gettext_noop("Information that would raise the confidence:"),
    "would_raise_default": gettext_noop(
        "more independent, primary and recent sources on every option and dimension"
    ),
    "would_raise_more": gettext_noop("and {count} more, listed under {section} below"),
    "recommendation": gettext_noop("Recommendation: {option}."),
    "provisional": gettext_noop("Provisional recommendation: {option}."),
    "no_recommendation": gettext_noop("No recommendation."),
    "no_recommendation_why": gettext_noop("The evidence needed to make one was not there."),
    "no_recommendation_single_site": gettext_noop(
        "The best-scoring option rests on a single site."
    ),
    "no_recommendation_thin_evidence": gettext_noop(
        "The best-scoring option's evidence covers less than half of the weight."
    ),
    "no_recommendation_unshared_lead": gettext_noop(
        "The best-scoring option leads only where the runner-up has no evidence."
    ),
    "confidence_short": gettext_noop("Confidence {confidence}/100 (threshold {threshold})."),
    "confidence_short_low": gettext_noop(
        "Confidence {confidence}/100, below the threshold of {threshold}."
    ),
    "why": gettext_noop("Why:"),
    "top_contradiction": gettext_noop(
        "**Most important contradiction** ({where}): {option}, {topic}: {said}.{cause}"
    ),
    "top_contradiction_none": gettext_noop(
        "**Most important contradiction**: none was found between the sources read ({cites})."
    ),
    "top_contradiction_unread": gettext_noop(
        "**Most important contradiction**: none, since no source could be read."
    ),
    "contradiction_fact": gettext_noop("{a} says {a_value}; {b} says {b_value}"),
    "contradiction_stance": gettext_noop("{a} judges it {a_value}; {b} judges it {b_value}"),
    "contradiction_plain": gettext_noop("{a} and {b} disagree"),
    "contradiction_where": gettext_noop("`{id}`, one of {count} under {section}"),
    "cause_time": gettext_noop(
        "Likely a change over time: sources {earlier} describe an earlier state; "
        "{current} the current one."
    ),
    "cause_time_one": gettext_noop(
        "Likely a change over time: source {earlier} describes an earlier state; "
        "{current} the current one."
    ),
    "cause_time_current": gettext_noop(
        "Likely a change over time: {current} describes the current state."
    ),
    "cause_time_unknown": gettext_noop(
        "Likely a change over time, though not which side is current."
    ),
    "cause_scope": gettext_noop(
        "Likely a difference of scope: {a} and {b} measure different versions or "
        "setups, so both may hold."
    ),
    "cause_error": gettext_noop(
        "Nothing explains the difference, so one of them is likely wrong or out of date."
    ),
    "cause_error_stronger": gettext_noop(
        "Nothing explains the difference, so one of them is likely wrong or "
        "out of date; the stronger source is {stronger} (it counts {strong}, against {weak} for "
        "{weaker})."
    ),
    "cause_error_even": gettext_noop(
        "Nothing explains the difference, so one of them is likely wrong or out "
        "of date; neither source is stronger (both count {strength})."
    ),
    "side_a": gettext_noop("{count} pages on one side: {cites}"),
    "side_a_one": gettext_noop("{count} page on one side: {cites}"),
    "side_b": gettext_noop("{count} pages on the other side: {cites}"),
    "side_b_one": gettext_noop("{count} page on the other side: {cites}"),
    "side_counts": gettext_noop(" (pages on each side: {a} and {b})"),
    "then_sentence": gettext_noop(" {sentence}"),
    "contradiction_where_one": gettext_noop(
        "`{id}`, the only one found; both quotes under {section}"
    ),
    "colon": gettext_noop(": "),
    "total_item": gettext_noop("{rank}. {option}: {total} ({share})"),
    "total_item_none": gettext_noop("{rank}. {option}: {total}"),
    "evidence_share": gettext_noop(
        "evidence on {covered} of {dimensions} dimensions, {share}% of the weight"
    ),
    "item_sep": gettext_noop("; "),
    "option_line": gettext_noop("- **{name}** ({origin}): {detail}"),
    "contradiction_line": gettext_noop("- **{option}, {topic}** (`{id}`){judged}: {said}.{cause}"),
    "consensus_line": gettext_noop("- **{option}, {topic} = {value}**: {agree}"),
    # reasons
    "reason_total": gettext_noop(
        "{option} has the highest weighted total, {total}/100, with evidence on "
        "{covered} of {dimensions} dimensions, {share}% of the weight ({cites})."
    ),
    "reason_single_site": gettext_noop(
        "{option} has the highest weighted total, {total}/100 (evidence on "
        "{covered} of {dimensions} dimensions, {share}% of the weight), but all of its scored "
        "evidence comes from one site, {site} ({cites}). A recommendation needs evidence from two "
        "or more independent sites, so none is given; the ranking and the score matrix below "
        "stand as they are."
    ),
    "reason_margin": gettext_noop("It leads {runner} ({runner_total}) by {gap} points."),
    "reason_close": gettext_noop(
        "It leads {runner} ({runner_total}) by only {gap} points, a close race."
    ),
    "reason_alone": gettext_noop("No other option has a verified total to compare against."),
    "reason_versus": gettext_noop(
        "On {dimension} (weight {weight}%) it scores {score}, against "
        "{runner_score} for {runner} ({cites})."
    ),
    "reason_strongest": gettext_noop(
        "On {dimension} (weight {weight}%) it scores {score}, its largest "
        "contribution to the total ({cites})."
    ),
    "reason_backed": gettext_noop(
        "On {dimension} (weight {weight}%) it scores {score}, backed by {sites} "
        "independent sites ({cites})."
    ),
    "reason_nothing_read": gettext_noop("No source could be read, so nothing is recommended."),
    "sentence": gettext_noop("{sentence}"),
    "reason_nothing_verified": gettext_noop(
        "The sources read ({cites}) do not judge any option on the dimensions asked about, "
        "so nothing is recommended."
    ),
    "reason_unreachable": gettext_noop(
        "Some searches or pages could not be reached (see {section})."
    ),
    # background
    "restated": gettext_noop("The question, restated: **{question}**"),
    "searched": gettext_noop(
        "Verdict searched {providers}. Candidate pages kept: {kept}; read: {read}; "
        "readable and cited here: {ok} ({cites})."
    ),
    "searched_nothing": gettext_noop(
        "Verdict searched {providers}, but no source could be read, so nothing "
        "below rests on evidence."
    ),
    "unreachable": gettext_noop(
        "What could not be reached (this is not the same as finding nothing):"
    ),
    # options and dimensions
    "origin_question": gettext_noop("named in the question"),
    "origin_given": gettext_noop("given"),
    "option_claims": gettext_noop("{count} claims from {cites}"),
    "option_claims_one": gettext_noop("{count} claim from {cites}"),
    "option_no_claim": gettext_noop("not judged in the sources read"),
    "no_claims_anywhere": gettext_noop(
        "The sources read ({cites}) do not judge these options on the dimensions asked about."
    ),
    "col_dimension": gettext_noop("Dimension"),
    "col_weight": gettext_noop("Weight"),
    "col_evidence": gettext_noop("Evidence"),
    "none_found": gettext_noop("none found"),
    # score matrix
    "matrix_intro": gettext_noop(
        "Each score is `{formula}` (all 0-100). A cell with no evidence is marked "
        "missing and gets no number; in its option's weighted total, the mean over every dimension "
        "with the dimension weights, it counts as neutral (50): no evidence is neither good nor "
        "bad news."
    ),
    "col_option": gettext_noop("Option"),
    "col_score": gettext_noop("Score"),
    "part_base": gettext_noop("base"),
    "part_strength": gettext_noop("source strength"),
    "part_consistency": gettext_noop("consistency"),
    "part_timeliness": gettext_noop("timeliness"),
    "col_base": gettext_noop("Base"),
    "col_strength": gettext_noop("Strength"),
    "col_consistency": gettext_noop("Consistency"),
    "col_timeliness": gettext_noop("Timeliness"),
    "missing": gettext_noop("missing"),
    "none": gettext_noop("none"),
    "totals": gettext_noop("Weighted totals:"),
    "no_total": gettext_noop("no evidence"),
    "evidence_intro": gettext_noop("Evidence behind each scored cell:"),
    "no_cell_evidence": gettext_noop("No cell has verified evidence."),
    "label_stance": gettext_noop("{value} on {dimension}"),
    "label_fact": gettext_noop("{attribute}: {value}"),
    "label_statement": gettext_noop("statement on {attribute}"),
    "superseded_mark": gettext_noop(", superseded by a later source (`{id}`)"),
    "model_read_mark": gettext_noop(" (read by the model)"),
    "flagged_line": gettext_noop("flagged, left out of the scores: {flag}"),
    "model_leans": gettext_noop(
        "In this run the model gave the lean (the judgement before it is shrunk "
        "toward 50 by the weight of its evidence) of {count} of the {cells} cells with evidence; "
        "each cell's notes name the claims it cited and what the rules alone would give."
    ),
    "model_leans_none": gettext_noop(
        "The model gave no cell's lean in this run: every base below is the rules' judgement."
    ),
    "judged_by_model": gettext_noop(" (judged by the model)"),
    "capped_mark": gettext_noop(" (capped)"),
    "capped_by": gettext_noop(" · capped by `{claim}`: the project is no longer maintained"),
    "scoring_notes": gettext_noop("How it was scored:"),
    # contradictions and consensus
    "contradictions": gettext_noop("Contradictions"),
    "consensus": gettext_noop("Consensus"),
    "topic_stance": gettext_noop("judgement on {dimension}"),
    "overall_merit": gettext_noop("overall merit"),
    "no_contradiction": gettext_noop(
        "No contradiction was found between the sources read ({cites})."
    ),
    "no_contradiction_unread": gettext_noop(
        "No contradiction was found (no source could be read)."
    ),
    "agree": gettext_noop("{count} independent sites agree ({sites})."),
    "no_consensus": gettext_noop("No claim is stated by two independent sites among {cites}."),
    "no_consensus_unread": gettext_noop("No claim is stated by two independent sites."),
    # recommendation
    "evidence": gettext_noop("Evidence: {cites}"),
    "sources_read": gettext_noop("Sources read: {cites}"),
    # confidence
    "confidence_line": gettext_noop("**Confidence: {confidence}/100** (threshold {threshold})."),
    "confidence_line_low": gettext_noop(
        "**Confidence: {confidence}/100** (threshold {threshold}, below it)."
    ),
    "col_part": gettext_noop("Part"),
    "col_value": gettext_noop("Value"),
    "coverage": gettext_noop("coverage"),
    "consistency": gettext_noop("consistency"),
    "timeliness": gettext_noop("timeliness"),
    "verifiability": gettext_noop("verifiability"),
    "corroboration": gettext_noop(
        "corroboration (share of scored cells backed by two or more independent sites)"
    ),
    "not_recorded": gettext_noop("not recorded"),
    "no_claim_part": gettext_noop("none: no claim to measure"),
    "how_computed": gettext_noop("How it was computed: {method}"),
    "verified": gettext_noop(
        "All {count} claims in this report were checked to appear verbatim in the "
        "stored text of the source they cite: {cites}."
    ),
    "verified_one": gettext_noop(
        "The {count} claim in this report was checked to appear verbatim in the "
        "stored text of the source it cites: {cites}."
    ),
    # No claim is no fault of the sources: say what was found in them and what was not.
    "not_verified": gettext_noop(
        "Found in the sources read ({cites}): {count} passages worth noting. Not found: a "
        "passage that names an option and judges it on one of the dimensions, so there was no "
        "claim to score or check. This does not say the sources are wrong; they may not speak "
        "to these options or dimensions."
    ),
    "not_verified_one": gettext_noop(
        "Found in the sources read ({cites}): {count} passage worth noting. Not found: a "
        "passage that names an option and judges it on one of the dimensions, so there was no "
        "claim to score or check. This does not say the sources are wrong; they may not speak "
        "to these options or dimensions."
    ),
    "not_verified_nothing": gettext_noop(
        "The sources read ({cites}) were searched, but no passage in them names an option "
        "and judges it on one of the dimensions, so there was no claim to score or check. "
        "This does not say the sources are wrong; they may not speak to these options or "
        "dimensions."
    ),
    "not_verified_unread": gettext_noop(
        "No source could be read, so there was no claim to score or check."
    ),
    "missing_information": gettext_noop("Missing information:"),
    "nothing_noted": gettext_noop("Nothing noted."),
    "not_read": gettext_noop(
        "Kept but not read: {count} pages passed the filter but lay beyond the reading "
        "budget of {budget} pages. What they say is unknown, which is not the same as not found in "
        "what was read:"
    ),
    "not_read_one": gettext_noop(
        "Kept but not read: {count} page passed the filter but lay beyond the "
        "reading budget of {budget} pages. What it says is unknown, which is not the same as not "
        "found in what was read:"
    ),
    "not_read_none": gettext_noop("Kept but not read: none; every kept page was read or tried."),
    # sources
    "source_line": gettext_noop(
        "[{n}] [{title}]({url}) · {site} · {kind} · published {published} · "
        "stored extract: [{page}]({page})"
    ),
    # A source whose address is not http(s) (a local file) is named, not linked.
    "source_line_unlinked": gettext_noop(
        "[{n}] {title} ({url}) · {site} · {kind} · published {published} · "
        "stored extract: [{page}]({page})"
    ),
    # A file of a local folder is named by its title, never by its path on the server.
    "source_line_local": gettext_noop(
        "[{n}] {title} · {kind} · published {published} · stored extract: [{page}]({page})"
    ),
    "unknown": gettext_noop("unknown"),
    "untitled": gettext_noop("untitled"),
    "no_source": gettext_noop("No source could be read."),
    "kind_registry": gettext_noop("registry record"),
    "kind_primary_record": gettext_noop("primary record (study or paper)"),
    "updated_on": gettext_noop(", updated {date}"),
    "dates_from": gettext_noop(" (dates from {where})"),
    "dates_html": gettext_noop("the page's HTML metadata"),
    "dates_header": gettext_noop("the Last-Modified header"),
    "dates_search": gettext_noop("the search result"),
    "dates_front_matter": gettext_noop("front matter {keys}"),
    "dates_record": gettext_noop("the {site} record, retrieved {day}"),
    "dates_record_own": gettext_noop("the {site} record's own dates"),
    "dates_record_as_of": gettext_noop("the {site} record's own dates, as of {day}"),
    "kind_primary": gettext_noop("primary"),
    "kind_comparison": gettext_noop("comparison"),
    "kind_community": gettext_noop("community"),
    "kind_interested": gettext_noop("interested party"),
    "corrections_intro": gettext_noop(
        "Corrections of the reading, made by people who checked it (the scores above count those "
        "still standing; the stored pages are unchanged):"
    ),
    "correction_line": gettext_noop(
        "`{target}`: {kind}{should}, corrected by {who} on {when}{note}{undone}"
    ),
    "correction_should_be": gettext_noop(" (should be: {value})"),
    "correction_note": gettext_noop(": {note}"),
    "correction_undone": gettext_noop(" (undone by {who} on {when}; not counted)"),
    "correction_wrong_option": gettext_noop("wrong option"),
    "correction_wrong_dimension": gettext_noop("wrong dimension"),
    "correction_wrong_polarity": gettext_noop("wrong polarity"),
    "correction_not_a_claim": gettext_noop("not a claim"),
    "correction_not_real": gettext_noop("not a real contradiction"),
}


# Claim attributes as a reader names them; anything not listed is printed as it is
# (a licence name, a version, a number).
ATTRIBUTES: dict[str, str] = {
    "licence": gettext_noop("licence"),
    "maintenance": gettext_noop("maintenance"),
    "maintenance status": gettext_noop("maintenance status"),
    "latest_version": gettext_noop("latest version"),
    "last_commit": gettext_noop("last commit"),
    "release_date": gettext_noop("release date"),
    "core team": gettext_noop("core team"),
    "contributors": gettext_noop("contributors"),
    "stars": gettext_noop("stars"),
    "size": gettext_noop("size"),
    "latency": gettext_noop("latency"),
    "memory": gettext_noop("memory"),
    "yearly price": gettext_noop("yearly price"),
    "price per seat": gettext_noop("price per seat"),
    "throughput": gettext_noop("throughput"),
    "throughput (msg/s)": gettext_noop("throughput (msg/s)"),
    "downloads per month": gettext_noop("downloads per month"),
}


# Attributes with a part of their own: a version, a yardstick.
ATTRIBUTE_FORMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"release_date (\S+)"), gettext_noop("release date of {0}")),
    (re.compile(r"multiple \((.+) vs (.+)\)"), gettext_noop("{0} relative to {1}")),
]


# Claim values (stances, statuses) in words.
VALUES: dict[str, str] = {
    "positive": gettext_noop("positive"),
    "negative": gettext_noop("negative"),
    "neutral": gettext_noop("neutral"),
    "active": gettext_noop("active"),
    "inactive": gettext_noop("inactive"),
}


# What the report pages add to the Markdown report's words (research.web.report.strings).
WEB: dict[str, str] = {
    "page_title": gettext_noop("Report · {question}"),
    "question": gettext_noop("Question"),
    "generated": gettext_noop("Run {run_id} · {mode}"),
    "download_md": gettext_noop("Download Markdown"),
    "run_page": gettext_noop("Run page"),
    "contents": gettext_noop("On this page"),
    "full_stop": gettext_noop("."),
    # the answer
    "rec_label": gettext_noop("Recommendation"),
    "rec_provisional": gettext_noop("Provisional recommendation"),
    "no_rec": gettext_noop("No recommendation"),
    "confidence": gettext_noop("Confidence"),
    "threshold": gettext_noop("threshold {threshold}"),
    "gauge_label": gettext_noop("Confidence {confidence} out of 100; the threshold is {threshold}"),
    "see_all_missing": gettext_noop("See all missing information"),
    "top_contradiction": gettext_noop("Most important contradiction"),
    "no_top_contradiction": gettext_noop("No contradiction was found between the sources read."),
    # totals chart
    "totals_title": gettext_noop("Weighted totals"),
    "totals_intro": gettext_noop(
        "Each option's mean over every dimension, with the dimension weights "
        "(0-100). A dimension without evidence counts as neutral, 50: never as zero, and never "
        "left out, so a strong score on one dimension cannot stand in for missing evidence on "
        "the others. "
        "Below the chart, how much of each option's weight rests on evidence."
    ),
    "shares_label": gettext_noop("How much of each option's weight rests on evidence"),
    "list_sep": gettext_noop(", "),
    "chart_label": gettext_noop("Bar chart of the weighted totals, one bar per option"),
    "recommended": gettext_noop("recommended"),
    "other_options": gettext_noop("other options"),
    # score matrix
    "matrix_title": gettext_noop("Score matrix"),
    "matrix_hint": gettext_noop(
        "Open a cell to see its four components, how it was scored and its evidence."
    ),
    "weight": gettext_noop("weight {weight}%"),
    "total": gettext_noop("Weighted total"),
    "legend": gettext_noop("Legend"),
    "legend_low": gettext_noop("low"),
    "legend_high": gettext_noop("high"),
    "no_evidence": gettext_noop("No evidence"),
    "no_evidence_hint": gettext_noop("nothing on this was found in the pages read"),
    "not_read": gettext_noop("Not read"),
    "not_read_hint": gettext_noop("pages about it were kept but not read"),
    "components": gettext_noop("Components"),
    "component_row": gettext_noop("{part}"),
    "sum": gettext_noop("Score"),
    "capped": gettext_noop(
        "Capped by {claim}: the project is no longer maintained, so the score is held down."
    ),
    "superseded": gettext_noop("superseded by a later source ({id})"),
    "read_by_model": gettext_noop("read by the model"),
    "flagged": gettext_noop("flagged, left out of the scores: {flag}"),
    "judged_by_model": gettext_noop("judged by the model"),
    "how_scored": gettext_noop("How it was scored"),
    "cell_evidence": gettext_noop("Evidence"),
    "no_claims": gettext_noop("No verified claim."),
    "why_missing": gettext_noop("Why it is missing"),
    "open_in_viewer": gettext_noop("Open in the evidence viewer"),
    # contradictions and consensus
    "contradictions_title": gettext_noop("Contradictions and consensus"),
    "side_one": gettext_noop("One side"),
    "side_other": gettext_noop("Other side"),
    "also_said": gettext_noop("Also on this side"),
    "current": gettext_noop("current"),
    "earlier": gettext_noop("earlier"),
    "cause_label_time": gettext_noop("Change over time"),
    "cause_label_scope": gettext_noop("Difference of scope"),
    "cause_label_error": gettext_noop("Unexplained"),
    "effect_settled": gettext_noop(
        "A later source settles it: the earlier side is left out of the scores."
    ),
    "effect_partial": gettext_noop(
        "It counts {share}% as much as an unexplained one against consistency."
    ),
    "effect_full": gettext_noop("It counts in full against consistency."),
    "pages_count": gettext_noop("{count} pages"),
    "pages_count_one": gettext_noop("{count} page"),
    # confidence and missing information
    "confidence_title": gettext_noop("Confidence and missing information"),
    "corroboration": gettext_noop("corroboration"),
    "not_recorded": gettext_noop("not recorded"),
    "how_computed": gettext_noop("How it was computed"),
    "not_found_title": gettext_noop("What would raise the confidence"),
    "not_found_intro": gettext_noop(
        "Not found in the pages that were read, or found but thin, old or disputed:"
    ),
    "kept_not_read_title": gettext_noop("Kept but not read"),
    "kept_not_read_intro": gettext_noop(
        "These pages passed the filter but lay beyond the reading budget of "
        "{budget} pages. What they say is unknown, which is not the same as not found."
    ),
    "kept_not_read_none": gettext_noop("None: every kept page was read or tried."),
    "unreachable_title": gettext_noop("Could not be reached"),
    "unreachable_intro": gettext_noop(
        "Searches or pages that failed. Could not look is not the same as found nothing."
    ),
    # the evidence list
    "sources_title": gettext_noop("Evidence"),
    "sources_intro": gettext_noop(
        "Every source read and cited, numbered as in the Markdown report."
    ),
    "published": gettext_noop("published {date}"),
    "unknown_date": gettext_noop("date unknown"),
    "view_extract": gettext_noop("Stored extract"),
    "original": gettext_noop("Original"),
    "unread_sources": gettext_noop("Could not be read"),
    # not ready
    "not_ready_title": gettext_noop("The report is not ready yet"),
    "not_ready_status": gettext_noop("This run is {status}."),
    "status_queued": gettext_noop("queued"),
    "status_running": gettext_noop("running"),
    "status_done": gettext_noop("done"),
    "status_failed": gettext_noop("failed"),
    "not_ready_body": gettext_noop(
        "The report appears here once all five stages have finished. Follow its "
        "progress on the run page."
    ),
    "not_ready_failed": gettext_noop("This run stopped before it could write a report."),
    "go_to_run": gettext_noop("Go to the run page"),
    # damaged files
    "damaged_title": gettext_noop("A file of this run is damaged"),
    "damaged_body": gettext_noop(
        "Verdict checks every file against the checksum recorded when it was "
        "written, and this one is missing or no longer matches, so nothing from it is shown."
    ),
    "damaged_rerun": gettext_noop("Re-run from {stage}"),
    "damaged_manifest": gettext_noop("Rebuild the manifest and continue"),
    # evidence viewer
    "viewer_title": gettext_noop("Evidence · {title}"),
    "back_to_report": gettext_noop("Back to the report"),
    "original_url": gettext_noop("Original URL"),
    "final_url": gettext_noop("Reached at"),
    "site": gettext_noop("Site"),
    "kind": gettext_noop("Kind"),
    "published_term": gettext_noop("Published"),
    "stored_chars": gettext_noop("{chars} characters stored"),
    "truncated": gettext_noop("truncated at the reading limit"),
    "cited_title": gettext_noop("Quotes cited from this page"),
    "cited_intro": gettext_noop(
        "Each is highlighted in the text below; follow a link to jump to it."
    ),
    "cited_none": gettext_noop("Nothing on this page is cited in the report."),
    "claims_label": gettext_noop("claims {ids}"),
    "contradiction_label": gettext_noop("contradiction {id}"),
    "occurrences": gettext_noop("{count} occurrences"),
    "occurrences_one": gettext_noop("{count} occurrence"),
    "not_in_text": gettext_noop("not found in the stored text"),
    "stored_text": gettext_noop("Stored text"),
    "no_text": gettext_noop("No text was stored for this page: {status}."),
    "duplicate_of": gettext_noop(
        "Same text as source {id}: read, but not counted as separate evidence."
    ),
    "whatif_title": gettext_noop("What if the weights were different?"),
    "whatif_intro": gettext_noop(
        "Move a weight and the totals, the ranking, the chart and the recommendation above follow"
        " at once, by the same rule the decision used. Weights are relative."
    ),
    "whatif_reset": gettext_noop("Back to the run's weights"),
    "whatif_save": gettext_noop("Save as a new decision"),
    "whatif_weight": gettext_noop("Weight of {dimension}"),
    "whatif_changed": gettext_noop("The ranking changed: {option} now leads."),
    "whatif_unchanged": gettext_noop("The ranking is the one decided."),
    "whatif_reordered": gettext_noop("{option} still leads; the order below it changed."),
    "whatif_no_weight": gettext_noop("Each weight must be above 0."),
    "whatif_to_win": gettext_noop(
        "{option} would overtake {over} if the weight of {dimension} went from {from} to {to}, "
        "the others as they are."
    ),
    "whatif_rec_changed": gettext_noop("With these weights the recommendation would be {option}."),
    "whatif_rec_single": gettext_noop(
        "With these weights {option} leads, but all its evidence comes from one site: no "
        "recommendation."
    ),
    "whatif_rec_thin": gettext_noop(
        "With these weights {option} leads, but its evidence covers less than half of the "
        "weight: no recommendation."
    ),
    "whatif_rec_unshared": gettext_noop(
        "With these weights {option} leads only where {over} has no evidence: no recommendation."
    ),
    "whatif_rec_none": gettext_noop("With these weights nothing can be recommended."),
    "saved_title": gettext_noop("Saved decisions of this run"),
    "saved_intro": gettext_noop(
        "The same evidence, decided again with other weights or after a correction."
    ),
    "saved_markdown": gettext_noop("Markdown"),
    "saved_view": gettext_noop("Open"),
    "saved_weights": gettext_noop("weights"),
    "saved_decision": gettext_noop("Decision {number} of this run"),
    "saved_back": gettext_noop("The run's report"),
    "kind_wrong_option": gettext_noop("wrong option"),
    "kind_wrong_dimension": gettext_noop("wrong dimension"),
    "kind_wrong_polarity": gettext_noop("wrong polarity"),
    "kind_not_a_claim": gettext_noop("not a claim"),
    "kind_not_real": gettext_noop("not a real contradiction"),
    "should_be": gettext_noop("(should be: {value})"),
    "no_dimension": gettext_noop("no dimension"),
    "polarity_for": gettext_noop("for"),
    "polarity_against": gettext_noop("against"),
    "polarity_neutral": gettext_noop("neutral"),
    "corrected_by": gettext_noop("corrected by {who}: {what}"),
    "correct_cancel": gettext_noop("Cancel"),
    "correct_summary": gettext_noop("Misread?"),
    "correct_kind": gettext_noop("What is wrong"),
    "correct_value": gettext_noop("What it should be (optional)"),
    "correct_value_none": gettext_noop("not said"),
    "correct_note": gettext_noop("Note (optional)"),
    "correct_button": gettext_noop("Correct and decide again"),
    "not_real_button": gettext_noop("Not a real contradiction"),
    "undo": gettext_noop("Undo"),
    "corrected_away": gettext_noop("Taken out by a correction"),
    "options_group": gettext_noop("Options"),
    "dimensions_group": gettext_noop("Dimensions"),
    "polarity_group": gettext_noop("Polarity"),
}
