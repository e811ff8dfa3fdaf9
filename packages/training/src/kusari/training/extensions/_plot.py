"""matplotlib, the optional dependency of the plotting extensions."""
import warnings

from kusari.serializers import atomic

MISSING = ('matplotlib is not installed, so {} plots nothing; install it '
           'with: pip install "kusari-training[plot]"')


def pyplot():
    """``matplotlib.pyplot`` on the file-only Agg backend, or None if
    matplotlib is missing."""
    try:
        import matplotlib
    except ImportError:
        return None
    matplotlib.use('Agg')
    import matplotlib.pyplot
    return matplotlib.pyplot


def available():
    """Whether matplotlib can be imported."""
    return pyplot() is not None


def warn_if_missing(owner):
    """Warn, naming ``owner``, when there is no matplotlib; return whether
    plotting is possible."""
    if available():
        return True
    warnings.warn(MISSING.format(owner), UserWarning, stacklevel=3)
    return False


def save(figure, path, **kwargs):
    """Save ``figure`` to ``path`` atomically (the format is the one
    ``path``'s extension names)."""
    fmt = path.rsplit('.', 1)[-1] if '.' in path else None
    with atomic.replacing(path) as temporary:
        figure.savefig(temporary, format=fmt, **kwargs)
