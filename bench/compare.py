"""Kusari, Chainer 7.8.1 and PyTorch on the bench workloads, side by side.

Each framework runs in the interpreter given for it (its own environment),
one script per process, at each thread count: 1 and the machine's cores
(``OMP_NUM_THREADS``, ``MKL_NUM_THREADS`` and ``OPENBLAS_NUM_THREADS`` set
to it).  Rounds interleave the frameworks and the thread counts so that a
change in the machine's load touches all of them alike; each workload's
table shows the median over rounds and Kusari's standing against its
targets at each thread count:

- core_overhead (µs per op): at most half of Chainer's time and 1.5x
  PyTorch's (issue #20);
- lenet (iterations/s): at least 2x Chainer and ahead of PyTorch;
- lstm_lm (tokens/s): at least 1.5x Chainer and ahead of PyTorch;
- mlp (iterations/s): at least 1.5x Chainer and ahead of PyTorch;
- trainer: Trainer + StandardUpdater + SerialIterator at most 3% slower
  than a hand-written loop (Chainer's figure is shown beside it);
- resnet_bn, nstep_gru, attention, vae (iterations/s): ahead of PyTorch;
- the static variants (the scripts with ``--static``: the model's forward
  marked with ``chainer.static_graph``, on Kusari and Chainer):
  core_overhead_static at most PyTorch's core_overhead time, mlp_static,
  lenet_static and lstm_lm_static at least 1.3x Kusari's own
  define-by-run figure (their tables show these where the define-by-run
  workload ran too).

Then each framework's speed-up on more threads, per workload: its figure
at N threads over its figure at 1 thread of the same round, the median
over rounds.  A median below 0.9 (slower on more threads, beyond the
noise of a round) is a thread cliff; one of Kusari's makes the exit
status 1.

    python bench/compare.py --kusari PY --chainer PY --torch PY
        [--rounds N] [--workloads NAME,...] [--threads N,...] [--quick]
        [--json FILE]

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
THREAD_VARIABLES = ('OMP_NUM_THREADS', 'MKL_NUM_THREADS',
                    'OPENBLAS_NUM_THREADS')
# A speed-up on more threads below this (paired by round) is a cliff.
CLIFF = 0.9


@dataclasses.dataclass(frozen=True)
class Workload:
    """A workload's scripts, what they print, and Kusari's targets.

    ``ratios`` are (other framework, limit, kind): Kusari's figure over
    the other's must be at most ``limit`` where less is better, at least
    where more is.  ``versus`` are (other workload, framework, limit,
    kind): the same for the ``speed`` metric against that framework's
    figure on another workload (a static variant against define-by-run).
    ``ceiling`` is (metric, limit): Kusari's own figure of that metric
    must be at most ``limit``.
    ``speed`` is the metric compared across thread counts, and whether
    more of it is better.  ``arguments`` are given to the Chainer API
    script.
    """

    chainer_script: str
    torch_script: str | None
    unit: str
    metrics: dict
    higher_is_better: bool
    speed: tuple
    ratios: tuple = ()
    ceiling: tuple | None = None
    takes_quick: bool = True
    versus: tuple = ()
    arguments: tuple = ()

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
        speed=('forward_backward_us_per_op', False),
        ratios=(('chainer', 0.5, 'target'), ('torch', 1.5, 'target')),
        takes_quick=False),
    'lenet': Workload(
        'lenet.py', 'lenet_torch.py', 'iterations/s',
        {'iterations_per_s': 'training step'}, higher_is_better=True,
        speed=('iterations_per_s', True),
        ratios=(('chainer', 2.0, 'target'), ('torch', 1.0, 'target'))),
    'lstm_lm': Workload(
        'lstm_lm.py', 'lstm_lm_torch.py', 'tokens/s',
        {'tokens_per_s': 'truncated BPTT'}, higher_is_better=True,
        speed=('tokens_per_s', True),
        ratios=(('chainer', 1.5, 'target'), ('torch', 1.0, 'target'))),
    'mlp': Workload(
        'mlp.py', 'mlp_torch.py', 'iterations/s',
        {'iterations_per_s': 'training step'}, higher_is_better=True,
        speed=('iterations_per_s', True),
        ratios=(('chainer', 1.5, 'target'), ('torch', 1.0, 'target'))),
    # The model shapes of issue 20 beyond bench's first four: ahead of
    # PyTorch is the target, as for the MLP.
    **{name: Workload(
        f'{name}.py', f'{name}_torch.py', 'iterations/s',
        {'iterations_per_s': 'training step'}, higher_is_better=True,
        speed=('iterations_per_s', True),
        ratios=(('torch', 1.0, 'target'),))
       for name in ('resnet_bn', 'nstep_gru', 'attention', 'vae')},
    # PyTorch has no Trainer: only the Chainer API's two loops compare.
    # The static variants: the model's forward marked with static_graph.
    'core_overhead_static': Workload(
        'core_overhead.py', None, 'µs/op',
        {'forward_us_per_op': 'forward',
         'forward_backward_us_per_op': 'forward+backward',
         'no_graph_forward_us_per_op': 'forward, no graph'},
        higher_is_better=False,
        speed=('forward_backward_us_per_op', False),
        versus=(('core_overhead', 'torch', 1.0, 'target'),),
        takes_quick=False, arguments=('--static',)),
    **{f'{name}_static': Workload(
        f'{name}.py', None, 'iterations/s',
        {'iterations_per_s': 'training step'}, higher_is_better=True,
        speed=('iterations_per_s', True),
        versus=((name, 'kusari', 1.3, 'target'),), arguments=('--static',))
       for name in ('mlp', 'lenet')},
    'lstm_lm_static': Workload(
        'lstm_lm.py', None, 'tokens/s', {'tokens_per_s': 'truncated BPTT'},
        higher_is_better=True, speed=('tokens_per_s', True),
        versus=(('lstm_lm', 'kusari', 1.3, 'target'),),
        arguments=('--static',)),
    'trainer': Workload(
        'trainer.py', None, 'Trainer',
        {'overhead_percent': 'overhead (%)',
         'loop_iterations_per_s': 'hand loop (it/s)',
         'trainer_iterations_per_s': 'Trainer (it/s)'},
        higher_is_better=False, speed=('trainer_iterations_per_s', True),
        ceiling=('overhead_percent', 3.0)),
}


def run_once(workload, framework, python, quick, threads):
    """One run of a workload's script on a framework, on ``threads``
    threads: its JSON result."""
    spec = WORKLOADS[workload]
    command = [python, str(BENCH / spec.script(framework))]
    if framework != 'torch':
        command += spec.arguments
    if quick and spec.takes_quick:
        command.append('--quick')
    completed = subprocess.run(
        command, capture_output=True, text=True,
        env={**os.environ, **dict.fromkeys(THREAD_VARIABLES, str(threads))})
    if completed.returncode != 0:
        sys.exit(f'compare.py: {workload} on {framework} ({python}, '
                 f'{threads} threads) failed:\n{completed.stderr}')
    return json.loads(completed.stdout.strip().splitlines()[-1])


def measure(workloads, pythons, thread_counts, rounds, quick):
    """Every run's result, over interleaved rounds: by workload, thread
    count and framework (those that have a script for the workload), the
    list of results by round; and the 1-minute load average after each
    run."""
    runs = {w: {n: {f: [] for f in pythons if WORKLOADS[w].script(f)}
                for n in thread_counts}
            for w in workloads}
    loads = []
    for round_index in range(rounds):
        for workload, by_threads in runs.items():
            first_metric = next(iter(WORKLOADS[workload].metrics))
            for threads, by_framework in by_threads.items():
                for framework, results in by_framework.items():
                    result = run_once(workload, framework,
                                      pythons[framework], quick, threads)
                    results.append(result)
                    loads.append(_load()[0])
                    print(f'round {round_index + 1}/{rounds} {workload} '
                          f'{framework} {threads} thread(s): {first_metric} '
                          f'{result[first_metric]:.2f}',
                          file=sys.stderr, flush=True)
    return runs, [load for load in loads if load is not None]


def medians(results, workload):
    """The median over rounds of each metric of a workload's results."""
    return {'measured': results[0]['measured'],
            **{metric: statistics.median(r[metric] for r in results)
               for metric in WORKLOADS[workload].metrics}}


