"""Kusari, Chainer 7.8.1 and PyTorch on the bench workloads, side by side.

Each framework runs in the interpreter given for it (its own environment),
one script per process, on one thread.  Rounds interleave the frameworks so
that a change in the machine's load touches all of them alike; each
workload's table shows the median over rounds and Kusari's standing
against its targets:

- core_overhead (µs per op): at most half of Chainer's time, and
  (stretch) at most twice PyTorch's;
- lenet (iterations/s): at least 2x Chainer;
- lstm_lm (tokens/s): at least 1.5x Chainer;
- mlp (iterations/s): at least 1.3x Chainer and ahead of PyTorch;
- trainer: Trainer + StandardUpdater + SerialIterator at most 3% slower
  than a hand-written loop (Chainer's figure is shown beside it).

    python bench/compare.py --kusari PY --chainer PY --torch PY
        [--rounds N] [--workloads NAME,...] [--quick] [--json FILE]

A framework whose interpreter is not given is left out.
"""
import argparse
import dataclasses
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
LABELS = {'kusari': 'Kusari', 'chainer': 'Chainer', 'torch': 'PyTorch'}
ONE_THREAD = dict.fromkeys(
    ('OMP_NUM_THREADS', 'MKL_NUM_THREADS', 'OPENBLAS_NUM_THREADS'), '1')


@dataclasses.dataclass(frozen=True)
class Workload:
    """A workload's scripts, what they print, and Kusari's targets.

    ``ratios`` are (other framework, limit, kind): Kusari's figure over
    the other's must be at most ``limit`` where less is better, at least
    where more is.  ``ceiling`` is (metric, limit): Kusari's own figure
    of that metric must be at most ``limit``.
    """

    chainer_script: str
    torch_script: str | None
    unit: str
    metrics: dict
    higher_is_better: bool
    ratios: tuple = ()
    ceiling: tuple | None = None
    takes_quick: bool = True

    def script(self, framework):
        """The script that runs on ``framework``, None if it has none."""
        if framework == 'torch':
            return self.torch_script
        return self.chainer_script


WORKLOADS = {
    'core_overhead': Workload(
        'core_overhead.py', 'torch_overhead.py', 'µs/op',
        {'forward_us_per_op': 'forward',
         'forward_backward_us_per_op': 'forward+backward',
         'no_graph_forward_us_per_op': 'forward, no graph'},
        higher_is_better=False,
        ratios=(('chainer', 0.5, 'target'), ('torch', 2.0, 'stretch')),
        takes_quick=False),
    'lenet': Workload(
        'lenet.py', 'lenet_torch.py', 'iterations/s',
        {'iterations_per_s': 'training step'}, higher_is_better=True,
        ratios=(('chainer', 2.0, 'target'),)),
    'lstm_lm': Workload(
        'lstm_lm.py', 'lstm_lm_torch.py', 'tokens/s',
        {'tokens_per_s': 'truncated BPTT'}, higher_is_better=True,
        ratios=(('chainer', 1.5, 'target'),)),
    'mlp': Workload(
        'mlp.py', 'mlp_torch.py', 'iterations/s',
        {'iterations_per_s': 'training step'}, higher_is_better=True,
        ratios=(('chainer', 1.3, 'target'), ('torch', 1.0, 'target'))),
    # PyTorch has no Trainer: only the Chainer API's two loops compare.
    'trainer': Workload(
        'trainer.py', None, 'Trainer',
        {'overhead_percent': 'overhead (%)',
         'loop_iterations_per_s': 'hand loop (it/s)',
         'trainer_iterations_per_s': 'Trainer (it/s)'},
        higher_is_better=False, ceiling=('overhead_percent', 3.0)),
}


def run_once(workload, framework, python, quick):
    """One run of a workload's script on a framework: its JSON result."""
    spec = WORKLOADS[workload]
    command = [python, str(BENCH / spec.script(framework))]
    if quick and spec.takes_quick:
        command.append('--quick')
    completed = subprocess.run(command, capture_output=True, text=True,
                               env={**os.environ, **ONE_THREAD})
    if completed.returncode != 0:
        sys.exit(f'compare.py: {workload} on {framework} ({python}) '
                 f'failed:\n{completed.stderr}')
    return json.loads(completed.stdout.strip().splitlines()[-1])


