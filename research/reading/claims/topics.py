"""What a clause must say to speak to a dimension, and what is good or bad on it.

A dimension is read through the topics its name touches ("operational complexity" is
operations; "学习成本" is learning). Each topic has:
- cues: words that put a clause on the topic ("deploy", "cluster", "运维");
- good and bad: what judges an option on this topic even without a general evaluative
  word ("open source" on licence, "at-least-once" on delivery guarantees, "SOC 2" on
  security audits, "no generic" on a drug's cost).

Cues are narrower than the search vocabulary (research.reading.lexicon): a sentence found by
"memory" may be about operations, not throughput, and "latency" is not "throughput".
Words are matched whole, with plain inflections; entries are regular expressions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from research.reading.lexicon import concepts_for
from research.reading.text import has_cjk


@dataclass(frozen=True)
class Topic:
    cues: tuple[str, ...]
    good: tuple[str, ...] = ()
    bad: tuple[str, ...] = ()


def _w(text: str) -> tuple[str, ...]:
    """Entries separated by whitespace; an underscore stands for a space."""
    return tuple(w.replace("_", r"\s+") for w in text.split())


_LICENCE_CUES = _w(r"""licen[cs](?:e|es|ed|ing) open[-\s]source(?:d)? free_software
    source[-\s]available closed[-\s]source proprietary copyleft permissive gpl(?:v?[23])?
    agpl(?:v3)? lgpl apache(?:-2\.0|_2\.0)? bsd(?:-[23]-clause)? mpl bsl sspl business_source
    non-?commercial commercial_licen[cs]e source_code royalt(?:y|ies) (?-i:MIT) 开源 闭源 许可
    许可证 协议 授权 自由软件 código_abierto código_aberto software_libre software_livre
    logiciel_libre""")

TOPICS: dict[str, Topic] = {
    "cost": Topic(
        cues=_w(r"""costs? cost-\w+ pric(?:e|es|ed|ing) expensive cheap(?:er|est)? affordable
        inexpensive free paid subscriptions? per_(?:month|year|user|seat) a_month a_year
        monthly annual(?:ly)? /(?:mo|month|yr|year|user) budget fees? discounts? coupons?
        copay insurance generics? list_price savings \$\d[\d,.]* 成本 价格 费用 免费 收费 昂贵 便宜
        月费 年费 划算 贵"""),
        good=_w(r"""free free_of_charge no_cost cheap(?:er|est)? affordable inexpensive
        low(?:er)?[-\s]cost low(?:er)?_pric(?:e|es|ing) reduced_(?:cost|price)
        reasonabl[ey]_priced reasonable_prices? generics?_(?:is|are)_available
        free_(?:plan|tier|version|edition)_(?:is|are)?_?available 免费 便宜 低成本 性价比高
        划算"""),
        bad=_w(r"""expensive costl(?:y|ier) pricey pricier high(?:er)?[-\s]cost
        high(?:er)?_pric(?:e|es|ing) no_(?:\w+_)?free_(?:plan|tier|option|version)
        not_free charges_(?:users|customers|a_fee|extra|for) no_generics?
        no_(?:direct_)?generic_(?:version|equivalent|alternative)
        lack_of_an?_(?:\w+_)?generic 昂贵 贵 收费高 成本高"""),
    ),
    "price": Topic(cues=()),  # the same as cost, see _TOPIC_NAMES
    "licence": Topic(
        cues=_LICENCE_CUES,
        good=_w(r"""open[-\s]source(?:d)? free_software free_and_open permissive fully_open
        licen[cs]ed_under_(?:the_)?(?:mit|apache|bsd|mpl|isc|gpl|agpl|lgpl)
        full_source_code
        source_code_is_(?:public|available) under_the_(?:mit|apache|bsd|gpl|agpl|mpl)
        (?:mit|apache|bsd|gpl|agpl|mpl)[-\s]licen[cs]ed 开源 自由软件 código_abierto
        código_aberto software_libre software_livre logiciel_libre"""),
        bad=_w(r"""proprietary closed[-\s]source source[-\s]available non-?commercial
        not_open[-\s]source no_longer_open[-\s]source business_source_licen[cs]e bsl sspl
        relicen[cs](?:e|ed|ing) licen[cs]e_change 闭源 非开源 商业授权"""),
    ),
    # The licence as a risk to a team that builds on the option (see topics_for).
    "licence_risk": Topic(
        cues=_LICENCE_CUES,
        # For a team that builds on the option: a permissive grant is little risk; a
        # copyleft licence puts obligations on the team's own code; a licence that limits
        # use, or a change of licence, is a risk. "Open source" alone says none of these.
        good=_w(r"""permissive(?:ly_licen[cs]ed)? permissive_licen[cs]e
        licen[cs]ed_under_(?:the_)?(?:mit|apache|bsd|isc|zlib|unlicense)
        under_the_(?:mit|apache|bsd|isc|zlib)
        (?:mit|apache|bsd|isc)[-\s]licen[cs]ed no_copyleft no_licen[cs]e_fees?
        commercial_use_(?:is_)?(?:allowed|permitted) 宽松 宽松许可 可商用 允许商用"""),
        bad=_w(r"""proprietary closed[-\s]source source[-\s]available non-?commercial
        not_open[-\s]source no_longer_open[-\s]source business_source_licen[cs]e bsl sspl
        relicen[cs](?:e|ed|ing) licen[cs]e_change copyleft strong_copyleft
        licen[cs]ed_under_(?:the_)?(?:gpl|agpl|sspl) under_the_(?:gpl|agpl|sspl)
        (?:gpl|agpl)[-\s]licen[cs]ed
        (?:must|will_have_to|has_to|have_to|required_to)_(?:also_)?(?:be_)?(?:licen[cs]e|release|publish|open[-\s]source|disclose)[sd]?
        闭源 非开源 商业授权 传染性 必须开源"""),
    ),
    "risk": Topic(
        cues=_w(r"""risks? risky lock-in vendor_lock(?:-in)? liabilit(?:y|ies) compliance
        legal 风险 隐患 锁定 合规"""),
        good=_w(r"""low(?:er)?_risk no_lock-in safe_choice 风险低 风险较低"""),
        bad=_w(r"""high(?:er)?_risk lock-in risky legal_risk 风险高 风险较高 锁定"""),
    ),
    "maintenance": Topic(
        cues=_w(r"""maintain(?:ed|er|ers)? maintenance releases? released commits? archived
        deprecated unmaintained abandoned roadmap actively development updates? updated
        end[-\s]of[-\s]life eol 维护 更新 发布 提交 归档 停止维护"""),
        good=_w(r"""actively_(?:maintained|developed) well[-\s]maintained regular_releases
        frequent_(?:releases|updates) active_development releases_(?:regularly|often)
        持续更新 积极维护 更新频繁"""),
        bad=_w(r"""unmaintained abandoned archived deprecated end[-\s]of[-\s]life
        no_longer_(?:maintained|developed|updated|supported) stagnant stagnation
        停止维护 不再维护 已归档 弃用"""),
    ),
    "activity": Topic(cues=()),  # see _TOPIC_NAMES
    "community": Topic(
        cues=_w(r"""communit(?:y|ies) contributors? stars forums? discord adoption adopted
        users? user_base popular(?:ity)? downloads? used_by companies 社区 贡献者 用户 下载量
        流行"""),
        good=_w(r"""large_community huge_community vibrant thriving widely_(?:used|adopted)
        most_popular popular active_community strong_community 社区活跃 社区庞大"""),
        bad=_w(r"""small_community tiny_community niche 社区冷清 社区较小"""),
    ),
    "ecosystem": Topic(
        cues=_w(r"""ecosystems? plugins? extensions? third-party libraries packages
        integrations? communit(?:y|ies) adoption adopted popular(?:ity)? downloads?
        mature maturity battle-tested production-ready stars contributors tooling toolchain
        used_by 生态 生态系统 插件 社区 第三方 下载量 成熟 成熟度 周边 配套 企业级 工具链"""),
        good=_w(r"""fast(?:est)?-growing (?:growing|grown)_(?:fast|rapidly|quickly)
        mature extensive_ecosystem rich_ecosystem large_ecosystem huge_ecosystem
        massive_ecosystem battle-tested production-ready widely_(?:used|adopted)
        most_popular popular industry_standard 生态丰富 生态完善 生态成熟 生态庞大
        配套齐全"""),
        bad=_w(r"""immature growing_ecosystem young_ecosystem smaller_ecosystem
        small_ecosystem limited_ecosystem fewer_(?:libraries|packages|plugins)
        生态不(?:够|太)?成熟 生态较小 生态较弱 不够成熟"""),
    ),
    "learning": Topic(
        cues=_w(r"""learn(?:ing|ed)? learning_curve beginners? newcomers? novices? onboarding
        getting_started get_started pick_up intuitive boilerplate concepts to_grasp grasp
        set_?up new_to documentation
        docs tutorials? examples 学习 学习曲线 学习成本 上手 入门 门槛 新手 初学者 文档 教程
        示例 心智负担 概念 掌握"""),
        good=_w(r"""easy_to_(?:learn|use|pick_up|get_started|grasp|understand)
        easier_to_(?:learn|use|pick_up|get_started|grasp|understand) beginner-friendly
        gentle_learning_curve intuitive quick_to_learn 易学 易上手 上手快 上手容易 易于上手
        容易上手 平缓 (?:对新手|对初学者|新手)友好 门槛低 简单易学"""),
        bad=_w(r"""steep(?:er)?_learning_curve steep(?:er)? hard_to_learn difficult_to_learn
        overwhelming confusing 陡峭 难学 难上手 门槛高 绕脑 学习成本高 心智负担"""),
    ),
    "performance": Topic(
        cues=_w(r"""performance perform(?:s|ed|ant)? fast(?:er|est)? slow(?:er|est)? speed
        throughput latenc(?:y|ies) benchmarks? requests_per_second req/s rps qps
        messages_per_second msg/s (?:mb|gb)/s concurrency concurrent async bottlenecks?
        render(?:s|ing)? bundle(?:_size)? runtime overhead p99
        workers? blocking 性能 速度 快 慢 吞吐 延迟 渲染 体积 大小 运行时 开销 瓶颈 内存 加载"""),
        good=_w(r"""high[-\s]performance fast(?:er|est)? blazing performant
        high_throughput low_latency scales_(?:well|linearly) 高性能 性能(?:优异|出色|最优)
        极快 更快 最快"""),
        bad=_w(r"""slow(?:er|est)? bottlenecks? poor_performance degrades? 性能(?:差|较差|瓶颈)
        卡顿 较慢 变慢"""),
    ),
    "throughput": Topic(
        cues=_w(r"""throughputs? performance fast(?:er|est)? slow(?:er|est)? speed
        messages_per_second msgs?/s (?:k|m|mb|gb)/s(?:ec)? million_messages
        requests_per_second req/s rps qps benchmarks? bottlenecks? firehose 吞吐 吞吐量 性能
        速度"""),
        good=_w(r"""high(?:er)?_throughput fast(?:er|est)? best_throughput
        millions?_of_messages high[-\s]performance scales_(?:well|linearly|horizontally)
        高吞吐 高性能"""),
        bad=_w(r"""low(?:er)?_throughput throughput_drops slow(?:er|est)? bottlenecks?
        degrades? 吞吐(?:较低|低)"""),
    ),
    "latency": Topic(
        cues=_w(r"""latenc(?:y|ies) p99 p999 tail_latency response_times? sub-millisecond
        millisecond 延迟 时延 响应时间"""),
        good=_w(r"""low(?:er|est)?_(?:tail_)?latenc(?:y|ies) sub-millisecond 低延迟"""),
        bad=_w(r"""high(?:er)?_(?:tail_)?latenc(?:y|ies) 高延迟"""),
    ),
    "operations": Topic(
        cues=_w(r"""operat(?:e|es|ing|ional|ions|or|ors) ops deploy(?:s|ed|ing|ment|ments)?
        clusters? clustering configur(?:e|ed|ation|ations) set_?up monitoring upgrades?
        maintain maintenance scaling complexity complex simple simplicity dependenc(?:y|ies)
        moving_parts memory footprint overhead lightweight light-weight heavyweight
        docker_image image_size single_binary binary install(?:ation)? infrastructure
        zookeeper resources overkill 运维 部署 集群 配置 复杂 简单 内存 资源 依赖 开销"""),
        good=_w(r"""simple_to_(?:deploy|operate|run|set_?up|install|configure|manage|maintain)
        easy_to_(?:deploy|operate|run|set_?up|install|configure|manage|maintain)
        easier_to_(?:deploy|operate|run|set_?up|install|configure|manage|maintain)
        single_binary lightweight light-weight tiny small_footprint low_overhead
        little_maintenance no_(?:external_)?dependenc(?:y|ies) simplicity 部署简单 运维简单
        轻量"""),
        bad=_w(r"""complex(?:ity)? hard_to_(?:deploy|operate|run|set_?up|manage|maintain)
        difficult_to_(?:deploy|operate|run|set_?up|manage|maintain) heavyweight overkill
        moving_parts overhead operational_burden 运维复杂 部署复杂 复杂 重量级"""),
    ),
    "reliability": Topic(
        cues=_w(r"""delivery guarantees? guaranteed at[-\s]least[-\s]once at[-\s]most[-\s]once
        exactly[-\s]once acknowledg(?:e)?ments? acks? confirms? confirmations? confirmed
        durable durability persist(?:ent|ence|s|ed)? replay(?:ed)? message_loss lost lose
        redeliver(?:y|ed) idempotent idempoten(?:cy|ce) ordering fsync reliab(?:le|ility)
        data_safety consistency failover store_messages fire[-\s]and[-\s]forget
        可靠 可靠性 持久化 丢失 确认 投递"""),
        good=_w(r"""at[-\s]least[-\s]once exactly[-\s]once durable persistent persistence
        guaranteed(?:_delivery)? strong(?:er)?_consistency no_message_loss
        messages_survive reliable reliability data_safety replay(?:ed)?
        (?:are|is|been)_confirmed 持久化 可靠"""),
        bad=_w(r"""at[-\s]most[-\s]once fire[-\s]and[-\s]forget no_persistence
        (?:messages?_)?(?:are|is|get|gets)_lost lose_messages message_loss not_durable
        not_persistent (?:will_)?not_store never_replayed 丢失"""),
    ),
    "security": Topic(
        cues=_w(r"""security secure audit(?:s|ed|ing|or|ors)? pentests? penetration_tests?
        soc_?2 iso_?27001 certif(?:ied|ication) bug_bounty vulnerabilit(?:y|ies) cves?
        breach(?:es|ed)? hacked encrypt(?:ed|ion) zero-knowledge end-to-end 安全 漏洞 加密
        审计 泄露"""),
        good=_w(r"""audited (?:independent|third-party|external|annual)_(?:security_)?audits?
        penetration_tests? pentests? soc_?2(?:_type_(?:ii|2))? iso_?27001 certified
        bug_bounty never_been_(?:hacked|breached) 审计"""),
        bad=_w(r"""breach(?:ed|es)? hacked unaudited no_(?:\w+_)?(?:third-party_)?audits?
        vulnerabilit(?:y|ies) 泄露 漏洞"""),
    ),
    "audits": Topic(
        cues=_w(r"""audit(?:s|ed|ing|or|ors)? pentests? penetration_tests? soc_?2 iso_?27001
        certif(?:ied|ication|ications) bug_bounty third-party_review security_review
        assessments? 审计 认证"""),
        good=_w(r"""audited
            (?:independent|third-party|external|annual|regular)_(?:security_)?audits?
        penetration_tests? pentests? soc_?2(?:_type_(?:ii|2))? iso_?27001 certified
        bug_bounty never_been_(?:hacked|breached) 审计"""),
        bad=_w(r"""unaudited no_(?:\w+_)?(?:third-party_)?audits? never_(?:been_)?audited"""),
    ),
    "efficacy": Topic(
        cues=_w(r"""hba1c a1c glycated glycosylated glyca?emic glucose blood_sugar
        mmol/mol glyca?emic_control 疗效 降糖 血糖"""),
        good=_w(r"""(?:reduc|lower)(?:e|es|ed|ing)_(?:\w+_)?(?:hba1c|a1c|glycated|glucose|blood_sugar)
        (?:hba1c|a1c)_(?:reductions?|lowering|decreases?) improved_glyca?emic_control
        (?:reductions?|decreases?)_in_(?:\w+_)?(?:hba1c|a1c|glycated|glucose|blood_sugar)
        more_effective achiev(?:ed|ing)_(?:\w+_)?target
        降糖效果好"""),
        bad=_w(r"""less_effective inferior smaller_reductions?"""),
    ),
    "cardiovascular": Topic(
        cues=_w(r"""cardiovascular (?-i:CV) mace heart_attacks? myocardial_infarction (?-i:MI)
            stroke
        strokes heart_failure hhf cardiac cardio(?:protective|vascular) 心血管 心衰"""),
        good=_w(r"""cardioprotective (?:(?-i:CV)|cardiovascular)_benefits? risk-reducing
        improved_cardiovascular_outcomes 心血管获益"""),
        bad=_w(r"""increased_(?:cv_|cardiovascular_)?risk"""),
    ),
    "support": Topic(
        cues=_w(r"""support sla after-sales warranty helpdesk customer_service 售后 支持 服务
        保修"""),
        good=_w(r"""24/7 responsive_support dedicated_support 售后完善"""),
        bad=_w(r"""no_support slow_support 售后差"""),
    ),
    "customisation": Topic(
        cues=_w(r"""customi[sz](?:e|ed|ing|ation|able) extend(?:s|ed|ing)? extensib(?:le|ility)
        plugins? hooks? apis? configurable fork(?:ed|ing)? theming themes? 定制 扩展 插件
        二次开发"""),
        good=_w(r"""customi[sz]able highly_configurable extensible flexible 灵活 可扩展"""),
        bad=_w(r"""not_customi[sz]able rigid locked_down 不灵活"""),
    ),
    "extensibility": Topic(cues=()),  # see _TOPIC_NAMES
    "delivery": Topic(
        cues=_w(r"""delivery lead_times? shipping ships weeks days 交付 交货 周期 发货"""),
    ),
    "replaceability": Topic(
        cues=_w(r"""replace(?:able|ment)? migrat(?:e|ion) export lock-in portab(?:le|ility)
        替代 迁移 导出 锁定"""),
        good=_w(r"""easy_to_(?:replace|migrate|export) portable no_lock-in"""),
        bad=_w(r"""lock-in locked_in hard_to_(?:migrate|replace)"""),
    ),
}

# Topics that share another's words.
_SAME_AS = {"price": "cost", "activity": "maintenance", "extensibility": "customisation"}
# Dimension words that name a topic more narrowly than the search vocabulary does.
_NARROW = {
    "throughput": "throughput",
    "latency": "latency",
    "audit": "audits",
    "吞吐": "throughput",
    "延迟": "latency",
    "审计": "audits",
}
# Words of a dimension's name too general to be a cue on their own.
GENERIC_NAME_WORDS = frozenset(
    """reduction reductions outcome outcomes improvement results effect effects impact level
    levels rate rates score quality factor factors time guarantees value overall""".split()
)


def licence_as_risk(dimension: str) -> bool:
    """Whether the dimension weighs a licence as a risk ("licence risk") rather than as
    openness ("licence")."""
    return TOPICS["licence_risk"] in topics_for(dimension)


def topics_for(dimension: str) -> list[Topic]:
    names = [t for w, t in _NARROW.items() if w in dimension.lower()]
    if not names:
        names = [_SAME_AS.get(c, c) for c in concepts_for(dimension)]
    if "licence" in names and "risk" in names:
        # "Licence risk" asks what the licence obliges or forbids: a copyleft licence is a
        # risk there, and "open source" alone is none; plain "licence" asks for openness.
        names = ["licence_risk" if n == "licence" else n for n in names]
    return [TOPICS[n] for n in dict.fromkeys(names) if n in TOPICS]


@lru_cache(maxsize=256)
def cue_pattern(dimension: str) -> re.Pattern[str] | None:
    """Every word that puts a clause on this dimension."""
    words = [w for t in topics_for(dimension) for w in t.cues]
    words += [re.escape(w) for w in _name_words(dimension)]
    return _compile(words)


@lru_cache(maxsize=256)
def verdict_patterns(dimension: str) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """(good, bad): what judges an option on this dimension by itself."""
    topics = topics_for(dimension)
    return _compile([w for t in topics for w in t.good]), _compile(
        [w for t in topics for w in t.bad]
    )


def _name_words(dimension: str) -> list[str]:
    """The dimension's own name as a cue: in Chinese, whole; otherwise its head word
    ("audits" of "security audits": "security" alone is not about audits)."""
    if has_cjk(dimension):
        return [dimension]
    words = re.findall(r"[a-z0-9][a-z0-9-]*", dimension.lower())
    head = words[-1:] if topics_for(dimension) else words
    return [w for w in head if w not in GENERIC_NAME_WORDS and len(w) > 2]


def _compile(words: list[str]) -> re.Pattern[str] | None:
    if not words:
        return None
    latin = [w for w in words if not has_cjk(w)]
    cjk = [w for w in words if has_cjk(w)]
    parts = []
    if latin:
        body = "|".join(sorted(set(latin), key=len, reverse=True))
        parts.append(r"(?<![\w$-])(?:" + body + r")(?:s|es|ed|d)?(?!\w)")
    if cjk:
        parts.append("|".join(sorted(set(cjk), key=len, reverse=True)))
    return re.compile("|".join(parts), re.I)


@lru_cache(maxsize=256)
def _other_topics(dimensions: tuple[str, ...]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    used = {id(t) for d in dimensions for t in topics_for(d)}
    others = []
    for name, topic in TOPICS.items():
        if name not in _DISTINCT or id(topic) in used:
            continue
        if topic.cues and (pattern := _compile(list(topic.cues))):
            others.append((f"~{name}", pattern))
    return tuple(others)


# Topics whose words name a thing apart ("learning curve", "expensive", "latency"); the
# others share too many words ("update", "support") to say what a judging word is about.
_DISTINCT = frozenset(
    "learning cost licence latency security audits efficacy cardiovascular reliability".split()
)


def other_cues(text: str, dimensions) -> list[tuple[int, int, str]]:
    """Cues of topics none of the dimensions is about, each as (start, end, "~topic"): a
    judging word next to one judges that topic, not a dimension of the run. A word that is
    also a cue of a dimension of the run is left to it."""
    own = _own_cues(tuple(dimensions))
    mine = [m.span() for m in own.finditer(text)] if own else []
    hits = []
    for name, pattern in _other_topics(tuple(dimensions)):
        for m in pattern.finditer(text):
            if not any(s < m.end() and m.start() < e for s, e in mine):
                hits.append((m.start(), m.end(), name))
    return hits


@lru_cache(maxsize=256)
def _own_cues(dimensions: tuple[str, ...]) -> re.Pattern[str] | None:
    return _compile([w for d in dimensions for t in topics_for(d) for w in t.cues])


@lru_cache(maxsize=1)
def _every_cue() -> re.Pattern[str] | None:
    return _compile([w for t in TOPICS.values() for w in t.cues])


@lru_cache(maxsize=8192)
def named_points(text: str) -> frozenset[str]:
    """The words of any topic's vocabulary that the text uses, lower-cased: the things a
    decision can turn on ("persistence", "learning curve", "p99", "许可证")."""
    pattern = _every_cue()
    if pattern is None:
        return frozenset()
    return frozenset(" ".join(m.group(0).lower().split()) for m in pattern.finditer(text))
