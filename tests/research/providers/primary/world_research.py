"""What the local Wikipedia, Wikidata, arXiv, Europe PMC and ClinicalTrials.gov know, in
their documented shapes (see world.py for the sources)."""

from __future__ import annotations

# --- Wikipedia and Wikidata ------------------------------------------------------------------


def summary(
    lang: str, title: str, extract: str, *, qid: str | None, kind: str = "standard"
) -> dict:
    slug = title.replace(" ", "_")
    page = f"https://{lang}.wikipedia.org/wiki/{slug}"
    answer = {
        "type": kind,
        "title": slug,
        "displaytitle": f'<span class="mw-page-title-main">{title}</span>',
        "namespace": {"id": 0, "text": ""},
        "titles": {"canonical": slug, "normalized": title, "display": title},
        "pageid": 1_234_567,
        "lang": lang,
        "dir": "ltr",
        "revision": "1250000000",
        "tid": "0b0a7c80-9f00-11ef-8000-000000000000",
        "timestamp": "2026-10-30T08:15:02Z",
        "description": "Python web framework" if "Flask" in title else "JavaScript framework",
        "description_source": "local",
        "content_urls": {
            "desktop": {"page": page, "revisions": f"{page}?action=history"},
            "mobile": {"page": page.replace(".wikipedia", ".m.wikipedia")},
        },
        "extract": extract,
        "extract_html": f"<p>{extract}</p>",
    }
    if qid:
        answer["wikibase_item"] = qid
    return answer


WIKIPEDIA = {
    ("en", "Flask"): summary(
        "en",
        "Flask",
        "Flask may refer to: Laboratory flask, Hip flask, Flask (web framework)",
        qid="Q224487",
        kind="disambiguation",
    ),
    ("en", "Flask_(web_framework)"): summary(
        "en",
        "Flask (web framework)",
        "Flask is a micro web framework written in Python. It is classified as a "
        "microframework because it does not require particular tools or libraries.",
        qid="Q289281",
    ),
    ("en", "Vue.js"): summary(
        "en",
        "Vue.js",
        "Vue.js (commonly referred to as Vue) is an open-source model–view–viewmodel "
        "front end JavaScript framework for building user interfaces.",
        qid="Q24589705",
    ),
    ("zh", "Vue.js"): summary(
        "zh",
        "Vue.js",
        "Vue.js是一个用于创建用户界面的开源MVVM前端JavaScript框架，也是一个创建单页应用的Web应用框架。",
        qid="Q24589705",
    ),
    ("zh", "微信"): summary(
        "zh", "微信", "微信是腾讯公司于2011年1月21日推出的一个即时通信软件。", qid="Q283233"
    ),
    ("en", "WeChat"): summary(
        "en",
        "WeChat",
        "WeChat is a Chinese instant messaging and mobile payment app.",
        qid="Q283233",
    ),
}
# The REST API answers a redirect's title with a 302 to the canonical one.
WIKIPEDIA_REDIRECTS = {("en", "VueJS"): "Vue.js", ("zh", "Weixin"): "微信"}


def time_value(value: str, precision: int) -> dict:
    return {
        "time": value,
        "timezone": 0,
        "before": 0,
        "after": 0,
        "precision": precision,
        "calendarmodel": "http://www.wikidata.org/entity/Q1985727",
    }


def statement(
    prop: str, value: object, kind: str, *, rank: str = "normal", published: str | None = None
) -> dict:
    if kind == "wikibase-entityid":
        datavalue = {
            "value": {"entity-type": "item", "numeric-id": int(str(value)[1:]), "id": value},
            "type": kind,
        }
        datatype = "wikibase-item"
    elif kind == "time":
        datavalue = {"value": value, "type": "time"}
        datatype = "time"
    else:
        datavalue = {"value": value, "type": "string"}
        datatype = "url" if str(value).startswith("http") else "string"
    claim = {
        "mainsnak": {
            "snaktype": "value",
            "property": prop,
            "hash": "5e4c0a0e8c2b",
            "datavalue": datavalue,
            "datatype": datatype,
        },
        "type": "statement",
        "id": f"Q$0b0a7c80-{prop}",
        "rank": rank,
    }
    if published:
        claim["qualifiers"] = {
            "P577": [
                {
                    "snaktype": "value",
                    "property": "P577",
                    "datavalue": {"value": time_value(published, 11), "type": "time"},
                    "datatype": "time",
                }
            ]
        }
        claim["qualifiers-order"] = ["P577"]
    return claim


