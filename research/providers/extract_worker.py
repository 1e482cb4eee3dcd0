"""An extraction process (research.providers.extract_pool): `python -m
research.providers.extract_worker`. It reads requests from its standard input and answers
each on its standard output, in order, until its input ends, which it does when the
process that started it ends, however that ends.

A request is a pickled (id, body, content_type, url, max_chars); an answer is a pickled
(id, page) or (id, None, reason) when the extraction raised.
"""

from __future__ import annotations

import os
import sys
from multiprocessing.connection import Connection


def serve(requests: Connection, answers: Connection) -> None:
    from research.providers.extract import extract_page, warm_up

    warm_up()
    while True:
        try:
            ident, body, content_type, url, max_chars = requests.recv()
        except (EOFError, OSError):
            return
        try:
            answer = (ident, extract_page(body, content_type, url, max_chars))
        except Exception as exc:  # the page's own problem: the caller extracts it again
            answer = (ident, None, f"{type(exc).__name__}: {exc}")
        try:
            answers.send(answer)
        except (BrokenPipeError, OSError):
            return


def main() -> None:
    # Answers go out on a descriptor of their own; anything a library prints goes to the
    # standard error instead of into an answer.
    answers = Connection(os.dup(sys.stdout.fileno()), readable=False)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(Connection(os.dup(sys.stdin.fileno()), writable=False), answers)


if __name__ == "__main__":
    main()