def speedups(runs, workload):
    """Per thread count above the lowest, per framework: the workload's
    speed at that count over its speed at the lowest, paired by round.

    Returns {threads: {framework: {'median', 'lowest', 'highest',
    'slower_rounds', 'rounds'}}}.
    """
    metric, higher_is_better = WORKLOADS[workload].speed
    by_threads = runs[workload]
    base, *others = sorted(by_threads)
    result = {}
    for threads in others:
        result[threads] = {}
        for framework, results in by_threads[threads].items():
            ratios = [
                (more[metric] / one[metric]) if higher_is_better
                else (one[metric] / more[metric])
                for one, more in zip(by_threads[base][framework], results)]
            result[threads][framework] = {
                'median': statistics.median(ratios), 'lowest': min(ratios),
                'highest': max(ratios),
                'slower_rounds': sum(r < 1 for r in ratios),
                'rounds': len(ratios)}
    return result


def _verdict(met):
    return 'met' if met else 'missed'


def _columns(rows):
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ['  '.join(cell.rjust(width) if i else cell.ljust(width)
                      for i, (cell, width) in enumerate(zip(row, widths)))
            for row in rows]


def table(workload, by_threads, all_figures):
    """One workload's results as text: per thread count, the figures,
    then Kusari's standing against its targets (those against another
    workload where ``all_figures``, by workload, holds it)."""
    spec = WORKLOADS[workload]
    any_count = next(iter(by_threads.values()))
    shown = list(any_count)
    ratios = [(other, limit, kind) for other, limit, kind in spec.ratios
              if 'kusari' in any_count and other in any_count]
    sign = '>=' if spec.higher_is_better else '<='
    header = [f'{workload}: {spec.unit}', 'threads'] + [
        LABELS[f] for f in shown] + [
        f'Kusari/{LABELS[other]} ({kind} {sign} {limit:g})'
        for other, limit, kind in ratios]
    rows = [header]
    for metric, label in spec.metrics.items():
        for threads, figures in by_threads.items():
            row = [label, str(threads)] + [
                f'{figures[f][metric]:.2f}' for f in shown]
            for other, limit, _ in ratios:
                ratio = figures['kusari'][metric] / figures[other][metric]
                met = ratio >= limit if spec.higher_is_better \
                    else ratio <= limit
                row.append(f'{ratio:.2f} {_verdict(met)}')
            rows.append(row)
    lines = _columns(rows)
    for other, framework, limit, kind in spec.versus:
        if 'kusari' not in any_count:
            break
        if framework not in next(iter(
                all_figures.get(other, {0: {}}).values())):
            lines.append(f'(against {LABELS[framework]} on {other}: not run)')
            continue
        metric = spec.speed[0]
        for threads, own in by_threads.items():
            ratio = own['kusari'][metric] / \
                all_figures[other][threads][framework][metric]
            met = ratio >= limit if spec.higher_is_better else ratio <= limit
            lines.append(
                f'Kusari {spec.metrics[metric]} / {LABELS[framework]} '
                f'{other}, {threads} thread(s): {ratio:.2f} ({kind} {sign} '
                f'{limit:g}) {_verdict(met)}')
    if spec.ceiling and 'kusari' in any_count:
        metric, limit = spec.ceiling
        for threads, figures in by_threads.items():
            figure = figures['kusari'][metric]
            lines.append(f'Kusari {spec.metrics[metric]}, {threads} '
                         f'thread(s): {figure:.2f} (target <= {limit:g}) '
                         f'{_verdict(figure <= limit)}')
    versions = ', '.join(f'{LABELS[f]}: {any_count[f]["measured"]}'
                         for f in shown)
    return '\n'.join(lines + [f'({versions}; median of rounds)'])


