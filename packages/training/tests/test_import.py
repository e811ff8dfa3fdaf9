"""The package installs and imports on its own."""
import subprocess
import sys

import kusari.training


def test_version():
    assert kusari.training.__version__ == '0.1.0'


def test_numba_is_not_imported_with_the_package():
    # Importing Numba takes about 0.4 s; the first fused update pays it.
    code = ('import sys, kusari.training, kusari.training.optimizers; '
            'assert "numba" not in sys.modules')
    subprocess.run([sys.executable, '-c', code], check=True)
