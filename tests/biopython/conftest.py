"""Vendored Biopython tests: run only through tests/test_pairwise_biopython_suite.py."""

collect_ignore = ["test_pairwise_aligner.py"]
