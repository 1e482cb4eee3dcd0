"""The web pages of the pipeline side: question form, runs list, run page, artifacts."""
