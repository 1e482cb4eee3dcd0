"""The words stances are read from, in English and Chinese.

Three kinds, applied in this order (each masks what it matched from the next):
- amounts: a level applied to a thing whose amount is good or bad ("few examples",
  "less boilerplate", "案例较少", "生态庞大");
- phrases: fixed patterns whose meaning is not the sum of their words ("no longer
  maintained", "only supports", "hard to beat");
- words: single evaluative words ("robust", "bloated", "轻量", "臃肿").
"""

from __future__ import annotations


def _words(text: str) -> list[str]:
    """Whitespace-separated words; an underscore stands for a space inside a phrase."""
    return [w.replace("_", " ") for w in text.split()]


# --- amounts ------------------------------------------------------------------------------

# Things it is good to have more of, and things it is good to have less of.
GOOD_THINGS_EN = r"""performance throughput speed reliability availability scalability
productivity adoption popularity documentation docs examples? tutorials? guides? plugins?
extensions? integrations? librar(?:y|ies) packages? communit(?:y|ies) contributors? users?
user\s+base resources support ecosystems? jobs? job\s+market answers flexibility compatibility
security maintainability readability market\s+share mindshare traction momentum backing
funding uptime stars downloads features? feature\s+set tooling stability control
customi[sz]ation options? choices? third-party\s+(?:packages|libraries|plugins)""".split()
BAD_THINGS_EN = r"""costs? pric(?:e|es|ing) overhead latenc(?:y|ies)
memory(?:\s+(?:usage|footprint|consumption|use))? footprint complexity boilerplate risks?
barriers?(?:\s+to\s+entry)? bundles?(?:\s+sizes?)? binary\s+sizes? image\s+sizes?
startup\s+times? cold\s+starts? build\s+times? compile\s+times? learning\s+curve bugs?
dependencies maintenance\s+burden operational\s+burden ops\s+burden burden cognitive\s+load
runtimes?(?:\s+sizes?)?
friction downtime errors? vulnerabilit(?:y|ies) moving\s+parts lock-in configuration
ceremony""".split()
MORE_EN = r"""high higher highest large larger largest huge big bigger biggest massive vast
significant substantial considerable heavy heavier extra additional increased increasing more
many numerous plenty\s+of lots\s+of a\s+lot\s+of tons\s+of loads\s+of a\s+wealth\s+of rich
richer extensive abundant ample growing strong stronger great increases? raises? adds?
doubles? increase\s+in increases\s+in rise\s+in growth\s+in surge\s+in""".split()
LESS_EN = r"""low lower lowest minimal minimum negligible small smaller smallest tiny little
less least few fewer fewest limited scarce sparse reduced zero no hardly\s+any barely\s+any
almost\s+no little\s+to\s+no little\s+or\s+no lack\s+of lacks lacking lack missing without
absence\s+of modest thin decreased decreasing shrinking declining dwindling reduces? cuts?
eliminates? minimi[sz]es? reduction\s+in reductions\s+in decrease\s+in decline\s+in drop\s+in
cut\s+in""".split()
# After a verb: "the community is small", "overhead stays low".
MORE_AFTER_EN = r"""high higher large larger huge big bigger massive vast significant
substantial considerable heavy plentiful abundant extensive rich growing strong""".split()
LESS_AFTER_EN = r"""low lower minimal negligible small smaller tiny limited scarce sparse
lacking few thin modest insufficient missing non-existent nonexistent""".split()
# Words that may sit between a level and its thing ("low operational overhead"), but not
# these, which start a new phrase ("significant reduction in risk").
NOT_BETWEEN_EN = r"""of in for to with on at by from and or but than as reduction reductions
decrease decreases drop increase increases improvement improvements growth change changes""".split()

