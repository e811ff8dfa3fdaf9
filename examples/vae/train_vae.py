"""Variational autoencoder on binarized handwritten digits.

An encoder maps an image to a Normal posterior q(z|x) over a small latent
space, a decoder maps a latent point to independent Bernoulli pixels
p(x|z) (given by their logits), and training maximizes the evidence lower
bound ELBO = E_q[log p(x|z)] - KL(q(z|x) || p(z)) for a standard Normal
prior p(z) (Kingma and Welling, 2013). The expectation is estimated with
reparameterised draws of z, so its gradient reaches the encoder.

    python examples/vae/train_vae.py            # MNIST (downloads)
    python examples/vae/train_vae.py --digits   # data/digits.csv.gz
    python examples/vae/train_vae.py --smoke    # a few seconds

``--digits`` needs no network: the 1,797 8x8 UCI digits bundled in data/
(pixels >= 8 of 16 taken as on), 80 % for training, 20 % to validate.
"""
import argparse
import os

import numpy as np

import chainer
import chainer.distributions as D
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions

DIGITS = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      os.pardir, os.pardir, 'data', 'digits.csv.gz')


class Encoder(chainer.Chain):
    """x -> q(z|x) = N(mu(x), sigma(x)^2), independent over the latents."""

    def __init__(self, n_in, n_latent, n_hidden):
        super().__init__()
        with self.init_scope():
            self.hidden = L.Linear(n_in, n_hidden)
            self.mu = L.Linear(n_hidden, n_latent)
            self.ln_sigma = L.Linear(n_hidden, n_latent)

    def forward(self, x):
        h = F.tanh(self.hidden(x))
        return D.Independent(
            D.Normal(self.mu(h), log_scale=self.ln_sigma(h)))


class Decoder(chainer.Chain):
    """z -> p(x|z): one Bernoulli per pixel, given by its logit."""

    def __init__(self, n_in, n_latent, n_hidden):
        super().__init__()
        with self.init_scope():
            self.hidden = L.Linear(n_latent, n_hidden)
            self.output = L.Linear(n_hidden, n_in)

    def forward(self, z, n_batch_axes=1):
        h = F.tanh(self.hidden(z, n_batch_axes=n_batch_axes))
        logit = self.output(h, n_batch_axes=n_batch_axes)
        return D.Independent(D.Bernoulli(logit=logit),
                             reinterpreted_batch_ndims=1)


class Prior(chainer.Link):
    """p(z) = N(0, I), kept on the model's device."""

    def __init__(self, n_latent):
        super().__init__()
        self.loc = np.zeros(n_latent, np.float32)
        self.scale = np.ones(n_latent, np.float32)
        self.register_persistent('loc')
        self.register_persistent('scale')

    def forward(self):
        return D.Independent(D.Normal(self.loc, scale=self.scale),
                             reinterpreted_batch_ndims=1)


class AverageELBOLoss(chainer.Chain):
    """The negative ELBO averaged over a batch, from ``k`` draws of z per
    image; reports ``loss``, ``reconstruction``, ``kl`` and ``elbo``."""

    def __init__(self, encoder, decoder, prior, beta=1.0, k=1):
        super().__init__()
        self.beta = beta
        self.k = k
        with self.init_scope():
            self.encoder = encoder
            self.decoder = decoder
            self.prior = prior

    def forward(self, x):
        q_z = self.encoder(x)
        z = q_z.sample(self.k)                 # (k, batch, n_latent)
        p_x = self.decoder(z, n_batch_axes=2)
        x_k = F.broadcast_to(x, (self.k,) + x.shape)
        reconstruction = F.mean(p_x.log_prob(x_k))
        kl = F.mean(D.kl_divergence(q_z, self.prior()))
        elbo = reconstruction - kl
        loss = -(reconstruction - self.beta * kl)
        chainer.report({'loss': loss, 'reconstruction': reconstruction,
                        'kl': kl, 'elbo': elbo}, observer=self)
        return loss


def make_model(n_in, n_latent=8, n_hidden=128):
    """The loss link holding the encoder, decoder and prior."""
    return AverageELBOLoss(Encoder(n_in, n_latent, n_hidden),
                           Decoder(n_in, n_latent, n_hidden),
                           Prior(n_latent))


