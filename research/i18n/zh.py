"""Every string Verdict writes for people in Chinese, one table per part of the product
(research.i18n says how they are looked up). Data only: no logic lives here."""

from __future__ import annotations

import re
from typing import Any

# How much a page counts, and why (research.stages.sourcekind).
SOURCE_KINDS: dict[str, Any] = {
    "own": "{o}的官方站点",
    "own_judgement": "{o}官方对自身的评价，只按评测文章计",
    "interested": "利益相关方：由{o}的厂商发布",
    "self_praise": "利益相关方：{o}的厂商将自己与竞品比较",
    "user_written": "{host}上的内容由用户撰写（论坛、议题或讨论）",
    "standard": "{host}为一手来源",
    "community": "{host}为论坛或博客",
    "comparison": "{host}为第三方文章",
}


# The notes on each cell of the score matrix (decisions.scoring).
SCORING: dict[str, Any] = {
    "shrunk": (
        "基础分 = 50 + (原始 {raw:.1f} - 50) x {n:.2f} / ({n:.2f} + {k:g}) = {base:.1f}："
        "{sites} 个{site_word}表明了立场，证据权重 {n:.2f}"
    ),
    "site": "站点",
    "sites": "站点",
    "no_side": "没有来源表明立场，基础分取 50",
    "model_lean": (
        "倾向由模型给出，为 {raw:.1f}，依据论断 {claims}：基础分 = 50 + ({raw:.1f} - 50) "
        "x {n:.2f} / ({n:.2f} + {k:g}) = {base:.1f}，证据权重 {n:.2f} 来自其所引论断背后的 "
        "{sites} 个{site_word}"
    ),
    "rules_lean": "作为对照，仅按规则：{rules}",
    "model_dropped": "模型对此单元格的判断未被采用（{reason}），倾向由规则给出",
    "standing": "{source} 按 {strength:g} 计：{why}",
    "capped": (
        "{site} 指出{option}已不再维护（“{quote}”），因此基础分上限为 {base:g}，"
        "得分上限为 {score:g}"
    ),
    "revived": ("{site}（{newer}）在“{quote}”之后称{option}仍在维护，因此得分不设上限"),
    "superseded": (
        "已被较新的来源取代：{claims}（{sites}）描述的是较早的状态；{contradiction} "
        "判断差异来自前后变化，{current}（{current_site}）描述的是当前状态，"
        "因此不计入基础分，也不降低一致性"
    ),
    "superseded_one": (
        "已被较新的来源取代：{claims}（{sites}）描述的是较早的状态；{contradiction} "
        "判断差异来自前后变化，{current}（{current_site}）描述的是当前状态，"
        "因此不计入基础分，也不降低一致性"
    ),
    "consistency": "一致性 = {agreed:g}（{backing}）{terms} = {value:.1f}",
    "corroborated": "两个以上站点",
    "single": "单一站点",
    "penalty": "- {points:g}（{id}：{why}）",
    "why_error": "无法解释",
    "why_scope": "版本或场景不同，按一半计",
    "why_time": "前后变化但不知哪方为当前状态，按一半计",
    "why_settled": "已被较新的来源取代，不计",
}


# How confidence was computed (decisions.assessment).
ASSESSMENT: dict[str, Any] = {
    "no_claims": "在可读取的来源中没有找到任何论断，因此置信度为 0。",
    "names": {
        "coverage": "覆盖度",
        "consistency": "一致性",
        "timeliness": "时效性",
        "verifiability": "可核实性",
    },
    "formula": "置信度 = {terms} = {raw:.1f}",
    "contradicted": (
        "（一致性中，{full} 处矛盾全额计入，{half} 处可能由版本、场景不同或前后变化解释，"
        "按一半计入，{settled} 处已被较新的来源取代，不计入）"
    ),
    "support": (
        "；佐证度为 {c:.1f}（由两个以上独立站点支持、且不只依赖论坛或利益相关方的已评分"
        "单元格所占比例），因此乘以 0.6 + 0.4 x {f:.2f} = {factor:g}，得 {value:.1f}"
    ),
    "no_gap": "；有总分的候选项少于两个，因此不做差距扣减。",
    "wide": "；前两名相差 {gap:.1f} 分，因此不做差距扣减。",
    "close": (
        "；前两名仅相差 {gap:.1f} 分，因此乘以 0.8 + 0.02 x {gap:.1f} = {factor:g}，"
        "得 {value:.1f}。"
    ),
}


