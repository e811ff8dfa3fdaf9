"""The workload of vae.py in PyTorch: iterations/s."""
import torch
import torch.nn.functional as F
from torch import nn

from _workload import (VAE_BATCH, VAE_UNITS, images01, parse_quick,
                       report_iterations, training_step)


class VAE(nn.Module):

    def __init__(self):
        super().__init__()
        image, hidden, latent = VAE_UNITS
        self.enc = nn.Linear(image, hidden)
        self.mu = nn.Linear(hidden, latent)
        self.ln_var = nn.Linear(hidden, latent)
        self.dec1 = nn.Linear(latent, hidden)
        self.dec2 = nn.Linear(hidden, image)

    def loss(self, x):
        h = F.relu(self.enc(x))
        mu, ln_var = self.mu(h), self.ln_var(h)
        z = mu + torch.exp(0.5 * ln_var) * torch.randn_like(mu)
        logits = self.dec2(F.relu(self.dec1(z)))
        nll = F.binary_cross_entropy_with_logits(logits, x, reduction='sum')
        kl = 0.5 * (mu * mu + ln_var.exp() - ln_var - 1).sum()
        return (nll + kl) / len(x)


def main():
    quick = parse_quick(__doc__.split('\n')[0])
    model = VAE()
    optimizer = torch.optim.Adam(model.parameters())
    batch = tuple(torch.from_numpy(a)
                  for a in images01(VAE_BATCH, VAE_UNITS[0]))
    step = training_step(model.loss, batch, optimizer.zero_grad,
                         optimizer.step)
    report_iterations(f'torch {torch.__version__}', 'vae', step, quick)


if __name__ == '__main__':
    main()
