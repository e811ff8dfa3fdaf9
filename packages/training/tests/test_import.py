"""The package installs and imports on its own."""
import kusari.training


def test_version():
    assert kusari.training.__version__ == '0.1.0'
