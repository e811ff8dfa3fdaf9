"""The generic checks every link record goes through.

A check builds the record's link in the dtype under test (default
initializers follow ``config.dtype``), moves it to the device, draws the
inputs with a generator seeded by the record's name (so a failure repeats)
and raises AssertionError naming the record when the link breaks a rule.
"""
import pathlib
import tempfile
import zlib

import numpy

from kusari.array import backend
from kusari.array.configuration import using_config
from kusari.autograd import gradient_check
from kusari.autograd import backward
from kusari.autograd.graph_optimizations.static_graph import static_graph
from kusari.autograd.variable import Variable
from kusari.links import Chain
from kusari.serializers import npz

from harness.checks import LAYOUTS
from harness.checks import laid_out

_HOST = backend.CpuDevice()
# Parameters are filled with this before copy('init'): no initializer of
# a link gives it, so a parameter left unfilled by the copy shows.
_SENTINEL = 0.8125


def build(record, dtype, device, builder=None):
    """The record's link (or the one ``builder`` makes), in ``dtype``, on
    ``device``, its random initial values the same on every run."""
    seed = _seed(record)
    numpy.random.seed(seed)
    device.xp.random.seed(seed)
    with using_config('dtype', dtype):
        link = (builder or record.build)()
    link.to_device(device)
    return link


def draw_inputs(record, dtype, device, draw=0):
    """The record's inputs, float ones cast to ``dtype``, on ``device``;
    ``draw`` numbers other draws (the next batches of a training loop)."""
    rng = numpy.random.default_rng(_seed(record) + draw)
    host = tuple(a.astype(dtype) if a.dtype.kind == 'f' else a
                 for a in record.inputs(rng))
    return tuple(device.send([a.copy() for a in host]))


def run(record, link, inputs, dtype):
    """The link's outputs (Variables, lists flattened) for ``inputs``."""
    with using_config('dtype', dtype):
        return flatten(record.call(link, *[Variable(x) for x in inputs]))


def flatten(outputs):
    """A tuple of the outputs, nested tuples and lists flattened."""
    if not isinstance(outputs, (tuple, list)):
        return (outputs,)
    return tuple(y for item in outputs for y in flatten(item))


def host_arrays(values):
    """Host float64 copies of Variables or arrays, for comparisons."""
    return [_HOST.send_array(v.array if isinstance(v, Variable) else v)
            .astype(numpy.float64) for v in values]


def check_forward(record, dtype, device):
    """The outputs are Variables of ``dtype`` on the device, equal to the
    documented function applied to the link's parameters."""
    link = build(record, dtype, device)
    inputs = draw_inputs(record, dtype, device)
    outputs = run(record, link, inputs, dtype)
    for i, y in enumerate(outputs):
        assert isinstance(y, Variable), (
            f'{record.name}: output {i} is a {type(y).__name__}, not a '
            f'Variable')
        assert y.dtype == dtype or y.dtype.kind != 'f', (
            f'{record.name}: output {i} has dtype {y.dtype} for a {dtype} '
            f'link')
        assert device.is_array_supported(y.array), (
            f'{record.name}: output {i} is not on {device}')
    with using_config('dtype', dtype):
        expected = flatten(record.reference(link, *inputs))
    _assert_same(record, f'{record.name}: forward differs from the '
                 f'documented function', host_arrays(outputs),
                 host_arrays(expected), record.tolerance(dtype, 'forward'))


def check_backward(record, dtype, device):
    """The gradients of the inputs and of every parameter agree with
    finite differences (taken in float64)."""
    link = build(record, dtype, device)
    inputs = draw_inputs(record, dtype, device)
    outputs = run(record, link, inputs, dtype)
    rng = numpy.random.default_rng(0)
    grads = tuple(device.send([
        rng.uniform(-1, 1, y.shape).astype(y.dtype) for y in outputs]))
    numpy.random.seed(0)  # the directions of the directional derivative

    def call(*variables):
        with using_config('dtype', dtype):
            return flatten(record.call(link, *variables))
    gradient_check.check_backward(
        call, inputs, grads, params=list(link.params()),
        eps=record.eps[dtype], no_grads=record.no_grads,
        dtype=numpy.float64, **record.tolerance(dtype, 'backward'))


def _gradients(record, link, inputs, dtype, grads, calls=1, call=None):
    """Host copies of the input and parameter gradients when ``calls``
    calls of the link (``call(*variables)``, the record's call by
    default) on the same input Variables all get ``grads`` (zeros where
    none arrives); and the outputs of those calls."""
    call = call or (lambda *xs: record.call(link, *xs))
    link.cleargrads()
    xs = [Variable(x) for x in inputs]
    outputs = []
    with using_config('dtype', dtype):
        for _ in range(calls):
            outputs += flatten(call(*xs))
    pairs = [(y, g) for y, g in zip(outputs, grads * calls)
             if y.dtype.kind == 'f' and y.creator_node is not None]
    backward([y for y, _ in pairs], [g for _, g in pairs])
    holders = xs + [p for _, p in sorted(link.namedparams())]
    return host_arrays([h.array * 0 if h.grad is None else h.grad
                        for h in holders]), outputs