def entity(
    qid: str,
    labels: dict[str, str],
    claims: dict[str, list],
    sitelinks: dict[str, str],
    description: str = "free software",
) -> dict:
    return {
        "type": "item",
        "id": qid,
        "labels": {lang: {"language": lang, "value": value} for lang, value in labels.items()},
        "descriptions": {"en": {"language": "en", "value": description}},
        "claims": claims,
        "sitelinks": {
            site: {"site": site, "title": title, "badges": []} for site, title in sitelinks.items()
        },
        "lastrevid": 2_300_000_000,
        "modified": "2026-10-01T08:00:00Z",
        "pageid": 27_000_000,
        "ns": 0,
        "title": qid,
    }


WIKIDATA = {
    # Found first by Wikidata's search for "Flask", and not software.
    "Q9000001": entity(
        "Q9000001", {"en": "laboratory flask"}, {}, {}, description="laboratory glassware"
    ),
    "Q24589705": entity(
        "Q24589705",
        {"en": "Vue.js", "zh": "Vue.js"},
        {
            "P178": [statement("P178", "Q24589709", "wikibase-entityid")],
            "P275": [statement("P275", "Q334661", "wikibase-entityid")],
            "P571": [statement("P571", time_value("+2014-02-00T00:00:00Z", 10), "time")],
            "P348": [
                statement("P348", "2.7.16", "string", published="+2023-12-24T00:00:00Z"),
                statement(
                    "P348", "3.5.13", "string", rank="preferred", published="+2024-11-15T00:00:00Z"
                ),
                statement(
                    "P348",
                    "3.6.0-alpha.1",
                    "string",
                    rank="deprecated",
                    published="+2025-01-01T00:00:00Z",
                ),
            ],
            "P856": [statement("P856", "https://vuejs.org/", "string")],
            "P1324": [statement("P1324", "https://github.com/vuejs/core", "string")],
        },
        {"enwiki": "Vue.js", "zhwiki": "Vue.js", "jawiki": "Vue.js"},
    ),
    "Q289281": entity(
        "Q289281",
        {"en": "Flask"},
        {
            "P178": [statement("P178", "Q4794850", "wikibase-entityid")],
            "P275": [statement("P275", "Q18491847", "wikibase-entityid")],
            "P571": [statement("P571", time_value("+2010-04-01T00:00:00Z", 11), "time")],
            # No preferred rank: the one published last is the latest.
            "P348": [
                statement("P348", "3.1.1", "string", published="+2025-05-13T00:00:00Z"),
                statement("P348", "3.1.2", "string", published="+2025-08-19T00:00:00Z"),
                statement("P348", "3.0.0", "string", published="+2023-09-30T00:00:00Z"),
            ],
        },
        {"enwiki": "Flask (web framework)"},
    ),
    "Q283233": entity(
        "Q283233",
        {"en": "WeChat", "zh": "微信"},
        {"P571": [statement("P571", time_value("+2011-01-21T00:00:00Z", 11), "time")]},
        {"enwiki": "WeChat", "zhwiki": "微信"},
    ),
    "Q24589709": entity("Q24589709", {"en": "Evan You", "zh": "尤雨溪"}, {}, {}),
    "Q334661": entity("Q334661", {"en": "MIT License", "zh": "MIT许可证"}, {}, {}),
    "Q4794850": entity("Q4794850", {"mul": "Armin Ronacher"}, {}, {}),  # a `mul` label only
    "Q18491847": entity("Q18491847", {"en": "BSD licenses"}, {}, {}),
}


# --- arXiv -----------------------------------------------------------------------------------

ARXIV_PAPERS = [
    {
        "id": "2409.01234v2",
        "published": "2024-09-02T17:59:01Z",
        "updated": "2025-01-15T10:00:00Z",
        "title": "Gradient Boosting at Scale:\n  A Benchmark of LightGBM and XGBoost",
        "summary": "  We benchmark gradient boosting libraries on 40 tabular datasets.\nLightGBM "
        "trains fastest on large data while XGBoost is more accurate on small data.\n",
        "authors": ["Ada Example", "Grace Sample"],
        "category": "cs.LG",
        "doi": "10.48550/arXiv.2409.01234",
        "journal_ref": "",
    },
    {
        "id": "2301.00002v1",
        "published": "2023-01-01T00:00:01Z",
        "updated": "2023-01-01T00:00:01Z",
        "title": "CatBoost for Categorical Features",
        "summary": "CatBoost handles categorical features natively; we compare it with XGBoost.",
        "authors": ["Ivan Person"],
        "category": "stat.ML",
        "doi": "",
        "journal_ref": "J. Mach. Learn. Res. 24 (2023) 1-30",
    },
]


