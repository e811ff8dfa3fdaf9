"""The package installs and imports on its own."""
import kusari.links


def test_version():
    assert kusari.links.__version__ == '0.1.0'
