"""iDeep (intel64): not part of Kusari; here so that code probing it runs."""


def is_ideep_available():
    """Always False: Kusari has no iDeep backend."""
    return False


def inputs_all_ready(inputs, supported_ndim=(2, 4)):
    """Always False: no input can take the iDeep path."""
    return False
