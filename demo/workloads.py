"""The demo's training runs: a classifier learns a real data set through
Trainer with an Evaluator, a log, a printed report, plots and a snapshot.

Each workload is one :class:`Workload` record (how to load its data, its
network, how long to train); :func:`run` is the same for all of them. Both
train with Adam: the glance program's plain SGD needs more than its 50
epochs to pass 99 % on the mushrooms.
"""
from collections.abc import Callable
import dataclasses
import gzip
import time
from pathlib import Path

import numpy as np

import chainer
from chainer import datasets
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions

DATA = Path(__file__).resolve().parents[1] / 'data'
TRAIN_FRACTION = .7


@dataclasses.dataclass(frozen=True)
class Workload:
    """A data set, a network for it, and how to train it."""

    name: str
    description: str
    load: Callable          # () -> TupleDataset of (features, label)
    predictor: Callable     # () -> the network, a Link
    lossfun: Callable
    accfun: Callable
    epochs: int
    batchsize: int
    min_accuracy: float     # on the validation split, after the last epoch


@dataclasses.dataclass(frozen=True)
class Result:
    """What a run reached and where it wrote its files."""

    accuracy: float
    seconds: float
    log: Path
    plots: tuple
    snapshot: Path


def load_mushrooms():
    """The UCI mushrooms table as "Chainer at a Glance" reads it: every
    column's categories become integer codes; the class code is 1 for
    poisonous."""
    table = np.genfromtxt(DATA / 'mushrooms.csv', delimiter=',', dtype=str,
                          skip_header=1)
    codes = np.stack([np.unique(column, return_inverse=True)[1]
                      for column in table.T], axis=1)
    return datasets.TupleDataset(codes[:, 1:].astype(np.float32),
                                 codes[:, :1].astype(np.int32))


def load_digits():
    """The UCI handwritten digits: one-channel 8x8 images of counts 0..16,
    scaled to [0, 1], with labels 0-9."""
    with gzip.open(DATA / 'digits.csv.gz', 'rt') as file:
        table = np.loadtxt(file, delimiter=',', dtype=np.float32)
    images = table[:, :-1].reshape(-1, 1, 8, 8) / 16
    return datasets.TupleDataset(images, table[:, -1].astype(np.int32))


def glance_mlp():
    """The network of "Chainer at a Glance": two hidden layers of 44 ReLU
    units and one output, the logit of "poisonous"."""
    model = chainer.Sequential(L.Linear(44), F.relu).repeat(2)
    model.append(L.Linear(1))
    return model


def digits_lenet():
    """A LeNet for 8x8 images: two 3x3 convolutions, each followed by ReLU
    and 2x2 max pooling, then a linear layer to ten class scores."""
    def pool(x):
        return F.max_pooling_2d(x, 2)

    return chainer.Sequential(
        L.Convolution2D(1, 16, 3, pad=1), F.relu, pool,
        L.Convolution2D(16, 32, 3, pad=1), F.relu, pool,
        L.Linear(10))


WORKLOADS = (
    Workload('mushrooms', 'the "Chainer at a Glance" MLP on the UCI '
             'mushrooms table (edible or poisonous)',
             load_mushrooms, glance_mlp, F.sigmoid_cross_entropy,
             F.binary_accuracy, epochs=20, batchsize=100,
             min_accuracy=.99),
    Workload('digits', 'a LeNet on the UCI handwritten digits (8x8 images, '
             'ten classes)',
             load_digits, digits_lenet, F.softmax_cross_entropy, F.accuracy,
             epochs=30, batchsize=32, min_accuracy=.95),
)


def run(workload, out, seed=0):
    """Train ``workload`` with its results under ``out``; return a
    :class:`Result`. ``seed`` fixes the split, the initial weights and the
    order of the batches."""
    out = Path(out)
    np.random.seed(seed)
    dataset = workload.load()
    train, test = datasets.split_dataset_random(
        dataset, int(len(dataset) * TRAIN_FRACTION), seed=seed)
    model = L.Classifier(workload.predictor(), lossfun=workload.lossfun,
                         accfun=workload.accfun)
    optimizer = chainer.optimizers.Adam().setup(model)
    train_iter = chainer.iterators.SerialIterator(train, workload.batchsize)
    test_iter = chainer.iterators.SerialIterator(
        test, len(test), repeat=False, shuffle=False)
    updater = training.StandardUpdater(train_iter, optimizer)
    trainer = training.Trainer(updater, (workload.epochs, 'epoch'), out=out)
    trainer.extend(extensions.Evaluator(test_iter, model))
    trainer.extend(extensions.LogReport())
    plots = (out / 'loss.png', out / 'accuracy.png')
    for plot, key in zip(plots, ('loss', 'accuracy')):
        trainer.extend(extensions.PlotReport(
            [f'main/{key}', f'validation/main/{key}'], 'epoch',
            file_name=plot.name))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss', 'main/accuracy',
         'validation/main/accuracy', 'elapsed_time']))
    snapshot = out / f'snapshot_epoch_{workload.epochs}'
    trainer.extend(extensions.snapshot(filename=snapshot.name),
                   trigger=(workload.epochs, 'epoch'))
    start = time.perf_counter()
    trainer.run()
    seconds = time.perf_counter() - start
    accuracy = trainer.observation['validation/main/accuracy']
    return Result(float(accuracy), seconds, out / 'log', plots, snapshot)
