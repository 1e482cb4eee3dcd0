"""Every string Verdict writes for people in English, one table per part of the product
(research.i18n says how they are looked up). Data only: no logic lives here."""

from __future__ import annotations

import re
from typing import Any

# How much a page counts, and why (research.stages.sourcekind).
SOURCE_KINDS: dict[str, Any] = {
    "own": "the site of {o}",
    "own_judgement": "{o}'s own page judging itself counts as a review",
    "interested": "interested party: published by {o}'s vendor",
    "self_praise": "interested party: {o}'s vendor judging itself against rivals",
    "user_written": "{host} is written by users (forum, issue or discussion)",
    "standard": "{host} is a primary source",
    "community": "{host} is a forum or blog",
    "comparison": "{host} is a secondary article",
}


# The notes on each cell of the score matrix (decisions.scoring).
SCORING: dict[str, Any] = {
    "shrunk": (
        "base = 50 + (raw {raw:.1f} - 50) x {n:.2f} / ({n:.2f} + {k:g}) = {base:.1f}: "
        "{sites} {site_word} took a side, with evidence weight {n:.2f}"
    ),
    "site": "site",
    "sites": "sites",
    "no_side": "no source takes a side, so base is 50",
    "model_lean": (
        "the model gave the lean, {raw:.1f}, citing {claims}: base = 50 + ({raw:.1f} - 50) "
        "x {n:.2f} / ({n:.2f} + {k:g}) = {base:.1f}, with evidence weight {n:.2f} from the "
        "{sites} {site_word} behind the claims it cited"
    ),
    "rules_lean": "for comparison, the rules alone: {rules}",
    "model_dropped": "the model's judgement of this cell was not used ({reason}), so the "
    "rules gave the lean",
    "standing": "{source} counts {strength:g}: {why}",
    "capped": (
        "{site} says {option} is no longer maintained (“{quote}”), so base is capped at "
        "{base:g} and the score at {score:g}"
    ),
    "revived": (
        "{site} ({newer}) says {option} is active after the statement that it is not "
        "(“{quote}”), so the score is not capped"
    ),
    "superseded": (
        "superseded by a later source: {claims} ({sites}) describe an earlier state; "
        "{contradiction} puts the difference down to a change over time and {current} "
        "({current_site}) describes the current state, so they count neither in base nor "
        "against consistency"
    ),
    "superseded_one": (
        "superseded by a later source: {claims} ({sites}) describes an earlier state; "
        "{contradiction} puts the difference down to a change over time and {current} "
        "({current_site}) describes the current state, so it counts neither in base nor "
        "against consistency"
    ),
    "consistency": "consistency = {agreed:g} ({backing}) {terms} = {value:.1f}",
    "corroborated": "two or more sites",
    "single": "one site",
    "penalty": "- {points:g} for {id} ({why})",
    "why_error": "nothing explains it",
    "why_scope": "other versions or setups: half",
    "why_time": "a change over time, current side unknown: half",
    "why_settled": "superseded by a later source: nothing",
}


# How confidence was computed (decisions.assessment).
ASSESSMENT: dict[str, Any] = {
    "no_claims": ("No claims were found in any source that could be read, so confidence is 0."),
    "names": {
        "coverage": "coverage",
        "consistency": "consistency",
        "timeliness": "timeliness",
        "verifiability": "verifiability",
    },
    "formula": "confidence = {terms} = {raw:.1f}",
    "contradicted": (
        " (contradicted points behind consistency: {full} counted in full; {half} at half, "
        "as other versions or setups or a change over time may explain them; {settled} not "
        "at all, superseded by a later source)"
    ),
    "support": (
        "; corroboration is {c:.1f} (the share of scored cells backed by two or more "
        "independent sites, not only forums or interested parties), so it is multiplied "
        "by 0.6 + 0.4 x {f:.2f} = {factor:g}, giving {value:.1f}"
    ),
    "no_gap": "; fewer than two options have a total, so no margin penalty applies.",
    "wide": "; the top two options are {gap:.1f} points apart, so no margin penalty applies.",
    "close": (
        "; the top two options are only {gap:.1f} points apart, so it is multiplied by "
        "0.8 + 0.02 x {gap:.1f} = {factor:g}, giving {value:.1f}."
    ),
}


