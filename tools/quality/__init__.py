"""How well Verdict reads: labelled claim pairs (pairs), a labelled corpus run through the
real pipeline (corpus_runner) and scored for facts and contradictions (corpus) and for
claims against labelled sentences (judgement). `manage.py quality` prints them."""
