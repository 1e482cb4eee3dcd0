from __future__ import annotations

import pytest

from research.reading.claims import stance_polarity


@pytest.mark.parametrize(
    "sentence",
    [
        "Loamdb is complex to deploy and operate.",
        "Tessera is not as fast as the older engines.",
        "Quillsync is no longer maintained.",
        "There is hardly any documentation for the Tessera CLI.",
        "Loamdb only supports PostgreSQL.",
        "The Quillsync API is not yet stable.",
        "Tessera is still in beta.",
        "The Loamdb community is small.",
        "Tessera has few examples and hardly any tutorials.",
        "You end up writing lots of boilerplate with Quillsync.",
        "Loamdb's memory footprint is heavy.",
        "Quillsync has a memory leak in its sync worker.",
        "Honestly Tessera is overkill and bloated for small apps.",
        "The main drawback of Loamdb is its verbose configuration.",
        "Tessera is slightly slower than it used to be.",
    ],
)
def test_limits_hedges_and_complaints_read_as_negative(sentence):
    assert stance_polarity(sentence) == -1


@pytest.mark.parametrize(
    "sentence",
    [
        "青鸟流程社区较新，案例较少。",
        "河图引擎的插件较少，文档不足。",
        "星轨调度仍然不支持 Windows。",
        "青鸟流程目前还不成熟。",
        "河图引擎包体积大，内存占用高。",
        "星轨调度的学习曲线高。",
        "青鸟流程的类型系统支持稍逊。",
        "河图引擎体积庞大，启动卡顿。",
        "星轨调度的配置非常繁琐。",
    ],
)
def test_chinese_limits_and_complaints_read_as_negative(sentence):
    assert stance_polarity(sentence) == -1


@pytest.mark.parametrize(
    "sentence",
    [
        "Loamdb isn't hard to learn.",
        "Quillsync does not lack plugins.",
        "Tessera has fewer bugs than the engine it replaced.",
        "Quillsync needs far less boilerplate.",
        "The Loamdb community is large and helpful.",
        "Tessera reduces operational risk.",
        "Quillsync is robust, reliable and battle-tested.",
        "Loamdb is hard to beat on price.",
        "Tessera offers low latency and high throughput.",
        "With Quillsync there is no more boilerplate.",
        "Not only is Loamdb fast, it is also cheap.",
        "Using Tessera avoids vendor lock-in.",
    ],
)
def test_praise_and_negated_complaints_read_as_positive(sentence):
    assert stance_polarity(sentence) == 1


@pytest.mark.parametrize(
    "sentence",
    [
        "青鸟流程的生态非常庞大。",
        "河图引擎 bug 较少，运行流畅。",
        "星轨调度轻量、高效，是中小项目的首选。",
        "青鸟流程还不错。",
        "这个框架不难上手。",
        "河图引擎通过编译减少了样板代码。",
    ],
)
def test_chinese_praise_reads_as_positive(sentence):
    assert stance_polarity(sentence) == 1


@pytest.mark.parametrize(
    "sentence",
    [
        "Tessera is easy to learn but hard to master.",
        "Stable Diffusion images were used in the Loamdb demo.",
        "The Quillsync free tier allows three projects.",
        "We had breakfast before the Tessera talk.",
        "The 3.2 release of Loamdb fixes a memory leak.",
        "The dead letter exchange receives rejected Quillsync jobs.",
        "We discussed the pros and cons of Tessera.",
        "Separation of concerns is a Loamdb design principle.",
        "星轨科技有限公司发布了青鸟流程。",
        "简单来说，河图引擎是一个调度器。",
    ],
)
def test_names_set_phrases_and_mixed_verdicts_stay_neutral(sentence):
    assert stance_polarity(sentence) == 0


def test_an_option_whose_name_is_a_cue_word_is_not_a_judgement():
    assert stance_polarity("Solid ships a new release every month.") == 1
    assert stance_polarity("Solid ships a new release every month.", ["Solid"]) == 0
    assert stance_polarity("Solid is slow to start.", ["Solid"]) == -1