def scaling_table(scaling):
    """The speed-ups on more threads of every workload, as text; and
    Kusari's cliffs, as (workload, threads, median speed-up)."""
    frameworks = list(dict.fromkeys(
        f for by_threads in scaling.values() for by_framework in
        by_threads.values() for f in by_framework))
    rows = [['speed-up', 'threads'] + [LABELS[f] for f in frameworks]]
    cliffs = []
    for workload, by_threads in scaling.items():
        for threads, by_framework in by_threads.items():
            row = [workload, str(threads)]
            for framework in frameworks:
                if framework not in by_framework:
                    row.append('-')
                    continue
                s = by_framework[framework]
                cliff = s['median'] < CLIFF
                if cliff and framework == 'kusari':
                    cliffs.append((workload, threads, s['median']))
                row.append(f'{s["median"]:.2f} ({s["lowest"]:.2f}-'
                           f'{s["highest"]:.2f}){" CLIFF" if cliff else ""}')
            rows.append(row)
    return '\n'.join(_columns(rows)), cliffs


def core_count():
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _thread_counts(text):
    counts = sorted({int(n) for n in text.split(',')})
    if counts[0] < 1:
        raise ValueError(text)
    return counts


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
    cores = core_count()
    parser.add_argument('--threads', type=_thread_counts,
                        default=sorted({1, cores}), metavar='N,...',
                        help='comma-separated thread counts (default: 1 '
                        f'and the cores of this machine, {cores})')
    parser.add_argument('--quick', action='store_true',
                        help='fewer, shorter rounds inside each run')
    parser.add_argument('--json', metavar='FILE',
                        help='also write the figures to FILE as JSON')
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
    runs, loads = measure(workloads, pythons, args.threads, args.rounds,
                          args.quick)
    figures = {w: {n: {f: medians(results, w)
                       for f, results in by_framework.items()}
                   for n, by_framework in runs[w].items()}
               for w in workloads}
    print('\n\n'.join(table(w, figures[w], figures) for w in workloads))
    load = (f'{min(loads):.2f}-{max(loads):.2f}' if loads else 'unknown')
    print(f'\n(threads {", ".join(map(str, args.threads))}; this machine '
          f'has {cores} cores; 1-minute load average during the runs: '
          f'{load})')
    scaling = {w: speedups(runs, w) for w in workloads}
    cliffs = []
    if len(args.threads) > 1:
        text, cliffs = scaling_table(scaling)
        print(f'\nSpeed on more threads over speed on {args.threads[0]}, '
              f'paired by round: median (range); below {CLIFF:g} is a '
              f'cliff\n{text}')
        print(_scaling_verdict(cliffs, loads, cores))
    if args.json:
        Path(args.json).write_text(json.dumps(
            {'threads': args.threads, 'load': loads, 'figures': figures,
             'speedups': scaling}, indent=2) + '\n')
    return 1 if cliffs else 0


def _scaling_verdict(cliffs, loads, cores):
    if not cliffs:
        return 'Verdict: no thread cliff: no Kusari workload is slower on ' \
            'more threads.'
    listed = ', '.join(f'{w} at {n} threads ({s:.2f}x)'
                       for w, n, s in cliffs)
    verdict = f'Verdict: THREAD CLIFF: Kusari is slower on more threads ' \
        f'than on one: {listed}.'
    if loads and max(loads) > cores:
        verdict += (f' The machine was busy (load up to {max(loads):.2f} on '
                    f'{cores} cores): threads that wait for a core slow '
                    f'every BLAS call, so confirm on an idle machine.')
    return verdict


def _load():
    """The 1, 5 and 15 minute load averages, where the OS tells them."""
    try:
        return os.getloadavg()
    except (AttributeError, OSError):
        return (None,) * 3


if __name__ == '__main__':
    sys.exit(main())
