"""The MLP workload on two MPI processes against one process: samples/s,
and the share of the step spent waiting for the averaged gradients.

mlp.py's model, loss and Adam; each process trains on its own batch of
``MLP_BATCH`` (so two processes do twice the samples per step), its
optimizer wrapped by ``chainermn.create_multi_node_optimizer`` (the naive
communicator), once averaging during backward (the default: each
bucket of layers is reduced as soon as its gradients are final) and once
after it (``overlap=False``: one allreduce of all 1.8 M gradients packed
into one buffer). Two more two-process jobs measure what the machine
allows: the two processes training apart (no multi-node optimizer: the
ceiling that memory bandwidth and caches leave), and through the dummy
communicator (the multi-node optimizer packing the gradients, no data
moved). Every process, and the single one, runs one BLAS thread. Rounds
alternate the five jobs, so load on the machine touches all alike::

    python bench/mlp_mpi.py [--quick] [--rounds N]

prints one JSON line: the medians of samples/s of each, their ratios to
the single process, the averaging jobs' ratios to the processes training
apart, the share of the two-process step spent in the multi-node
optimizer's update beyond the wrapped optimizer's (waiting for the
averaging), the milliseconds of each job's step by phase (forward and
backward, averaging, Adam: where two processes share the memory bus, the
first and the last grow even with nothing averaged), and the 1-minute load
average before each round.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _workload import (MLP_BATCH, MLP_UNITS, QUICK_ROUND_SECONDS,
                       QUICK_ROUNDS, ROUND_SECONDS, ROUNDS, chainer_measured,
                       classification_batch, report)

HERE = Path(__file__).resolve().parent
# The jobs, in the order each round runs them: one process; two training
# apart; two through the dummy communicator; two averaging during
# backward; two averaging after it.
MODES = ('single', 'apart', 'dummy', 'overlap', 'blocking')
PHASES = ('forward_backward', 'averaging', 'adam')
ONE_THREAD = dict.fromkeys(
    ('OMP_NUM_THREADS', 'MKL_NUM_THREADS', 'OPENBLAS_NUM_THREADS'), '1')


def worker(quick, mode):
    """Time training steps; print samples/s (and the averaging share).
    ``mode``: one of :data:`MODES`."""
    import chainer
    import mlp

    model, optimizer, loss_of = mlp.setup()
    rounds, seconds = ((QUICK_ROUNDS, QUICK_ROUND_SECONDS) if quick
                       else (ROUNDS, ROUND_SECONDS))
    # Seconds spent in each phase of the steps of a round: forward and
    # backward; the optimizer's update beyond Adam's (the wait for the
    # averaged gradients); Adam's update itself.
    spent = dict.fromkeys(PHASES, 0.0)
    size, rank, comm = 1, 0, None
    if mode != 'single':
        import chainermn
        comm = chainermn.create_communicator(
            'dummy' if mode == 'dummy' else 'naive')
        size, rank = comm.size, comm.rank
    comm_optimizer = mode not in ('single', 'apart')
    if comm_optimizer:
        optimizer = chainermn.create_multi_node_optimizer(
            chainer.optimizers.Adam(), comm, overlap=mode != 'blocking')
        optimizer.setup(model)
        actual_update = optimizer.actual_optimizer.update

        def timed_actual_update(*args, **kwargs):
            start = time.perf_counter()
            actual_update(*args, **kwargs)
            adam = time.perf_counter() - start
            spent['adam'] += adam
            spent['averaging'] -= adam

        # (Set on the wrapped optimizer: the multi-node one calls it.)
        optimizer.actual_optimizer.update = timed_actual_update
    x, t = classification_batch(MLP_BATCH, MLP_UNITS[:1])

    def steps(count):
        start = time.perf_counter()
        for _ in range(count):
            before = time.perf_counter()
            loss = loss_of(x, t)
            model.cleargrads()
            loss.backward()
            between = time.perf_counter()
            optimizer.update()
            after = time.perf_counter()
            spent['forward_backward'] += between - before
            # (Adam's own share moves to 'adam' where it is timed apart.)
            spent['averaging' if comm_optimizer else 'adam'] += \
                after - between
        return time.perf_counter() - start

    steps(2)
    reps = max(1, round(seconds / steps(1)))
    if comm is not None:  # every process must run as many steps
        reps = comm.bcast_obj(reps)
    rates, shares, phases = [], [], []
    for _ in range(rounds):
        if comm is not None:
            comm.allgather_obj(None)
        spent.update(dict.fromkeys(PHASES, 0.0))
        elapsed = steps(reps)
        rates.append(size * MLP_BATCH * reps / elapsed)
        shares.append(spent['averaging'] / elapsed)
        phases.append({phase: 1e3 * total / reps
                       for phase, total in spent.items()})
    if rank == 0:
        print(json.dumps({
            'processes': size,
            'samples_per_s': statistics.median(rates),
            'allreduce_share': statistics.median(shares),
            'step_ms': {phase: statistics.median(p[phase] for p in phases)
                        for phase in PHASES}}))


def _run(command):
    env = dict(os.environ, **ONE_THREAD)
    load = os.getloadavg()[0]
    done = subprocess.run(command, capture_output=True, text=True, env=env,
                          cwd=HERE, timeout=600)
    if done.returncode:
        sys.exit(f'{" ".join(map(str, command))} failed:\n{done.stderr}')
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result['load_average'] = load
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--quick', action='store_true')
    parser.add_argument('--rounds', type=int, default=3,
                        help='alternations of the five jobs')
    parser.add_argument('--worker', choices=MODES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.quick, args.worker)
        return
    script = [str(Path(__file__).resolve())] + (
        ['--quick'] if args.quick else [])
    mpiexec = Path(sys.executable).parent / 'mpiexec'
    runs = {mode: [] for mode in MODES}
    for _ in range(1 if args.quick else args.rounds):
        for mode, results in runs.items():
            launcher = [] if mode == 'single' else [str(mpiexec), '-n', '2']
            results.append(_run([*launcher, sys.executable, *script,
                                 '--worker', mode]))

    def median(mode, key='samples_per_s'):
        return statistics.median(r[key] for r in runs[mode])

    one, apart, dummy, overlap, blocking = map(median, MODES)
    import chainer
    report(chainer_measured(chainer), 'mlp_mpi',
           one_process_samples_per_s=one,
           two_processes_samples_per_s=overlap,
           speedup=overlap / one,
           of_apart=overlap / apart,
           allreduce_share=median('overlap', 'allreduce_share'),
           two_processes_blocking_samples_per_s=blocking,
           speedup_blocking=blocking / one,
           of_apart_blocking=blocking / apart,
           allreduce_share_blocking=median('blocking', 'allreduce_share'),
           two_processes_apart_samples_per_s=apart,
           speedup_apart=apart / one,
           two_processes_dummy_samples_per_s=dummy,
           speedup_dummy=dummy / one,
           share_dummy=median('dummy', 'allreduce_share'),
           step_ms={mode: {phase: round(statistics.median(
               r['step_ms'][phase] for r in results), 2)
               for phase in PHASES} for mode, results in runs.items()},
           rounds=[{mode: (round(results[i]['samples_per_s']),
                           round(results[i]['load_average'], 2))
                    for mode, results in runs.items()}
                   for i in range(len(runs['single']))])


if __name__ == '__main__':
    main()
