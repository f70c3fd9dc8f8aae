"""The pure verification core: claims, citation checks, risk signals, the rules checker and the
decision policy. No I/O of any kind (tests/unit/test_purity.py enforces it)."""