def digits_datasets(path=DIGITS, train_fraction=0.8):
    """The bundled digits as 64 binary pixels, split at random (seed
    0)."""
    table = np.loadtxt(path, delimiter=',', dtype=np.float32)
    images = (table[:, :64] >= 8).astype(np.float32)
    return chainer.datasets.split_dataset_random(
        images, int(len(images) * train_fraction), seed=0)


def smoke_datasets(n=128, n_in=16):
    """Generated binary images: four prototypes with 5 % of pixels
    flipped."""
    rng = np.random.default_rng(0)
    prototypes = rng.random((4, n_in)) < 0.5
    images = prototypes[rng.integers(0, 4, n)] ^ (rng.random((n, n_in))
                                                  < 0.05)
    images = images.astype(np.float32)
    return images[:n * 3 // 4], images[n * 3 // 4:]


def mnist_datasets(dataset_root=None):
    """MNIST images as 784 binary pixels (intensity >= 0.5)."""
    if dataset_root:
        chainer.dataset.set_dataset_root(dataset_root)
    train, test = chainer.datasets.get_mnist(withlabel=False)
    return (train >= 0.5).astype(np.float32), \
        (test >= 0.5).astype(np.float32)


def load_datasets(args):
    """Training and validation sets: generated, bundled, or MNIST."""
    if args.smoke:
        return smoke_datasets()
    if args.digits:
        return digits_datasets()
    return mnist_datasets(args.dataset_root)


def train(args):
    """Train as ``args`` says; returns the validation ELBO (nats per
    image) after each epoch."""
    np.random.seed(args.seed)
    device = chainer.get_device(args.device)
    train_set, validation_set = load_datasets(args)
    model = make_model(len(train_set[0]), args.latent, args.hidden)
    model.to_device(device)
    optimizer = chainer.optimizers.Adam(alpha=args.learning_rate)
    optimizer.setup(model)

    train_iter = chainer.iterators.SerialIterator(train_set, args.batchsize)
    validation_iter = chainer.iterators.SerialIterator(
        validation_set, args.batchsize, repeat=False, shuffle=False)
    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    trainer.extend(extensions.Evaluator(validation_iter, model,
                                        device=device))
    trainer.extend(extensions.LogReport())
    if not args.quiet:
        trainer.extend(extensions.PrintReport(
            ['epoch', 'main/elbo', 'main/kl', 'validation/main/elbo',
             'elapsed_time']))
    trainer.run()
    return [float(entry['validation/main/elbo'])
            for entry in trainer.get_extension('LogReport').log]


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--batchsize', '-b', type=int, default=100,
                        help='images in each mini-batch')
    parser.add_argument('--epoch', '-e', type=int, default=20,
                        help='sweeps over the training set')
    parser.add_argument('--device', '-d', type=int, default=-1,
                        help='-1 for the CPU, N >= 0 for GPU N (CuPy)')
    parser.add_argument('--out', '-o', default='result',
                        help='directory of the log')
    parser.add_argument('--dataset-root',
                        help='where MNIST is downloaded and cached')
    parser.add_argument('--latent', type=int, default=8,
                        help='dimension of the latent space')
    parser.add_argument('--hidden', type=int, default=128,
                        help='hidden units of the encoder and decoder')
    parser.add_argument('--learning-rate', type=float, default=1e-3,
                        help="Adam's step size alpha")
    parser.add_argument('--seed', type=int, default=0,
                        help='seed of the initial weights and the draws')
    parser.add_argument('--quiet', action='store_true',
                        help='no per-epoch report')
    data = parser.add_mutually_exclusive_group()
    data.add_argument('--digits', action='store_true',
                      help='the bundled 8x8 digits instead of MNIST')
    data.add_argument('--smoke', action='store_true',
                      help='tiny generated data; seconds')
    args = parser.parse_args(argv)
    if args.smoke:
        args.epoch = min(args.epoch, 3)
    return args


def main():
    elbos = train(parse_args())
    print(f'final loss: {-elbos[-1]:.4f} (validation ELBO {elbos[-1]:.4f} '
          f'nats per image)')


if __name__ == '__main__':
    main()
