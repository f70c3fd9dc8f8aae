"""deploy/ (compose, Kubernetes, Grafana) and docs/metrics.md agree with the code."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
import yaml

from stream.cli import build_parser
from stream.commands.worker_cmd import settings_from_args
from stream.metrics import SLICE, VERSION_LABELS, Metrics
from stream.review.metrics import ReviewMetrics
from stream.settings import Settings
from stream.verify.checkers import RulesChecker
from stream.verify.citations import DocumentSnapshot
from stream.verify.model import Ref
from stream.verify.parse import parse_answer
from stream.verify.pipeline import verify_answer

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
DASHBOARD = DEPLOY / "grafana" / "dashboards" / "citegate.json"
K8S = DEPLOY / "k8s"

DECLARED = {f.metadata["env"] for f in fields(Settings)}
SECRET_VARS = {f.metadata["env"] for f in fields(Settings) if f.metadata["secret"]}
TOPIC_FIELDS = ("topic_answers", "topic_verdicts", "topic_decisions", "topic_dlq", "topic_replay")
PORT = Settings().web_port

REQUIRED_PANELS = (
    "Decision mix over time",
    "Accept rate by generator version",
    "Claims without citation (share)",
    "Invalid citations by code (share)",
    "Verdict distribution",
    "Manual-review and regenerate/abstain rates",
    "Processing latency p50/p99",
    "Dead letters by reason",
    "Corpus cache hit ratio",
    "Consumer lag",
    "Throughput",
    "Review queue depth",
    "Oldest answer waiting for review",
    "Decision-to-review latency p50/p90",
    "Reviewer agreement with the checker by checker version",
)


# -- helpers ------------------------------------------------------------------------------------


def load_yaml_docs(path: Path) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(path.read_text("utf-8")) if d is not None]


def compose() -> dict[str, Any]:
    doc = yaml.safe_load((DEPLOY / "compose.yaml").read_text("utf-8"))
    assert isinstance(doc, dict)
    return doc


def k8s_docs() -> list[dict[str, Any]]:
    docs = []
    for path in sorted(K8S.glob("*.yaml")):
        docs += load_yaml_docs(path)
    return docs


def k8s_one(kind: str) -> dict[str, Any]:
    found = [d for d in k8s_docs() if d.get("kind") == kind]
    assert len(found) == 1, kind
    return found[0]


def interpolate(value: str) -> str:
    """Compose's `${VAR:-default}` with the default (the tests set no such variables)."""
    return re.sub(r"\$\{[A-Z0-9_]+:-([^}]*)\}", r"\1", value)


def compose_env(service: str) -> dict[str, str]:
    env = compose()["services"][service].get("environment", {})
    assert isinstance(env, dict), "use the mapping form of `environment`"
    return {k: interpolate(str(v)) for k, v in env.items()}


def worker_settings(
    command: list[str], env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> Settings:
    """The Settings the real `citegate worker` would build from this command and environment."""
    assert command[:2] == ["citegate", "worker"], command
    for name in DECLARED:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    args = build_parser().parse_args(command[1:])
    return settings_from_args(args)


def dashboard() -> dict[str, Any]:
    doc = json.loads(DASHBOARD.read_text("utf-8"))
    assert isinstance(doc, dict)
    return doc


def panel_targets() -> list[tuple[str, str]]:
    out = []
    for panel in dashboard()["panels"]:
        for target in panel.get("targets", []):
            out.append((panel["title"], target["expr"]))
    return out


METRICS_DOC = ROOT / "docs" / "metrics.md"
RULES = DEPLOY / "prometheus" / "rules"


def metrics_doc() -> str:
    return METRICS_DOC.read_text("utf-8")


def metrics_doc_section(title: str) -> str:
    text = metrics_doc()
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else None]


def metrics_doc_promql() -> list[str]:
    return re.findall(r"```promql\n(.*?)```", metrics_doc(), re.S)