GOOD_THINGS_ZH = """性能 吞吐量 吞吐 速度 可靠性 可用性 可用 扩展性 稳定性 开发效率 效率
生产力 人气 热度 知名度 采用率 文档 案例 示例 教程 插件 生态系统 生态 社区 用户群 用户 使用者
贡献者 资料 资源 第三方库 组件库 岗位 市场份额 灵活度 灵活性 自由度 兼容性 安全性 可维护性
可读性 下载量 关注度 支持 性价比 star""".split()
BAD_THINGS_ZH = """运行时开销 运行时体积 运行时 runtime 安装包 大小 学习成本 学习曲线 维护成本
心智负担 成本 费用 价格 开销 延迟 时延
内存占用 资源占用 内存 占用 复杂度 复杂性 样板代码 模板代码 风险 门槛 包体积 包大小 体积 bug Bug BUG
依赖 代码量 负担 耦合 故障 报错 漏洞 坑""".split()
# After the thing, with optional adverbs: 文档较少, 生态非常庞大. One-character levels stop
# before characters that make them part of another word (社区大佬, 支持多种, 高并发).
MORE_AFTER_ZH = [
    "高昂",
    "丰富",
    "庞大",
    "充足",
    "众多",
    "繁荣",
    "强大",
    "充分",
    "齐全",
    "高(?![级阶端度并可效手])",
    "大(?![佬型厂量部家多数概约致于])",
    "多(?![种个样数次端年少久平语线页])",
    "强(?![制烈调])",
    "好(?![像几处])",
]
LESS_AFTER_ZH = [
    "低廉",
    "有限",
    "不足",
    "匮乏",
    "稀少",
    "欠缺",
    "缺乏",
    "不多",
    "较差",
    "很差",
    "差(?![异别距值])",
    "低(?![代端级版])",
    "小(?![型程组时于部])",
    "少(?![数量部])",
]
ADVERBS_ZH = """相对较 相对 比较 较 更加 更 很 非常 极其 极 十分 偏 太 过于 过 特别 相当 超级
超 巨 略显 稍显 略 稍 有点 有些 颇 最 真的 实在 确实 明显 也 都 还 仍然 仍 依然 是""".split()
# Before the thing: 大量样板代码, 缺乏文档, 低延迟. Levels listed with a gap may have a few
# characters between them and the thing (零运行时开销, 缺少官方文档).
MORE_BEFORE_ZH = """极大的 很大的 较大的 更大的 一定的 一定 大量的 大量 丰富的 庞大的 众多 海量
超多 更多 很多 许多 较多的 诸多 较高的
更高的 极高的 很高的 增加了 增加 提升了 提升 提高了 提高 强大的 完善的 繁荣的 超强 高""".split()
LESS_BEFORE_ZH = """极小的 极小 很小的 较小的 更小的 极少的 极少 很少的 几乎没有 缺乏 缺少 欠缺
没有 少量 较少的 很少的 有限的 较低的 更低的
极低的 很低的 降低了 降低 减少了 减少 节省了 节省 节约了 节约 省去了 省去 免去了 免去
零 低""".split()
GAP_LEVELS_ZH = """几乎没有 缺乏 缺少 欠缺 没有 零 大量的 大量 丰富的 庞大的 众多 海量 降低了
降低 减少了 减少 提升了 提升 提高了 提高 增加了 增加""".split()

# --- phrases ------------------------------------------------------------------------------

PHRASES: list[tuple[str, int]] = [
    (
        r"\bno longer (?:actively )?(?:maintained|developed|supported|updated|recommended|active)",
        -1,
    ),
    (r"\bnot (?:actively |well )?maintained\b", -1),
    (
        r"\b(?:does not|doesn't|do not|don't|cannot|can't|won't|will not) support\b|"
        r"\bnot supported\b|\bunsupported\b",
        -1,
    ),
    (
        r"\bonly (?:supports?|works? (?:with|on)|runs? on|available (?:on|in|for)|offers?|"
        r"provides?)\b",
        -1,
    ),
    (
        r"\bstill (?:in (?:beta|alpha|preview|development|early)|immature|young|maturing|"
        r"evolving|catching up|experimental|early|rough|unstable|buggy|lacks?|missing|limited)\b",
        -1,
    ),
    (r"\b(?:relatively|fairly|still|quite) (?:new|young)\b|\byoung (?:community|project)\b", -1),
    (r"\bat best\b|\bprone to\b|\berror[- ]prone\b|\bbreaking changes?\b", -1),
    (r"\b(?:keeps?|kept) (?:crashing|breaking|failing)\b|\bmemory leaks?\b|\bleaks? memory\b", -1),
    (r"\b(?:lags?|lagging|falls?|falling|fell) behind\b|\bfalls? short\b", -1),
    (r"\b(?:is|are|was) outperformed by\b", -1),
    (r"\bhard to (?:beat|argue with|go wrong)\b|\bcan'?t go wrong\b|\bno[- ]brainer\b", 1),
    (r"\bdegrades? gracefully\b|\bscales? (?:well|linearly|horizontally)\b", 1),
    (r"\bcosts? (?:far |much |a lot |significantly )?more\b", -1),
    (r"\bcosts? (?:far |much |a lot |significantly )?less\b", 1),
    (r"(?:表现|性能|效果|体验)(?:比较|相对|较为)?一般|一般般|平平无奇|中规中矩", -1),
    (
        r"\b(?:adds?|costs?|has|with) only (?:about |around |~\s?)?\d+(?:\.\d+)?\s?%\s+"
        r"(?:[\w-]+\s+)?(?:overhead|slowdown|penalty|loss)\b",
        1,
    ),
    (r"\b(?:is|are|completely|totally|entirely|100%|always|forever) free\b(?! tier| plan)", 1),
    (r"\b(?:much|far|significantly|substantially|vastly|a lot) better\b", 1),
    (r"仅支持|只支持|只能|仅限|仅适用", -1),
    (r"(?:仍|还|尚)(?:在|处于)(?:早期|初期|测试|实验|成长|发展|完善)", -1),
    (r"较新(?!的|版|特性|功能|语法|标准|浏览器|技术)|(?:还|仍|比较|相对|较)年轻", -1),
    (r"难(?:以|用|学|懂|上手|维护|调试|排查|部署|配置|扩展|掌握)|上手难|不建议", -1),
    (r"(?:有|存在)(?:一定|较大|很大|明显|不小)?的?差距", -1),
    (r"不难", 1),
]

