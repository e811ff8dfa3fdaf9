"""iDeep (intel64): not part of Kusari; here so that code probing it runs."""
from kusari.array.backend import Intel64Device  # NOQA: F401


class mdarray:
    """iDeep's array type: no array is one, so ``isinstance`` checks on it
    are False."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError('intel64.mdarray: iDeep is not part of Kusari')


def is_ideep_available():
    """Always False: Kusari has no iDeep backend."""
    return False


def check_ideep_available():
    """Raise RuntimeError, as Chainer does where iDeep is missing."""
    raise RuntimeError('iDeep is not available: Kusari has no iDeep '
                       'backend; arrays are NumPy or CuPy')


def should_use_ideep(level):
    """Always False, whatever the ``level`` ('always', '>=auto', ...)."""
    return False


def inputs_all_ready(inputs, supported_ndim=(2, 4)):
    """Always False: no input can take the iDeep path."""
    return False