# The recommendation's reasons, and what could not be reached or read (decisions.decide).
DECIDE: dict[str, Any] = {
    "nothing": "No evidence about any option could be verified, so nothing is recommended.",
    "unreachable": "{n} searches or pages could not be reached.",
    "top": "{option} has the highest weighted total, {total:.1f}/100, with evidence on "
    "{covered} of {dims} dimensions, {share}% of the weight.",
    "single_site": "{option} has the highest weighted total, {total:.1f}/100 (evidence on "
    "{covered} of {dims} dimensions, {share}% of the weight), but all of its scored "
    "evidence comes from one site, {site}. A recommendation needs evidence from two or "
    "more independent sites, so none is given.",
    "lead": "It leads {runner} ({total:.1f}) by {gap:.1f} points.",
    "best": "On {dim} it scores {score:.1f} (claims {ids}).",
    "page": "{url}: {status}",
    "provider": "search provider {provider}: {outcome} for {n} {queries}",
    "query": "query",
    "queries": "queries",
    "not_read": "{title} ({url})",
}


# The information that would raise confidence (decisions.missing).
MISSING: dict[str, Any] = {
    "join": ", ",
    "sep": "; ",
    "cell": "{option} x {dim}",
    "found_none": "No evidence on {option} x {dims} was found in the {n} {pages} read",
    "unread": "No evidence on {option} x {dims}; {n} {pages} about {option} {were} not read: "
    "{listed}",
    "page": "page",
    "pages": "pages",
    "was": "was",
    "were": "were",
    "item": "“{title}” ({url}): {why}",
    "budget": "beyond the reading budget of {n} pages",
    "failed": "could not be read ({status})",
    "more": "and {n} more",
    "thin": "Scored on a single site, or only on forums and interested parties: {cells}; "
    "an independent review or primary source for each would raise confidence",
    "no_primary": "No primary source (official site, repository or specification) for {o}",
    "disagree": "Sources disagree on {o}'s {subject}: {said}; a primary, current statement "
    "would settle it",
    "changed": "Sources disagree on {o}'s {subject}, likely a change over time: {said}; the "
    "project's own current statement would confirm it",
    "scoped": "Sources disagree on {o}'s {subject}, likely for different versions or setups: "
    "{said}; a source naming the version or setup you would use would settle it",
    "then_now": "{a} earlier, {b} now",
    "overall": "overall merit",
    "labels": {"latest_version": "latest version", "last_commit": "last commit"},
    "vs": "{a} vs {b}",
    "unreadable": "{n} {sources} could not be read ({outcomes})",
    "source": "source",
    "sources": "sources",
    "stale": "Evidence on {o} x {d} is all older than {years} years (newest {newest}); "
    "a current source would help",
}


# The report's section headings, by section id (reports.check.SECTIONS).
REPORT_HEADINGS: dict[str, str] = {
    "summary": "Summary",
    "background": "Background",
    "options": "Options",
    "dimensions": "Dimensions and weights",
    "matrix": "Score matrix",
    "contradictions": "Contradictions and consensus",
    "recommendation": "Recommendation",
    "confidence": "Confidence and missing information",
    "sources": "Sources",
}