# Phrases that judge and also negate the cue after them ("not yet stable", "还不成熟"): read
# them, but leave them in place for the cue that follows.
NEGATING_PHRASES: list[tuple[str, int]] = [
    (r"\bnot yet\b", -1),
    (r"尚不|尚未|暂不|还不(?!错)|还没有?", -1),
]

# --- words --------------------------------------------------------------------------------

POSITIVE = _words("""easy easier simple simpler cheap cheaper inexpensive affordable
free_of_charge well_documented well-documented excellent great mature stable flexible powerful
fast faster quicker vibrant thriving friendly straightforward painless smooth recommend
recommended recommends solid gentle responsive healthy permissive low_risk low-risk
safe_choice cheap_to active lively answered helpful safe safe_pick refreshingly robust
reliable scalable battle-tested battle_tested production-ready production_ready proven
lightweight light-weight intuitive concise elegant efficient performant blazing best
best-in-class superior outperform outperforms better good well-designed well_designed
well-maintained well_maintained actively_maintained seamless seamlessly ergonomic pleasant
enjoyable productive popular widely_used widely-used widely_adopted first-class rock-solid
polished snappy improvement improvements improved improves advantage advantages love loved
lighter leaner fastest easiest simplest lightest comprehensive thorough detailed clear
shines excels outstanding impressive
safer""")
NEGATIVE = _words("""hard harder difficult steep steeper expensive costly pricey pricier
costlier risky riskier high_risk poorly_documented undocumented buggy unstable slow slower
painful complex complicated limited lacking lacks lack abandoned inactive stagnant frustrating
avoid brittle fragile worried concern concerns headache burden lock-in real_risk a_risk
flagged ghost_town unanswered quiet dead breaks brutal wary punishing nightmare overkill
heavyweight heavy-weight bloated verbose boilerplate outdated obsolete deprecated vulnerable
vulnerability vulnerabilities breach leak leaks leaky crash crashes crashed crashing bug bugs
inferior worse worst drawback drawbacks downside downsides cons disadvantage disadvantages pitfall
pitfalls caveat caveats gotcha gotchas limitation limitations shortcoming shortcomings
weakness weaknesses weak poor poorly bad mediocre clunky cumbersome awkward tedious confusing
convoluted messy struggle struggles struggled struggling flaky unreliable insecure sluggish
immature overhead bottleneck bottlenecks choke_point heavier mislead misleads misleading
controversy controversies controversial tarnished slowest hardest crisis""")
POSITIVE_ZH = """平缓 容易 简单 便宜 低成本 风险低 风险较低 风险很低 完善 优秀 成熟 稳定 灵活
强大 活跃 友好 推荐 上手快 门槛低 齐全 省心 放心 无忧 不错 顺手 好用 很好 方便 热闹 及时 优点
优势 长处 易用 轻量级 轻量 轻巧 高效 流畅 首选 大佬 出色 卓越 领先 可靠 健壮 直观 简洁 优雅
易上手 更好 更快 较快 很快 非常快 挺快 飞快 速度快 极快 快得多 超强 丝滑 顺畅 清晰 完备
靠谱 给力 省事 优于 胜过
利器 神器""".split()
NEGATIVE_ZH = """陡峭 困难 难以 昂贵 风险高 风险较高 缺乏 不完善 复杂 不稳定 冷清 不活跃 负担
麻烦 踩坑 担心 隐患 门槛高 贵 没法 无法 很难 没人理 不友好 吃力 陡 做不出 做不到 缺点 劣势
不足 短板 繁琐 臃肿 低效 卡顿 笨重 冗长 啰嗦 过时 落后 弱点 局限 缺陷 崩溃 内存泄漏 稍逊 逊色
更差 较慢 很慢 太慢 偏慢 变慢 缓慢 不如 弃用 废弃 有限 较少 太少 过少 不支持 欠缺 匮乏 吃内存
重量级 头疼 头痛 糟糕 折腾 劝退 开销""".split()

