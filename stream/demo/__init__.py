"""Sample data for `citegate demo` and for trying the stage by hand: `answers.jsonl` (answer
events for `citegate produce`), `corpus.jsonl` and the `corpus-update.jsonl` the replay uses."""
