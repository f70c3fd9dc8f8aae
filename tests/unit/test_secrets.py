"""Secrets never print themselves; URLs are masked wherever settings are shown."""

from __future__ import annotations

import pickle

from stream.kafka.clients import security_kwargs
from stream.secret import Secret, redact_url
from stream.settings import Settings

PW = "s3cr3t-store-pw"
SASL = "s3cr3t-sasl-pw"
KEY = "sk-s3cr3t-api-key"
TOKEN = "s3cr3t-url-token"
ENV = {
    "CITEGATE_STORE": f"postgresql://reader:{PW}@db.example:5432/corpus?sslpassword={PW}",
    "CITEGATE_SASL_PASSWORD": SASL,
    "CITEGATE_SASL_USERNAME": "svc",
    "CITEGATE_SECURITY_PROTOCOL": "SASL_PLAINTEXT",
    "CITEGATE_LLM_API_KEY": KEY,
    "CITEGATE_LLM_URL": f"https://u:{TOKEN}@llm.example/v1?token={TOKEN}",
}
ALL = (PW, SASL, KEY, TOKEN)


def test_secret_masks_repr_str_and_format() -> None:
    s = Secret(KEY)
    for shown in (repr(s), str(s), f"{s}", f"{s!r}", repr([s]), repr({"k": s})):
        assert KEY not in shown
    assert s.reveal() == KEY
    assert pickle.loads(pickle.dumps(s)).reveal() == KEY
    assert not Secret("")


def test_settings_repr_and_log_line_hide_every_secret() -> None:
    settings = Settings.from_env(ENV)
    shown = [repr(settings), str(settings), str(settings.redacted()), f"{settings!r}"]
    for text in shown:
        for secret in ALL:
            assert secret not in text, text
    assert "reader:***@db.example" in repr(settings)
    assert security_kwargs(settings)["sasl_plain_password"] == SASL


def test_cli_flag_secrets_are_wrapped_too() -> None:
    settings = Settings.from_env({}, sasl_password=SASL)
    assert isinstance(settings.sasl_password, Secret)
    assert SASL not in repr(settings)


def test_redact_url_masks_netloc_and_credential_queries() -> None:
    url = f"postgresql://u:{PW}@h:5432/db?password={PW}&api_key={KEY}&schema=x"
    out = redact_url(url)
    assert PW not in out
    assert KEY not in out
    assert "schema=x" in out
    assert redact_url("sqlite:///./a.db") == "sqlite:///./a.db"


def test_redact_url_masks_passwords_with_url_delimiters() -> None:
    for pw in ("pa/ss", "pa?ss", "pa#ss", "p@ss", "pa:ss"):
        out = redact_url(f"postgresql://user:{pw}@127.0.0.1:5432/db")
        assert pw not in out, out
        assert "ss@" not in out, out
        assert out.startswith("postgresql://user:***@")
