"""The learned checker's figures, reproducibly: `python -m stream.learn.figures`.

Runs the documented commands as subprocesses (`nice -n 10`, one thread each, `--jobs` at a
time) and writes everything under `--out` (outside the repository):

- `--modes cv` (the figures in docs/checker-quality.md): for each file, five stratified
  folds; for fold k, `citegate learn` on the other four fifths (its own held-out fifth picks
  the threshold, as a user's run does), then `citegate eval` of fold k with `model:DIR`, with
  `cascade` (rules -> model) and with `rules`: `OUT/cv/<file>/fold<k>.json`.
- `--modes within`: `citegate learn FILE --folds 5 --scores-out …`, the K-fold procedure
  (fold k judged at the threshold chosen on the other folds' scores); `report` puts the model,
  the rules and the cascade side by side on the same records.
- `--modes lofo`: `citegate learn <the other files> --folds 1 -o OUT/lofo/<file>`, then
  `citegate eval <file> --checker model:…`: a domain the model has not seen.
- `speed --model DIR`: ms per claim (one claim per call, p50/p90) and claims/s (batches of 64)
  on one core for claims whose evidence has at most 256 tokens, next to the rules checker on
  the same claims; medians of `--runs`.

```sh
python -m stream.learn.figures run --modes cv --eval-dir ../shared/eval --out /tmp/lf \
    --max-minutes 4.2 --epochs 3 --learn-args=--cpu-clock
python -m stream.learn.figures report --eval-dir ../shared/eval --out /tmp/lf
python -m stream.learn.figures speed --model DIR --eval-dir ../shared/eval --out /tmp/lf
```
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import orjson

from stream.checkers.base import SyncChecker
from stream.checkers.cascade import may_lift
from stream.learn.guard import guard_threshold
from stream.learn.threshold import choose_threshold, figures
from stream.quality.evaluate import LabelledClaim, load_records, to_request
from stream.verify.checkers import RulesChecker
from stream.verify.codes import Verdict
from stream.verify.model import CheckResult

FILES = ("expertqa", "wice", "climate_fever_pairs", "healthver", "ocnli_dev", "terra")


def _citegate() -> list[str]:
    exe = shutil.which("citegate") or str(Path(sys.executable).with_name("citegate"))
    return ["nice", "-n", "10", exe]


def _run(argv: list[str], log: Path) -> int:
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    with log.open("wb") as f:
        f.write((" ".join(argv) + "\n").encode())
        f.flush()
        return subprocess.run(
            argv, stdout=f, stderr=subprocess.STDOUT, env=env, check=False
        ).returncode


def within_jobs(args: argparse.Namespace) -> list[tuple[list[str], Path]]:
    out = Path(args.out)
    jobs = []
    for name in args.files:
        src = Path(args.eval_dir) / f"{name}.jsonl"
        argv = [
            *_citegate(), "learn", str(src), "-o", str(out / "models" / name),
            "--folds", "5", "--threads", "1", "--seed", str(args.seed),
            "--max-minutes", str(args.max_minutes), "--epochs", str(args.epochs),
            "--scores-out", str(out / "within" / f"{name}.scores.jsonl"), *args.learn_args,
        ]  # fmt: skip
        if args.max_records:
            argv += ["--max-records", str(args.max_records)]
        if args.cv_only:
            argv.append("--cv-only")
        jobs.append((argv, out / "within" / f"{name}.log"))
    return jobs


def lofo_jobs(args: argparse.Namespace) -> list[tuple[list[str], Path]]:
    out = Path(args.out)
    jobs = []
    for name in args.files:
        train = [str(Path(args.eval_dir) / f"{o}.jsonl") for o in FILES if o != name]
        model = out / "lofo" / name
        argv = [
            *_citegate(), "learn", *train, "-o", str(model), "--folds", "1", "--threads", "1",
            "--seed", str(args.seed), "--max-minutes", str(args.lofo_minutes),
            "--epochs", str(args.epochs), "--max-records", str(args.lofo_records),
            "--scores-out", str(out / "lofo" / f"{name}.holdout.jsonl"), *args.learn_args,
        ]  # fmt: skip
        jobs.append((argv, out / "lofo" / f"{name}.log"))
    return jobs


def _json_eval(src: Path, spec: str, env: dict[str, str]) -> dict[str, Any]:
    argv = [*_citegate(), "eval", str(src), "--checker", spec, "--no-mutations", "--format", "json"]
    done = subprocess.run(argv, capture_output=True, env=env, check=False)
    if done.returncode != 0:
        return {"error": done.stderr.decode("utf-8", "replace")[-500:]}
    result: dict[str, Any] = orjson.loads(done.stdout)["results"][0]
    return result


def cv_file(args: argparse.Namespace, name: str) -> None:
    """Outer 5-fold CV of the whole `learn` procedure: for fold k, `citegate learn` on the
    other four fifths (its own held-out fifth picks the threshold), then `citegate eval` of
    fold k with the model alone, the cascade rules -> model, and the rules."""
    import random

    from stream.learn.data import stratified_folds

    out = Path(args.out) / "cv" / name
    out.mkdir(parents=True, exist_ok=True)
    src = Path(args.eval_dir) / f"{name}.jsonl"
    lines = [line for line in src.read_bytes().splitlines() if line.strip()]
    records = load_records(src)
    folds = stratified_folds(records, 5, random.Random(args.seed))
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    for k, fold in enumerate(folds):
        result = out / f"fold{k}.json"
        if result.exists():
            continue
        held = set(fold)
        train, test = out / f"train{k}.jsonl", out / f"test{k}.jsonl"
        train.write_bytes(b"".join(lines[i] + b"\n" for i in range(len(lines)) if i not in held))
        test.write_bytes(b"".join(lines[i] + b"\n" for i in sorted(held)))
        model = out / "model"
        argv = [
            *_citegate(), "learn", str(train), "-o", str(model), "--folds", "1",
            "--threads", "1", "--seed", str(args.seed), "--max-minutes", str(args.max_minutes),
            "--epochs", str(args.epochs), *args.learn_args,
        ]  # fmt: skip
        code = _run(argv, out / f"learn{k}.log")
        row: dict[str, Any] = {"fold": k, "learn_exit": code}
        if code == 0:
            manifest = (model / "model.toml").read_text("utf-8")
            row["manifest"] = manifest
            row["model"] = _json_eval(test, f"model:{model}", env)
            row["cascade"] = _json_eval(test, "cascade", {**env, "CITEGATE_MODEL": str(model)})
        row["rules"] = _json_eval(test, "rules", env)
        result.write_bytes(orjson.dumps(row))
        train.unlink()
        print(f"{name} fold {k}: {row.get('model', {}).get('binary_bacc')}", flush=True)


def run(args: argparse.Namespace) -> int:
    if "cv" in args.modes:
        with ThreadPoolExecutor(args.jobs) as pool:
            list(pool.map(lambda n: cv_file(args, n), args.files))
        return 0
    out = Path(args.out)
    for sub in ("within", "lofo", "models"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    jobs = (within_jobs(args) if "within" in args.modes else []) + (
        lofo_jobs(args) if "lofo" in args.modes else []
    )
    with ThreadPoolExecutor(args.jobs) as pool:
        codes = list(pool.map(lambda j: _run(*j), jobs))
    for (_, log), code in zip(jobs, codes, strict=True):
        print(f"{'ok ' if code == 0 else 'FAILED'} {log}")
    if "lofo" in args.modes:
        for name in args.files:
            model = out / "lofo" / name
            src = str(Path(args.eval_dir) / f"{name}.jsonl")
            if model.exists():
                _eval(src, f"model:{model}", out / "lofo" / f"{name}.eval-model.json")
    return 0 if all(c == 0 for c in codes) else 1


def _eval(src: str, spec: str, target: Path) -> None:
    argv = [*_citegate(), "eval", src, "--checker", spec, "--no-mutations", "--format", "json"]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    done = subprocess.run(argv, capture_output=True, env=env, check=False)
    target.write_bytes(done.stdout if done.returncode == 0 else done.stderr)


def _rules(records: Sequence[LabelledClaim]) -> dict[str, CheckResult]:
    checker = SyncChecker(RulesChecker())
    return asyncio.run(checker.check_many([to_request(r) for r in records]))


def _figs(accepted: Sequence[bool], positive: Sequence[bool]) -> dict[str, Any]:
    return figures(accepted, positive).as_dict()


def report_file(eval_dir: Path, name: str, scores: Path, target: float) -> dict[str, Any]:
    records = {r.id: r for r in load_records(eval_dir / f"{name}.jsonl")}
    rows = [orjson.loads(line) for line in scores.read_bytes().splitlines() if line.strip()]
    recs = [records[row["id"]] for row in rows]
    rules = _rules(recs)
    positive = [r.label == "entailed" for r in recs]
    folds = sorted({row["fold"] for row in rows})
    runs = orjson.loads(scores.with_name(scores.name + ".runs.json").read_bytes())
    edits = scores.with_name(scores.name + ".mutants.jsonl")
    probes = (
        [orjson.loads(line) for line in edits.read_bytes().splitlines()] if edits.exists() else []
    )
    thr: dict[int, float] = {}
    for k in folds:
        others = [row for row in rows if row["fold"] != k] if len(folds) > 1 else rows
        far = choose_threshold(
            [o["p"] for o in others], [o["label"] == "entailed" for o in others], target
        )
        chosen = {o["id"] for o in others}
        mine = [e["p"] for e in probes if e["of"] in chosen]
        thr[k] = max(far, guard_threshold(mine, runs.get("mutant_far", 1.0)))
    model = [row["p"] >= thr[row["fold"]] for row in rows]
    rule = [rules[r.id].verdict is Verdict.ENTAILED for r in recs]
    lift = [may_lift(to_request(r), rules[r.id]) for r in recs]
    cascade = [a or (b and m) for a, b, m in zip(rule, lift, model, strict=True)]
    return {
        "file": name,
        "target_far": target,
        "model": _figs(model, positive),
        "rules": _figs(rule, positive),
        "cascade": _figs(cascade, positive),
        "liftable_share": round(sum(lift) / len(lift), 4),
        "train_seconds": [r["seconds"] for r in runs["runs"]],
        "train_examples": [r["examples"] for r in runs["runs"]],
        "model_bytes": runs["last_model_bytes"],
    }


def cv_report(out: Path, name: str) -> dict[str, Any] | None:
    """Pool the folds of `--modes cv`: counts from each fold's rates and gold labels."""
    rows = sorted((out / "cv" / name).glob("fold*.json"))
    if not rows:
        return None
    pooled: dict[str, dict[str, float]] = {}
    seconds, sizes = [], []
    for path in rows:
        row = orjson.loads(path.read_bytes())
        k = row["fold"]
        gold = [r.label for r in load_records(out / "cv" / name / f"test{k}.jsonl")]
        pos = sum(g == "entailed" for g in gold)
        neg = len(gold) - pos
        if "manifest" in row:
            import tomllib

            m = tomllib.loads(row["manifest"])
            seconds += m["training"]["seconds_per_run"]
            sizes.append(m["model"]["size_bytes"])
        for tier in ("model", "cascade", "rules"):
            ev = row.get(tier) or {}
            if "n" not in ev:
                continue
            acc = pooled.setdefault(tier, {"pos": 0, "neg": 0, "tp": 0.0, "fp": 0.0, "rate": 0.0})
            acc["pos"] += pos
            acc["neg"] += neg
            acc["tp"] += (ev["accept_recall"] or 0.0) * pos
            acc["fp"] += (ev["false_accept_rate"] or 0.0) * neg
            acc["rate"] += ev["claims_per_s"] or 0.0
    out_row: dict[str, Any] = {"file": name, "folds": len(rows)}
    for tier, acc in pooled.items():
        recall = acc["tp"] / acc["pos"] if acc["pos"] else 0.0
        far = acc["fp"] / acc["neg"] if acc["neg"] else 0.0
        out_row[tier] = {
            "n": int(acc["pos"] + acc["neg"]),
            "false_accept_rate": round(far, 4),
            "accept_recall": round(recall, 4),
            "binary_bacc": round((recall + 1 - far) / 2, 4),
            "claims_per_s": round(acc["rate"] / len(rows), 1),
        }
    out_row["train_cpu_seconds"] = seconds
    out_row["model_bytes"] = max(sizes) if sizes else None
    return out_row


