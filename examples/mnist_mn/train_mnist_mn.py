# Chainer's MNIST example on several processes, modified as steps 1 and 2
# of the ChainerMN tutorial show: a communicator, a multi-node optimizer,
# the dataset scattered from rank 0, a multi-node evaluator, and the
# reporting extensions on rank 0 only. Run it with
#
#     mpiexec -n 2 python train_mnist_mn.py [--dataset-root DIR]
#
# get_mnist() downloads MNIST into the dataset root on first use; --smoke
# trains on a few hundred generated examples instead, in seconds. Where the
# processes outnumber the cores, give each one BLAS thread
# (OMP_NUM_THREADS=1), or their threads fight over the cores.
import argparse

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions

import chainermn


class MLP(chainer.Chain):

    def __init__(self, n_units, n_out):
        super(MLP, self).__init__()
        with self.init_scope():
            self.l1 = L.Linear(784, n_units)
            self.l2 = L.Linear(n_units, n_units)
            self.l3 = L.Linear(n_units, n_out)

    def forward(self, x):
        h1 = F.relu(self.l1(x))
        h2 = F.relu(self.l2(h1))
        return self.l3(h2)


def generated_mnist(n_train=600, n_test=200, seed=0):
    """MNIST-shaped examples whose label is the brightest of ten stripes,
    so that a few epochs learn them."""
    rng = np.random.RandomState(seed)

    def examples(n):
        labels = rng.randint(0, 10, n).astype(np.int32)
        images = rng.rand(n, 784).astype(np.float32) * 0.5
        for i, label in enumerate(labels):
            images[i, label * 78:(label + 1) * 78] += 0.5
        return chainer.datasets.TupleDataset(images, labels)

    return examples(n_train), examples(n_test)


def main():
    parser = argparse.ArgumentParser(description='ChainerMN example: MNIST')
    parser.add_argument('--batchsize', '-b', type=int, default=100)
    parser.add_argument('--communicator', default='naive')
    parser.add_argument('--epoch', '-e', type=int, default=20)
    parser.add_argument('--out', '-o', default='result')
    parser.add_argument('--unit', '-u', type=int, default=1000)
    parser.add_argument('--dataset-root',
                        help='where MNIST is (or is downloaded to)')
    parser.add_argument('--smoke', action='store_true',
                        help='a few epochs on generated data')
    args = parser.parse_args()
    if args.smoke:
        args.epoch, args.unit, args.batchsize = 3, 50, 20

    # Step 1: the communicator, and a multi-node optimizer.
    comm = chainermn.create_communicator(args.communicator)
    device = -1
    if comm.rank == 0:
        print('Num process (COMM_WORLD): {}'.format(comm.size))
        print('Num unit: {}'.format(args.unit))
        print('Num Minibatch-size: {}'.format(args.batchsize))
        print('Num epoch: {}'.format(args.epoch))

    model = L.Classifier(MLP(args.unit, 10))
    optimizer = chainermn.create_multi_node_optimizer(
        chainer.optimizers.Adam(), comm)
    optimizer.setup(model)

    # Step 2: rank 0 loads the dataset and scatters it.
    if comm.rank == 0:
        if args.smoke:
            train, test = generated_mnist()
        else:
            if args.dataset_root:
                chainer.dataset.set_dataset_root(args.dataset_root)
            train, test = chainer.datasets.get_mnist()
    else:
        train, test = None, None
    train = chainermn.scatter_dataset(train, comm, shuffle=True)
    test = chainermn.scatter_dataset(test, comm, shuffle=True)

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)

    updater = training.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)

    # A multi-node evaluator: the mean of every process's evaluation.
    evaluator = extensions.Evaluator(test_iter, model, device=device)
    evaluator = chainermn.create_multi_node_evaluator(evaluator, comm)
    trainer.extend(evaluator)

    # Reporting on rank 0 only.
    if comm.rank == 0:
        trainer.extend(extensions.LogReport())
        trainer.extend(extensions.PrintReport(
            ['epoch', 'main/loss', 'validation/main/loss',
             'main/accuracy', 'validation/main/accuracy', 'elapsed_time']))

    trainer.run()


if __name__ == '__main__':
    main()