# Every other string of the Markdown report (reports.strings.Strings).
REPORT: dict[str, str] = {
    "title": "Decision report: {question}",
    "run_line": "Run `{run_id}` · {mode} · generated {generated}",
    "mode_deterministic": "deterministic analysis (no LLM)",
    "mode_llm": "LLM-assisted analysis",
    "mode_llm_named": "LLM-assisted analysis ({model})",
    "mode_model_lost": (
        "; the model could not be reached from {stage} on, so the deterministic reader did the rest"
    ),
    "mode_budget_out": (
        "; the token budget ran out at {stage}, so the deterministic reader did the rest"
    ),
    "mode_time_out": (
        "; the model's time ran out at {stage} (LLM_STAGE_SECONDS), so the deterministic reader "
        "did the rest of that stage"
    ),
    "mode_time_lost": (
        "; the model gave no usable answer within its time at {stage} (LLM_STAGE_SECONDS), so "
        "the deterministic reader did the rest"
    ),
    "mode_llm_in": " in {stages}",
    "mode_model_unused": (
        "deterministic analysis: the model ({model}) was configured, but none of its answers "
        "was used"
    ),
    "why_unused_lost": " (it could not be reached from {stage} on)",
    "why_unused_budget": " (the token budget ran out at {stage})",
    "why_unused_time": " (its time ran out at {stage}, LLM_STAGE_SECONDS)",
    # the opening
    "low_confidence": (
        "Low confidence ({confidence}/100, below the threshold of {threshold}): "
        "this result is not fit for direct decision use."
    ),
    "would_raise": "Information that would raise the confidence:",
    "would_raise_default": "more independent, primary and recent sources on every option and "
    "dimension",
    "would_raise_more": "and {count} more, listed under {section} below",
    "recommendation": "Recommendation: {option}.",
    "provisional": "Provisional recommendation: {option}.",
    "no_recommendation": "No recommendation.",
    "no_recommendation_why": "The evidence needed to make one was not there.",
    "no_recommendation_single_site": "The best-scoring option rests on a single site.",
    "confidence_short": "Confidence {confidence}/100 (threshold {threshold}).",
    "confidence_short_low": "Confidence {confidence}/100, below the threshold of {threshold}.",
    "why": "Why:",
    "top_contradiction": "**Most important contradiction** ({where}): {option}, {topic}: {said}."
    "{cause}",
    "top_contradiction_none": "**Most important contradiction**: none was found between the "
    "sources read ({cites}).",
    "top_contradiction_unread": "**Most important contradiction**: none, since no source could "
    "be read.",
    "contradiction_fact": "{a} says {a_value}; {b} says {b_value}",
    "contradiction_stance": "{a} judges it {a_value}; {b} judges it {b_value}",
    "contradiction_plain": "{a} and {b} disagree",
    "contradiction_where": "`{id}`, one of {count} under {section}",
    "cause_time": "Likely a change over time: sources {earlier} describe an earlier state; "
    "{current} the current one.",
    "cause_time_one": "Likely a change over time: source {earlier} describes an earlier state; "
    "{current} the current one.",
    "cause_time_current": "Likely a change over time: {current} describes the current state.",
    "cause_time_unknown": "Likely a change over time, though not which side is current.",
    "cause_scope": "Likely a difference of scope: {a} and {b} measure different versions or "
    "setups, so both may hold.",
    "cause_error": "Nothing explains the difference, so one of them is likely wrong or out of "
    "date.",
    "cause_error_stronger": "Nothing explains the difference, so one of them is likely wrong or "
    "out of date; the stronger source is {stronger} (it counts {strong}, against {weak} for "
    "{weaker}).",
    "cause_error_even": "Nothing explains the difference, so one of them is likely wrong or out "
    "of date; neither source is stronger (both count {strength}).",
    "side_a": "{count} pages on one side: {cites}",
    "side_a_one": "{count} page on one side: {cites}",
    "side_b": "{count} pages on the other side: {cites}",
    "side_b_one": "{count} page on the other side: {cites}",
    "side_counts": " (pages on each side: {a} and {b})",
    "sentence_sep": " ",
    "contradiction_where_one": "`{id}`, the only one found; both quotes under {section}",
    "colon": ": ",
    "total_item": "{rank}. {option}: {total} ({share})",
    "total_item_none": "{rank}. {option}: {total}",
    "evidence_share": "evidence on {covered} of {dimensions} dimensions, {share}% of the weight",
    "item_sep": "; ",
    "option_line": "- **{name}** ({origin}): {detail}",
    "contradiction_line": "- **{option}, {topic}** (`{id}`){judged}: {said}.{cause}",
    "consensus_line": "- **{option}, {topic} = {value}**: {agree}",
    # reasons
    "reason_total": "{option} has the highest weighted total, {total}/100, with evidence on "
    "{covered} of {dimensions} dimensions, {share}% of the weight ({cites}).",
    "reason_single_site": "{option} has the highest weighted total, {total}/100 (evidence on "
    "{covered} of {dimensions} dimensions, {share}% of the weight), but all of its scored "
    "evidence comes from one site, {site} ({cites}). A recommendation needs evidence from two "
    "or more independent sites, so none is given; the ranking and the score matrix below "
    "stand as they are.",
    "reason_margin": "It leads {runner} ({runner_total}) by {gap} points.",
    "reason_close": "It leads {runner} ({runner_total}) by only {gap} points, a close race.",
    "reason_alone": "No other option has a verified total to compare against.",
    "reason_versus": "On {dimension} (weight {weight}%) it scores {score}, against "
    "{runner_score} for {runner} ({cites}).",
    "reason_strongest": "On {dimension} (weight {weight}%) it scores {score}, its largest "
    "contribution to the total ({cites}).",
    "reason_backed": "On {dimension} (weight {weight}%) it scores {score}, backed by {sites} "
    "independent sites ({cites}).",
    "reason_nothing_read": "No source could be read, so nothing is recommended.",
    "reason_nothing_verified": "No claim about any option could be verified in the sources "
    "read ({cites}), so nothing is recommended.",
    "reason_unreachable": "Some searches or pages could not be reached (see {section}).",
    # background
    "restated": "The question, restated: **{question}**",
    "searched": "Verdict searched {providers}. Candidate pages kept: {kept}; read: {read}; "
    "readable and cited here: {ok} ({cites}).",
    "searched_nothing": "Verdict searched {providers}, but no source could be read, so nothing "
    "below rests on evidence.",
    "unreachable": "What could not be reached (this is not the same as finding nothing):",
    # options and dimensions
    "origin_question": "named in the question",
    "origin_given": "given",
    "option_claims": "{count} claims from {cites}",
    "option_claims_one": "{count} claim from {cites}",
    "option_no_claim": "no verified claim",
    "no_claims_anywhere": "None of the sources read ({cites}) gave a verified claim about "
    "these options.",
    "col_dimension": "Dimension",
    "col_weight": "Weight",
    "col_evidence": "Evidence",
    "none_found": "none found",
    # score matrix
    "matrix_intro": "Each score is `{formula}` (all 0-100). A cell with no evidence is marked "
    "missing and gets no number; in its option's weighted total, the mean over every dimension "
    "with the dimension weights, it counts as neutral (50): no evidence is neither good nor "
    "bad news.",
    "col_option": "Option",
    "col_score": "Score",
    "part_base": "base",
    "part_strength": "source strength",
    "part_consistency": "consistency",
    "part_timeliness": "timeliness",
    "col_base": "Base",
    "col_strength": "Strength",
    "col_consistency": "Consistency",
    "col_timeliness": "Timeliness",
    "missing": "missing",
    "none": "none",
    "totals": "Weighted totals:",
    "no_total": "no evidence",
    "evidence_intro": "Evidence behind each scored cell:",
    "corrections_intro": "Corrections of the reading, made by people who checked it (the "
    "scores above count those still standing; the stored pages are unchanged):",
    "correction_line": "`{target}`: {kind}{should}, corrected by {who} on {when}{note}{undone}",
    "correction_should_be": " (should be: {value})",
    "correction_note": ": {note}",
    "correction_undone": " (undone by {who} on {when}; not counted)",
    "correction_wrong_option": "wrong option",
    "correction_wrong_dimension": "wrong dimension",
    "correction_wrong_polarity": "wrong polarity",
    "correction_not_a_claim": "not a claim",
    "correction_not_real": "not a real contradiction",
    "no_cell_evidence": "No cell has verified evidence.",
    "label_stance": "{value} on {dimension}",
    "label_fact": "{attribute}: {value}",
    "label_statement": "statement on {attribute}",
    "superseded_mark": ", superseded by a later source (`{id}`)",
    "model_read_mark": " (read by the model)",
    "flagged_line": "flagged, left out of the scores: {flag}",
    "model_leans": "In this run the model gave the lean (the judgement before it is shrunk "
    "toward 50 by the weight of its evidence) of {count} of the {cells} cells with evidence; "
    "each cell's notes name the claims it cited and what the rules alone would give.",
    "model_leans_none": "The model gave no cell's lean in this run: every base below is the "
    "rules' judgement.",
    "judged_by_model": " (judged by the model)",
    "capped_mark": " (capped)",
    "capped_by": " · capped by `{claim}`: the project is no longer maintained",
    "scoring_notes": "How it was scored:",
    # contradictions and consensus
    "contradictions": "Contradictions",
    "consensus": "Consensus",
    "topic_stance": "judgement on {dimension}",
    "overall_merit": "overall merit",
    "no_contradiction": "No contradiction was found between the sources read ({cites}).",
    "no_contradiction_unread": "No contradiction was found (no source could be read).",
    "agree": "{count} independent sites agree ({sites}).",
    "no_consensus": "No claim is stated by two independent sites among {cites}.",
    "no_consensus_unread": "No claim is stated by two independent sites.",
    # recommendation
    "evidence": "Evidence: {cites}",
    "sources_read": "Sources read: {cites}",
    # confidence
    "confidence_line": "**Confidence: {confidence}/100** (threshold {threshold}).",
    "confidence_line_low": "**Confidence: {confidence}/100** (threshold {threshold}, below it).",
    "col_part": "Part",
    "col_value": "Value",
    "coverage": "coverage",
    "consistency": "consistency",
    "timeliness": "timeliness",
    "verifiability": "verifiability",
    "corroboration": "corroboration (share of scored cells backed by two or more independent "
    "sites)",
    "not_recorded": "not recorded",
    "how_computed": "How it was computed: {method}",
    "verified": "All {count} claims in this report were checked to appear verbatim in the "
    "stored text of the source they cite: {cites}.",
    "verified_one": "The {count} claim in this report was checked to appear verbatim in the "
    "stored text of the source it cites: {cites}.",
    "not_verified": "No claim could be verified in the sources read ({cites}).",
    "not_verified_unread": "No quote could be verified.",
    "missing_information": "Missing information:",
    "nothing_noted": "Nothing noted.",
    "not_read": "Kept but not read: {count} pages passed the filter but lay beyond the reading "
    "budget of {budget} pages. What they say is unknown, which is not the same as not found in "
    "what was read:",
    "not_read_one": "Kept but not read: {count} page passed the filter but lay beyond the "
    "reading budget of {budget} pages. What it says is unknown, which is not the same as not "
    "found in what was read:",
    "not_read_none": "Kept but not read: none; every kept page was read or tried.",
    # sources
    "source_line": "[{n}] [{title}]({url}) · {site} · {kind} · published {published} · "
    "stored extract: [{page}]({page})",
    # A source whose address is not http(s) (a local file) is named, not linked.
    "source_line_unlinked": "[{n}] {title} ({url}) · {site} · {kind} · published {published} · "
    "stored extract: [{page}]({page})",
    "unknown": "unknown",
    "untitled": "untitled",
    "no_source": "No source could be read.",
    "kind_primary": "primary",
    "kind_comparison": "comparison",
    "kind_community": "community",
    "kind_interested": "interested party",
}


