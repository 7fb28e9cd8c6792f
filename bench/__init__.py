"""Benchmark harness: every benchmark measures the service path against a raw-driver baseline doing the
same writes/reads in the same run, against the same database. Run with `python -m bench`."""
