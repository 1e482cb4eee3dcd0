"""Every string the Markdown report prints, per language (Plan.language: "en" or "zh").

The template and the report code never hold English or Chinese text themselves: they ask
for a key and pass the facts as parameters. Quotes from sources are never translated.
"""

from __future__ import annotations

import re
from typing import Any

LANGUAGES = ("en", "zh")

# Section ids in the order DESIGN section 2 fixes, after the opening summary.
HEADINGS: dict[str, dict[str, str]] = {
    "en": {
        "summary": "Summary",
        "background": "Background",
        "options": "Options",
        "dimensions": "Dimensions and weights",
        "matrix": "Score matrix",
        "contradictions": "Contradictions and consensus",
        "recommendation": "Recommendation",
        "confidence": "Confidence and missing information",
        "sources": "Sources",
    },
    "zh": {
        "summary": "摘要",
        "background": "背景",
        "options": "选项",
        "dimensions": "维度与权重",
        "matrix": "评分矩阵",
        "contradictions": "矛盾与共识",
        "recommendation": "推荐",
        "confidence": "置信度与缺失信息",
        "sources": "来源",
    },
}

_EN: dict[str, str] = {
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

_ZH: dict[str, str] = {
    "title": "决策报告：{question}",
    "run_line": "运行 `{run_id}` · {mode} · 生成于 {generated}",
    "mode_deterministic": "确定性分析（未使用大模型）",
    "mode_llm": "大模型辅助分析",
    "mode_llm_named": "大模型辅助分析 ({model})",
    "mode_model_lost": "；从{stage}阶段起无法连接大模型，其余部分由确定性分析完成",
    "mode_budget_out": "；令牌预算在{stage}阶段用尽，其余部分由确定性分析完成",
    "mode_time_out": (
        "；大模型在{stage}阶段用完了时间（LLM_STAGE_SECONDS），该阶段其余部分由确定性分析完成"
    ),
    "mode_time_lost": (
        "；大模型在{stage}阶段的时间内没有给出可用的回答（LLM_STAGE_SECONDS），"
        "其余部分由确定性分析完成"
    ),
    "mode_llm_in": "，用于{stages}",
    "mode_model_unused": "确定性分析：已配置大模型（{model}），但没有采用它的任何回答",
    "why_unused_lost": "（从{stage}阶段起无法连接）",
    "why_unused_budget": "（令牌预算在{stage}阶段用尽）",
    "why_unused_time": "（在{stage}阶段用完了时间，LLM_STAGE_SECONDS）",
    "low_confidence": "低置信度（{confidence}/100，低于阈值 {threshold}）："
    "此结果不适合直接用于决策。",
    "would_raise": "补充以下信息可以提高置信度：",
    "would_raise_default": "每个选项、每个维度上更多独立、一手且较新的来源",
    "would_raise_more": "另有 {count} 项，完整列表见下文“{section}”",
    "recommendation": "推荐：{option}。",
    "provisional": "暂定推荐：{option}。",
    "no_recommendation": "不作推荐。",
    "no_recommendation_why": "缺少作出推荐所需的证据。",
    "no_recommendation_single_site": "得分最高的选项只有单一站点的证据。",
    "confidence_short": "置信度 {confidence}/100（阈值 {threshold}）。",
    "confidence_short_low": "置信度 {confidence}/100，低于阈值 {threshold}。",
    "why": "理由：",
    "top_contradiction": "**最重要的矛盾**（{where}）：{option}，{topic}：{said}。{cause}",
    "top_contradiction_none": "**最重要的矛盾**：所阅读的来源之间未发现矛盾（{cites}）。",
    "top_contradiction_unread": "**最重要的矛盾**：无，因为没有可以读取的来源。",
    "contradiction_fact": "{a} 称{a_value}，{b} 称{b_value}",
    "contradiction_stance": "{a} 的评价为{a_value}，{b} 的评价为{b_value}",
    "contradiction_plain": "{a} 与 {b} 说法不一",
    "contradiction_where": "`{id}`，共 {count} 处，见“{section}”",
    "cause_time": "可能是前后变化：来源 {earlier} 描述的是较早的状态，{current} 描述的是当前状态。",
    "cause_time_one": "可能是前后变化：来源 {earlier} 描述的是较早的状态，{current} "
    "描述的是当前状态。",
    "cause_time_current": "可能是前后变化：{current} 描述的是当前状态。",
    "cause_time_unknown": "可能是前后变化，但无法判断哪一方是当前状态。",
    "cause_scope": "可能是范围不同：{a} 与 {b} 针对的是不同的版本或场景，两者可能都成立。",
    "cause_error": "无法解释这一差异，其中一方可能有误或已过时。",
    "cause_error_stronger": "无法解释这一差异，其中一方可能有误或已过时；较强的来源是 {stronger}"
    "（按 {strong} 计，{weaker} 按 {weak} 计）。",
    "cause_error_even": "无法解释这一差异，其中一方可能有误或已过时；两方来源强度相同（均按 "
    "{strength} 计）。",
    "side_a": "一方 {count} 个页面：{cites}",
    "side_a_one": "一方 {count} 个页面：{cites}",
    "side_b": "另一方 {count} 个页面：{cites}",
    "side_b_one": "另一方 {count} 个页面：{cites}",
    "side_counts": "（双方页面数：{a} 与 {b}）",
    "sentence_sep": "",
    "contradiction_where_one": "`{id}`，仅此一处，原文见“{section}”",
    "colon": "：",
    "total_item": "{rank}. {option}：{total}（{share}）",
    "total_item_none": "{rank}. {option}：{total}",
    "evidence_share": "{dimensions} 个维度中有 {covered} 个有证据，占权重的 {share}%",
    "item_sep": "；",
    "option_line": "- **{name}**（{origin}）：{detail}",
    "contradiction_line": "- **{option}，{topic}**（`{id}`）{judged}：{said}。{cause}",
    "consensus_line": "- **{option}，{topic} = {value}**：{agree}",
    "reason_total": "{option}的加权总分最高，为 {total}/100，{dimensions} 个维度中有 {covered} "
    "个有证据，占权重的 {share}%（{cites}）。",
    "reason_single_site": "{option}的加权总分最高，为 {total}/100（{dimensions} 个维度中有 "
    "{covered} 个有证据，占权重的 {share}%），但其全部评分证据都来自同一个站点：{site}（{cites}）。"
    "作出推荐需要两个以上独立站点的证据，因此不作推荐；下文的排名和评分矩阵照常列出。",
    "reason_margin": "领先{runner}（{runner_total}）{gap} 分。",
    "reason_close": "仅领先{runner}（{runner_total}）{gap} 分，差距很小。",
    "reason_alone": "没有其他选项有经过核实的总分可供比较。",
    "reason_versus": "在{dimension}（权重 {weight}%）上得分 {score}，{runner}为 {runner_score}"
    "（{cites}）。",
    "reason_strongest": "在{dimension}（权重 {weight}%）上得分 {score}，是其总分的最大贡献项"
    "（{cites}）。",
    "reason_backed": "在{dimension}（权重 {weight}%）上得分 {score}，有 {sites} 个独立站点支持"
    "（{cites}）。",
    "reason_nothing_read": "没有任何来源可以读取，因此不作推荐。",
    "reason_nothing_verified": "在已阅读的来源（{cites}）中，没有任何关于这些选项的主张得到核实，"
    "因此不作推荐。",
    "reason_unreachable": "部分检索或页面无法访问（见“{section}”）。",
    "restated": "问题重述：**{question}**",
    "searched": "Verdict 检索了 {providers}。保留的候选页面：{kept} 个；已阅读：{read} 个；"
    "可以读取并在本报告中引用：{ok} 个（{cites}）。",
    "searched_nothing": "Verdict 检索了 {providers}，但没有任何来源可以读取，因此下文没有任何内容"
    "以证据为依据。",
    "unreachable": "无法访问的内容（这与“没有找到”不同）：",
    "origin_question": "问题中提及",
    "origin_given": "用户指定",
    "option_claims": "{count} 条主张，来自 {cites}",
    "option_claims_one": "{count} 条主张，来自 {cites}",
    "option_no_claim": "没有经过核实的主张",
    "no_claims_anywhere": "已阅读的来源（{cites}）中没有关于这些选项、经过核实的主张。",
    "col_dimension": "维度",
    "col_weight": "权重",
    "col_evidence": "证据",
    "none_found": "未找到",
    "matrix_intro": "每项得分 = `{formula}`（均为 0-100）。没有证据的单元格标为缺失，不给分数；"
    "该选项的加权总分按维度权重对全部维度求平均，缺失的单元格按中性（50）计："
    "没有证据既不算好消息，也不算坏消息。",
    "col_option": "选项",
    "col_score": "得分",
    "part_base": "基础判断",
    "part_strength": "来源强度",
    "part_consistency": "一致性",
    "part_timeliness": "时效性",
    "col_base": "基础判断",
    "col_strength": "来源强度",
    "col_consistency": "一致性",
    "col_timeliness": "时效性",
    "missing": "缺失",
    "none": "无",
    "totals": "加权总分：",
    "no_total": "无证据",
    "evidence_intro": "各评分单元格背后的证据：",
    "no_cell_evidence": "没有单元格有经过核实的证据。",
    "label_stance": "对{dimension}的评价：{value}",
    "label_fact": "{attribute}：{value}",
    "label_statement": "关于{attribute}的陈述",
    "superseded_mark": "，已被较新的来源取代（`{id}`）",
    "model_read_mark": "（由模型读出）",
    "flagged_line": "已标记，不计入评分：{flag}",
    "model_leans": "本次运行中，在 {cells} 个有证据的单元格里，有 {count} 个的倾向"
    "（按证据权重向 50 收缩之前的判断）由模型给出；各单元格的评分过程列出了模型所引的论断，"
    "以及仅按规则所得的结果。",
    "model_leans_none": "本次运行中模型没有给出任何单元格的倾向：以下基础判断均由规则得出。",
    "judged_by_model": "（由模型判断）",
    "capped_mark": "（封顶）",
    "capped_by": " · 因 `{claim}` 封顶：该项目已不再维护",
    "scoring_notes": "评分过程：",
    "contradictions": "矛盾",
    "consensus": "共识",
    "topic_stance": "对{dimension}的评价",
    "overall_merit": "总体优劣",
    "no_contradiction": "所阅读的来源之间未发现矛盾（{cites}）。",
    "no_contradiction_unread": "未发现矛盾（没有可以读取的来源）。",
    "agree": "{count} 个独立站点一致（{sites}）。",
    "no_consensus": "在 {cites} 中，没有任何主张得到两个独立站点的共同陈述。",
    "no_consensus_unread": "没有任何主张得到两个独立站点的共同陈述。",
    "evidence": "证据：{cites}",
    "sources_read": "已阅读的来源：{cites}",
    "confidence_line": "**置信度：{confidence}/100**（阈值 {threshold}）。",
    "confidence_line_low": "**置信度：{confidence}/100**（阈值 {threshold}，低于阈值）。",
    "col_part": "组成部分",
    "col_value": "数值",
    "coverage": "覆盖度",
    "consistency": "一致性",
    "timeliness": "时效性",
    "verifiability": "可核实性",
    "corroboration": "佐证度（由两个以上独立站点支持的已评分单元格所占比例）",
    "not_recorded": "未记录",
    "how_computed": "计算方法：{method}",
    "verified": "本报告中的全部 {count} 条主张均已核对，确认逐字出现在所引来源的存储文本中："
    "{cites}。",
    "verified_one": "本报告中的 {count} 条主张已核对，确认逐字出现在所引来源的存储文本中："
    "{cites}。",
    "not_verified": "在已阅读的来源（{cites}）中没有可以核实的主张。",
    "not_verified_unread": "没有可以核实的引文。",
    "missing_information": "缺失信息：",
    "nothing_noted": "无。",
    "not_read": "保留但未阅读：有 {count} 个页面通过了筛选，但超出了 {budget} 页的阅读上限。"
    "这些页面的内容未知，这与“在已读页面中没有找到”不同：",
    "not_read_one": "保留但未阅读：有 {count} 个页面通过了筛选，但超出了 {budget} 页的阅读上限。"
    "该页面的内容未知，这与“在已读页面中没有找到”不同：",
    "not_read_none": "保留但未阅读：无；每个保留的页面都已阅读或尝试读取。",
    "source_line": "[{n}] [{title}]({url}) · {site} · {kind} · 发布于 {published} · "
    "存储摘录：[{page}]({page})",
    "source_line_unlinked": "[{n}] {title} ({url}) · {site} · {kind} · 发布于 {published} · "
    "存储摘录：[{page}]({page})",
    "unknown": "未知",
    "untitled": "无标题",
    "no_source": "没有可以读取的来源。",
    "kind_primary": "一手来源",
    "kind_comparison": "对比评测",
    "kind_community": "社区",
    "kind_interested": "利益相关方",
}

# Claim attributes and values are identifiers from claim extraction; anything not listed
# here is printed as it is (a licence name, a version, a number).
_ATTRIBUTES: dict[str, dict[str, str]] = {
    "en": {},
    "zh": {
        "licence": "许可证",
        "maintenance": "维护状态",
        "latest_version": "最新版本",
        "last_commit": "最近提交",
        "release_date": "发布日期",
        "core team": "核心团队人数",
        "contributors": "贡献者人数",
        "stars": "星标数",
        "size": "体积",
        "latency": "延迟",
        "yearly price": "年费",
        "throughput": "吞吐量",
    },
}
# Attributes with a part of their own: a version, a yardstick.
_ATTRIBUTE_FORMS: dict[str, list[tuple[re.Pattern[str], str]]] = {
    "en": [
        (re.compile(r"release_date (\S+)"), "release date of {0}"),
        (re.compile(r"multiple \((.+) vs (.+)\)"), "{0} relative to {1}"),
    ],
    "zh": [
        (re.compile(r"release_date (\S+)"), "{0} 的发布日期"),
        (re.compile(r"multiple \((.+) vs (.+)\)"), "相对 {1} 的{0}倍数"),
        (re.compile(r"downloads per month"), "月下载量"),
    ],
}
_VALUES: dict[str, dict[str, str]] = {
    "en": {},
    "zh": {
        "positive": "正面",
        "negative": "负面",
        "neutral": "中性",
        "active": "仍在维护",
        "inactive": "已停止维护",
    },
}

STRINGS: dict[str, dict[str, str]] = {"en": _EN, "zh": _ZH}


class Strings:
    """The report's words in one language: `t("key", **facts)` in code and template."""

    def __init__(self, language: str) -> None:
        self.language = language if language in LANGUAGES else "en"
        self._text = STRINGS[self.language]

    def __call__(self, key: str, **params: Any) -> str:
        if params.get("count") == 1 and f"{key}_one" in self._text:
            key = f"{key}_one"
        return self._text[key].format(**params)

    def say(self, key: str, params: dict[str, Any]) -> str:
        """A sentence from reports.narrative: section ids become headings and claim
        values are worded in this language."""
        params = dict(params)
        if "section" in params:
            params["section"] = self.heading(params["section"])
        for side in ("a_value", "b_value"):
            if side in params:
                params[side] = self.value(params[side])
        return self(key, **params)

    def heading(self, section: str) -> str:
        return HEADINGS[self.language][section]

    def attribute(self, attribute: str) -> str:
        """A claim's attribute as a reader would name it: "release date of 5.0",
        "memory relative to RabbitMQ"; anything not known, as it is."""
        for pattern, wording in _ATTRIBUTE_FORMS[self.language]:
            if match := pattern.fullmatch(attribute):
                return wording.format(*match.groups())
        names = _ATTRIBUTES[self.language]
        for key in sorted(names, key=len, reverse=True):
            if attribute == key or attribute.startswith((key + " ", key + "_")):
                return names[key] + attribute[len(key) :].replace("_", " ")
        return attribute.replace("_", " ")

    def value(self, value: str) -> str:
        return _VALUES[self.language].get(value, value)

    def kind(self, kind: str) -> str:
        return self._text.get(f"kind_{kind}", kind)