def _output_grads(outputs, device):
    rng = numpy.random.default_rng(0)
    return tuple(device.send([
        rng.uniform(-1, 1, y.shape).astype(y.dtype) for y in outputs]))


def check_called_twice(record, dtype, device):
    """A link called twice in one graph (a layer shared by two branches,
    the steps of an RNN) gets twice the gradients of one call in every
    parameter and input: the gradients accumulate."""
    link = build(record, dtype, device)
    inputs = draw_inputs(record, dtype, device)
    grads = _output_grads(run(record, link, inputs, dtype), device)
    once, _ = _gradients(record, link, inputs, dtype, grads)
    twice, _ = _gradients(record, link, inputs, dtype, grads, calls=2)
    _assert_same(record, f'{record.name}: the gradients of two calls in '
                 f'one graph are not twice those of one', twice,
                 [2 * g for g in once], record.tolerance(dtype, 'backward'))


class _StaticCall(Chain):
    """A chain whose forward, marked static, is one call of a record's
    link."""

    def __init__(self, record, link):
        super().__init__()
        with self.init_scope():
            self.link = link
        self._call = record.call

    @static_graph
    def forward(self, *inputs):
        return flatten(self._call(self.link, *inputs))


def check_static_replay(record, dtype, device):
    """Called in a static chain (``static_graph``) on the next batches of
    a training loop, the link gives what a twin called define-by-run on
    them gives: outputs and the gradients of the inputs and parameters,
    on the two recorded calls and the replays after them (a state, as
    LSTM's or the running statistics of BatchNormalization, evolving in
    both). A record whose call seeds a generator is left out: a replay
    does not run that Python."""
    chain = _StaticCall(record, build(record, dtype, device))
    twin = build(record, dtype, device)
    grads = _output_grads(run(record, build(record, dtype, device),
                              draw_inputs(record, dtype, device), dtype),
                          device)
    for draw in range(4):
        inputs = draw_inputs(record, dtype, device, draw)
        expected, outputs = _gradients(record, twin, inputs, dtype, grads)
        replayed, static_outputs = _gradients(
            record, chain.link, inputs, dtype, grads, call=chain)
        _assert_same(record, f'{record.name}: call {draw} in a static chain '
                     f'differs from define-by-run',
                     host_arrays(static_outputs) + replayed,
                     host_arrays(outputs) + expected,
                     record.tolerance(dtype, 'backward'))


def check_layouts(record, dtype, device):
    """Inputs held in views of every memory layout (F order, negative
    strides, a stride, an offset; not stride 0, which changes the values)
    give the outputs and gradients of C-contiguous ones."""
    link = build(record, dtype, device)
    inputs = draw_inputs(record, dtype, device)
    expected = run(record, link, inputs, dtype)
    grads = _output_grads(expected, device)
    contiguous, _ = _gradients(record, link, inputs, dtype, grads)
    for layout in LAYOUTS:
        if layout in ('contiguous', 'broadcast'):
            continue
        views = [laid_out(x, layout) for x in inputs]
        message = f'{record.name}: inputs laid out {layout!r} give other'
        _assert_same(record, f'{message} outputs',
                     host_arrays(run(record, link, views, dtype)),
                     host_arrays(expected), record.tolerance(dtype,
                                                             'forward'))
        _assert_same(record, f'{message} gradients',
                     _gradients(record, link, views, dtype, grads)[0],
                     contiguous, record.tolerance(dtype, 'forward'))


def check_lazy(record, dtype, device):
    """Built with the input size left to the first call, the link gets
    the parameters of the eager one: same paths, shapes and dtypes."""
    eager = build(record, dtype, device)
    lazy = build(record, dtype, device, record.lazy)
    assert any(p.array is None for p in lazy.params()), (
        f'{record.name}: the lazy link has every parameter initialized '
        f'before its first call')
    inputs = draw_inputs(record, dtype, device)
    run(record, lazy, inputs, dtype)
    assert _layout(lazy) == _layout(eager), (
        f'{record.name}: lazy initialisation gives {_layout(lazy)}, the '
        f'eager link {_layout(eager)}')


