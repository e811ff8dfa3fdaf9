"""The MLP workload on two MPI processes against one process: samples/s,
and the share of the step spent averaging the gradients.

mlp.py's model, loss and Adam; each process trains on its own batch of
``MLP_BATCH`` (so two processes do twice the samples per step), its
optimizer wrapped by ``chainermn.create_multi_node_optimizer`` (the naive
communicator: one allreduce of all 1.8 M gradients per step). Every
process, and the single one, runs one BLAS thread. Rounds alternate the
single process and the two-process job, so load on the machine touches
both alike::

    python bench/mlp_mpi.py [--quick] [--rounds N]

prints one JSON line: the medians of samples/s of each, their ratio, and
the share of the two-process step spent in ``multi_node_mean_grad``
(which includes waiting for the slower process).
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
ONE_THREAD = dict.fromkeys(
    ('OMP_NUM_THREADS', 'MKL_NUM_THREADS', 'OPENBLAS_NUM_THREADS'), '1')


def worker(quick, distributed):
    """Time training steps; print samples/s (and the allreduce share)."""
    import chainer
    import mlp

    model, optimizer, loss_of = mlp.setup()
    rounds, seconds = ((QUICK_ROUNDS, QUICK_ROUND_SECONDS) if quick
                       else (ROUNDS, ROUND_SECONDS))
    in_mean_grad = [0.0]
    size, rank, comm = 1, 0, None
    if distributed:
        import chainermn
        comm = chainermn.create_communicator('naive')
        size, rank = comm.size, comm.rank
        mean_grad = comm.multi_node_mean_grad

        def timed_mean_grad(*args, **kwargs):
            start = time.perf_counter()
            mean_grad(*args, **kwargs)
            in_mean_grad[0] += time.perf_counter() - start

        comm.multi_node_mean_grad = timed_mean_grad
        optimizer = chainermn.create_multi_node_optimizer(
            chainer.optimizers.Adam(), comm)
        optimizer.setup(model)
    x, t = classification_batch(MLP_BATCH, MLP_UNITS[:1])

    def steps(count):
        start = time.perf_counter()
        for _ in range(count):
            loss = loss_of(x, t)
            model.cleargrads()
            loss.backward()
            optimizer.update()
        return time.perf_counter() - start

    steps(2)
    reps = max(1, round(seconds / steps(1)))
    if comm is not None:  # every process must run as many steps
        reps = comm.bcast_obj(reps)
    rates, shares = [], []
    for _ in range(rounds):
        if comm is not None:
            comm.allgather_obj(None)
        in_mean_grad[0] = 0.0
        elapsed = steps(reps)
        rates.append(size * MLP_BATCH * reps / elapsed)
        shares.append(in_mean_grad[0] / elapsed)
    if rank == 0:
        print(json.dumps({'processes': size,
                          'samples_per_s': statistics.median(rates),
                          'allreduce_share': statistics.median(shares)}))


def _run(command):
    env = dict(os.environ, **ONE_THREAD)
    done = subprocess.run(command, capture_output=True, text=True, env=env,
                          cwd=HERE, timeout=600)
    if done.returncode:
        sys.exit(f'{" ".join(map(str, command))} failed:\n{done.stderr}')
    return json.loads(done.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--quick', action='store_true')
    parser.add_argument('--rounds', type=int, default=3,
                        help='alternations of the two runs')
    parser.add_argument('--worker', choices=('single', 'mpi'),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.quick, args.worker == 'mpi')
        return
    script = [str(Path(__file__).resolve())] + (
        ['--quick'] if args.quick else [])
    mpiexec = Path(sys.executable).parent / 'mpiexec'
    single, double = [], []
    for _ in range(1 if args.quick else args.rounds):
        single.append(_run([sys.executable, *script, '--worker',
                            'single']))
        double.append(_run([str(mpiexec), '-n', '2', sys.executable,
                            *script, '--worker', 'mpi']))
    one = statistics.median(r['samples_per_s'] for r in single)
    two = statistics.median(r['samples_per_s'] for r in double)
    import chainer
    report(chainer_measured(chainer), 'mlp_mpi',
           one_process_samples_per_s=one, two_processes_samples_per_s=two,
           speedup=two / one,
           allreduce_share=statistics.median(
               r['allreduce_share'] for r in double),
           load_average=os.getloadavg()[0])


if __name__ == '__main__':
    main()