# Claim attributes as a reader names them; anything not listed is printed as it is
# (a licence name, a version, a number).
ATTRIBUTES: dict[str, str] = {}


# Attributes with a part of their own: a version, a yardstick.
ATTRIBUTE_FORMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"release_date (\S+)"), "release date of {0}"),
    (re.compile(r"multiple \((.+) vs (.+)\)"), "{0} relative to {1}"),
]


# Claim values (stances, statuses) in words.
VALUES: dict[str, str] = {}


# What the report pages add to the Markdown report's words (research.web.report.strings).
WEB: dict[str, str] = {
    "html_lang": "en",
    "page_title": "Report · {question}",
    "question": "Question",
    "generated": "Run {run_id} · {mode}",
    "download_md": "Download Markdown",
    "run_page": "Run page",
    "contents": "On this page",
    "full_stop": ".",
    # the answer
    "rec_label": "Recommendation",
    "rec_provisional": "Provisional recommendation",
    "no_rec": "No recommendation",
    "confidence": "Confidence",
    "threshold": "threshold {threshold}",
    "gauge_label": "Confidence {confidence} out of 100; the threshold is {threshold}",
    "see_all_missing": "See all missing information",
    "top_contradiction": "Most important contradiction",
    "no_top_contradiction": "No contradiction was found between the sources read.",
    # totals chart
    "totals_title": "Weighted totals",
    "totals_intro": "Each option's mean over every dimension, with the dimension weights "
    "(0-100). A dimension without evidence counts as neutral, 50: never as zero, and never left "
    "out, so a strong score on one dimension cannot stand in for missing evidence on the others. "
    "Below the chart, how much of each option's weight rests on evidence.",
    "shares_label": "How much of each option's weight rests on evidence",
    "list_sep": ", ",
    "chart_label": "Bar chart of the weighted totals, one bar per option",
    "recommended": "recommended",
    "other_options": "other options",
    # score matrix
    "matrix_title": "Score matrix",
    "matrix_hint": "Open a cell to see its four components, how it was scored and its evidence.",
    "weight": "weight {weight}%",
    "total": "Weighted total",
    "legend": "Legend",
    "legend_low": "low",
    "legend_high": "high",
    "no_evidence": "No evidence",
    "no_evidence_hint": "nothing on this was found in the pages read",
    "not_read": "Not read",
    "not_read_hint": "pages about it were kept but not read",
    "components": "Components",
    "component_row": "{part}",
    "sum": "Score",
    "capped": "Capped by {claim}: the project is no longer maintained, so the score is held down.",
    "superseded": "superseded by a later source ({id})",
    "read_by_model": "read by the model",
    "flagged": "flagged, left out of the scores: {flag}",
    "judged_by_model": "judged by the model",
    "how_scored": "How it was scored",
    "cell_evidence": "Evidence",
    "no_claims": "No verified claim.",
    "why_missing": "Why it is missing",
    "open_in_viewer": "Open in the evidence viewer",
    # contradictions and consensus
    "contradictions_title": "Contradictions and consensus",
    "side_one": "One side",
    "side_other": "Other side",
    "also_said": "Also on this side",
    "current": "current",
    "earlier": "earlier",
    "cause_label_time": "Change over time",
    "cause_label_scope": "Difference of scope",
    "cause_label_error": "Unexplained",
    "effect_settled": "A later source settles it: the earlier side is left out of the scores.",
    "effect_partial": "It counts {share}% as much as an unexplained one against consistency.",
    "effect_full": "It counts in full against consistency.",
    "pages_count": "{count} pages",
    "pages_count_one": "{count} page",
    # confidence and missing information
    "confidence_title": "Confidence and missing information",
    "corroboration": "corroboration",
    "not_recorded": "not recorded",
    "how_computed": "How it was computed",
    "not_found_title": "What would raise the confidence",
    "not_found_intro": "Not found in the pages that were read, or found but thin, old or disputed:",
    "kept_not_read_title": "Kept but not read",
    "kept_not_read_intro": "These pages passed the filter but lay beyond the reading budget of "
    "{budget} pages. What they say is unknown, which is not the same as not found.",
    "kept_not_read_none": "None: every kept page was read or tried.",
    "unreachable_title": "Could not be reached",
    "unreachable_intro": "Searches or pages that failed. Could not look is not the same as "
    "found nothing.",
    # the evidence list
    "sources_title": "Evidence",
    "sources_intro": "Every source read and cited, numbered as in the Markdown report.",
    "published": "published {date}",
    "unknown_date": "date unknown",
    "view_extract": "Stored extract",
    "original": "Original",
    "unread_sources": "Could not be read",
    # not ready
    "not_ready_title": "The report is not ready yet",
    "not_ready_status": "This run is {status}.",
    "status_queued": "queued",
    "status_running": "running",
    "status_done": "done",
    "status_failed": "failed",
    "not_ready_body": "The report appears here once all five stages have finished. Follow its "
    "progress on the run page.",
    "not_ready_failed": "This run stopped before it could write a report.",
    "go_to_run": "Go to the run page",
    # damaged files
    "damaged_title": "A file of this run is damaged",
    "damaged_body": "Verdict checks every file against the checksum recorded when it was "
    "written, and this one no longer matches, so nothing from it is shown.",
    "damaged_rerun": "Re-run from {stage}",
    "damaged_manifest": "Rebuild the manifest and continue",
    # evidence viewer
    "viewer_title": "Evidence · {title}",
    "back_to_report": "Back to the report",
    "original_url": "Original URL",
    "final_url": "Reached at",
    "site": "Site",
    "kind": "Kind",
    "published_term": "Published",
    "stored_chars": "{chars} characters stored",
    "truncated": "truncated at the reading limit",
    "cited_title": "Quotes cited from this page",
    "cited_intro": "Each is highlighted in the text below; follow a link to jump to it.",
    "cited_none": "Nothing on this page is cited in the report.",
    "claims_label": "claims {ids}",
    "contradiction_label": "contradiction {id}",
    "occurrences": "{count} occurrences",
    "occurrences_one": "{count} occurrence",
    "not_in_text": "not found in the stored text",
    "stored_text": "Stored text",
    "no_text": "No text was stored for this page: {status}.",
    "duplicate_of": "Same text as source {id}: read, but not counted as separate evidence.",
    # what-if weights
    "whatif_title": "What if the weights were different?",
    "whatif_intro": "Move a weight and the totals, the ranking, the chart and the "
    "recommendation above follow at once, by the same rule the decision used. Weights are "
    "relative.",
    "whatif_reset": "Back to the run's weights",
    "whatif_save": "Save as a new decision",
    "whatif_weight": "Weight of {dimension}",
    "whatif_changed": "The ranking changed: {option} now leads.",
    "whatif_unchanged": "The ranking is the one decided.",
    "whatif_no_weight": "Each weight must be above 0.",
    "whatif_to_win": "{option} would overtake {over} if the weight of {dimension} went from "
    "{from} to {to}, the others as they are.",
    "whatif_rec_changed": "With these weights the recommendation would be {option}.",
    "whatif_rec_single": "With these weights {option} leads, but all its evidence comes from "
    "one site: no recommendation.",
    "whatif_rec_none": "With these weights nothing can be recommended.",
    "saved_title": "Saved decisions of this run",
    "saved_intro": "The same evidence, decided again with other weights or after a correction.",
    "saved_markdown": "Markdown",
    "saved_view": "Open",
    "saved_weights": "weights",
    "saved_decision": "Decision {number} of this run",
    "saved_back": "The run's report",
    # corrections of the reader
    "kind_wrong_option": "wrong option",
    "kind_wrong_dimension": "wrong dimension",
    "kind_wrong_polarity": "wrong polarity",
    "kind_not_a_claim": "not a claim",
    "kind_not_real": "not a real contradiction",
    "should_be": "(should be: {value})",
    "no_dimension": "no dimension",
    "polarity_for": "for",
    "polarity_against": "against",
    "polarity_neutral": "neutral",
    "corrected_by": "corrected by {who}: {what}",
    "correct_cancel": "Cancel",
    "correct_summary": "Misread?",
    "correct_kind": "What is wrong",
    "correct_value": "What it should be (optional)",
    "correct_value_none": "not said",
    "correct_note": "Note (optional)",
    "correct_button": "Correct and decide again",
    "not_real_button": "Not a real contradiction",
    "undo": "Undo",
    "corrected_away": "Taken out by a correction",
    "options_group": "Options",
    "dimensions_group": "Dimensions",
    "polarity_group": "Polarity",
}