# The recommendation's reasons, and what could not be reached or read (decisions.decide).
DECIDE: dict[str, Any] = {
    "nothing": "没有任何候选项的证据得到核实，因此不作推荐。",
    "unreachable": "有 {n} 个检索或页面无法访问。",
    "top": "{option}的加权总分最高，为 {total:.1f}/100，{dims} 个维度中有 {covered} 个有证据，"
    "占权重的 {share}%。",
    "single_site": "{option}的加权总分最高，为 {total:.1f}/100（{dims} 个维度中有 {covered} "
    "个有证据，占权重的 {share}%），但其全部评分证据都来自同一个站点：{site}。作出推荐"
    "需要两个以上独立站点的证据，因此不作推荐。",
    "lead": "领先{runner}（{total:.1f}）{gap:.1f} 分。",
    "best": "在{dim}方面得 {score:.1f} 分（论断 {ids}）。",
    "page": "{url}：{status}",
    "provider": "检索服务 {provider}：{n} 次{queries}结果为 {outcome}",
    "query": "查询",
    "queries": "查询",
    "not_read": "《{title}》（{url}）",
}


# The information that would raise confidence (decisions.missing).
MISSING: dict[str, Any] = {
    "join": "、",
    "sep": "；",
    "cell": "{option}的{dim}",
    "found_none": "在已读的 {n} 个页面中没有找到关于{option}在{dims}方面的证据",
    "unread": "没有关于{option}在{dims}方面的证据；有 {n} 个关于{option}的页面未读：{listed}",
    "page": "",
    "pages": "",
    "was": "",
    "were": "",
    "item": "《{title}》（{url}）：{why}",
    "budget": "超出 {n} 页的阅读上限",
    "failed": "无法读取（{status}）",
    "more": "另有 {n} 个",
    "thin": "以下评分只依赖单一站点，或只依赖论坛和利益相关方：{cells}；"
    "为每项补充一份独立评测或一手来源可以提高置信度",
    "no_primary": "{o}没有一手来源（官方网站、代码仓库或规范）",
    "disagree": "各来源对{o}的{subject}说法不一：{said}；一份一手的最新说明可以澄清",
    "changed": "各来源对{o}的{subject}说法不一，可能是前后变化：{said}；项目官方的最新说明可以确认",
    "scoped": "各来源对{o}的{subject}说法不一，可能针对不同的版本或场景：{said}；"
    "一份写明所用版本或场景的来源可以澄清",
    "then_now": "此前为{a}，现为{b}",
    "overall": "总体评价",
    "labels": {
        "licence": "许可证",
        "maintenance": "维护状态",
        "latest_version": "最新版本",
        "last_commit": "最近提交",
        "active": "仍在维护",
        "inactive": "已停止维护",
    },
    "vs": "{a} 与 {b}",
    "unreadable": "{n} 个来源无法读取（{outcomes}）",
    "source": "",
    "sources": "",
    "stale": "关于{o}在{d}方面的证据均早于 {years} 年（最新为 {newest}）；需要更新的来源",
}


# The report's section headings, by section id (reports.check.SECTIONS).
REPORT_HEADINGS: dict[str, str] = {
    "summary": "摘要",
    "background": "背景",
    "options": "选项",
    "dimensions": "维度与权重",
    "matrix": "评分矩阵",
    "contradictions": "矛盾与共识",
    "recommendation": "推荐",
    "confidence": "置信度与缺失信息",
    "sources": "来源",
}


# Every other string of the Markdown report (reports.strings.Strings).
REPORT: dict[str, str] = {
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
    "corrections_intro": "核对过读取结果的人所做的更正"
    "（上面的得分计入仍有效的更正；存储的网页未被改动）：",
    "correction_line": "`{target}`：{kind}{should}，由 {who} 于 {when} 更正{note}{undone}",
    "correction_should_be": "（应为：{value}）",
    "correction_note": "：{note}",
    "correction_undone": "（已由 {who} 于 {when} 撤销，不计入）",
    "correction_wrong_option": "选项错了",
    "correction_wrong_dimension": "维度错了",
    "correction_wrong_polarity": "倾向错了",
    "correction_not_a_claim": "不是论断",
    "correction_not_real": "不是真正的矛盾",
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


# Claim attributes as a reader names them; anything not listed is printed as it is
# (a licence name, a version, a number).
ATTRIBUTES: dict[str, str] = {
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
}


# Attributes with a part of their own: a version, a yardstick.
ATTRIBUTE_FORMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"release_date (\S+)"), "{0} 的发布日期"),
    (re.compile(r"multiple \((.+) vs (.+)\)"), "相对 {1} 的{0}倍数"),
    (re.compile(r"downloads per month"), "月下载量"),
]