def docs_promql() -> list[str]:
    """```promql blocks of the docs/ pages."""
    return [
        block
        for path in sorted((ROOT / "docs").glob("*.md"))
        for block in re.findall(r"```promql\n(.*?)```", path.read_text("utf-8"), re.S)
    ]


def metric_names_in(text: str) -> set[str]:
    return set(re.findall(r"\bcitegate_[a-z0-9_]+[a-z0-9]\b", text))


def families(bundle: object | None = None) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Metric family name -> (type, label names), from a real Metrics bundle (the worker's
    unless another is given)."""
    m = Metrics() if bundle is None else bundle
    out = {}
    for value in vars(m).values():
        name = getattr(value, "_name", None)
        if name is not None:
            out[name] = (value._type, tuple(value._labelnames))
    return out


def all_families() -> dict[str, tuple[str, tuple[str, ...]]]:
    """The worker's families and those of `citegate review`, both on the dashboard."""
    return {**families(), **families(ReviewMetrics())}


def all_exposed() -> set[str]:
    return Metrics().exposed_names() | ReviewMetrics().exposed_names()


def family_of(sample_name: str) -> str:
    fams = all_families()
    for suffix in ("_total", "_bucket", "_count", "_sum", "_created", ""):
        if sample_name.endswith(suffix):
            base = sample_name[: len(sample_name) - len(suffix)] if suffix else sample_name
            if base in fams:
                return base
    raise AssertionError(f"{sample_name} is not a citegate metric")


def strip_selectors(expr: str) -> str:
    return re.sub(r"\{[^}]*\}", "{}", expr)


# -- metrics bundle -----------------------------------------------------------------------------


def test_exposed_names_cover_what_an_observed_answer_exposes() -> None:
    m = Metrics()
    answer = parse_answer(
        {
            "answer": "Nothing cited here.",
            "generator": {"name": "gen", "version": "1"},
            "corpus": {"id": "kb", "version": "2026"},
        }
    )
    m.observe_result(
        verify_answer(answer, DocumentSnapshot(), RulesChecker()), Ref("rules", "1"), "live", 0.01
    )
    seen = set(m.names())
    assert "citegate_answers_total" in seen
    assert "citegate_processing_seconds_bucket" in seen
    assert seen <= m.exposed_names()
    # Closed vocabularies start at zero, so ratios and increase() have a series to work with.
    text = "\n".join(seen)
    assert "citegate_dead_letters_total" in text
    assert "citegate_citation_errors_total" in text


# -- docs/metrics.md ----------------------------------------------------------------------------


def test_metrics_doc_has_the_families_queries_and_rules_sections() -> None:
    headings = re.findall(r"^## (.+)$", metrics_doc(), re.M)
    assert headings[:3] == ["Metric families", "Queries", "Prometheus rules and alerts"]


def test_metrics_doc_names_every_recording_rule_and_alert() -> None:
    section = metrics_doc_section("Prometheus rules and alerts")
    named = 0
    for path in sorted(RULES.glob("*.yml")):
        for group in yaml.safe_load(path.read_text("utf-8"))["groups"]:
            for rule in group["rules"]:
                name = rule.get("record") or rule["alert"]
                assert f"`{name}`" in section, f"docs/metrics.md lacks {name} ({path.name})"
                named += 1
    assert named >= 20


def test_metrics_doc_table_lists_every_metric_with_its_type_and_labels() -> None:
    section = metrics_doc_section("Metric families")
    rows = {
        m.group(1): m.group(0)
        for m in re.finditer(r"^\| `(citegate_[a-z0-9_]+)`.*$", section, re.M)
    }
    for name, (type_, labels) in families().items():
        exposed = name + {"counter": "_total", "histogram": "_bucket"}.get(type_, "")
        assert exposed in rows, f"docs/metrics.md table lacks {exposed}"
        cells = [c.strip() for c in rows[exposed].strip("|").split("|")]
        assert cells[1] == type_, exposed
        if set(SLICE) <= set(labels):
            assert "*slice*" in cells[2], exposed
        for label in set(labels) - set(SLICE):
            assert f"`{label}`" in cells[2], (exposed, label)
    exposed_all = Metrics().exposed_names()
    for name in rows:
        assert name in exposed_all, name


