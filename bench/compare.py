"""Kusari, Chainer 7.8.1 and PyTorch per-op overhead, side by side.

Each framework runs in the interpreter given for it (its own environment),
one script per process, on one thread.  Rounds interleave the frameworks so
that a change in the machine's load touches all of them alike; the table
shows the median over rounds and Kusari's ratios against its targets:
at most half of Chainer's time, and (stretch) at most twice PyTorch's.

    python bench/compare.py --kusari PY --chainer PY --torch PY [--rounds N]

A framework whose interpreter is not given is left out.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
FRAMEWORKS = {  # option: (column label, script)
    'kusari': ('Kusari', 'core_overhead.py'),
    'chainer': ('Chainer', 'core_overhead.py'),
    'torch': ('PyTorch', 'torch_overhead.py'),
}
METRICS = {
    'forward_us_per_op': 'forward',
    'forward_backward_us_per_op': 'forward+backward',
    'no_graph_forward_us_per_op': 'forward, no graph',
}
TARGETS = (('chainer', 0.5, 'target'), ('torch', 2.0, 'stretch'))
ONE_THREAD = dict.fromkeys(
    ('OMP_NUM_THREADS', 'MKL_NUM_THREADS', 'OPENBLAS_NUM_THREADS'), '1')


def run_once(framework, python):
    """One run of a framework's script: its JSON result."""
    script = BENCH / FRAMEWORKS[framework][1]
    completed = subprocess.run(
        [python, str(script)], capture_output=True, text=True,
        env={**os.environ, **ONE_THREAD})
    if completed.returncode != 0:
        sys.exit(f'compare.py: {framework} ({python}) failed:\n'
                 f'{completed.stderr}')
    return json.loads(completed.stdout.strip().splitlines()[-1])


def measure(pythons, rounds):
    """Median of each metric over interleaved rounds, per framework."""
    results = {framework: [] for framework in pythons}
    for round_index in range(rounds):
        for framework, python in pythons.items():
            result = run_once(framework, python)
            results[framework].append(result)
            print(f'round {round_index + 1}/{rounds} {framework}: '
                  f'{result["forward_backward_us_per_op"]:.2f} µs/op '
                  'forward+backward', file=sys.stderr, flush=True)
    return {
        framework: {
            'measured': runs[0]['measured'],
            **{metric: statistics.median(run[metric] for run in runs)
               for metric in METRICS},
        }
        for framework, runs in results.items()
    }


def table(medians):
    """The results as text: µs per op, then Kusari's ratios."""
    shown = list(medians)
    ratios = [(other, limit, kind) for other, limit, kind in TARGETS
              if 'kusari' in medians and other in medians]
    header = ['µs/op'] + [FRAMEWORKS[f][0] for f in shown] + [
        f'Kusari/{FRAMEWORKS[other][0]} ({kind} <= {limit:g})'
        for other, limit, kind in ratios]
    rows = [header]
    for metric, label in METRICS.items():
        row = [label] + [f'{medians[f][metric]:.2f}' for f in shown]
        for other, limit, _ in ratios:
            ratio = medians['kusari'][metric] / medians[other][metric]
            verdict = 'met' if ratio <= limit else 'missed'
            row.append(f'{ratio:.2f} {verdict}')
        rows.append(row)
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = ['  '.join(cell.rjust(width) if i else cell.ljust(width)
                       for i, (cell, width) in enumerate(zip(row, widths)))
             for row in rows]
    versions = ', '.join(f'{FRAMEWORKS[f][0]}: {medians[f]["measured"]}'
                         for f in shown)
    return '\n'.join(lines + [f'({versions}; median of rounds, one thread)'])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    for framework, (label, _) in FRAMEWORKS.items():
        parser.add_argument(f'--{framework}', metavar='PYTHON',
                            help=f'interpreter that has {label} installed')
    parser.add_argument('--rounds', type=int, default=5,
                        help='interleaved rounds (default: 5)')
    parser.add_argument('--json', metavar='FILE',
                        help='also write the medians to FILE as JSON')
    args = parser.parse_args(argv)
    pythons = {f: getattr(args, f) for f in FRAMEWORKS if getattr(args, f)}
    if not pythons:
        parser.error('give at least one of --kusari, --chainer, --torch')
    if args.rounds < 1:
        parser.error(f'--rounds must be at least 1, got {args.rounds}')
    medians = measure(pythons, args.rounds)
    print(table(medians))
    if args.json:
        Path(args.json).write_text(json.dumps(medians, indent=2) + '\n')


if __name__ == '__main__':
    main()
