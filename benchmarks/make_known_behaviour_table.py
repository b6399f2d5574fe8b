"""Regenerate the known-behaviour table of doc/user_guide/known_behaviour.rst.

Runs the ``unit_tests`` preset (about 20 s on one core), builds the pass/fail
matrix (:func:`sklearn_xai.benchmark.unit_test_matrix`) and prints it as
reStructuredText set against the literature's expectations
(:func:`sklearn_xai.benchmark.unit_test_matrix_rst`).  Paste the output into
the user guide page, between its "generated" markers::

    python benchmarks/make_known_behaviour_table.py > /tmp/table.rst
"""

import argparse
import sys
import time
import warnings

from sklearn_xai.benchmark import get_preset, run_benchmark, unit_test_matrix, unit_test_matrix_rst


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the quick variant")
    parser.add_argument("--n-jobs", type=int, default=1)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = run_benchmark(get_preset("unit_tests", quick=args.quick), n_jobs=args.n_jobs)
    matrix = unit_test_matrix(results)
    print(unit_test_matrix_rst(matrix))
    print(f"\n[{matrix.shape[0]} explainers x {matrix.shape[1]} units in "
          f"{time.perf_counter() - start:.1f} s]", file=sys.stderr)


if __name__ == "__main__":
    main()
