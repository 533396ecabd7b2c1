"""`tuner bench`: the project's benchmarks as one table (the scripts under benchmarks/ do the measuring)."""

from tuner.bench.runner import ROWS, BenchRow, run_benchmarks

__all__ = ["ROWS", "BenchRow", "run_benchmarks"]
