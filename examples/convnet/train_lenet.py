"""LeNet-5 on handwritten digits: a small convolutional network.

Two convolution + max-pooling stages and three fully connected layers
(LeCun et al., 1998), trained with Trainer. The first convolution pads its
input by two pixels, so the network takes 28x28 MNIST digits and the 8x8
digits bundled in data/ alike.

    python examples/convnet/train_lenet.py             # MNIST (downloads)
    python examples/convnet/train_lenet.py --digits    # data/digits.csv.gz
    python examples/convnet/train_lenet.py --smoke     # a few seconds

``--digits`` needs no network: 1,797 8x8 images of the UCI handwritten
digits (see data/README.md), 80 % for training and 20 % for validation.
"""
import argparse
import os

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions

DIGITS = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      os.pardir, os.pardir, 'data', 'digits.csv.gz')


class LeNet5(chainer.Chain):
    """conv-pool, conv-pool, then 120, 84 and n_out fully connected units."""

    def __init__(self, n_out=10):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(1, 6, ksize=5, pad=2)
            self.conv2 = L.Convolution2D(6, 16, ksize=5, pad=2)
            self.fc3 = L.Linear(None, 120)
            self.fc4 = L.Linear(120, 84)
            self.fc5 = L.Linear(84, n_out)

    def forward(self, x):
        h = F.max_pooling_2d(F.relu(self.conv1(x)), 2, 2)
        h = F.max_pooling_2d(F.relu(self.conv2(h)), 2, 2)
        h = F.relu(self.fc3(h))
        h = F.relu(self.fc4(h))
        return self.fc5(h)


def digits_datasets(path=DIGITS, train_fraction=0.8):
    """The bundled 8x8 digits, split at random (seed 0) for validation."""
    table = np.loadtxt(path, delimiter=',', dtype=np.float32)
    images = (table[:, :64] / 16).reshape(-1, 1, 8, 8)
    labels = table[:, 64].astype(np.int32)
    dataset = chainer.datasets.TupleDataset(images, labels)
    return chainer.datasets.split_dataset_random(
        dataset, int(len(dataset) * train_fraction), seed=0)


def smoke_datasets(n=160):
    """Generated 8x8 images: class k is a bright bar in row k, column k-4."""
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 8, n).astype(np.int32)
    images = 0.2 * rng.random((n, 1, 8, 8), dtype=np.float32)
    for i, label in enumerate(labels):
        if label < 4:
            images[i, 0, 2 * label:2 * label + 2, :] += 0.8
        else:
            images[i, 0, :, 2 * label - 8:2 * label - 6] += 0.8
    dataset = chainer.datasets.TupleDataset(images, labels)
    return chainer.datasets.split_dataset(dataset, n * 3 // 4)


def load_datasets(args):
    """Training and validation sets: generated, bundled, or MNIST."""
    if args.smoke:
        return smoke_datasets()
    if args.digits:
        return digits_datasets()
    if args.dataset_root:
        chainer.dataset.set_dataset_root(args.dataset_root)
    return chainer.datasets.get_mnist(ndim=3)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--batchsize', '-b', type=int, default=64,
                        help='images in each mini-batch')
    parser.add_argument('--epoch', '-e', type=int, default=10,
                        help='sweeps over the training set')
    parser.add_argument('--device', '-d', type=int, default=-1,
                        help='-1 for the CPU, N >= 0 for GPU N (CuPy)')
    parser.add_argument('--out', '-o', default='result',
                        help='directory of the log and the model')
    parser.add_argument('--dataset-root',
                        help='where MNIST is downloaded and cached')
    data = parser.add_mutually_exclusive_group()
    data.add_argument('--digits', action='store_true',
                      help='the bundled 8x8 digits instead of MNIST')
    data.add_argument('--smoke', action='store_true',
                      help='tiny generated data; seconds')
    args = parser.parse_args()
    if args.smoke:
        args.epoch = min(args.epoch, 2)

    device = chainer.get_device(args.device)
    train, validation = load_datasets(args)
    model = L.Classifier(LeNet5())
    model.to_device(device)
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    validation_iter = chainer.iterators.SerialIterator(
        validation, args.batchsize, repeat=False, shuffle=False)
    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    trainer.extend(extensions.Evaluator(validation_iter, model,
                                        device=device))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'main/accuracy', 'validation/main/loss',
         'validation/main/accuracy', 'elapsed_time']))
    trainer.extend(
        extensions.snapshot_object(model.predictor, 'lenet5.npz'),
        trigger=(args.epoch, 'epoch'))
    trainer.run()

    last = trainer.get_extension('LogReport').log[-1]
    print(f'final loss: {last["main/loss"]:.4f} (validation accuracy '
          f'{last["validation/main/accuracy"]:.4f})')


if __name__ == '__main__':
    main()
