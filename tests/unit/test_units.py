"""Typed units the alignment compares: numbers with unit and scale, identifiers, bounds."""

from __future__ import annotations

import pytest

from stream.verify.units import bounds, identifiers, normalize_zh, quantities, zh_number


@pytest.mark.parametrize(
    ("run", "value"),
    [("两", 2), ("十二", 12), ("二十五", 25), ("三百", 300), ("两千", 2000), ("三万五千", 35000)],
)
def test_chinese_numerals(run: str, value: int) -> None:
    assert zh_number(run) == value


def test_chinese_counts_become_digits_only_before_a_classifier() -> None:
    assert normalize_zh("集群有两个节点，一些用户") == "集群有2个节点，一些用户"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("每秒最多处理50个任务", {("50", "cl:个"), ("1", "s")}),
        ("能耗降低80%", {("80", "%")}),
        ("Таймаут составляет 30 секунд", {("30", "s")}),
        ("kept for 30 calendar days", {("30", "d")}),
        ("in five branches", {("5", None)}),
        ("в пяти филиалах", {("5", None)}),
        ("revenue of 2 million", {("2000000", None)}),
        ("backups run every hour", {("1", "h")}),
        ("backups run every 12 hours", {("12", "h")}),
        ("1,000 calls and 1,5 ГБ", {("1000", None), ("1.5", "gb")}),
        ("COVID-19 and H1N1 and TLS 1.3", set()),
    ],
)
def test_quantities_carry_value_unit_and_scale(
    text: str, expected: set[tuple[str, str | None]]
) -> None:
    assert {(q.value, q.unit) for q in quantities(text)} == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("uses TLS 1.3", {("tls", "1.3")}),
        ("hashed with SHA-256", {("sha", "256")}),
        ("certified to ISO 27001", {("iso", "27001")}),
        ("runs v2.1 on IPv6", {("v", "2.1"), ("ipv", "6")}),
        ("Python 3.11 is used", {("python", "3.11")}),
        ("使用TLS1.3加密", {("tls", "1.3")}),
        ("30 days and 5 GB", set()),
    ],
)
def test_identifiers_keep_their_digits(text: str, expected: set[tuple[str, str]]) -> None:
    assert {(i.key, i.value) for i in identifiers(text)} == expected


@pytest.mark.parametrize(
    ("text", "number", "kinds"),
    [
        ("accepts up to 5 requests", "#5", {"upper"}),
        ("accepts at least five requests", "#5", {"lower"}),
        ("accepts 5 requests", "#5", {"exact"}),
        ("не более 500 подключений", "#500", {"upper"}),
        ("最多处理50个任务", "#50", {"upper"}),
        ("在15分钟内响应", "#15", {"upper"}),
        ("refunds after 14 days", "#14", {"lower"}),
    ],
)
def test_bounds_on_numbers(text: str, number: str, kinds: set[str]) -> None:
    assert bounds(text)[number] == kinds
