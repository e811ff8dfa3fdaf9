"""MNIST with Trainer: a multi-layer perceptron classifies digits.

The training loop is Chainer's Trainer: a StandardUpdater steps the
optimizer, Evaluator measures the test set after every epoch, LogReport and
PrintReport show the progress, and a snapshot of the whole trainer is
written at the end (resume from it with ``--resume``).

    python examples/mnist/train_mnist_trainer.py            # real MNIST
    python examples/mnist/train_mnist_trainer.py --smoke    # a few seconds

MNIST comes from ``chainer.datasets.get_mnist``, which downloads it into
the dataset root (``--dataset-root``, else ``CHAINER_DATASET_ROOT``, else
``~/.chainer/dataset``) the first time; offline, point ``--dataset-root``
at a root that holds it already.
"""
import argparse

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions


class MLP(chainer.Chain):
    """Three fully connected layers with ReLU between them."""

    def __init__(self, n_units, n_out):
        super().__init__()
        with self.init_scope():
            # None: the input size is taken from the first batch.
            self.l1 = L.Linear(None, n_units)
            self.l2 = L.Linear(None, n_units)
            self.l3 = L.Linear(None, n_out)

    def forward(self, x):
        h1 = F.relu(self.l1(x))
        h2 = F.relu(self.l2(h1))
        return self.l3(h2)


def smoke_datasets(n_train=256, n_test=64, size=784, n_class=10):
    """Generated stand-ins for MNIST: per-class patterns plus noise.

    Like ``get_mnist()`` they are TupleDatasets of float32 vectors in
    [0, 1] and int32 labels, so the rest of the program does not change.
    """
    rng = np.random.default_rng(0)
    patterns = rng.random((n_class, size), dtype=np.float32)

    def make(n):
        labels = rng.integers(0, n_class, n).astype(np.int32)
        noise = rng.random((n, size), dtype=np.float32)
        images = 0.7 * patterns[labels] + 0.3 * noise
        return chainer.datasets.TupleDataset(images, labels)

    return make(n_train), make(n_test)


def load_datasets(args):
    """The training and test sets the arguments ask for."""
    if args.smoke:
        return smoke_datasets()
    if args.dataset_root:
        chainer.dataset.set_dataset_root(args.dataset_root)
    return chainer.datasets.get_mnist()


def make_parser(description):
    """The arguments both MNIST programs take."""
    parser = argparse.ArgumentParser(
        description=description.split('\n\n')[0])
    parser.add_argument('--batchsize', '-b', type=int, default=100,
                        help='examples in each mini-batch')
    parser.add_argument('--epoch', '-e', type=int, default=20,
                        help='sweeps over the training set')
    parser.add_argument('--unit', '-u', type=int, default=1000,
                        help='units in each hidden layer')
    parser.add_argument('--device', '-d', type=int, default=-1,
                        help='-1 for the CPU, N >= 0 for GPU N (CuPy)')
    parser.add_argument('--out', '-o', default='result',
                        help='directory of the log and snapshots')
    parser.add_argument('--dataset-root',
                        help='where datasets are downloaded and cached')
    parser.add_argument('--smoke', action='store_true',
                        help='tiny generated data and model; seconds')
    return parser


def parse_args(parser):
    """The parsed arguments; ``--smoke`` shrinks the model and the run."""
    args = parser.parse_args()
    if args.epoch < 1:
        parser.error(f'--epoch must be at least 1, got {args.epoch}')
    if args.smoke:
        args.epoch, args.unit = min(args.epoch, 2), 50
    return args


def setup(args):
    """The device, the classifier on it, its optimizer, and iterators
    over the training set (repeating) and the test set (one pass)."""
    device = chainer.get_device(args.device)
    train, test = load_datasets(args)
    model = L.Classifier(MLP(args.unit, 10))
    model.to_device(device)
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(
        test, args.batchsize, repeat=False, shuffle=False)
    return device, model, optimizer, train_iter, test_iter


def main():
    parser = make_parser(__doc__)
    parser.add_argument('--resume', '-r',
                        help='trainer snapshot to resume from')
    args = parse_args(parser)
    device, model, optimizer, train_iter, test_iter = setup(args)
    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)

    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
    trainer.extend(extensions.snapshot(), trigger=(args.epoch, 'epoch'))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss',
         'main/accuracy', 'validation/main/accuracy', 'elapsed_time']))
    if args.resume:
        chainer.serializers.load_npz(args.resume, trainer)
    trainer.run()

    last = trainer.get_extension('LogReport').log[-1]
    print(f'final loss: {last["main/loss"]:.4f} (validation '
          f'{last["validation/main/loss"]:.4f}, accuracy '
          f'{last["validation/main/accuracy"]:.4f})')


if __name__ == '__main__':
    main()