def test_metrics_doc_promql_uses_real_metric_names_and_keeps_version_slices() -> None:
    blocks = metrics_doc_promql()
    assert len(blocks) >= 10
    exposed = Metrics().exposed_names()
    used: set[str] = set()
    for block in blocks:
        names = metric_names_in(block)
        assert names, block
        assert names <= exposed, names - exposed
        used |= names
    for needed in (
        "citegate_claims_without_citation_total",
        "citegate_citation_errors_total",
        "citegate_claims_total",
        "citegate_answers_total",
        "citegate_processing_seconds_bucket",
        "citegate_dead_letters_total",
        "citegate_corpus_cache_events_total",
        "citegate_consumer_lag",
    ):
        assert needed in used, needed
    # Seed 000's four questions are answered per version slice.
    by_versions = "by (" + ", ".join(VERSION_LABELS)
    for metric in (
        "citegate_claims_without_citation_total",
        "citegate_citation_errors_total",
        'final_status="manual_review"',
    ):
        block = next(b for b in blocks if metric in b)
        assert by_versions in block, block
    verdicts = next(b for b in blocks if "verdict)" in b)
    assert by_versions in verdicts


def test_review_doc_metrics_table_lists_every_review_metric() -> None:
    text = (ROOT / "docs" / "review.md").read_text("utf-8")
    rows = {
        m.group(1): m.group(0) for m in re.finditer(r"^\| `(citegate_[a-z0-9_]+)`.*$", text, re.M)
    }
    for name, (type_, labels) in families(ReviewMetrics()).items():
        exposed = name + {"counter": "_total", "histogram": "_bucket"}.get(type_, "")
        assert exposed in rows, f"docs/review.md metrics table lacks {exposed}"
        cells = [c.strip() for c in rows[exposed].strip("|").split("|")]
        assert cells[1] == type_, exposed
        for label in labels:
            assert f"`{label}`" in cells[2], (exposed, label)
    for name in rows:
        assert name in ReviewMetrics().exposed_names(), name
    blocks = docs_promql()
    assert blocks
    for block in blocks:
        assert metric_names_in(block) <= all_exposed(), block


# -- Grafana ------------------------------------------------------------------------------------


def test_dashboard_variables_cover_every_version_label_and_mode() -> None:
    variables = {v["name"]: v for v in dashboard()["templating"]["list"]}
    ds = variables["datasource"]
    assert ds["type"] == "datasource"
    assert ds["query"] == "prometheus"
    for label in VERSION_LABELS:
        var = variables[label]
        assert var["type"] == "query"
        assert var["multi"] is True
        assert var["includeAll"] is True
        assert var["allValue"] == ".*"
        assert var["datasource"]["uid"] == "${datasource}"
        assert re.fullmatch(
            rf"label_values\(citegate_answers_total(\{{.*\}})?, {label}\)", var["query"]
        )
    mode = variables["mode"]
    assert mode["current"]["value"] == "live"
    assert {"live", "replay"} <= {o["value"] for o in mode["options"]}


def test_dashboard_has_every_required_panel() -> None:
    d = dashboard()
    assert 36 <= d["schemaVersion"] <= 41
    titles = [p["title"] for p in d["panels"]]
    for title in REQUIRED_PANELS:
        assert title in titles, title
    ids = [p["id"] for p in d["panels"]]
    assert len(ids) == len(set(ids))
    for panel in d["panels"]:
        if panel["type"] != "row":
            assert panel["datasource"]["uid"] == "${datasource}", panel["title"]
            assert panel["targets"], panel["title"]


def test_dashboard_expressions_filter_on_every_label_their_metric_has() -> None:
    fams = all_families()
    for title, expr in panel_targets():
        for m in re.finditer(r"\b(citegate_[a-z0-9_]+)(\{[^}]*\})?", expr):
            name, selector = m.group(1), m.group(2) or ""
            labels = fams[family_of(name)][1]
            for label in labels:
                if label in SLICE or label in VERSION_LABELS:
                    assert f'{label}=~"${label}"' in selector, (title, name, label)


