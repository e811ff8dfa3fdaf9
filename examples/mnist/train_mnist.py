# The "MNIST using Trainer" program of Chainer's documentation, as written
# there for the CPU (gpu_id = -1): an MLP on MNIST through Trainer and its
# extensions, then a prediction from the saved model. It runs unchanged on
# Kusari through ``import chainer``; get_mnist() downloads MNIST into the
# dataset root (CHAINER_DATASET_ROOT) on first use.
import numpy as np  # NOQA: F401 (the tutorial's common imports)
import chainer  # NOQA: F401
from chainer import iterators, optimizers, serializers, training
from chainer import Chain
import chainer.functions as F
import chainer.links as L
from chainer.training import extensions
from chainer.datasets import mnist

import matplotlib
matplotlib.use('Agg')

train, test = mnist.get_mnist()

batchsize = 128

train_iter = iterators.SerialIterator(train, batchsize)
test_iter = iterators.SerialIterator(test, batchsize, False, False)


class MLP(Chain):

    def __init__(self, n_mid_units=100, n_out=10):
        super(MLP, self).__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, n_mid_units)
            self.l2 = L.Linear(None, n_mid_units)
            self.l3 = L.Linear(None, n_out)

    def forward(self, x):
        h1 = F.relu(self.l1(x))
        h2 = F.relu(self.l2(h1))
        return self.l3(h2)


gpu_id = -1  # Set to -1 if you use CPU

model = MLP()
if gpu_id >= 0:
    model.to_gpu(gpu_id)

max_epoch = 10

model = L.Classifier(model)

optimizer = optimizers.MomentumSGD()

optimizer.setup(model)

updater = training.updaters.StandardUpdater(
    train_iter, optimizer, device=gpu_id)

trainer = training.Trainer(updater, (max_epoch, 'epoch'), out='mnist_result')

trainer.extend(extensions.LogReport())
trainer.extend(extensions.snapshot(
    filename='snapshot_epoch-{.updater.epoch}'))
trainer.extend(extensions.snapshot_object(
    model.predictor, filename='model_epoch-{.updater.epoch}'))
trainer.extend(extensions.Evaluator(test_iter, model, device=gpu_id))
trainer.extend(extensions.PrintReport(
    ['epoch', 'main/loss', 'main/accuracy', 'validation/main/loss',
     'validation/main/accuracy', 'elapsed_time']))
trainer.extend(extensions.PlotReport(
    ['main/loss', 'validation/main/loss'], x_key='epoch',
    file_name='loss.png'))
trainer.extend(extensions.PlotReport(
    ['main/accuracy', 'validation/main/accuracy'], x_key='epoch',
    file_name='accuracy.png'))
trainer.extend(extensions.DumpGraph('main/loss'))

trainer.run()

import matplotlib.pyplot as plt  # NOQA: E402

model = MLP()
serializers.load_npz('mnist_result/model_epoch-10', model)

# Show the output
x, t = test[0]
plt.imshow(x.reshape(28, 28), cmap='gray')
plt.show()
print('label:', t)

y = model(x[None, ...])

print('predicted_label:', y.array.argmax(axis=1)[0])