def arxiv_entry(paper: dict) -> str:
    authors = "".join(f"<author><name>{name}</name></author>" for name in paper["authors"])
    extra = ""
    if paper["doi"]:
        extra += (
            f'<arxiv:doi xmlns:arxiv="http://arxiv.org/schemas/atom">{paper["doi"]}</arxiv:doi>'
        )
    if paper["journal_ref"]:
        extra += (
            '<arxiv:journal_ref xmlns:arxiv="http://arxiv.org/schemas/atom">'
            f"{paper['journal_ref']}</arxiv:journal_ref>"
        )
    return f"""
  <entry>
    <id>http://arxiv.org/abs/{paper["id"]}</id>
    <updated>{paper["updated"]}</updated>
    <published>{paper["published"]}</published>
    <title>{paper["title"]}</title>
    <summary>{paper["summary"]}</summary>
    {authors}
    {extra}
    <link href="http://arxiv.org/abs/{paper["id"]}" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/{paper["id"]}" rel="related"
      type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="{paper["category"]}" scheme="http://arxiv.org/schemas/atom"/>
    <category term="{paper["category"]}" scheme="http://arxiv.org/schemas/atom"/>
  </entry>"""


def arxiv_feed(entries: list[str], query: str, total: int) -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query?search_query%3D{query}" rel="self"
    type="application/atom+xml"/>
  <title type="html">ArXiv Query: search_query={query}</title>
  <id>http://arxiv.org/api/cHxbiOdZaP56ODnBPIenZhzg5f8</id>
  <updated>2026-11-20T00:00:00-05:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">{total}</opensearch:totalResults>
  <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">0</opensearch:startIndex>
  <opensearch:itemsPerPage xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">{len(entries)}</opensearch:itemsPerPage>{"".join(entries)}