def test_dashboard_expressions_use_only_rate_interval_and_no_filters_that_hide_zeroes() -> None:
    for title, expr in panel_targets():
        placeholders = set(re.findall(r"\$__\w+", expr))
        assert placeholders <= {"$__rate_interval"}, (title, placeholders)
        variables = set(re.findall(r"\$(\w+)", expr)) - {"__rate_interval"}
        assert variables <= {*VERSION_LABELS, "mode"}, (title, variables)
        bare = strip_selectors(expr)
        assert not re.search(r"[<>]|==|!=|\bbool\b|\babsent", bare), (title, expr)


def test_every_metric_name_in_deploy_grafana_exists() -> None:
    exposed = all_exposed()
    for path in (DEPLOY / "grafana").rglob("*"):
        if path.is_file():
            names = metric_names_in(path.read_text("utf-8"))
            assert names <= exposed, (path, names - exposed)
    assert metric_names_in(DASHBOARD.read_text("utf-8"))


def test_dashboard_annotates_new_corpus_versions() -> None:
    annotations = [a for a in dashboard()["annotations"]["list"] if "expr" in a]
    assert any("corpus_version" in a["expr"] and "offset" in a["expr"] for a in annotations)
    for a in annotations:
        assert a["datasource"]["uid"] == "${datasource}"


def test_grafana_provisioning_points_at_prometheus_and_the_dashboards_mount() -> None:
    ds = yaml.safe_load(
        (DEPLOY / "grafana/provisioning/datasources/prometheus.yaml").read_text("utf-8")
    )
    (source,) = ds["datasources"]
    assert source["type"] == "prometheus"
    assert source["url"] == "http://prometheus:9090"
    providers = yaml.safe_load(
        (DEPLOY / "grafana/provisioning/dashboards/citegate.yaml").read_text("utf-8")
    )
    (provider,) = providers["providers"]
    assert provider["type"] == "file"
    mounts = dict(v.split(":")[:2] for v in compose()["services"]["grafana"]["volumes"])
    assert mounts["./grafana/dashboards"] == provider["options"]["path"]
    assert mounts["./grafana/provisioning"] == "/etc/grafana/provisioning"


# -- compose ------------------------------------------------------------------------------------


def test_compose_services_and_images() -> None:
    services = compose()["services"]
    assert set(services) >= {"kafka", "postgres", "citegate", "prometheus", "grafana"}
    assert services["kafka"]["image"].startswith("apache/kafka:")
    assert services["postgres"]["image"].startswith("postgres:")
    assert services["prometheus"]["image"].startswith("prom/prometheus:")
    assert services["grafana"]["image"].startswith("grafana/grafana:")
    build = services["citegate"]["build"]
    dockerfile = (DEPLOY / build["context"] / build["dockerfile"]).resolve()
    assert dockerfile == DEPLOY / "Dockerfile"
    text = dockerfile.read_text("utf-8")
    assert "FROM python:3.11-slim" in text
    assert f"EXPOSE {PORT}" in text
    assert "CITEGATE_WEB_HOST=0.0.0.0" in text


def test_compose_worker_settings_match_the_code(monkeypatch: pytest.MonkeyPatch) -> None:
    services = compose()["services"]
    worker = services["citegate"]
    env = compose_env("citegate")
    settings = worker_settings(worker["command"], env, monkeypatch)
    assert settings.web_host == "0.0.0.0"
    assert settings.web_port == PORT == 6066
    assert f"{PORT}:{PORT}" in worker["ports"]
    for name in TOPIC_FIELDS:
        assert getattr(settings, name) == getattr(Settings(), name), name
    assert settings.broker == "kafka://kafka:9092"
    kafka_env = compose_env("kafka")
    assert "PLAINTEXT://kafka:9092" in kafka_env["KAFKA_ADVERTISED_LISTENERS"]
    assert settings.store.startswith("postgresql://citegate@postgres:5432/")
    pg = compose_env("postgres")
    assert settings.store.endswith("/" + pg["POSTGRES_DB"])
    assert env["PGPASSWORD"] == pg["POSTGRES_PASSWORD"]
    assert set(worker["depends_on"]) >= {"kafka", "postgres"}


