"""Where the embedded broker keeps its log: in memory (the default, lost when it stops) or in
an S3-compatible bucket (`s3://BUCKET/`), which survives restarts.

Tansu's `s3://` engine reads the usual `AWS_*` variables (`AWS_ENDPOINT` or `AWS_ENDPOINT_URL`
for a store other than AWS, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`,
`AWS_ALLOW_HTTP=true` for a plain-HTTP endpoint). It does not create the bucket and, given a
store it cannot reach or a bucket that does not exist, still reports itself ready and then
fails every request. So before the broker starts, `prepare` asks the store for the bucket (one
request, bounded), creates it when missing, and turns every problem into one clear error.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from stream.errors import BrokerError, UsageError
from stream.secret import redact_url

MEMORY = "memory://tansu/"
_BUCKET = re.compile(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")
PREPARE_TIMEOUT_S = 5.0
"""Bound on each request `prepare` makes to the store (connect and read)."""


@dataclass(frozen=True, slots=True)
class Storage:
    """The broker's storage engine URL as Tansu takes it, and the bucket for S3."""

    url: str = MEMORY
    bucket: str | None = None

    @property
    def durable(self) -> bool:
        return self.bucket is not None

    def describe(self) -> str:
        return f"S3 bucket {self.bucket}" if self.bucket else "memory only"


def parse_storage(value: str | None) -> Storage:
    """`memory` / `memory://…` / empty → memory; `s3://BUCKET/` → that bucket."""
    text = (value or "").strip()
    if text in ("", "memory") or text.startswith("memory://"):
        return Storage()
    if not text.startswith("s3://"):
        raise UsageError(f"--storage must be memory:// or s3://BUCKET/, not {text[:80]!r}")
    bucket, _, rest = text.removeprefix("s3://").partition("/")
    if rest.strip("/"):
        raise UsageError(f"--storage s3://{bucket}/ takes a bucket only, no path ({rest[:40]!r})")
    if not _BUCKET.fullmatch(bucket) or ".." in bucket:
        raise UsageError(
            f"--storage: {bucket[:80]!r} is not an S3 bucket name "
            "(3-63 lowercase letters, digits, dots and hyphens)"
        )
    return Storage(f"s3://{bucket}/", bucket)


@dataclass(frozen=True, slots=True)
class S3Endpoint:
    """The store as the `AWS_*` variables describe it (None: AWS itself)."""

    url: str | None
    region: str
    allow_http: bool

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> S3Endpoint:
        url = env.get("AWS_ENDPOINT_URL") or env.get("AWS_ENDPOINT") or None
        region = env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION") or "us-east-1"
        allow = env.get("AWS_ALLOW_HTTP", "").strip().lower() in ("1", "true", "yes")
        return cls(url, region, allow)

    def describe(self) -> str:
        return redact_url(self.url) if self.url else f"AWS S3 ({self.region})"


def broker_env(storage: Storage, env: Mapping[str, str]) -> dict[str, str]:
    """Variables the Tansu child needs beyond the caller's: the endpoint under the name Tansu
    reads when only botocore's `AWS_ENDPOINT_URL` was given."""
    if not storage.durable:
        return {}
    endpoint = S3Endpoint.from_env(env)
    extra = {}
    if endpoint.url and not env.get("AWS_ENDPOINT"):
        extra["AWS_ENDPOINT"] = endpoint.url
    if not env.get("AWS_REGION") and not env.get("AWS_DEFAULT_REGION"):
        extra["AWS_DEFAULT_REGION"] = endpoint.region
    return extra


def prepare(storage: Storage, env: Mapping[str, str]) -> str:
    """Make sure the bucket exists and can be used; return a line describing the store.

    :raises UsageError: a configuration problem (no credentials found, plain HTTP not
        allowed, botocore missing).
    :raises BrokerError: the store cannot be reached, refuses access or the bucket cannot be
        created. Messages never contain the credentials.
    """
    if not storage.durable:
        return storage.describe()
    endpoint = S3Endpoint.from_env(env)
    if endpoint.url and endpoint.url.lower().startswith("http://") and not endpoint.allow_http:
        raise UsageError(
            f"the S3 endpoint {endpoint.describe()} is plain HTTP; "
            "set AWS_ALLOW_HTTP=true to allow it"
        )
    client = _client(endpoint, env)
    where = f"bucket {storage.bucket} at {endpoint.describe()}"
    created = _ensure_bucket(client, str(storage.bucket), endpoint, where)
    return f"S3 {where}" + (" (created)" if created else "")


def _client(endpoint: S3Endpoint, env: Mapping[str, str]) -> Any:
    try:
        from botocore.config import Config
        from botocore.session import Session
    except ImportError:
        raise UsageError("--storage s3:// needs botocore: pip install 'citegate[s3]'") from None
    session = Session()
    config = Config(
        connect_timeout=PREPARE_TIMEOUT_S,
        read_timeout=PREPARE_TIMEOUT_S,
        retries={"max_attempts": 1, "mode": "standard"},
        s3={"addressing_style": "path"} if endpoint.url else None,
    )
    return session.create_client(
        "s3",
        region_name=endpoint.region,
        endpoint_url=endpoint.url,
        # None: botocore's own chain (instance profile, web identity), as Tansu's would find.
        aws_access_key_id=env.get("AWS_ACCESS_KEY_ID") or None,
        aws_secret_access_key=env.get("AWS_SECRET_ACCESS_KEY") or None,
        aws_session_token=env.get("AWS_SESSION_TOKEN") or None,
        config=config,
    )


def _ensure_bucket(client: Any, bucket: str, endpoint: S3Endpoint, where: str) -> bool:
    """True when the bucket was created. One HeadBucket, then CreateBucket when it is 404."""
    from botocore.exceptions import BotoCoreError, ClientError, NoCredentialsError

    try:
        client.head_bucket(Bucket=bucket)
        return False
    except NoCredentialsError:
        raise UsageError(
            "--storage s3:// found no AWS credentials: set AWS_ACCESS_KEY_ID and "
            "AWS_SECRET_ACCESS_KEY"
        ) from None
    except ClientError as exc:
        status = str(exc.response.get("Error", {}).get("Code", ""))
        if status not in ("404", "NoSuchBucket", "NotFound"):
            raise BrokerError(f"the S3 store refused {where} ({_why(exc)})") from None
    except BotoCoreError as exc:
        raise BrokerError(f"the S3 store is unreachable: {where} ({_why(exc)})") from None
    try:
        if endpoint.region == "us-east-1":
            client.create_bucket(Bucket=bucket)
        else:
            client.create_bucket(
                Bucket=bucket,
                CreateBucketConfiguration={"LocationConstraint": endpoint.region},
            )
    except ClientError as exc:
        code = str(exc.response.get("Error", {}).get("Code", ""))
        if code in ("BucketAlreadyOwnedByYou",):
            return False
        raise BrokerError(f"cannot create {where} ({_why(exc)})") from None
    except BotoCoreError as exc:
        raise BrokerError(f"the S3 store is unreachable: {where} ({_why(exc)})") from None
    return True


def _why(exc: BaseException) -> str:
    """botocore's message on one line (it names the endpoint and the operation, never keys)."""
    return " ".join(str(exc).split())[:200] or type(exc).__name__
