"""Training runs that snapshot every few iterations and resume from the
latest snapshot when started again (run by test_resume.py, which kills
them).

Usage: python _resume_training.py OUT_DIR ITERATIONS SNAPSHOT_EVERY
       python _resume_training.py OUT_DIR noisy
The first is :func:`build`'s run, the second :func:`build_noisy`'s. Each
prints every finished iteration; at the end it saves the whole trainer to
OUT_DIR/final.npz.
"""
import os
import sys
import time

import numpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _trainer_helpers as helpers  # NOQA: E402
from kusari.autograd import functions as F  # NOQA: E402
from kusari.datasets import iterators  # NOQA: E402
from kusari.links import Chain, Classifier  # NOQA: E402
from kusari.serializers import save_npz  # NOQA: E402
from kusari.training import StandardUpdater, Trainer  # NOQA: E402
from kusari.training import extensions, optimizers, triggers  # NOQA: E402


def order_sampler(order, position):
    """A shuffle that depends only on the previous order, so that the
    order of every epoch is restored by the iterator's own snapshot."""
    seed = int.from_bytes(numpy.asarray(order).tobytes()[:8], 'little')
    return numpy.random.RandomState(seed % 2 ** 32).permutation(len(order))


def build(out, iterations, every):
    model = Classifier(helpers.MLP(n_hidden=16))
    optimizer = optimizers.Adam(alpha=0.01)
    optimizer.setup(model)
    iterator = iterators.SerialIterator(helpers.dataset(40), 6,
                                        order_sampler=order_sampler)
    trainer = Trainer(StandardUpdater(iterator, optimizer),
                      (iterations, 'iteration'), out=out)
    trainer.extend(extensions.LogReport(trigger=(7, 'iteration')))
    trainer.extend(extensions.ExponentialShift('alpha', 0.9),
                   trigger=(25, 'iteration'))
    trainer.extend(extensions.MicroAverage(
        'main/accuracy', 'main/sum_y', 'main/ratio'))
    trainer.extend(extensions.snapshot_object(model, 'best'),
                   trigger=triggers.MaxValueTrigger('main/accuracy',
                                                    (10, 'iteration')))
    trainer.extend(extensions.snapshot(autoload=True, n_retains=2),
                   trigger=(every, 'iteration'))
    trainer.extend(_progress, name='progress')
    return trainer


class DropoutMLP(Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = helpers.Linear(4, 16, seed=0)
            self.l2 = helpers.Linear(16, 3, seed=1)

    def forward(self, x):
        return self.l2(F.dropout(F.relu(self.l1(x)), 0.3))


def build_noisy(out, stop_trigger=(3, 'epoch'),
                iterator_class=iterators.SerialIterator, device=None):
    """Three epochs of 7.5 iterations, shuffled by NumPy's global
    generator, through dropout, with a snapshot every iteration: exact
    resumption needs the state of the generator in the snapshot. Seed with
    ``CHAINER_SEED``."""
    model = Classifier(DropoutMLP())
    optimizer = optimizers.MomentumSGD(lr=0.05)
    optimizer.setup(model)
    iterator = iterator_class(helpers.dataset(60), 8)
    trainer = Trainer(StandardUpdater(iterator, optimizer, device=device),
                      stop_trigger, out=out)
    trainer.extend(extensions.LogReport(trigger=(3, 'iteration')))
    trainer.extend(extensions.snapshot(autoload=True, n_retains=2),
                   trigger=(1, 'iteration'))
    trainer.extend(_progress, name='progress')
    return trainer


def _progress(trainer):
    print(trainer.updater.iteration, flush=True)
    time.sleep(float(os.environ.get('RESUME_TEST_DELAY', '0')))


def main():
    out = sys.argv[1]
    if sys.argv[2] == 'noisy':
        trainer = build_noisy(out)
    else:
        trainer = build(out, int(sys.argv[2]), int(sys.argv[3]))
    trainer.run()
    save_npz(os.path.join(out, 'final.npz'), trainer)


if __name__ == '__main__':
    main()