</feed>
"""


def arxiv_error(message: str) -> str:
    entry = f"""
  <entry>
    <id>http://arxiv.org/api/errors#incorrect_id_format</id>
    <title>Error</title>
    <summary>{message}</summary>
    <updated>2026-11-20T00:00:00-05:00</updated>
    <link href="http://arxiv.org/api/errors#incorrect_id_format" rel="alternate" type="text/html"/>
    <author><name>arXiv api core</name></author>
  </entry>"""
    return arxiv_feed([entry], "error", 1)


# --- Europe PMC -------------------------------------------------------------------------------


def epmc_paper(
    ident: str,
    title: str,
    year: int,
    first: str,
    abstract: str,
    *,
    pmcid: str = "",
    oa: bool = False,
) -> dict:
    links = [
        {
            "availability": "Subscription required",
            "availabilityCode": "S",
            "documentStyle": "doi",
            "site": "DOI",
            "url": f"https://doi.org/10.1056/{ident}",
        }
    ]
    if oa:
        links += [
            {
                "availability": "Open access",
                "availabilityCode": "OA",
                "documentStyle": "pdf",
                "site": "Europe_PMC",
                "url": f"https://europepmc.org/articles/{pmcid}?pdf=render",
            },
            {
                "availability": "Open access",
                "availabilityCode": "OA",
                "documentStyle": "html",
                "site": "Europe_PMC",
                "url": f"https://europepmc.org/articles/{pmcid}",
            },
        ]
    paper = {
        "id": ident,
        "source": "MED",
        "pmid": ident,
        "doi": f"10.1056/NEJMoa{ident}",
        "title": title,
        "authorString": "Marso SP, Bain SC, Consoli A, SUSTAIN-6 Investigators.",
        "authorList": {"author": [{"fullName": "Marso SP", "firstName": "Steven P"}]},
        "journalInfo": {
            "issue": "19",
            "volume": "375",
            "journalIssueId": 2473404,
            "dateOfPublication": f"{year} Nov",
            "monthOfPublication": 11,
            "yearOfPublication": year,
            "printPublicationDate": f"{year}-11-10",
            "journal": {
                "title": "The New England journal of medicine",
                "medlineAbbreviation": "N Engl J Med",
                "issn": "0028-4793",
            },
        },
        "pubYear": str(year),
        "pageInfo": "1834-1844",
        "abstractText": abstract,
        "affiliation": "University of Texas Southwestern Medical Center, Dallas.",
        "publicationStatus": "ppublish",
        "language": "eng",
        "pubModel": "Print-Electronic",
        "pubTypeList": {"pubType": ["Randomized Controlled Trial", "Journal Article"]},
        "isOpenAccess": "Y" if oa else "N",
        "inEPMC": "Y" if oa else "N",
        "inPMC": "Y" if oa else "N",
        "hasPDF": "Y" if oa else "N",
        "citedByCount": 4_500,
        "firstIndexDate": first,
        "firstPublicationDate": first,
        "fullTextUrlList": {"fullTextUrl": links},
    }
    if pmcid:
        paper["pmcid"] = pmcid
    return paper


EUROPEPMC = [
    epmc_paper(
        "27633186",
        "Semaglutide and Cardiovascular Outcomes in Patients with Type 2 Diabetes.",
        2016,
        "2016-09-15",
        "<h4>Background</h4>Regulatory guidance specifies the need to establish cardiovascular "
        "safety of new diabetes therapies.<h4>Results</h4>The primary outcome occurred in 108 "
        "of 1648 patients (6.6%) in the <i>semaglutide</i> group and in 146 of 1649 patients "
        "(8.9%) in the placebo group (hazard ratio, 0.74; 95% CI, 0.58 to 0.95).",
    ),
    epmc_paper(
        "31189511",
        "Oral Semaglutide and Cardiovascular Outcomes in Patients with Type 2 Diabetes.",
        2019,
        "2019-06-11",
        "Oral semaglutide was noninferior to placebo for major adverse cardiovascular events.",
        pmcid="PMC6706144",
        oa=True,
    ),
    epmc_paper(
        "35000001",
        "Semaglutide in Practice: a Cohort Study.",
        2022,
        "2022-03-01",
        "A cohort of 12,000 patients &amp; their outcomes.",
        pmcid="PMC9000001",
        oa=True,
    ),
]


# --- ClinicalTrials.gov --------------------------------------------------------------------------


def study(
    nct: str,
    title: str,
    drug: str,
    *,
    acronym: str = "",
    status: str = "COMPLETED",
    enrolment: int = 3297,
    results: dict | None = None,
) -> dict:
    answer = {
        "protocolSection": {
            "identificationModule": {
                "nctId": nct,
                "orgStudyInfo": {"id": f"NN-{nct[-4:]}"},
                "organization": {"fullName": "Novo Nordisk A/S", "class": "INDUSTRY"},
                "briefTitle": title,
                "officialTitle": f"A Long-term, Randomised, Double-blind Trial: {title}",
                **({"acronym": acronym} if acronym else {}),
            },
            "statusModule": {
                "statusVerifiedDate": "2018-10",
                "overallStatus": status,
                "expandedAccessInfo": {"hasExpandedAccess": False},
                "startDateStruct": {"date": "2013-02-14", "type": "ACTUAL"},
                "primaryCompletionDateStruct": {"date": "2016-03", "type": "ACTUAL"},
                "completionDateStruct": {"date": "2016-03-15", "type": "ACTUAL"},
                "studyFirstSubmitDate": "2012-10-30",
                "studyFirstSubmitQcDate": "2012-10-30",
                "studyFirstPostDateStruct": {"date": "2012-11-01", "type": "ESTIMATED"},
                "lastUpdateSubmitDate": "2019-01-10",
                "lastUpdatePostDateStruct": {"date": "2019-01-22", "type": "ACTUAL"},
            },
            "sponsorCollaboratorsModule": {
                "responsibleParty": {"type": "SPONSOR"},
                "leadSponsor": {"name": "Novo Nordisk A/S", "class": "INDUSTRY"},
            },
            "conditionsModule": {"conditions": ["Diabetes", "Diabetes Mellitus, Type 2"]},
            "designModule": {
                "studyType": "INTERVENTIONAL",
                "phases": ["PHASE3"],
                "designInfo": {
                    "allocation": "RANDOMIZED",
                    "interventionModel": "PARALLEL",
                    "primaryPurpose": "TREATMENT",
                    "maskingInfo": {
                        "masking": "QUADRUPLE",
                        "whoMasked": ["PARTICIPANT", "CARE_PROVIDER", "INVESTIGATOR"],
                    },
                },
                "enrollmentInfo": {"count": enrolment, "type": "ACTUAL"},
            },
            "armsInterventionsModule": {
                "armGroups": [
                    {
                        "label": f"{drug.title()} 0.5 mg",
                        "type": "EXPERIMENTAL",
                        "description": "Once weekly, subcutaneous.",
                        "interventionNames": [f"Drug: {drug}"],
                    },
                    {
                        "label": "Placebo",
                        "type": "PLACEBO_COMPARATOR",
                        "description": "Once weekly placebo.",
                        "interventionNames": ["Drug: placebo"],
                    },
                ],
                "interventions": [
                    {"type": "DRUG", "name": drug, "armGroupLabels": [f"{drug.title()} 0.5 mg"]},
                    {"type": "DRUG", "name": "placebo", "armGroupLabels": ["Placebo"]},
                ],
            },
            "outcomesModule": {
                "primaryOutcomes": [
                    {
                        "measure": "Time From Randomisation to First Occurrence of a Major "
                        "Adverse Cardiovascular Event (MACE)",
                        "description": "Cardiovascular death, non-fatal myocardial infarction "
                        "or non-fatal stroke.",
                        "timeFrame": "Weeks 0-109",
                    }
                ],
                "secondaryOutcomes": [{"measure": "Body weight", "timeFrame": "Week 104"}],
            },
            "eligibilityModule": {
                "sex": "ALL",
                "minimumAge": "50 Years",
                "healthyVolunteers": False,
            },
        },
        "derivedSection": {"miscInfoModule": {"versionHolder": "2026-11-19"}},
        "hasResults": results is not None,
    }
    if results is not None:
        answer["protocolSection"]["statusModule"]["resultsFirstPostDateStruct"] = {
            "date": "2017-04-12",
            "type": "ACTUAL",
        }
        answer["resultsSection"] = results
    return answer


SUSTAIN6_RESULTS = {
    "participantFlowModule": {"groups": [{"id": "FG000", "title": "Semaglutide"}]},
    "outcomeMeasuresModule": {
        "outcomeMeasures": [
            {
                "type": "PRIMARY",
                "title": "Time From Randomisation to First Occurrence of a MACE",
                "description": "Number of participants with a first MACE.",
                "populationDescription": "Full analysis set.",
                "reportingStatus": "POSTED",
                "paramType": "COUNT_OF_PARTICIPANTS",
                "unitOfMeasure": "Participants",
                "timeFrame": "Weeks 0-109",
                "groups": [
                    {"id": "OG000", "title": "Semaglutide", "description": "Pooled doses."},
                    {"id": "OG001", "title": "Placebo", "description": "Pooled placebo."},
                ],
                "denoms": [
                    {
                        "units": "Participants",
                        "counts": [
                            {"groupId": "OG000", "value": "1648"},
                            {"groupId": "OG001", "value": "1649"},
                        ],
                    }
                ],
                "classes": [
                    {
                        "categories": [
                            {
                                "measurements": [
                                    {"groupId": "OG000", "value": "108"},
                                    {"groupId": "OG001", "value": "146"},
                                ]
                            }
                        ]
                    }
                ],
                "analyses": [
                    {
                        "groupIds": ["OG000", "OG001"],
                        "nonInferiorityType": "SUPERIORITY",
                        "pValue": "<0.001",
                        "statisticalMethod": "Cox Proportional Hazards",
                        "paramType": "Hazard Ratio (HR)",
                        "paramValue": "0.74",
                        "ciPctValue": "95",
                        "ciNumSides": "TWO_SIDED",
                        "ciLowerLimit": "0.58",
                        "ciUpperLimit": "0.95",
                    }
                ],
            },
            {
                "type": "SECONDARY",
                "title": "Body weight",
                "paramType": "MEAN",
                "unitOfMeasure": "kg",
                "groups": [{"id": "OG000", "title": "Semaglutide"}],
                "classes": [
                    {"categories": [{"measurements": [{"groupId": "OG000", "value": "-4.9"}]}]}
                ],
            },
        ]
    },
}

STUDIES = [
    study(
        "NCT01720446",
        "Trial to Evaluate Cardiovascular and Other Long-term Outcomes With Semaglutide",
        "semaglutide",
        acronym="SUSTAIN-6",
        results=SUSTAIN6_RESULTS,
    ),
    study(
        "NCT02692716",
        "Oral Semaglutide Cardiovascular Outcomes Trial",
        "oral semaglutide",
        acronym="PIONEER 6",
        enrolment=3183,
    ),
    study(
        "NCT03548935",
        "Semaglutide Effects on Heart Disease and Stroke",
        "semaglutide",
        acronym="SELECT",
        status="ACTIVE_NOT_RECRUITING",
        enrolment=17604,
    ),
    study(
        "NCT01131676",
        "Empagliflozin Cardiovascular Outcome Event Trial",
        "empagliflozin",
        acronym="EMPA-REG OUTCOME",
        enrolment=7064,
    ),
]