def report(args: argparse.Namespace) -> int:
    out = Path(args.out)
    doc: dict[str, list[dict[str, Any]]] = {"within": [], "lofo": [], "cv": []}
    for name in args.files:
        row = cv_report(out, name)
        if row is not None:
            doc["cv"].append(row)
            print(f"cv {name:22} {orjson.dumps(row).decode()}")
    for mode, suffix in (("within", ".scores.jsonl"), ("lofo", ".holdout.jsonl")):
        for name in args.files:
            scores = out / mode / f"{name}{suffix}"
            if mode == "lofo":
                ev = out / "lofo" / f"{name}.eval-model.json"
                if ev.exists():
                    doc["lofo"].append({"file": name, "eval": orjson.loads(ev.read_bytes())})
                continue
            if scores.exists():
                for target in args.targets:
                    doc[mode].append(report_file(Path(args.eval_dir), name, scores, target))
    (out / "report.json").write_bytes(orjson.dumps(doc, option=orjson.OPT_INDENT_2))
    for row in doc["within"]:
        m, r, c = row["model"], row["rules"], row["cascade"]
        print(
            f"{row['file']:22} far*={row['target_far']:.2f} | model bacc "
            f"{m.get('binary_bacc')} far {m.get('false_accept_rate')} rec "
            f"{m.get('accept_recall')} | rules bacc {r.get('binary_bacc')} far "
            f"{r.get('false_accept_rate')} rec {r.get('accept_recall')} | cascade bacc "
            f"{c.get('binary_bacc')} far {c.get('false_accept_rate')} rec "
            f"{c.get('accept_recall')} | train s {sum(row['train_seconds']):.0f}"
        )
    for row in doc["lofo"]:
        print(f"lofo {row['file']:22} {row['eval']}")
    return 0


