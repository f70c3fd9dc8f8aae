"""`citegate broker --storage`: parsing the storage URL and the clear errors for a store that
cannot be used (no S3 server needed: an unreachable endpoint is a closed loopback port)."""

from __future__ import annotations

import pytest

from stream.cli import main
from stream.errors import UsageError
from stream.kafka.embedded import find_free_port
from stream.kafka.storage import MEMORY, S3Endpoint, broker_env, parse_storage

SECRET = "do-not-print-this-secret"


def test_memory_is_the_default_and_s3_names_a_bucket() -> None:
    for value in (None, "", "memory", MEMORY, "memory://other/"):
        assert not parse_storage(value).durable
    s3 = parse_storage("s3://citegate-log")
    assert s3.durable
    assert (s3.url, s3.bucket) == ("s3://citegate-log/", "citegate-log")
    assert parse_storage("s3://citegate-log/").url == "s3://citegate-log/"


@pytest.mark.parametrize(
    "value", ["file:///tmp/x", "postgres://db", "s3://", "s3://ab/", "s3://Upper/", "s3://b/path"]
)
def test_anything_else_is_a_usage_error(value: str) -> None:
    with pytest.raises(UsageError):
        parse_storage(value)


def test_the_broker_gets_the_endpoint_under_the_name_tansu_reads() -> None:
    s3 = parse_storage("s3://bucket-a/")
    env = {"AWS_ENDPOINT_URL": "http://127.0.0.1:9000"}
    assert broker_env(s3, env) == {
        "AWS_ENDPOINT": "http://127.0.0.1:9000",
        "AWS_DEFAULT_REGION": "us-east-1",
    }
    assert broker_env(s3, {"AWS_ENDPOINT": "http://x:1", "AWS_REGION": "eu-west-1"}) == {}
    assert broker_env(parse_storage(None), env) == {}
    assert S3Endpoint.from_env({}).describe() == "AWS S3 (us-east-1)"


def _broker(monkeypatch: pytest.MonkeyPatch, storage: str, **env: str) -> int:
    for key in ("AWS_ENDPOINT", "AWS_ENDPOINT_URL", "AWS_PROFILE", "AWS_CONFIG_FILE"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return main(["broker", "--storage", storage])


def test_an_unreachable_store_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    closed = find_free_port()
    code = _broker(
        monkeypatch,
        "s3://citegate-log/",
        AWS_ENDPOINT=f"http://127.0.0.1:{closed}",
        AWS_ALLOW_HTTP="true",
        AWS_ACCESS_KEY_ID="key-id",
        AWS_SECRET_ACCESS_KEY=SECRET,
    )
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("citegate: error: the S3 store is unreachable: bucket citegate-log")
    assert err.count("\n") == 1
    assert "Traceback" not in err
    assert SECRET not in err


def test_plain_http_needs_to_be_allowed_and_credentials_must_exist(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    closed = find_free_port()
    endpoint = f"http://127.0.0.1:{closed}"
    assert _broker(monkeypatch, "s3://citegate-log/", AWS_ENDPOINT=endpoint) == 2
    assert "set AWS_ALLOW_HTTP=true" in capsys.readouterr().err
    monkeypatch.delenv("AWS_ACCESS_KEY_ID", raising=False)
    monkeypatch.delenv("AWS_SECRET_ACCESS_KEY", raising=False)
    assert _broker(monkeypatch, "s3://citegate-log/", AWS_ALLOW_HTTP="true") == 2
    err = capsys.readouterr().err
    assert "found no AWS credentials" in err
    assert err.count("\n") == 1
    assert _broker(monkeypatch, "file:///tmp/log") == 2
    assert "--storage must be memory:// or s3://BUCKET/" in capsys.readouterr().err