def test_compose_prometheus_mounts_the_shared_config_and_rules() -> None:
    volumes = compose()["services"]["prometheus"]["volumes"]
    assert "./prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro" in volumes
    assert "./prometheus/rules:/etc/prometheus/rules:ro" in volumes
    config = DEPLOY / "prometheus" / "prometheus.yml"
    if not config.exists():
        pytest.skip("deploy/prometheus/prometheus.yml not written yet")
    text = config.read_text("utf-8")
    assert f"citegate:{PORT}" in text


# -- Kubernetes ---------------------------------------------------------------------------------


def test_k8s_manifests_parse_and_kustomization_lists_existing_files() -> None:
    kinds = sorted(d["kind"] for d in k8s_docs())
    assert kinds == sorted(
        [
            "ConfigMap",
            "Deployment",
            "Kustomization",
            "PodDisruptionBudget",
            "Service",
            "ServiceMonitor",
        ]
    )
    kustomization = k8s_one("Kustomization")
    for resource in kustomization["resources"]:
        assert (K8S / resource).is_file(), resource


def test_k8s_worker_settings_match_the_code(monkeypatch: pytest.MonkeyPatch) -> None:
    config = k8s_one("ConfigMap")
    data = {k: str(v) for k, v in config["data"].items()}
    assert set(data) <= DECLARED, set(data) - DECLARED
    assert not set(data) & SECRET_VARS
    deployment = k8s_one("Deployment")
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    settings = worker_settings(container["command"], data, monkeypatch)
    assert settings.web_host == "0.0.0.0"
    assert settings.web_port == PORT
    for name in TOPIC_FIELDS:
        assert getattr(settings, name) == getattr(Settings(), name), name
    assert settings.broker.startswith("kafka://")
    assert settings.store.startswith("postgresql://")
    assert settings.partitions >= deployment["spec"]["replicas"]


def test_k8s_deployment_probes_ports_resources_and_secrets() -> None:
    config = k8s_one("ConfigMap")
    deployment = k8s_one("Deployment")
    spec = deployment["spec"]
    assert spec["replicas"] == 2
    template = spec["template"]
    pod_labels = template["metadata"]["labels"]
    assert spec["selector"]["matchLabels"].items() <= pod_labels.items()
    annotations = template["metadata"]["annotations"]
    assert annotations["prometheus.io/scrape"] == "true"
    assert annotations["prometheus.io/port"] == str(PORT)
    assert annotations["prometheus.io/path"] == "/metrics"
    (container,) = template["spec"]["containers"]
    assert {"name": "metrics", "containerPort": PORT, "protocol": "TCP"} in container["ports"]
    assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "metrics"}
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "metrics"}
    for kind in ("requests", "limits"):
        assert {"cpu", "memory"} <= set(container["resources"][kind]), kind
    assert container["envFrom"] == [{"configMapRef": {"name": config["metadata"]["name"]}}]
    env = {e["name"]: e for e in container["env"]}
    assert set(env) >= SECRET_VARS
    for name, entry in env.items():
        assert name in DECLARED or not name.startswith("CITEGATE_"), name
        # Everything set here (rather than in the ConfigMap) is a secret, by reference only.
        assert "value" not in entry, name
        assert "secretKeyRef" in entry["valueFrom"], name


