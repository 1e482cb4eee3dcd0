"""An S3-compatible service on 127.0.0.1 (moto's server) for runs kept in a bucket.

`s3_runs` points RUNS_STORE at a fresh bucket on it, with run leases in the test's own
Redis (`redis_url`); the store is then whatever store_for() gives, as in production.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import boto3
import pytest

from tests.processes import free_port

CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "verdict-test",
    "AWS_SECRET_ACCESS_KEY": "verdict-test-secret",
    "AWS_DEFAULT_REGION": "us-east-1",
}


@pytest.fixture(scope="session")
def s3_endpoint() -> Iterator[str]:
    from moto.server import ThreadedMotoServer

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    yield f"http://127.0.0.1:{port}"
    server.stop()


@dataclass
class Bucket:
    endpoint: str
    name: str
    prefix: str
    client: Any

    @property
    def runs_store(self) -> str:
        return f"s3://{self.name}/{self.prefix}"

    def object_keys(self) -> list[str]:
        listed = self.client.list_objects_v2(Bucket=self.name)
        return sorted(o["Key"] for o in listed.get("Contents", []))

    def get(self, key: str) -> bytes:
        return self.client.get_object(Bucket=self.name, Key=key)["Body"].read()


@pytest.fixture
def s3_runs(s3_endpoint, redis_url, settings, monkeypatch) -> Bucket:
    """Runs kept in a new bucket of the local S3 service, their leases in the test's Redis
    and lasting STAGE_LEASE = 5 s: short, yet long enough for a new process on a busy machine
    to renew its lease before it lapses."""
    for name, value in CREDENTIALS.items():
        monkeypatch.setenv(name, value)
    client = boto3.client("s3", endpoint_url=s3_endpoint)
    bucket = Bucket(s3_endpoint, f"runs-{uuid.uuid4().hex[:12]}", "verdict/runs", client)
    client.create_bucket(Bucket=bucket.name)
    settings.RUNS_STORE = bucket.runs_store
    settings.S3_ENDPOINT_URL = s3_endpoint
    settings.CELERY_BROKER_URL = redis_url
    settings.STAGE_LEASE = 5.0
    return bucket