# Names and set phrases that contain a cue word without judging anything.
NEUTRAL = [
    r"\bstable (?:release|version|branch|api|line|channel|diffusion)s?\b",
    r"\bfree (?:tier|plan)s?\b",
    r"\bdead[- ]letter(?:ed|ing|s)?\b",
    r"\bslow (?:consumers?|quer(?:y|ies)|query log|start)\b",
    r"\bhard(?:[- ]coded|[- ]wired| drives?| disks?| links?| limits?| forks?| resets?)\b",
    r"\bactive[-/ ](?:active|passive|standby)\b",
    r"\brate[- ]limit(?:ed|ing|s|er)?\b",
    r"\bseparation of concerns\b",
    r"\bbest[- ](?:practices?|effort)\b|\bbest way to\b",
    r"\bgood (?:first issues?|to know|question|luck)\b|\bfor good\b",
    r"\bbad (?:request|gateway)\b|\bpoor man'?s\b|\bweak[- ]?ref(?:erence)?s?\b",
    r"\bcrash[- ](?:recovery|safe|safety|consisten(?:t|cy)|only|reports?|reporting)\b",
    r"\bbug ?fix(?:es)?\b|\bbug-fix(?:es)?\b|\bbug (?:tracker|reports?|bounty|bounties)\b",
    r"\b(?:report|reporting|file|filing|fix|fixes|fixed|fixing)\s+(?:a |any |the |some |many |"
    r"several |known )?bugs?\b",
    r"\bnon-?inferior(?:ity)?\b",
    r"\bunstable angina\b|\bfree trials?\b|\b(?:community|self)[- ]audited\b",
    r"\baudit (?:trails?|logs?|logging)\b|\bfree (?:of|from) (?!charge)\w+",
    r"\bfast(?:er)? to (?:code|develop|write|build|ship|prototype)\b|\bspeed to develop\b|"
    r"\b(?:development|coding|developer|dev) speed\b|\bfaster (?:development|coding|prototyping)\b",
    r"\b(?:at|with|and) (?:a )?(?:very )?(?:high|higher|increased|elevated|low) "
    r"(?:[\w-]+ ){0,2}?risks?\b|"
    r"\bhigh[- ]risk (?:patients|populations?|groups?|individuals|people)\b",
    r"\b(?:take|takes|taking|took) advantage of\b",
    r"\bpros and cons\b|\badvantages and disadvantages\b|\bstrengths and weaknesses\b",
    r"\brecommended (?:reading|settings|configuration|way|approach)\b",
    r"\bbest (?:describes|fits|matches)\b|\brights and limitations\b|\bto better \w+|"
    r"\bbetter (?:described|known|understood|thought of)\b",
    r"\blightweight (?:threads?|process(?:es)?)\b",
    r"优缺点|优劣|利弊|有限公司|有限责任|首选项|推荐阅读|相关推荐|推荐文章|稳定版|"
    r"为了更好地|简单(?:来说|地说|说|介绍|了解|看|示例|的例子|例子|回顾|总结|对比|比较)|方便起见",
]
# Quality names are cues only with a level ("稳定性差"), which the amounts read first.
NEUTRAL_AFTER_AMOUNTS = r"稳定性|可靠性|安全性|灵活性|易用性"
