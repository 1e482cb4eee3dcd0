"""The report: what a run's decision reads as, in Markdown (report, with its template in
templates/reports/), the sentences it shares with the report pages (narrative), Markdown
escaping (markdown), links for a copy outside the run folder (export), and the report's
words per language (strings, over research.i18n)."""
