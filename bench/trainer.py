"""The Trainer's overhead over a hand-written loop, on mlp.py's workload.

The same MLP, Adam and loss are trained on random in-memory data (a
TupleDataset) for the same number of iterations, either through Trainer +
StandardUpdater + SerialIterator or by a loop that shuffles the indices
and slices the arrays itself.  Chunks of the two alternate (ABBA), so a
change in the machine's load touches both alike; the overhead is the
median over pairs of (trainer time / loop time - 1), in per cent.
"""
import shutil
import statistics
import tempfile
import time

import chainer
import numpy

from _workload import (MLP_BATCH, MLP_UNITS, chainer_measured,
                       classification_batch, parse_quick, report)
from mlp import setup

EXAMPLES = 60 * MLP_BATCH
PAIRS, QUICK_PAIRS = 6, 2
CHUNK_SECONDS, QUICK_CHUNK_SECONDS = 0.5, 0.2


def main():
    quick = parse_quick(__doc__.split('\n')[0])
    model, optimizer, loss_of = setup()
    x_all, t_all = classification_batch(EXAMPLES, MLP_UNITS[:1])
    dataset = chainer.datasets.TupleDataset(x_all, t_all)
    rng = numpy.random.default_rng(0)
    out = tempfile.mkdtemp(prefix='kusari-bench-trainer-')

    def hand_written(iterations):
        order, position = rng.permutation(EXAMPLES), 0
        for _ in range(iterations):
            if position == EXAMPLES:
                order, position = rng.permutation(EXAMPLES), 0
            batch = order[position:position + MLP_BATCH]
            position += MLP_BATCH
            loss = loss_of(x_all[batch], t_all[batch])
            model.cleargrads()
            loss.backward()
            optimizer.update()

    def through_trainer(iterations):
        iterator = chainer.iterators.SerialIterator(dataset, MLP_BATCH)
        updater = chainer.training.updaters.StandardUpdater(
            iterator, optimizer, loss_func=loss_of)
        chainer.training.Trainer(
            updater, (iterations, 'iteration'), out=out).run()

    def seconds(loop, iterations):
        start = time.perf_counter()
        loop(iterations)
        return time.perf_counter() - start

    try:
        hand_written(2)  # Adam's states, caches, lazy imports
        through_trainer(2)
        chunk = QUICK_CHUNK_SECONDS if quick else CHUNK_SECONDS
        iterations = max(2, round(chunk / seconds(hand_written, 2) * 2))
        overheads, loops, trainers = [], [], []
        for pair in range(QUICK_PAIRS if quick else PAIRS):
            loops_first = pair % 2 == 0
            order = ((hand_written, through_trainer) if loops_first
                     else (through_trainer, hand_written))
            timed = {loop: seconds(loop, iterations) for loop in order}
            loops.append(iterations / timed[hand_written])
            trainers.append(iterations / timed[through_trainer])
            overheads.append(timed[through_trainer] / timed[hand_written]
                             - 1)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    report(chainer_measured(chainer), 'trainer',
           overhead_percent=100 * statistics.median(overheads),
           loop_iterations_per_s=statistics.median(loops),
           trainer_iterations_per_s=statistics.median(trainers))


if __name__ == '__main__':
    main()