def test_k8s_service_pdb_and_servicemonitor_select_the_workers() -> None:
    pod_labels = k8s_one("Deployment")["spec"]["template"]["metadata"]["labels"]
    service = k8s_one("Service")
    assert service["spec"]["selector"].items() <= pod_labels.items()
    (port,) = service["spec"]["ports"]
    assert port["port"] == PORT
    assert port["targetPort"] == "metrics"
    assert port["name"] == "metrics"
    pdb = k8s_one("PodDisruptionBudget")
    assert pdb["apiVersion"] == "policy/v1"
    assert pdb["spec"]["minAvailable"] == 1
    assert pdb["spec"]["selector"]["matchLabels"].items() <= pod_labels.items()
    monitor = k8s_one("ServiceMonitor")
    assert monitor["apiVersion"] == "monitoring.coreos.com/v1"
    service_labels = service["metadata"]["labels"]
    assert monitor["spec"]["selector"]["matchLabels"].items() <= service_labels.items()
    (endpoint,) = monitor["spec"]["endpoints"]
    assert endpoint["port"] == "metrics"
    assert endpoint["path"] == "/metrics"


def test_no_secret_values_are_committed() -> None:
    assert all(d["kind"] != "Secret" for d in k8s_docs())
    for path in [*K8S.glob("*.yaml"), DEPLOY / "compose.yaml"]:
        text = path.read_text("utf-8")
        for var in SECRET_VARS:
            for m in re.finditer(rf"{var}\s*[:=]\s*(\S+)", text):
                assert m.group(1).startswith("${"), (path, var)


def test_every_citegate_variable_in_deploy_is_declared() -> None:
    used: set[str] = set()
    for path in DEPLOY.rglob("*"):
        if path.is_file() and "prometheus" not in path.relative_to(DEPLOY).parts:
            used |= set(re.findall(r"CITEGATE_[A-Z0-9_]+", path.read_text("utf-8")))
    assert used, "no CITEGATE_* variable found under deploy/"
    assert used <= DECLARED, used - DECLARED


def substitute(expr: str) -> str:
    """Grafana's placeholders as the integration test fills them: `.*` and a 1m interval."""
    expr = expr.replace("$__rate_interval", "1m")
    return re.sub(r"\$\{?\w+\}?", ".*", expr)


@pytest.mark.skipif(shutil.which("promtool") is None, reason="promtool not installed")
def test_dashboard_and_metrics_doc_promql_parse(tmp_path: Path) -> None:
    exprs = [substitute(e) for _, e in panel_targets()]
    exprs += [substitute(a["expr"]) for a in dashboard()["annotations"]["list"] if "expr" in a]
    exprs += docs_promql()
    rules = {
        "groups": [
            {
                "name": "syntax",
                "rules": [
                    {"record": f"citegate:syntax_check:{i}", "expr": e} for i, e in enumerate(exprs)
                ],
            }
        ]
    }
    path = tmp_path / "rules.yml"
    path.write_text(yaml.safe_dump(rules), "utf-8")
    done = subprocess.run(
        ["promtool", "check", "rules", str(path)],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_latency_panels_show_exemplars_that_link_to_traces() -> None:
    """The latency histograms carry trace-id exemplars; Grafana shows them and links them."""
    latency = [
        t
        for panel in dashboard()["panels"]
        for t in panel.get("targets", [])
        if "citegate_processing_seconds_bucket" in t.get("expr", "")
        or "citegate_checker_seconds_bucket" in t.get("expr", "")
    ]
    assert latency
    assert all(t.get("exemplar") is True for t in latency)
    datasources = DEPLOY / "grafana/provisioning/datasources"
    (prom,) = yaml.safe_load((datasources / "prometheus.yaml").read_text("utf-8"))["datasources"]
    (link,) = prom["jsonData"]["exemplarTraceIdDestinations"]
    assert link["name"] == "trace_id"
    (traces,) = yaml.safe_load((datasources / "jaeger.yaml").read_text("utf-8"))["datasources"]
    assert traces["uid"] == link["datasourceUid"]
    services = compose()["services"]
    assert "--enable-feature=exemplar-storage" in services["prometheus"]["command"]
    assert compose_env("citegate")["OTEL_EXPORTER_OTLP_ENDPOINT"].startswith("http://jaeger:")
    assert "jaeger" in services