def measure(workloads, pythons, rounds, quick):
    """Median of each metric over interleaved rounds.

    By workload, then by framework (those that have a script for it).
    """
    runs = {w: {f: [] for f in pythons if WORKLOADS[w].script(f)}
            for w in workloads}
    for round_index in range(rounds):
        for workload, by_framework in runs.items():
            first_metric = next(iter(WORKLOADS[workload].metrics))
            for framework, results in by_framework.items():
                result = run_once(workload, framework, pythons[framework],
                                  quick)
                results.append(result)
                print(f'round {round_index + 1}/{rounds} {workload} '
                      f'{framework}: {first_metric} '
                      f'{result[first_metric]:.2f}',
                      file=sys.stderr, flush=True)
    return {
        workload: {
            framework: {
                'measured': results[0]['measured'],
                **{metric: statistics.median(r[metric] for r in results)
                   for metric in WORKLOADS[workload].metrics},
            }
            for framework, results in by_framework.items()
        }
        for workload, by_framework in runs.items()
    }


def _verdict(met):
    return 'met' if met else 'missed'


def table(workload, medians):
    """One workload's results as text: figures, then Kusari's standing."""
    spec = WORKLOADS[workload]
    shown = list(medians)
    ratios = [(other, limit, kind) for other, limit, kind in spec.ratios
              if 'kusari' in medians and other in medians]
    sign = '>=' if spec.higher_is_better else '<='
    header = [f'{workload}: {spec.unit}'] + [LABELS[f] for f in shown] + [
        f'Kusari/{LABELS[other]} ({kind} {sign} {limit:g})'
        for other, limit, kind in ratios]
    rows = [header]
    for metric, label in spec.metrics.items():
        row = [label] + [f'{medians[f][metric]:.2f}' for f in shown]
        for other, limit, _ in ratios:
            ratio = medians['kusari'][metric] / medians[other][metric]
            met = ratio >= limit if spec.higher_is_better else ratio <= limit
            row.append(f'{ratio:.2f} {_verdict(met)}')
        rows.append(row)
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = ['  '.join(cell.rjust(width) if i else cell.ljust(width)
                       for i, (cell, width) in enumerate(zip(row, widths)))
             for row in rows]
    if spec.ceiling and 'kusari' in medians:
        metric, limit = spec.ceiling
        figure = medians['kusari'][metric]
        lines.append(f'Kusari {spec.metrics[metric]}: {figure:.2f} '
                     f'(target <= {limit:g}) {_verdict(figure <= limit)}')
    versions = ', '.join(f'{LABELS[f]}: {medians[f]["measured"]}'
                         for f in shown)
    return '\n'.join(lines + [f'({versions}; median of rounds, one thread)'])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    for framework, label in LABELS.items():
        parser.add_argument(f'--{framework}', metavar='PYTHON',
                            help=f'interpreter that has {label} installed')
    parser.add_argument('--rounds', type=int, default=5,
                        help='interleaved rounds (default: 5)')
    parser.add_argument('--workloads', default=','.join(WORKLOADS),
                        help='comma-separated, of: '
                        f'{", ".join(WORKLOADS)} (default: all)')
    parser.add_argument('--quick', action='store_true',
                        help='fewer, shorter rounds inside each run')
    parser.add_argument('--json', metavar='FILE',
                        help='also write the medians to FILE as JSON')
    args = parser.parse_args(argv)
    pythons = {f: getattr(args, f) for f in LABELS if getattr(args, f)}
    if not pythons:
        parser.error('give at least one of --kusari, --chainer, --torch')
    if args.rounds < 1:
        parser.error(f'--rounds must be at least 1, got {args.rounds}')
    workloads = args.workloads.split(',')
    unknown = [w for w in workloads if w not in WORKLOADS]
    if unknown:
        parser.error(f'--workloads: unknown {", ".join(unknown)}; '
                     f'expected some of {", ".join(WORKLOADS)}')
    medians = measure(workloads, pythons, args.rounds, args.quick)
    print('\n\n'.join(table(w, medians[w]) for w in workloads))
    print(f'(load average at the end: {_load()})')
    if args.json:
        Path(args.json).write_text(json.dumps(medians, indent=2) + '\n')


def _load():
    """The 1, 5 and 15 minute load averages, where the OS tells them."""
    try:
        return ' '.join(f'{load:.2f}' for load in os.getloadavg())
    except (AttributeError, OSError):
        return 'unknown'


if __name__ == '__main__':
    main()
