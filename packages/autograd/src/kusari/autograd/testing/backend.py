"""Running the same tests once per backend: CPU, CUDA, with or without cuDNN.

A :class:`BackendConfig` describes one backend (device and the
configuration keys that select kernels); ``inject_backend_tests`` makes one
test class per config, passing the config to each test method. CUDA
variants are marked ``gpu`` (and ``cudnn``) and skip where no GPU is;
ChainerX and iDeep variants keep their Chainer names and always skip.
"""
import contextlib
import functools
import inspect

from kusari.array import backend
from kusari.array import configuration
from kusari.autograd.testing import _bundle
from kusari.autograd.testing import attr

# The parameters of a config and their defaults, in the order of the
# generated class names.
_PARAMETERS = (
    ('use_chainerx', False),
    ('chainerx_device', None),
    ('use_cuda', False),
    ('cuda_device', None),  # 0 when use_cuda is set
    ('use_cudnn', 'never'),
    ('cudnn_deterministic', False),
    ('autotune', False),
    ('cudnn_fast_batch_normalization', False),
    ('use_ideep', 'never'),
)
_DEFAULTS = dict(_PARAMETERS)
# The parameters that are configuration keys, set while the config is used.
_CONFIG_KEYS = ('use_cudnn', 'cudnn_deterministic', 'autotune',
                'cudnn_fast_batch_normalization', 'use_ideep')
_TERNARY = ('always', 'auto', 'never')


class BackendConfig:
    """One backend to run a test on.

    Args:
        params (dict): any of ``use_chainerx``, ``chainerx_device``,
            ``use_cuda``, ``cuda_device``, ``use_cudnn``,
            ``cudnn_deterministic``, ``autotune``,
            ``cudnn_fast_batch_normalization`` and ``use_ideep``; the others
            take their defaults (the CPU, no cuDNN, no iDeep). Each is also
            an attribute.

    Used as a context manager, it makes its device current and sets the
    configuration keys among its parameters.
    """

    def __init__(self, params):
        if not isinstance(params, dict):
            raise TypeError(
                f'BackendConfig: params must be a dict, got '
                f'{type(params).__name__}')
        unknown = sorted(set(params) - set(_DEFAULTS))
        if unknown:
            raise ValueError(
                f'BackendConfig: unknown parameter(s) {unknown}; expected '
                f'some of {list(_DEFAULTS)}')
        values = {**_DEFAULTS, **params}
        _check(values)
        if values['use_cuda'] and values['cuda_device'] is None:
            values['cuda_device'] = 0
        vars(self).update(values)
        self._device = None
        self._contexts = []

    @property
    def device(self):
        """The :class:`~kusari.array.backend.Device` tests run on."""
        if self._device is None:
            if self.use_cuda:
                device = backend.GpuDevice.from_device_id(self.cuda_device)
            elif self.use_chainerx:
                device = backend.ChainerxDevice()
            elif self.use_ideep != 'never':
                device = backend.Intel64Device()
            else:
                device = backend.CpuDevice()
            self._device = device
        return self._device

    @property
    def xp(self):
        """The array module of :attr:`device`."""
        return self.device.xp

    def get_array(self, np_array):
        """Send an array (or a tuple or list of them) to :attr:`device`."""
        return self.device.send(np_array)

    def __enter__(self):
        stack = contextlib.ExitStack()
        with stack:
            for key in _CONFIG_KEYS:
                stack.enter_context(
                    configuration.using_config(key, getattr(self, key)))
            stack.enter_context(backend.using_device(self.device))
            self._contexts.append(stack.pop_all())
        return self

    def __exit__(self, *exc_info):
        return self._contexts.pop().__exit__(*exc_info)

    def __repr__(self):
        items = ' '.join(f'{name}={getattr(self, name)!r}'
                         for name, _ in _PARAMETERS)
        return f'<BackendConfig {items}>'

    def get_func_str(self):
        """The parameters as a string fit for a test name."""
        return '__'.join(f'{name}_{_name_str(getattr(self, name))}'
                         for name, _ in _PARAMETERS)

    def get_pytest_marks(self):
        """The decorators marking (and skipping) a test for this backend."""
        if self.use_chainerx:
            marks = [attr.chainerx]
            backend_name, index = self.chainerx_device.split(':')
            if backend_name == 'cuda':
                marks.append(attr.gpu)
                if int(index) >= 1:
                    marks.append(attr.multi_gpu(int(index) + 1))
            return marks
        if self.use_cuda:
            marks = [attr.gpu]
            if self.use_cudnn != 'never':
                marks.append(attr.cudnn)
            if self.cuda_device >= 1:
                marks.append(attr.multi_gpu(self.cuda_device + 1))
            return marks
        if self.use_ideep != 'never':
            return [attr.ideep]
        return []