# Claim values (stances, statuses) in words.
VALUES: dict[str, str] = {
    "positive": "正面",
    "negative": "负面",
    "neutral": "中性",
    "active": "仍在维护",
    "inactive": "已停止维护",
}


# What the report pages add to the Markdown report's words (research.web.report.strings).
WEB: dict[str, str] = {
    "html_lang": "zh-CN",
    "page_title": "报告 · {question}",
    "question": "问题",
    "generated": "运行 {run_id} · {mode}",
    "download_md": "下载 Markdown",
    "run_page": "运行页面",
    "contents": "本页目录",
    "full_stop": "。",
    "rec_label": "推荐",
    "rec_provisional": "暂定推荐",
    "no_rec": "不作推荐",
    "confidence": "置信度",
    "threshold": "阈值 {threshold}",
    "gauge_label": "置信度 {confidence}/100，阈值 {threshold}",
    "see_all_missing": "查看全部缺失信息",
    "top_contradiction": "最重要的矛盾",
    "no_top_contradiction": "所阅读的来源之间未发现矛盾。",
    "totals_title": "加权总分",
    "totals_intro": "按维度权重对各选项的全部维度求加权平均（0-100）。"
    "没有证据的维度按中性（50）计：既不按零分计算，也不从平均中剔除，"
    "因此一个维度上的高分不能替代其他维度上缺失的证据。图下列出各选项有多少权重以证据为依据。",
    "shares_label": "各选项有多少权重以证据为依据",
    "list_sep": "，",
    "chart_label": "加权总分柱状图，每个选项一根柱",
    "recommended": "推荐",
    "other_options": "其他选项",
    "matrix_title": "评分矩阵",
    "matrix_hint": "展开单元格可查看四个组成部分、评分过程及其证据。",
    "weight": "权重 {weight}%",
    "total": "加权总分",
    "legend": "图例",
    "legend_low": "低",
    "legend_high": "高",
    "no_evidence": "无证据",
    "no_evidence_hint": "在已读页面中没有找到相关内容",
    "not_read": "未阅读",
    "not_read_hint": "相关页面已保留但未阅读",
    "components": "组成部分",
    "component_row": "{part}",
    "sum": "得分",
    "capped": "因 {claim} 封顶：该项目已不再维护，因此压低了得分。",
    "superseded": "已被较新的来源取代（{id}）",
    "read_by_model": "由模型读出",
    "flagged": "已标记，不计入评分：{flag}",
    "judged_by_model": "由模型判断",
    "how_scored": "评分过程",
    "cell_evidence": "证据",
    "no_claims": "没有经过核实的主张。",
    "why_missing": "缺失原因",
    "open_in_viewer": "在证据查看器中打开",
    "contradictions_title": "矛盾与共识",
    "side_one": "一方",
    "side_other": "另一方",
    "also_said": "持相同说法的其他页面",
    "current": "当前",
    "earlier": "较早",
    "cause_label_time": "前后变化",
    "cause_label_scope": "范围不同",
    "cause_label_error": "原因不明",
    "effect_settled": "较新的来源已澄清：较早一方不计入评分。",
    "effect_partial": "对一致性的影响按原因不明情形的 {share}% 计。",
    "effect_full": "对一致性全额计。",
    "pages_count": "{count} 个页面",
    "confidence_title": "置信度与缺失信息",
    "corroboration": "佐证度",
    "not_recorded": "未记录",
    "how_computed": "计算方法",
    "not_found_title": "可以提高置信度的信息",
    "not_found_intro": "在已读页面中没有找到，或者找到了但证据单薄、陈旧或有争议：",
    "kept_not_read_title": "保留但未阅读",
    "kept_not_read_intro": "这些页面通过了筛选，但超出了 {budget} 页的阅读上限。它们的内容未知，"
    "这与“没有找到”不同。",
    "kept_not_read_none": "无：每个保留的页面都已阅读或尝试读取。",
    "unreachable_title": "无法访问",
    "unreachable_intro": "失败的检索或页面。“无法查看”与“没有找到”不同。",
    "sources_title": "证据",
    "sources_intro": "所有已阅读并被引用的来源，编号与 Markdown 报告一致。",
    "published": "发布于 {date}",
    "unknown_date": "日期未知",
    "view_extract": "存储摘录",
    "original": "原文",
    "unread_sources": "无法读取",
    "not_ready_title": "报告尚未生成",
    "not_ready_status": "该运行当前状态：{status}。",
    "status_queued": "排队中",
    "status_running": "运行中",
    "status_done": "已完成",
    "status_failed": "已失败",
    "not_ready_body": "五个阶段全部完成后，报告会显示在这里。可在运行页面查看进度。",
    "not_ready_failed": "该运行在生成报告之前已停止。",
    "go_to_run": "前往运行页面",
    "damaged_title": "该运行的一个文件已损坏",
    "damaged_body": "Verdict 会用写入时记录的校验和检查每个文件，这个文件已不再匹配，"
    "因此不显示其中的任何内容。",
    "damaged_rerun": "从{stage}阶段重新运行",
    "damaged_manifest": "重建清单并继续",
    "viewer_title": "证据 · {title}",
    "back_to_report": "返回报告",
    "original_url": "原始链接",
    "final_url": "实际访问地址",
    "site": "站点",
    "kind": "类型",
    "published_term": "发布日期",
    "stored_chars": "已存储 {chars} 个字符",
    "truncated": "已按阅读上限截断",
    "cited_title": "本页被引用的原文",
    "cited_intro": "每条引文都在下方正文中高亮显示；点击链接可跳转。",
    "cited_none": "报告没有引用本页的内容。",
    "claims_label": "主张 {ids}",
    "contradiction_label": "矛盾 {id}",
    "occurrences": "出现 {count} 次",
    "not_in_text": "未在存储文本中找到",
    "stored_text": "存储文本",
    "no_text": "本页没有存储文本：{status}。",
    "duplicate_of": "与来源 {id} 文本相同：已阅读，但不作为单独的证据计数。",
    # what-if weights
    "whatif_title": "如果权重不同会怎样？",
    "whatif_intro": "调整某个权重，上面的总分、排名、图表和推荐会按决策所用的同一规则"
    "立即更新。权重是相对的。",
    "whatif_reset": "恢复本次运行的权重",
    "whatif_save": "另存为新的决策",
    "whatif_weight": "{dimension}的权重",
    "whatif_changed": "排名变了：现在 {option} 领先。",
    "whatif_unchanged": "排名与决策一致。",
    "whatif_no_weight": "每个权重都必须大于 0。",
    "whatif_to_win": "若{dimension}的权重从 {from} 调到 {to}（其余不变），{option} 将超过 {over}。",
    "whatif_rec_changed": "按这些权重，推荐将是 {option}。",
    "whatif_rec_single": "按这些权重 {option} 领先，但其证据全部来自同一网站：不作推荐。",
    "whatif_rec_none": "按这些权重无法作出推荐。",
    "saved_title": "本次运行保存的决策",
    "saved_intro": "同样的证据，用其他权重或在更正之后重新决策。",
    "saved_markdown": "Markdown",
    "saved_view": "查看",
    "saved_weights": "权重",
    "saved_decision": "本次运行的第 {number} 个决策",
    "saved_back": "本次运行的报告",
    # corrections of the reader
    "kind_wrong_option": "选项错了",
    "kind_wrong_dimension": "维度错了",
    "kind_wrong_polarity": "倾向错了",
    "kind_not_a_claim": "不是论断",
    "kind_not_real": "不是真正的矛盾",
    "should_be": "（应为：{value}）",
    "no_dimension": "无维度",
    "polarity_for": "支持",
    "polarity_against": "反对",
    "polarity_neutral": "中性",
    "corrected_by": "由 {who} 更正：{what}",
    "correct_cancel": "取消",
    "correct_summary": "读错了？",
    "correct_kind": "错在哪里",
    "correct_value": "应为（可选）",
    "correct_value_none": "不指定",
    "correct_note": "备注（可选）",
    "correct_button": "更正并重新决策",
    "not_real_button": "不是真正的矛盾",
    "undo": "撤销",
    "corrected_away": "已被更正移出",
    "options_group": "选项",
    "dimensions_group": "维度",
    "polarity_group": "倾向",
}
