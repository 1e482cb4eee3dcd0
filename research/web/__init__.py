"""The web pages: the question form, the runs list, and every page of a run (its progress,
its files, and its report with the evidence behind it, in report/)."""
