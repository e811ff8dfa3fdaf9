"""DCGAN: a generator learns to draw CIFAR-10 images against a critic.

The generator turns a random vector into a 32x32 colour image through a
fully connected layer and three stride-2 deconvolutions with batch
normalization; the discriminator, convolutions with leaky ReLU, scores
images as real or generated (Radford et al., 2015). A custom updater
holds one optimizer for each network and makes one step of each per
iteration. Every epoch a grid of generated images is saved as a PNG in
``--out`` (this needs Pillow: ``pip install kusari-datasets[image]``).

    python examples/dcgan/train_dcgan.py            # CIFAR-10 (downloads)
    python examples/dcgan/train_dcgan.py --smoke    # a few seconds
"""
import argparse
import os

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions


def add_noise(h, sigma=0.2):
    """``h`` plus Gaussian noise in training, ``h`` itself otherwise.

    The noise keeps the discriminator from becoming sure too early.
    """
    if not chainer.config.train:
        return h
    xp = chainer.backend.get_array_module(h)
    return h + sigma * xp.random.standard_normal(h.shape).astype(h.dtype)


class Generator(chainer.Chain):
    """Random vectors of n_hidden values to images of 3x32x32 in [0, 1]."""

    def __init__(self, n_hidden, bottom_width=4, ch=512, wscale=0.02):
        super().__init__()
        self.n_hidden = n_hidden
        self.ch = ch
        self.bottom_width = bottom_width
        w = chainer.initializers.Normal(wscale)
        with self.init_scope():
            self.l0 = L.Linear(n_hidden, bottom_width ** 2 * ch, initialW=w)
            # Each 4x4 kernel with stride 2 and padding 1 doubles the size.
            self.dc1 = L.Deconvolution2D(ch, ch // 2, 4, 2, 1, initialW=w)
            self.dc2 = L.Deconvolution2D(ch // 2, ch // 4, 4, 2, 1,
                                         initialW=w)
            self.dc3 = L.Deconvolution2D(ch // 4, ch // 8, 4, 2, 1,
                                         initialW=w)
            self.dc4 = L.Deconvolution2D(ch // 8, 3, 3, 1, 1, initialW=w)
            self.bn0 = L.BatchNormalization(bottom_width ** 2 * ch)
            self.bn1 = L.BatchNormalization(ch // 2)
            self.bn2 = L.BatchNormalization(ch // 4)
            self.bn3 = L.BatchNormalization(ch // 8)

    def make_hidden(self, batchsize):
        """A batch of inputs, uniform in [-1, 1], on the generator's
        device."""
        z = np.random.uniform(-1, 1, (batchsize, self.n_hidden))
        return self.device.send(z.astype(np.float32))

    def forward(self, z):
        h = F.relu(self.bn0(self.l0(z)))
        h = F.reshape(h, (len(z), self.ch, self.bottom_width,
                          self.bottom_width))
        h = F.relu(self.bn1(self.dc1(h)))
        h = F.relu(self.bn2(self.dc2(h)))
        h = F.relu(self.bn3(self.dc3(h)))
        return F.sigmoid(self.dc4(h))


class Discriminator(chainer.Chain):
    """Images of 3x32x32 to one score each: high for real, low for fake."""

    def __init__(self, bottom_width=4, ch=512, wscale=0.02):
        super().__init__()
        w = chainer.initializers.Normal(wscale)
        # (in, out, ksize, stride): 3x3 convolutions keep the size, 4x4
        # ones with stride 2 halve it.
        shapes = [(3, ch // 8, 3, 1), (ch // 8, ch // 4, 4, 2),
                  (ch // 4, ch // 4, 3, 1), (ch // 4, ch // 2, 4, 2),
                  (ch // 2, ch // 2, 3, 1), (ch // 2, ch, 4, 2),
                  (ch, ch, 3, 1)]
        with self.init_scope():
            self.convs = chainer.ChainList(*[
                L.Convolution2D(n_in, n_out, k, s, 1, initialW=w)
                for n_in, n_out, k, s in shapes])
            # No normalization after the first convolution.
            self.norms = chainer.ChainList(*[
                L.BatchNormalization(n_out, use_gamma=False)
                for _, n_out, _, _ in shapes[1:]])
            self.l4 = L.Linear(bottom_width ** 2 * ch, 1, initialW=w)

    def forward(self, x):
        h = F.leaky_relu(add_noise(self.convs[0](add_noise(x))))
        for conv, norm in zip(self.convs[1:], self.norms):
            h = F.leaky_relu(add_noise(norm(conv(h))))
        return self.l4(h)


class DCGANUpdater(training.updaters.StandardUpdater):
    """One discriminator step and one generator step per iteration.

    Takes the keyword ``models=(generator, discriminator)`` and the
    optimizers as ``{'gen': ..., 'dis': ...}``, so their losses are
    reported as ``gen/loss`` and ``dis/loss``.
    """

    def __init__(self, *args, **kwargs):
        self.gen, self.dis = kwargs.pop('models')
        super().__init__(*args, **kwargs)

    def loss_dis(self, dis, y_fake, y_real):
        """Softplus form of -log D(real) - log(1 - D(fake))."""
        batchsize = len(y_fake)
        loss = (F.sum(F.softplus(-y_real)) + F.sum(F.softplus(y_fake))) \
            / batchsize
        chainer.report({'loss': loss}, dis)
        return loss

    def loss_gen(self, gen, y_fake):
        """Softplus form of -log D(fake): the generator wants it real."""
        loss = F.sum(F.softplus(-y_fake)) / len(y_fake)
        chainer.report({'loss': loss}, gen)
        return loss

    def update_core(self):
        batch = self.get_iterator('main').next()
        x_real = chainer.Variable(self.converter(batch, self.device))
        y_real = self.dis(x_real)
        x_fake = self.gen(self.gen.make_hidden(len(batch)))
        y_fake = self.dis(x_fake)
        self.get_optimizer('dis').update(self.loss_dis, self.dis, y_fake,
                                         y_real)
        self.get_optimizer('gen').update(self.loss_gen, self.gen, y_fake)


def save_samples(gen, rows, cols, seed, out):
    """An extension writing a rows x cols grid of generated images."""

    @training.make_extension(trigger=(1, 'epoch'))
    def extension(trainer):
        from PIL import Image   # only this extension needs Pillow

        state = np.random.get_state()
        np.random.seed(seed)   # the same inputs every time
        z = gen.make_hidden(rows * cols)
        np.random.set_state(state)
        with chainer.using_config('train', False), \
                chainer.no_backprop_mode():
            x = chainer.backend.CpuDevice().send(gen(z).array)
        _, _, height, width = x.shape
        grid = (x.reshape(rows, cols, 3, height, width)
                .transpose(0, 3, 1, 4, 2)
                .reshape(rows * height, cols * width, 3))
        pixels = np.asarray(np.clip(grid * 255, 0, 255), np.uint8)
        path = os.path.join(
            out, f'samples_epoch_{trainer.updater.epoch}.png')
        Image.fromarray(pixels).save(path)

    return extension


def smoke_dataset(n=16):
    """Generated 32x32 colour images: a random-coloured square in each."""
    rng = np.random.default_rng(0)
    images = np.zeros((n, 3, 32, 32), np.float32)
    for image in images:
        top, left = rng.integers(0, 20, 2)
        image[:, top:top + 12, left:left + 12] = rng.random((3, 1, 1))
    return images


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--batchsize', '-b', type=int, default=50,
                        help='images in each mini-batch')
    parser.add_argument('--epoch', '-e', type=int, default=100,
                        help='sweeps over the training set')
    parser.add_argument('--n-hidden', '-n', type=int, default=100,
                        help='size of the generator input')
    parser.add_argument('--channels', type=int, default=512,
                        help='channels of the widest layers')
    parser.add_argument('--device', '-d', type=int, default=-1,
                        help='-1 for the CPU, N >= 0 for GPU N (CuPy)')
    parser.add_argument('--out', '-o', default='result',
                        help='directory of the log, images and snapshots')
    parser.add_argument('--dataset-root',
                        help='where CIFAR-10 is downloaded and cached')
    parser.add_argument('--display-interval', type=int, default=100,
                        help='iterations between log lines')
    parser.add_argument('--seed', type=int, default=0,
                        help='seed of the inputs of the sample images')
    parser.add_argument('--smoke', action='store_true',
                        help='tiny generated data and networks; seconds')
    args = parser.parse_args()
    if args.smoke:
        args.epoch, args.batchsize = min(args.epoch, 2), 8
        args.n_hidden, args.channels = 10, 16
        args.display_interval = 2

    device = chainer.get_device(args.device)
    if args.smoke:
        train = smoke_dataset()
    else:
        if args.dataset_root:
            chainer.dataset.set_dataset_root(args.dataset_root)
        train, _ = chainer.datasets.get_cifar10(withlabel=False)

    gen = Generator(args.n_hidden, ch=args.channels)
    dis = Discriminator(ch=args.channels)
    gen.to_device(device)
    dis.to_device(device)

    def make_optimizer(model):
        optimizer = chainer.optimizers.Adam(alpha=0.0002, beta1=0.5)
        optimizer.setup(model)
        optimizer.add_hook(chainer.optimizer_hooks.WeightDecay(0.0001))
        return optimizer

    updater = DCGANUpdater(
        models=(gen, dis),
        iterator=chainer.iterators.SerialIterator(train, args.batchsize),
        optimizer={'gen': make_optimizer(gen), 'dis': make_optimizer(dis)},
        device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    display = (args.display_interval, 'iteration')
    trainer.extend(extensions.LogReport(trigger=display))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'iteration', 'gen/loss', 'dis/loss', 'elapsed_time']),
        trigger=display)
    for name, model in (('gen', gen), ('dis', dis)):
        trainer.extend(
            extensions.snapshot_object(
                model, name + '_epoch_{.updater.epoch}.npz'),
            trigger=(10, 'epoch'))
    trainer.extend(save_samples(gen, 4, 4, args.seed, args.out))
    trainer.run()

    last = trainer.get_extension('LogReport').log[-1]
    print(f'final loss: gen {last["gen/loss"]:.4f}, '
          f'dis {last["dis/loss"]:.4f}')


if __name__ == '__main__':
    main()
