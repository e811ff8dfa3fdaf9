"""Process-wide and thread-local configuration.

``global_config`` holds the process defaults; ``config`` is thread-local and
falls back to ``global_config`` for any key it does not hold itself.
"""
import contextlib
import os
import sys
import threading

import numpy


def _show(config, keys, file):
    """Write ``key value`` lines, sorted by key, the values (as ``str``)
    in one column a space right of the longest key, as Chainer does."""
    keys = sorted(keys)
    width = max(map(len, keys), default=0) + 1
    for key in keys:
        file.write(f'{key:<{width}}{getattr(config, key)}\n')


class GlobalConfig:
    """Configuration shared by every thread of the process."""

    def show(self, file=sys.stdout):
        """Print every key and its value, sorted by key."""
        _show(self, vars(self), file)


class LocalConfig:
    """Thread-local configuration that reads through to a global one."""

    def __init__(self, global_config):
        super().__setattr__('_global', global_config)
        super().__setattr__('_local', threading.local())

    def __getattr__(self, name):
        local = self._local.__dict__
        if name in local:
            return local[name]
        return getattr(self._global, name)

    def __setattr__(self, name, value):
        setattr(self._local, name, value)

    def __delattr__(self, name):
        delattr(self._local, name)

    def show(self, file=sys.stdout):
        """Print every key visible from this thread, sorted by key."""
        _show(self, set(vars(self._global)) | set(self._local.__dict__),
              file)


_MISSING = object()


@contextlib.contextmanager
def using_config(name, value, config=None):
    """Set ``config.<name> = value`` for the duration of a ``with`` block.

    The previous thread-local value (or its absence) is restored on exit,
    also when the block raises.
    """
    if config is None:
        config = globals()['config']
    local = config._local.__dict__ if isinstance(config, LocalConfig) else None
    old = local.get(name, _MISSING) if local is not None else getattr(
        config, name, _MISSING)
    setattr(config, name, value)
    try:
        yield
    finally:
        if old is _MISSING:
            delattr(config, name)
        else:
            setattr(config, name, old)


def _flag(env, default):
    """Read a 0/1 environment flag, rejecting anything else."""
    raw = os.environ.get(env)
    if raw is None:
        return default
    if raw not in ('0', '1'):
        raise ValueError(
            f'environment variable {env} must be 0 or 1, got {raw!r}')
    return raw == '1'


def _ternary(env, default):
    """Read an 'always' / 'auto' / 'never' environment setting."""
    raw = os.environ.get(env, default)
    if raw not in ('always', 'auto', 'never'):
        raise ValueError(
            f"environment variable {env} must be 'always', 'auto' or "
            f"'never', got {raw!r}")
    return raw


class _Mixed16:
    """Marker for mixed precision: float16 activations, float32 where needed.

    ``get_dtype()`` maps it to float16, or to ``map_mixed16`` when given;
    ``numpy.dtype(mixed16)`` is float16 too (through :attr:`dtype`).
    """

    dtype = numpy.dtype(numpy.float16)

    def __repr__(self):
        return "dtype('mixed16')"

    def __reduce__(self):
        return 'mixed16'


mixed16 = _Mixed16()

_DTYPES = {'float16': numpy.dtype(numpy.float16),
           'float32': numpy.dtype(numpy.float32),
           'float64': numpy.dtype(numpy.float64), 'mixed16': mixed16}


def get_dtype(dtype=None, map_mixed16=None):
    """Resolve ``dtype`` (default ``config.dtype``) to a NumPy dtype.

    ``mixed16`` resolves to ``map_mixed16`` if given, else float16.
    """
    if dtype is None:
        dtype = config.dtype
    if dtype is mixed16:
        return numpy.dtype(numpy.float16 if map_mixed16 is None
                           else map_mixed16)
    return numpy.dtype(dtype)


def _dtype(env, default):
    raw = os.environ.get(env)
    if raw is None:
        return default
    if raw not in _DTYPES:
        raise ValueError(
            f'environment variable {env} must be one of '
            f'{", ".join(_DTYPES)}, got {raw!r}')
    return _DTYPES[raw]


def _seed(env):
    raw = os.environ.get(env)
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        raise ValueError(
            f'environment variable {env} must be a decimal integer, '
            f'got {raw!r}') from None


global_config = GlobalConfig()
config = LocalConfig(global_config)
#: The thread-local storage of :data:`config`: its ``__dict__`` holds the
#: values this thread set. The hot paths of the engine read it directly,
#: which is faster than ``getattr(config, name)``.
config_local = config._local


def _initialize(cfg):
    """Set the documented keys to their defaults and environment values."""
    cfg.autotune = False
    cfg.cudnn_deterministic = False
    cfg.cudnn_fast_batch_normalization = _flag(
        'CHAINER_CUDNN_FAST_BATCH_NORMALIZATION', False)
    cfg.debug = _flag('CHAINER_DEBUG', False)
    cfg.dtype = _dtype('CHAINER_DTYPE', numpy.dtype(numpy.float32))
    cfg.enable_backprop = True
    cfg.in_recomputing = False
    cfg.keep_graph_on_report = _flag('CHAINER_KEEP_GRAPH_ON_REPORT', False)
    cfg.lazy_grad_sum = _flag('CHAINER_LAZY_GRAD_SUM', False)
    cfg.schedule_func = None
    cfg.train = True
    cfg.type_check = _flag('CHAINER_TYPE_CHECK', True)
    cfg.use_cudnn = _ternary('CHAINER_USE_CUDNN', 'auto')
    cfg.use_cudnn_tensor_core = 'auto'
    cfg.use_ideep = _ternary('CHAINER_USE_IDEEP', 'never')
    cfg.use_static_graph = True
    cfg.warn_nondeterministic = _flag('CHAINER_WARN_NONDETERMINISTIC', False)
    cfg.cuda_seed = _seed('CHAINER_SEED')
    cfg.dataset_root = os.environ.get(
        'CHAINER_DATASET_ROOT',
        os.path.join(os.path.expanduser('~'), '.chainer', 'dataset'))


_initialize(global_config)