def speed(args: argparse.Namespace) -> int:
    """Inference on one core: ms per claim (one claim per call, p50/p90) and claims/s (batches
    of 64), the rules checker measured on the same claims in the same run; medians of runs."""
    import statistics
    import time

    from stream.checkers.model import ModelScorer
    from stream.checkers.modeldir import load_model_dir
    from stream.learn.data import fragments

    scorer = ModelScorer(load_model_dir(args.model), threads=1)
    tok = scorer.tokenizer
    rules = RulesChecker()
    rows = []
    for name in args.files:
        records = load_records(Path(args.eval_dir) / f"{name}.jsonl")
        short = []
        for r in records:
            n = sum(len(tok.tokenizer.encode(tok.normalize(t), add_special_tokens=False).ids)
                    for _, t in r.evidence)  # fmt: skip
            if n <= args.max_evidence_tokens:
                short.append(r)
        short = short[: args.claims]
        if not short:
            continue
        per_run: list[tuple[float, float, float, float]] = []
        for _ in range(args.runs):
            lat = []
            for r in short:
                t0 = time.perf_counter()
                scorer.score([(r.claim, fragments(r))])
                lat.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            for i in range(0, len(short), 64):
                scorer.score([(r.claim, fragments(r)) for r in short[i : i + 64]])
            batched = len(short) / (time.perf_counter() - t0)
            t0 = time.perf_counter()
            for r in short:
                rules.check(to_request(r))
            rules_rate = len(short) / (time.perf_counter() - t0)
            q = statistics.quantiles(lat, n=10)
            per_run.append((statistics.median(lat), q[8], batched, rules_rate))
        med = [statistics.median(x[i] for x in per_run) for i in range(4)]
        rows.append((name, len(short), *med))
        print(
            f"{name:22} claims {len(short):4}  model ms/claim p50 {med[0]:6.1f}  p90 "
            f"{med[1]:6.1f}  model claims/s (batch 64) {med[2]:7.1f}  rules claims/s "
            f"{med[3]:7.1f}  rules/model {med[3] / med[2]:5.1f}x",
            flush=True,
        )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m stream.learn.figures", description=__doc__)
    p.add_argument("action", choices=("run", "report", "speed"))
    p.add_argument("--model", default=None, help="speed: a model directory")
    p.add_argument("--claims", type=int, default=200, help="speed: claims per file")
    p.add_argument("--runs", type=int, default=3, help="speed: runs (medians shown)")
    p.add_argument("--max-evidence-tokens", type=int, default=256, help="speed: evidence cap")
    p.add_argument("--eval-dir", default="../shared/eval")
    p.add_argument("--out", required=True)
    p.add_argument("--files", type=lambda s: s.split(","), default=list(FILES))
    p.add_argument("--modes", type=lambda s: s.split(","), default=["cv"], help="cv, within, lofo")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--epochs", type=float, default=3.0)
    p.add_argument("--max-minutes", type=float, default=18.0, help="per file, within-file")
    p.add_argument("--max-records", type=int, default=None, help="per file, within-file")
    p.add_argument("--lofo-minutes", type=float, default=6.0)
    p.add_argument("--lofo-records", type=int, default=400, help="per training file, lofo")
    p.add_argument("--targets", type=lambda s: [float(x) for x in s.split(",")], default=[0.02])
    p.add_argument("--learn-args", type=lambda s: s.split(), default=[], help="for every learn")
    p.add_argument(
        "--cv-only", action="store_true", help="within-file: the five fold models, no final one"
    )
    args = p.parse_args(argv)
    if args.action == "speed":
        if not args.model:
            p.error("speed needs --model DIR")
        return speed(args)
    return run(args) if args.action == "run" else report(args)


if __name__ == "__main__":
    raise SystemExit(main())
