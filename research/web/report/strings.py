"""The words the report pages add to the Markdown report's, per language.

Sentences the two share (reasons, contradictions, causes, labels of claims) come from
reports.strings; this module holds only what a web page needs besides: buttons, legends,
headings of its own panels. `WebStrings` looks here first, then in reports.strings.
"""

from __future__ import annotations

from typing import Any

from reports.strings import Strings

_EN: dict[str, str] = {
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
}

_ZH: dict[str, str] = {
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
}

WEB: dict[str, dict[str, str]] = {"en": _EN, "zh": _ZH}
# Words of the Markdown report the pages print as they are.
_SHARED = (
    "why",
    "would_raise",
    "contradictions",
    "consensus",
    "col_option",
    "col_dimension",
    "col_weight",
    "col_part",
    "col_value",
    "coverage",
    "consistency",
    "timeliness",
    "verifiability",
    "missing_information",
    "nothing_noted",
    "colon",
)


class WebStrings(Strings):
    """`t("key", **facts)`: the page's own words first, then the Markdown report's."""

    def __call__(self, key: str, **params: Any) -> str:
        web = WEB[self.language]
        if params.get("count") == 1 and f"{key}_one" in web:
            key = f"{key}_one"
        if key in web:
            return web[key].format(**params)
        return super().__call__(key, **params)

    def labels(self) -> dict[str, str]:
        """The words that take no facts, for templates: `{{ L.download_md }}`."""
        words = {k: v for k, v in WEB[self.language].items() if "{" not in v}
        for key in _SHARED:
            words.setdefault(key, self(key))
        # Headings of their own, not lead-ins to a list: "Why:" becomes "Why".
        words["why"] = words["why"].rstrip(":：")
        return words
