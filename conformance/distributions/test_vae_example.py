"""The VAE example learns the bundled handwritten digits: its validation
ELBO improves well beyond what independent fair coins would score."""
import importlib.util
import math
from pathlib import Path

SCRIPT = (Path(__file__).resolve().parents[2] / 'examples' / 'vae'
          / 'train_vae.py')
# 64 pixels as fair coins: the ELBO of a model that learned nothing.
COIN_FLIPS = -64 * math.log(2)


def _example():
    spec = importlib.util.spec_from_file_location('train_vae', SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_vae_elbo_improves_on_digits(tmp_path):
    vae = _example()
    args = vae.parse_args(['--digits', '--epoch', '10', '--quiet',
                           '--out', str(tmp_path)])
    elbos = vae.train(args)
    assert len(elbos) == 10
    # Measured: about -40.5 after the first epoch, -24.2 after the tenth.
    assert elbos[-1] - elbos[0] >= 10, elbos
    assert elbos[-1] >= COIN_FLIPS + 15, elbos


def test_vae_smoke_runs(tmp_path):
    vae = _example()
    elbos = vae.train(vae.parse_args(['--smoke', '--quiet',
                                      '--out', str(tmp_path)]))
    assert len(elbos) == 3 and all(math.isfinite(e) for e in elbos)
