"""A variational autoencoder, through the Chainer API alone:
iterations/s.

784-400-(20 mean, 20 log variance) encoder, a Gaussian draw, 20-400-784
decoder, Bernoulli negative log-likelihood plus the Gaussian KL
divergence, batch 100, Adam.
"""
import chainer
import chainer.functions as F
import chainer.links as L

from _workload import (VAE_BATCH, VAE_UNITS, chainer_measured, images01,
                       parse_quick, report_iterations, training_step)


class VAE(chainer.Chain):

    def __init__(self):
        super().__init__()
        image, hidden, latent = VAE_UNITS
        with self.init_scope():
            self.enc = L.Linear(image, hidden)
            self.mu = L.Linear(hidden, latent)
            self.ln_var = L.Linear(hidden, latent)
            self.dec1 = L.Linear(latent, hidden)
            self.dec2 = L.Linear(hidden, image)

    def loss(self, x):
        h = F.relu(self.enc(x))
        mu, ln_var = self.mu(h), self.ln_var(h)
        logits = self.dec2(F.relu(self.dec1(F.gaussian(mu, ln_var))))
        return (F.bernoulli_nll(x, logits)
                + F.gaussian_kl_divergence(mu, ln_var)) / len(x)


def main():
    quick = parse_quick(__doc__.split('\n')[0])
    model = VAE()
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)
    step = training_step(model.loss, images01(VAE_BATCH, VAE_UNITS[0]),
                         model.cleargrads, optimizer.update)
    report_iterations(chainer_measured(chainer), 'vae', step, quick)


if __name__ == '__main__':
    main()