def check_copy(record, dtype, device):
    """copy('share') shares every array, copy('copy') copies them all,
    copy('init') fills every parameter anew; each copy computes what the
    original does.

    As in Chainer, an initializer without a dtype gives ``config.dtype``:
    copies are made under the dtype under test.
    """
    link = build(record, dtype, device)
    inputs = draw_inputs(record, dtype, device)
    expected = host_arrays(run(record, link, inputs, dtype))
    original = dict(link.namedparams())
    saved = {path: host_arrays([p.array])[0] for path, p in original.items()}
    with using_config('dtype', dtype):
        copies = {mode: link.copy(mode) for mode in ('share', 'copy')}
    for mode, copied in copies.items():
        for path, param in copied.namedparams():
            mine = original[path]
            assert param is not mine, (
                f'{record.name}: copy({mode!r}) keeps the Parameter {path}')
            assert (param.array is mine.array) == (mode == 'share'), (
                f'{record.name}: copy({mode!r}) '
                f'{"copies" if mode == "share" else "shares"} the array '
                f'of {path}')
        _assert_same(record, f'{record.name}: copy({mode!r}) computes '
                     f'other outputs',
                     host_arrays(run(record, copied, inputs, dtype)),
                     expected, record.tolerance(dtype, 'forward'))
    for param in copies['copy'].params():
        param.array += 1
    for path, param in original.items():
        numpy.testing.assert_array_equal(
            host_arrays([param.array])[0], saved[path],
            err_msg=f'{record.name}: changing a copy("copy") changes {path} '
                    f'of the original')
        # A new array: an initializer that is an array stays as it was.
        param.array = param.xp.full_like(param.array, _SENTINEL)
    with using_config('dtype', dtype):
        initialized = link.copy('init')
    for path, param in initialized.namedparams():
        mine = original[path]
        assert (param.shape, param.dtype) == (mine.shape, mine.dtype), (
            f'{record.name}: copy("init") gives {path} the shape '
            f'{param.shape} and dtype {param.dtype}; expected {mine.shape}, '
            f'{mine.dtype}')
        assert param.array is not mine.array and param.size and not (
            host_arrays([param.array])[0] == _SENTINEL).all(), (
            f'{record.name}: copy("init") does not initialize {path} anew')


def check_serialize(record, dtype, device):
    """Saved to NPZ and loaded into a new link (a lazy one where it can
    be), the link has the same parameters and persistent values, and
    computes the same outputs."""
    link = build(record, dtype, device)
    inputs = draw_inputs(record, dtype, device)
    expected = host_arrays(run(record, link, inputs, dtype))
    with tempfile.TemporaryDirectory() as directory:
        _check_round_trip(record, dtype, device, link, inputs, expected,
                          pathlib.Path(directory))


def _check_round_trip(record, dtype, device, link, inputs, expected,
                      directory):
    saved, reloaded = directory / 'saved.npz', directory / 'reloaded.npz'
    npz.save_npz(saved, link)
    fresh = build(record, dtype, device, record.lazy)
    with using_config('dtype', dtype):
        # A lazy parameter is initialized in config.dtype, as in Chainer.
        npz.load_npz(saved, fresh)
    npz.save_npz(reloaded, fresh)
    with numpy.load(saved) as before, numpy.load(reloaded) as after:
        assert sorted(before.files) == sorted(after.files), (
            f'{record.name}: a round trip through NPZ turns the keys '
            f'{sorted(before.files)} into {sorted(after.files)}')
        for key in before.files:
            numpy.testing.assert_array_equal(
                after[key], before[key], strict=True,
                err_msg=f'{record.name}: {key} differs after a round trip '
                        f'through NPZ')
    _assert_same(record, f'{record.name}: the loaded link computes other '
                 f'outputs', host_arrays(run(record, fresh, inputs, dtype)),
                 expected, record.tolerance(dtype, 'forward'))


def check_to_device(record, dtype, device):
    """Built on the CPU and moved with to_device, every parameter is on
    the device and the link computes there what it did on the CPU (what
    the reference computes there, for a link drawing from its device's
    generator); moved back, again on the CPU."""
    link = build(record, dtype, _HOST)
    expected = host_arrays(run(
        record, link, draw_inputs(record, dtype, _HOST), dtype))
    tolerance = record.tolerance(dtype, 'forward')
    for target in (device, _HOST):
        link.to_device(target)
        assert link.device == target, (
            f'{record.name}: to_device({target}) leaves the link on '
            f'{link.device}')
        for path, param in link.namedparams():
            assert target.is_array_supported(param.array), (
                f'{record.name}: to_device({target}) leaves {path} a '
                f'{type(param.array).__name__}')
        with target:
            inputs = draw_inputs(record, dtype, target)
            outputs = run(record, link, inputs, dtype)
            if record.device_draws:
                expected = host_arrays(flatten(
                    record.reference(link, *inputs)))
        _assert_same(record, f'{record.name}: the outputs on {target} '
                     f'differ', host_arrays(outputs), expected, tolerance)


def _seed(record):
    return zlib.crc32(record.name.encode())


def _layout(link):
    """Every parameter's path: its shape and dtype, or None for both
    where it is still uninitialized (so that a lazy link left so after
    its first call fails the comparison, rather than the check)."""
    return {path: (None, None) if p.array is None else (p.shape, p.dtype)
            for path, p in link.namedparams()}


def _assert_same(record, message, actual, expected, tolerance):
    assert len(actual) == len(expected), (
        f'{message}: {len(actual)} outputs, expected {len(expected)}')
    for i, (a, e) in enumerate(zip(actual, expected)):
        numpy.testing.assert_allclose(a, e, strict=True,
                                      err_msg=f'{message} (output {i})',
                                      **tolerance)


#: Every check, by the name its tests carry.
CHECKS = {'forward': check_forward, 'backward': check_backward,
          'lazy_initialisation': check_lazy, 'copy': check_copy,
          'serialize': check_serialize, 'to_device': check_to_device,
          'called_twice': check_called_twice, 'layouts': check_layouts,
          'static_replay': check_static_replay}
