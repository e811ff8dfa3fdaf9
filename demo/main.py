"""The demo (``python run.py demo``): the "Variables and Derivatives"
walkthrough, then two real models trained on real data that ships with the
repository (data/), each reporting where its log, plots and snapshot went.

Exits with status 1 if a model misses its validation accuracy target.
"""
import argparse
import sys
from pathlib import Path

import walkthrough
import workloads


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument(
        '--out', type=Path, default=Path('result'),
        help='directory for the logs, plots and snapshots, one '
             'subdirectory per model (default: ./result)')
    args = parser.parse_args(argv)
    walkthrough.variables_and_derivatives()
    walkthrough.higher_order_derivatives()
    missed = []
    for workload in workloads.WORKLOADS:
        print(f'\n# Training {workload.description}')
        result = workloads.run(workload, args.out / workload.name)
        met = result.accuracy >= workload.min_accuracy
        print(f'{workload.name}: validation accuracy {result.accuracy:.2%} '
              f'({"meets" if met else "MISSES"} the target of '
              f'{workload.min_accuracy:.0%}) after {workload.epochs} epochs '
              f'in {result.seconds:.1f} s\n'
              f'  log:      {result.log}\n'
              f'  plots:    {", ".join(map(str, result.plots))}\n'
              f'  snapshot: {result.snapshot}')
        if not met:
            missed.append(workload.name)
    return 1 if missed else 0


if __name__ == '__main__':
    sys.exit(main())
