"""An endpoint's reply read into an outcome (DESIGN section 3): the completion's text and
usage, or why there is none, whether to try again, and how long the server asks to wait."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from research.llm.budget import Usage
from research.outcomes import Outcome

ERROR_CHARS = 300  # of an endpoint's error message, kept in the reason


@dataclass
class Reply:
    """One request's end, after its tries."""

    outcome: Outcome
    text: str = ""
    finish_reason: str | None = None
    usage: Usage | None = None
    reason: str = ""
    status: int | None = None
    retry: bool = False
    retry_after: float | None = None
    requests: int = 1
    huge: bool = False  # refused unread for its size: it counts its whole answer cap
    out_of_time: bool = False  # the stage's model time ran out


def both(first: Reply, again: Reply) -> Reply:
    """The second try's reply, counting the requests and tokens of both."""
    return replace(
        again,
        requests=first.requests + again.requests,
        usage=(first.usage or Usage()) + (again.usage or Usage()),
    )


def read_reply(response: httpx.Response, data: bytes) -> Reply:
    status = response.status_code
    if 200 <= status < 300:
        return _completion(response, data)
    detail = _error_message(response, data)
    wait = retry_after(response.headers.get("Retry-After"))
    if status in (401, 403):
        reason = f"the endpoint refused the credentials ({status}: {detail}); check LLM_API_KEY"
        return Reply(Outcome.UNAUTHORIZED, reason=reason, status=status)
    if status == 429:
        reason = f"rate limited (429: {detail})"
        return Reply(
            Outcome.RATE_LIMITED, reason=reason, status=status, retry=True, retry_after=wait
        )
    if status in (408, 504):
        reason = f"the endpoint timed out ({status}: {detail})"
        return Reply(Outcome.TIMEOUT, reason=reason, status=status, retry=True, retry_after=wait)
    if status >= 500:
        reason = f"the endpoint failed ({status}: {detail})"
        return Reply(
            Outcome.UNAVAILABLE, reason=reason, status=status, retry=True, retry_after=wait
        )
    reason = f"the endpoint refused the request ({status}: {detail})"
    return Reply(Outcome.UNAVAILABLE, reason=reason, status=status)


def _completion(response: httpx.Response, data: bytes) -> Reply:
    try:
        payload = json.loads(data)
        choice = payload["choices"][0]
        content = choice["message"].get("content")
        finish_reason = choice.get("finish_reason")
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        reason = "the endpoint's reply is not a chat completion (no choices[0].message)"
        return Reply(Outcome.UNAVAILABLE, reason=reason, status=response.status_code)
    text = _text(content)
    if not text.strip():
        # Reasoning servers (vLLM, DeepSeek) whose parser found no end to the thinking put
        # the whole answer, JSON included, in the reasoning field and leave content null.
        text = _text(
            choice["message"].get("reasoning_content") or choice["message"].get("reasoning")
        )
    return Reply(
        Outcome.OK,
        text=text,
        finish_reason=finish_reason if isinstance(finish_reason, str) else None,
        usage=_usage(payload.get("usage")),
        status=response.status_code,
    )


def _text(content: Any) -> str:
    """The answer's text: a string, or the text of its content parts (any of which may be
    null or not text at all)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)
        )
    return ""


def _usage(raw: Any) -> Usage | None:
    """The reported usage; None when it is missing or says nothing was spent."""
    if not isinstance(raw, dict):
        return None
    try:
        prompt = int(raw.get("prompt_tokens") or 0)
        completion = int(raw.get("completion_tokens") or 0)
    except (TypeError, ValueError, OverflowError):  # Infinity and NaN are valid here too
        return None
    if prompt < 0 or completion < 0 or prompt + completion == 0:
        return None
    return Usage(prompt, completion)


def _error_message(response: httpx.Response, data: bytes) -> str:
    """The endpoint's own words for an error ({"error": {"message"}} in the OpenAI API)."""
    try:
        payload = json.loads(data)
    except ValueError:
        text = data.decode(response.encoding or "utf-8", errors="replace").strip()
    else:
        error = payload.get("error") if isinstance(payload, dict) else None
        if isinstance(error, dict):
            text = str(error.get("message") or error)
        elif error:
            text = str(error)
        else:
            text = json.dumps(payload)
    text = " ".join(text.split()) or response.reason_phrase or "no message"
    return text if len(text) <= ERROR_CHARS else text[: ERROR_CHARS - 1] + "…"


def retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds a Retry-After header asks to wait (a number or an HTTP date), None if absent
    or unreadable."""
    if not value or not value.strip():
        return None
    text = value.strip()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())
