"""Coverage-guided fuzzing (atheris) of every input edge: one harness per edge, each asserting
the edge's contract. `make fuzz` runs them for a while; `make test` runs a short smoke and
replays every input that ever broke a contract (tests/fuzz/regressions/<harness>/).

    python -m tests.fuzz.run [--seconds 600] [--only answer_event,markers]   (make fuzz)
"""