def _check(values):
    # Chainer's own tests also write use_ideep=True (a truthy level, marked
    # and skipped like 'always' where iDeep is absent).
    for key, allowed in (('use_cudnn', _TERNARY),
                         ('use_ideep', _TERNARY + (True, False))):
        if values[key] not in allowed:
            raise ValueError(
                f"BackendConfig: {key} must be 'always', 'auto' or 'never', "
                f"got {values[key]!r}")
    device = values['chainerx_device']
    if values['use_chainerx'] and not (
            isinstance(device, str) and device.count(':') == 1
            and device.split(':')[1].isdigit()):
        raise ValueError(
            f"BackendConfig: use_chainerx needs chainerx_device, a string "
            f"such as 'native:0' or 'cuda:0', got {device!r}")
    cuda_device = values['cuda_device']
    if cuda_device is not None and not (
            isinstance(cuda_device, int) and cuda_device >= 0):
        raise ValueError(
            f'BackendConfig: cuda_device must be a CUDA device id (int >= '
            f'0), got {cuda_device!r}')


def _name_str(value):
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def inject_backend_tests(method_names, params):
    """Class decorator running test methods once per backend.

    For each dict of ``params`` a subclass named
    ``<Base>_<BackendConfig.get_func_str()>`` is generated, whose test
    methods (those named in ``method_names``, or all when it is None) are
    called with a :class:`BackendConfig` as their first argument after
    ``self``, and carry the config's pytest marks. With ``method_names``
    given, the other test methods stay in a class of the base's name. Stacks
    with ``parameterize``.

    Args:
        method_names (list of str or None): the methods to inject into.
        params (list of dict): the parameters of each BackendConfig.
    """
    if not (method_names is None or isinstance(method_names, list)):
        raise TypeError(
            f'inject_backend_tests: method_names must be None or a list of '
            f'method names, got {type(method_names).__name__}')
    if not (isinstance(params, list)
            and all(isinstance(p, dict) for p in params)):
        raise TypeError(
            f'inject_backend_tests: params must be a list of dicts, got '
            f'{params!r}')
    configs = [BackendConfig(p) for p in params]

    def injected(name):
        return method_names is None or name in method_names

    def generate(base):
        if method_names is not None:
            yield (base.__name__, {},
                   lambda name, method: None if injected(name) else method)
        for config in configs:
            # Collected even when the base is not (FunctionTestCase).
            yield (f'{base.__name__}_{config.get_func_str()}',
                   {'__test__': True},
                   functools.partial(_inject, config, injected))
    return _bundle.make_decorator('inject_backend_tests', generate)


def _inject(config, injected, name, method):
    if not injected(name):
        return None
    parameters = list(inspect.signature(method).parameters.values())
    if len(parameters) < 2:
        raise TypeError(
            f'inject_backend_tests: test method {name} must take the backend '
            f'config as its argument after self')

    @functools.wraps(method)
    def test(self, *args, **kwargs):
        return method(self, config, *args, **kwargs)
    # pytest reads a test's fixtures from its signature: the config is not
    # one.
    test.__signature__ = inspect.Signature(
        [parameters[0], *parameters[2:]])
    for mark in config.get_pytest_marks():
        test = mark(test)
    return test
