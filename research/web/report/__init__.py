"""The report pages of a run: the report itself (report_page, with its score matrix and
debate), the evidence viewer (evidence_page) and the Markdown export, read from the run's
files (run_files) and worded per language (strings)."""
